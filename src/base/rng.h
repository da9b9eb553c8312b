#pragma once
// Portable pseudo-random numbers: identical streams under libstdc++ and libc++ (native and wasm).
// Never use <random> distributions here: their algorithms are implementation-defined.
#include <cstdint>

namespace urnforest {
namespace internal {

/// SplitMix64 step (Steele, Lea, Flood 2014): advances `state` and returns a well-mixed 64-bit value.
inline uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

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

}  // namespace internal
}  // namespace urnforest
