#pragma once
// Rule "lp" on a forest of three or more classes: the full-tally minimean strategy; and rule "lp"
// with objective "minimax" on two classes (urnforest/minimax_stopping.h). Each is
// solved from the forest's calibration tallies, cached per model and alpha as ForestMinimean
// caches the two-class minimean strategy (urnforest/certified_halting.h); the full-tally one is
// urnforest/tally_stopping.h.
#include <memory>

#include <vector>

#include "urnforest/binary_stopping.h"
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

/// The calibration tallies rule "lp" solves from (row-major, K per row, each summing to T): a
/// trained forest's calibration rows, else its out-of-bag tallies rescaled to all trees, or an
/// imported voting forest's calibration votes. kInvalidArgument for an additive or uncalibrated
/// imported model or a forest without out-of-bag rows.
Result<std::vector<uint32_t>> ForestLpTallies(const Forest& forest);

/// Rule "lp" with objective "minimax" on a two-class forest: SolveMinimax
/// (urnforest/minimax_stopping.h) at the bound 1 - alpha for every final count, its expected trees
/// weighed over ForestLpTallies; returned as a strategy whose two sets are the one minimax set
/// (first_share 1), cached like ForestTallyMinimean. kInvalidArgument for alpha outside (0, 1],
/// a forest without two classes or more than kMaxBinaryStoppingTrees trees, or ForestLpTallies'
/// failures.
Result<std::shared_ptr<const BinaryStoppingStrategy>> ForestMinimax(const Forest& forest, double alpha);

}  // namespace urnforest
