#pragma once
// The calibrated margin rule: halting that targets an imported voting forest's SOFT prediction
// (the source library's summed class distributions), which the urn rules of [SSM16] do not (they
// bound the disagreement with the trees' majority vote). docs/import.md derives it.
//
// After k of T trees (generation order), with partial soft sums S, the leader c and the runner-up
// r, the statistic is z_k = ((S_c - S_r) / k / s) / sqrt((1 - k/T) / k): the partial mean margin
// per tree, in units of the per-tree scale s, over the standard error that sampling k of T trees
// without replacement would give a margin of unit per-tree spread. A row stops at the first k
// where z_k >= lambda, answering the partial leader, or where the exact early exit settles
// (the remaining trees cannot change the soft prediction), answering that.
//
// lambda is chosen per alpha from the calibration rows: on each threshold of a grid, the rule's
// answers on those rows were compared with the full soft prediction (CalibrateMargin); the
// threshold used is the smallest one such that it and every larger threshold have a Laplace-
// smoothed disagreement (wrong + 1) / (rows + 2) <= 1 - alpha. When even the largest fails, only
// the exact early exit is used (no disagreement).
#include <cstddef>
#include <limits>

#include "urnforest/forest.h"
#include "urnforest/predict_scores.h"
#include "urnforest/status.h"

namespace urnforest {

/// Measures the rule on `num_rows` rows in the forest's layout (borrowed) for a grid of
/// thresholds lambda = 0, 0.25, ..., 12. kInvalidArgument for a forest that is not an imported
/// voting forest or for no rows.
Result<MarginCalibration> CalibrateMargin(const Forest& forest, const float* rows, size_t num_rows);

/// The threshold the rule uses at confidence `alpha` (see the file comment); +infinity when no
/// threshold of `calibration` qualifies (then only the exact early exit stops a row).
double MarginThreshold(const MarginCalibration& calibration, double alpha);

/// Halted soft prediction of `num_rows` rows in the forest's layout (borrowed) with the
/// calibrated margin rule at `alpha` in (0, 1]. `lambda`, when not null, receives the threshold
/// used. kInvalidArgument when the forest is not an imported voting forest calibrated with
/// CalibrateForest, or alpha is outside (0, 1].
Result<ExactHaltResult> PredictSoftMargin(const Forest& forest, const float* rows, size_t num_rows,
                                          double alpha, double* lambda = nullptr);

}  // namespace urnforest
