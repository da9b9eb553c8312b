#pragma once
// Bagging's bootstrap draw, shared by the trainer and by PruneForest (which replays it to recompute
// out-of-bag votes of the kept trees).
#include <algorithm>
#include <cstdint>

#include "rng.h"

namespace urnforest {
namespace internal {

/// Overwrites weights[0..n) with the multiplicities of n uniform draws with replacement taken
/// from `rng` (which the tree builder then keeps using). n >= 1.
inline void DrawBootstrap(Rng* rng, uint32_t n, uint32_t* weights) {
  std::fill(weights, weights + n, 0u);
  for (uint32_t i = 0; i < n; ++i) ++weights[rng->Below(n)];
}

}  // namespace internal
}  // namespace urnforest
