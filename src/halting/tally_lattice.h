#pragma once
// Private: ranking of vote tallies (compositions of n into k parts) for the halting tables.
#include <cstdint>
#include <vector>

namespace urnforest::internal {

/// C(T + k, k), the number of tallies of at most T votes over k classes, saturating at 2^62.
inline int64_t StatesOf(int32_t T, int32_t k) {
  double v = 1.0;
  for (int32_t i = 1; i <= k; ++i) {
    v = v * (T + i) / i;
    if (v > 4.6e18) return int64_t{1} << 62;
  }
  return static_cast<int64_t>(v + 0.5);
}

/// Compositions of n (0 <= n <= max_n) into k >= 1 ordered non-negative parts, ranked by the
/// combinatorial number system: with s_i = (p_1 + ... + p_i) + (i - 1) for i = 1..k-1,
/// rank = sum_i C(s_i, i). For k = 2 the rank of (a, n - a) is a. Count(n) = C(n + k - 1, k - 1).
/// Only for small k (the halting tables use k <= 5); counts must fit in int64.
class Compositions {
 public:
  Compositions(int32_t max_n, int32_t k) : max_n_(max_n), k_(k) {
    int32_t rows = max_n + k + 2;
    binom_.assign(static_cast<size_t>(rows) * (k + 1), 0);
    for (int32_t n = 0; n < rows; ++n) {
      for (int32_t i = 0; i <= k; ++i) {
        int64_t v;
        if (i == 0) v = 1;
        else if (n == 0) v = 0;
        else v = B(n - 1, i - 1) + B(n - 1, i);
        binom_[static_cast<size_t>(n) * (k + 1) + i] = v;
      }
    }
  }
  int32_t k() const { return k_; }
  int32_t max_n() const { return max_n_; }
  /// C(n, i) for 0 <= n <= max_n + k + 1, 0 <= i <= k.
  int64_t B(int32_t n, int32_t i) const { return binom_[static_cast<size_t>(n) * (k_ + 1) + i]; }
  int64_t Count(int32_t n) const { return B(n + k_ - 1, k_ - 1); }
  /// Rank of parts[0..k-1] among the compositions of their sum.
  int64_t Rank(const int32_t* parts) const {
    int64_t rank = 0;
    int32_t s = -1;
    for (int32_t i = 1; i < k_; ++i) {
      s += parts[i - 1] + 1;
      rank += B(s, i);
    }
    return rank;
  }
  /// Rank of parts + e_j (parts[j] increased by one) among the compositions of sum + 1.
  int64_t RankPlusOne(const int32_t* parts, int32_t j) const {
    int64_t rank = 0;
    int32_t s = -1;
    for (int32_t i = 1; i < k_; ++i) {
      s += parts[i - 1] + 1;
      rank += B(i - 1 >= j ? s + 1 : s, i);
    }
    return rank;
  }
  /// Calls f(parts) for every composition of n into k parts (parts is a k-array, valid during the call).
  template <typename F>
  void ForEach(int32_t n, F&& f) const {
    std::vector<int32_t> p(k_, 0);
    p[k_ - 1] = n;
    if (k_ == 1) { f(p.data()); return; }
    while (true) {
      f(p.data());
      // odometer over p[0..k-2] with sum <= n; p[k-1] = remainder
      int32_t i = 0;
      while (i < k_ - 1) {
        if (p[k_ - 1] > 0) { ++p[i]; --p[k_ - 1]; break; }
        p[k_ - 1] += p[i];
        p[i] = 0;
        ++i;
      }
      if (i == k_ - 1) return;
    }
  }

 private:
  int32_t max_n_;
  int32_t k_;
  std::vector<int64_t> binom_;
};

}  // namespace urnforest::internal
