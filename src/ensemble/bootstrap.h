#pragma once
// Bagging's bootstrap draw, shared by the trainer and by PruneForest (which replays it to recompute
// out-of-bag votes of the kept trees).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "base/random.h"

namespace urnforest {
namespace internal {

/// Overwrites weights[0..n) with the multiplicities of n uniform draws with replacement taken
/// from `rng` (which the tree builder then keeps using). n >= 1.
inline void DrawBootstrap(Rng* rng, uint32_t n, uint32_t* weights) {
  std::fill(weights, weights + n, 0u);
  for (uint32_t i = 0; i < n; ++i) ++weights[rng->Below(n)];
}

/// Weighted resampling (AdaBoost and vote-boosting): overwrites counts[0..n) with the
/// multiplicities of n = w.size() draws with replacement with probabilities w / sum(w) (sum > 0),
/// by inverse CDF on the running sums (one rng->Uniform() per draw).
inline void DrawWeighted(const std::vector<double>& w, Rng* rng, std::vector<uint32_t>* counts) {
  const size_t n = w.size();
  std::vector<double> cdf(n);
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) cdf[i] = (total += w[i]);
  std::fill(counts->begin(), counts->end(), 0u);
  for (size_t i = 0; i < n; ++i) {
    const double x = rng->Uniform() * total;
    size_t j = static_cast<size_t>(std::upper_bound(cdf.begin(), cdf.end(), x) - cdf.begin());
    if (j >= n) j = n - 1;
    ++(*counts)[j];
  }
}

}  // namespace internal
}  // namespace urnforest
