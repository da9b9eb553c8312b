#pragma once
// Private: portable pseudo-random numbers, identical streams under libstdc++ and libc++ (native and
// wasm). Two stream constructions, each pinned by seeded outputs (model bytes, query orders, Monte
// Carlo results), so neither may change:
//  * Rng: xoshiro256** seeded through SplitMix64; training, bootstrap, data generators, protocols.
//  * DetRng: SplitMix64 itself, one stream per item; random query orders and Monte Carlo estimates
//    of the halting engine (sequential voting, expected cost).
// Never use <random> distributions here: their algorithms are implementation-defined.
#include <cstdint>

namespace urnforest {
namespace internal {

/// SplitMix64's increment (the golden ratio in 64-bit fixed point).
inline constexpr uint64_t kSplitMix64Gamma = 0x9E3779B97F4A7C15ULL;

/// SplitMix64's output function (Steele, Lea, Flood 2014): a bijection of 64-bit words.
inline uint64_t SplitMix64Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// SplitMix64 step: advances `state` and returns a well-mixed 64-bit value.
inline uint64_t SplitMix64(uint64_t& state) { return SplitMix64Mix(state += kSplitMix64Gamma); }

/// xoshiro256** 1.0 (Blackman, Vigna 2018). Seeded through SplitMix64 so any seed (even 0) works.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (uint64_t& word : s_) word = SplitMix64(sm);
  }
  /// The stream of one tree (or other indexed task): depends only on (seed, stream).
  static Rng ForStream(uint64_t seed, uint64_t stream) {
    uint64_t a = seed;
    uint64_t b = stream ^ 0x632BE59BD9B4E019ULL;
    const uint64_t mixed = SplitMix64(a) ^ (SplitMix64(b) * 0xD1342543DE82EF95ULL);
    return Rng(mixed);
  }

  /// Uniform 64-bit value.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, bound), bound >= 1, unbiased (Lemire 2019, 32-bit multiply-shift with
  /// rejection). Bounds above 2^32 are not needed by the library.
  uint32_t Below(uint32_t bound) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * bound;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < bound) {
      const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * bound;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  /// Uniform double in [0, 1) with 53 random bits (exact, no rounding involved).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

/// A SplitMix64 stream with portable integer and real draws, so that permutations and Monte Carlo
/// results are identical natively and in WebAssembly.
class DetRng {
 public:
  explicit DetRng(uint64_t seed) : state_(seed) {}
  /// Stream for item `index` of a run seeded with `seed` (independent of the other items). Items
  /// start at scattered points of the SplitMix64 sequence (the start is hashed from seed and
  /// index): starting item i + 1 one increment after item i would make its stream item i's shifted
  /// by one draw, and the high bits of neighbouring items' draws would then nearly repeat.
  static DetRng ForItem(uint64_t seed, uint64_t index) {
    return DetRng(SplitMix64Mix(SplitMix64Mix(seed ^ 0x6A09E667F3BCC909ULL) +
                                index * kSplitMix64Gamma));
  }
  /// Uniform 64-bit value (the next SplitMix64 output).
  uint64_t Next() { return SplitMix64(state_); }
  /// Uniform integer in [0, n), n >= 1, by rejection (no modulo bias).
  uint64_t Below(uint64_t n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n: draws below it are rejected
    while (true) {
      uint64_t x = Next();
      if (x >= threshold) return x % n;
    }
  }
  /// A bound 1 <= n < 2^32 prepared for Below32 (its rejection threshold 2^32 mod n, computed
  /// once).
  struct Divisor32 {
    uint32_t n = 1;
    uint32_t threshold = 0;
    explicit Divisor32(uint32_t bound = 1) : n(bound), threshold((0u - bound) % bound) {}
  };
  /// Uniform integer in [0, n) from the high 32 bits of a draw, by multiplication and rejection
  /// (Lemire's method: no modulo bias and no division per draw, which wasm pays dearly for 64-bit).
  uint32_t Below32(const Divisor32& d) {
    while (true) {
      const uint64_t m = (Next() >> 32) * d.n;
      if (static_cast<uint32_t>(m) >= d.threshold) return static_cast<uint32_t>(m >> 32);
    }
  }
  /// Uniform double in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace internal
}  // namespace urnforest
