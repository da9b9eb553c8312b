#pragma once
// A cheap per-row surrogate of a forest's final vote: ridge least squares on standardised
// features (optionally with their squares) predicting the share of trees that vote class 1. Fitted
// on unlabeled calibration rows: the target is the forest's own final vote share, so no labels are
// needed. The stratified stopping strategy (urnforest/stratified_stopping.h) cuts its score into
// buckets.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// How to fit a LinearSurrogate.
struct SurrogateOptions {
  /// Ridge penalty per row on the standardised coefficients (>= 0, finite): the fit minimises
  /// sum_r (y_r - s(x_r))^2 + ridge * rows * |w|^2.
  double ridge = 1e-3;
  /// Also use each standardised feature's square (2 F terms instead of F): a row's distance from
  /// the feature means, which a linear score cannot see (e.g. ringnorm's two variances).
  bool squares = false;
};

/// s(x) = intercept + sum_f w_f z_f (+ sum_f v_f z_f^2 with squares), z_f = (x_f - mean_f) / sd_f.
/// A NaN feature counts as its mean (z = 0); +-Inf as the largest / smallest value the fit saw.
/// A constant column (sd 0) has weight 0. The score is finite for every input row.
struct LinearSurrogate {
  int32_t num_features = 0;
  bool squares = false;
  std::vector<double> mean;       ///< F feature means over the fit rows (NaN cells left out).
  std::vector<double> inv_sd;     ///< F reciprocals of the standard deviations; 0 for a constant column.
  std::vector<double> low, high;  ///< F smallest / largest finite standardised values seen.
  std::vector<double> weights;    ///< F (or 2 F with squares: linear terms, then square terms).
  double intercept = 0.0;

  /// The score of one row of num_features floats. Cost: about 2 F (4 F with squares) flops.
  double Score(const float* row) const;
};

/// Fits the surrogate to `targets` (one per row, finite: e.g. each row's class-1 vote share) on
/// row-major `rows` (num_rows x num_features floats). Fails with kInvalidArgument for fewer than
/// two rows, no features, a non-finite target or a bad option, and kShapeMismatch when `targets`
/// does not have num_rows entries. Constant columns are allowed (weight 0; all constant: the score
/// is the targets' mean).
Result<LinearSurrogate> FitLinearSurrogate(const float* rows, size_t num_rows, int32_t num_features,
                                           const std::vector<double>& targets,
                                           const SurrogateOptions& options = {});

}  // namespace urnforest
