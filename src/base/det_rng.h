#pragma once
// Private: a small deterministic RNG (SplitMix64) with portable integer/real draws, so that
// permutations and Monte Carlo results are identical natively and in WebAssembly.
#include <cstdint>

namespace urnforest::internal {

class DetRng {
 public:
  explicit DetRng(uint64_t seed) : state_(seed) {}
  /// Stream for item `index` of a run seeded with `seed` (independent of the other items). Items
  /// start at scattered points of the SplitMix64 sequence (the start is hashed from seed and
  /// index): starting item i + 1 one increment after item i would make its stream item i's shifted
  /// by one draw, and the high bits of neighbouring items' draws would then nearly repeat.
  static DetRng ForItem(uint64_t seed, uint64_t index) {
    return DetRng(Mix(Mix(seed ^ 0x6A09E667F3BCC909ULL) + index * kGamma));
  }
  uint64_t Next() { return Mix(state_ += kGamma); }
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
  static constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
  /// SplitMix64's output function (a bijection of 64-bit words).
  static uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

}  // namespace urnforest::internal
