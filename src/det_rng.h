#pragma once
// Private: a small deterministic RNG (SplitMix64) with portable integer/real draws, so that
// permutations and Monte Carlo results are identical natively and in WebAssembly.
#include <cstdint>

namespace urnforest::internal {

class DetRng {
 public:
  explicit DetRng(uint64_t seed) : state_(seed) {}
  /// Stream for item `index` of a run seeded with `seed` (independent of the other items).
  static DetRng ForItem(uint64_t seed, uint64_t index) {
    DetRng r(seed ^ 0x6A09E667F3BCC909ULL);
    r.state_ += index * 0x9E3779B97F4A7C15ULL;
    r.Next();
    return r;
  }
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  /// A bound n >= 1 prepared for many draws: Below(d) returns exactly what Below(n) returns, with
  /// the rejection threshold's 64-bit division done once.
  struct Divisor {
    uint64_t n = 1;
    uint64_t threshold = 0;  ///< 2^64 mod n: draws below it are rejected
    explicit Divisor(uint64_t bound = 1) : n(bound), threshold((0 - bound) % bound) {}
  };
  /// Uniform integer in [0, n), n >= 1, by rejection (no modulo bias).
  uint64_t Below(uint64_t n) { return Below(Divisor(n)); }
  uint64_t Below(const Divisor& d) {
    while (true) {
      uint64_t x = Next();
      if (x >= d.threshold) return x % d.n;
    }
  }
  /// Uniform double in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace urnforest::internal
