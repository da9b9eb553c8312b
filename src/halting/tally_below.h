#pragma once
// Private: the multivariate hypergeometric weights of the tallies below a final tally, shared by
// the full-tally stopping solver (tally_stopping.cpp) and the multiplier ladder
// (tally_lagrangian_ladder.cpp).
#include <cstdint>
#include <vector>

namespace urnforest::internal {

/// C(n, k) in double for n, k <= T (Pascal's rule: additions only, identical on every platform).
class Binomials {
 public:
  explicit Binomials(int32_t n) : n_(n), c_(static_cast<size_t>(n + 1) * (n + 1), 0.0) {
    for (int32_t a = 0; a <= n; ++a) {
      At(a, 0) = 1.0;
      for (int32_t b = 1; b <= a; ++b) At(a, b) = At(a - 1, b - 1) + (b <= a - 1 ? At(a - 1, b) : 0.0);
    }
  }
  double operator()(int32_t a, int32_t b) const { return c_[static_cast<size_t>(a) * (n_ + 1) + b]; }

 private:
  double& At(int32_t a, int32_t b) { return c_[static_cast<size_t>(a) * (n_ + 1) + b]; }
  int32_t n_;
  std::vector<double> c_;
};

/// Calls visit(x, sum, h) for every tally x <= f (componentwise), h = H_f(x) =
/// prod_c C(f_c, x_c) / C(T, sum): the probability that the first `sum` of T votes drawn in
/// random order without replacement from f are x.
template <typename Visit>
void ForEachBelow(const std::vector<int32_t>& f, const Binomials& binom, int32_t num_trees, Visit&& visit) {
  const size_t k = f.size();
  std::vector<int32_t> x(k, 0);
  while (true) {
    int32_t sum = 0;
    double product = 1.0;
    for (size_t c = 0; c < k; ++c) {
      sum += x[c];
      product *= binom(f[c], x[c]);
    }
    visit(x.data(), sum, product / binom(num_trees, sum));
    size_t c = 0;
    while (c < k && x[c] == f[c]) x[c++] = 0;
    if (c == k) return;
    ++x[c];
  }
}

}  // namespace urnforest::internal
