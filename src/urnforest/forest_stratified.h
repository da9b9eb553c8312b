#pragma once
// Rule "stratified" on a two-class forest: the surrogate of the final vote and its buckets are
// fitted when the forest is calibrated (CalibrateForest, on the calibration rows' features and
// all-tree votes: no labels), and the strategies per bucket are solved once per model and alpha
// (cached like rule "lp"'s strategy). See urnforest/stratified_stopping.h for the method.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/stratified_stopping.h"

namespace urnforest {

/// The options the rule fits with: 8 buckets of at least 50 rows, the surrogate with squared
/// terms, 5 % of the pooled distribution in each bucket's (bench/beyond_floor.py: the squares are
/// what ringnorm needs and cost twonorm little; without the pooled share the realised disagreement
/// ran 1.3-2 times the target, with 5 % it stayed at or under it on ringnorm and threenorm).
StratifiedOptions DefaultStratifiedOptions();

/// The stratified calibration of a forest from its calibration rows (ModelRows layout, borrowed)
/// and their all-tree votes (rows x 2, row-major), or null when the rule does not apply: not two
/// classes, more than kMaxBinaryStoppingTrees trees, or the fit refused (fewer than two rows).
/// CalibrateForest stores it (Forest::stratified_calibration()).
std::shared_ptr<const StratifiedCalibration> FitForestStratified(const Forest& forest, const float* rows,
                                                                 size_t num_rows, const std::vector<uint32_t>& votes);

/// The solved stratified model of `forest` at expected disagreement 1 - alpha (cached per
/// calibration and alpha; thread-safe). Fails with kInvalidArgument for alpha outside (0, 1], not
/// two classes, or a forest without a stratified calibration (calibrate it on unlabeled rows
/// first).
Result<std::shared_ptr<const StratifiedModel>> ForestStratified(const Forest& forest, double alpha);

}  // namespace urnforest
