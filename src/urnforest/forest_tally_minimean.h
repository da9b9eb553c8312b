#pragma once
// Rule "lp" on a forest of three or more classes: the full-tally minimean strategy
// (urnforest/tally_stopping.h) solved from the forest's calibration tallies, cached per model
// and alpha as ForestMinimean caches the two-class one (urnforest/certified_halting.h).
#include <memory>

#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/tally_stopping.h"

namespace urnforest {

/// The minimean strategy of `forest` at expected disagreement 1 - alpha, over the same rows as
/// the two-class rule: a trained forest's calibration rows (all-tree tallies) when it has them,
/// else its out-of-bag tallies rescaled to all trees (RescaledOobTallies), or an imported voting
/// forest's calibration votes. Solved once per (rows, alpha) and shared (thread-safe; a few
/// recent models are kept). Fails with kInvalidArgument for alpha outside (0, 1], fewer than
/// three classes (ForestMinimean serves two), an additive or uncalibrated imported model, or no
/// rows; with kLimitExceeded when C(T + K, K) > kMaxTallyStoppingStates (e.g. K >= 5 at T = 101).
Result<std::shared_ptr<const TallyStoppingStrategy>> ForestTallyMinimean(const Forest& forest, double alpha);

}  // namespace urnforest
