#pragma once
// Optimal stopping of a two-class vote stratified by a per-row surrogate of the final vote: a
// strategy that sees a row's features as well as its votes, so [KM26]'s floor (the best any rule
// that only counts votes in random order can do) does not bind it.
//
// Rows are cut into B buckets by a surrogate score s(x) (urnforest/linear_surrogate.h; quantiles of
// the fit rows' scores). Bucket b has its own distribution D_b of final class-1 counts and weight
// w_b (its share of the fit rows). The problem: minimise sum_b w_b E_b[trees] subject to
// sum_b w_b E_b[disagreement] <= target, over one stopping strategy per bucket. It is one linear
// program whose Lagrangian separates by bucket: for a multiplier mu each bucket's best set is
// LagrangianStoppingSet(D_b, mu) (backward induction, binary_stopping.h), and all buckets share mu.
// Bisection on mu (as SolveMinimean) finds the critical mu; every bucket mixes its two sets at that
// mu with the same share, so that the overall expected disagreement equals the target. With B = 1
// this is SolveMinimean exactly. A bucket of rows far from the boundary has a concentrated D_b and
// stops after a few trees, while a bucket near it spends the disagreement budget.
//
// Exact evaluation: a row's disagreement and expected trees depend only on its bucket and its final
// count (ExactBinaryOutcomes on the bucket's sets, mixed by first_share).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/linear_surrogate.h"
#include "urnforest/status.h"

namespace urnforest {

/// What to solve: one final-count distribution per bucket.
struct StratifiedProblem {
  int32_t num_trees = 101;  ///< N, 1..kMaxBinaryStoppingTrees.
  /// B >= 1 vectors of N + 1 weights: bucket b's (unnormalised) counts of rows with final class-1
  /// count n. Each bucket's total is its weight w_b (normalised over buckets); a bucket whose
  /// weights are all zero is refused (kInvalidArgument), as are negative or non-finite weights.
  std::vector<std::vector<double>> bucket_final_counts;
  double max_disagreement = 0.001;  ///< Overall expected disagreement target, in [0, 1].
};

/// The solved strategies.
struct StratifiedStrategy {
  /// One minimean-style strategy per bucket: a row of bucket b uses buckets[b].first with
  /// probability buckets[b].first_share (the same share in every bucket), else .second. Each
  /// bucket's expected_trees / expected_disagreement are under its own D_b.
  std::vector<BinaryStoppingStrategy> buckets;
  std::vector<double> bucket_weights;  ///< w_b, summing to 1.
  double expected_trees = 0.0;         ///< sum_b w_b E_b[trees].
  double expected_disagreement = 0.0;  ///< sum_b w_b E_b[disagreement]; <= target (1e-12 relative).
  double multiplier = 0.0;             ///< The shared critical mu.
};

/// Solves `problem` (file comment). Fails with kInvalidArgument for N out of range, no bucket, a
/// bucket of the wrong length, an empty bucket, bad weights or a target outside [0, 1].
Result<StratifiedStrategy> SolveStratifiedMinimean(const StratifiedProblem& problem);

/// How to build the surrogate and the buckets from calibration rows.
struct StratifiedOptions {
  int32_t buckets = 8;               ///< B asked for, >= 1 (fewer when scores tie or rows are few).
  int32_t min_rows_per_bucket = 50;  ///< B is cut to rows / this (at least 1); >= 1.
  SurrogateOptions surrogate;        ///< The surrogate's fit.
  /// In [0, 1]: each bucket's distribution is solved as (1 - share) of its own rows' counts plus
  /// share of the pooled distribution (scaled to the bucket's rows), so that a bucket whose few
  /// calibration rows happen to hold no near-tie count still pays for the near ties its future rows
  /// will have. 0 = each bucket's own counts only.
  double pooled_share = 0.0;
  double max_disagreement = 0.001;   ///< Overall target, in [0, 1].
};

/// What calibration leaves for any target: the surrogate, its bucket cuts and each bucket's
/// final-count weights (independent of the target, so one fit serves every alpha).
struct StratifiedCalibration {
  int32_t num_trees = 0;  ///< N.
  LinearSurrogate surrogate;
  /// B - 1 strictly increasing cuts; a score s is in bucket (number of cuts <= s).
  std::vector<double> cuts;
  /// B vectors of N + 1 counts of fit rows per final class-1 count (none empty).
  std::vector<std::vector<double>> bucket_final_counts;
  /// StratifiedOptions::pooled_share, in [0, 1].
  double pooled_share = 0.0;

  /// The distributions the strategies are solved for: bucket_final_counts shrunk towards the
  /// pooled counts by pooled_share (each bucket keeps its total).
  std::vector<std::vector<double>> SolvedCounts() const;

  /// The bucket of a score (0..B-1).
  int32_t BucketOf(double score) const;
  /// The bucket of a row (num_features floats).
  int32_t BucketOfRow(const float* row) const { return BucketOf(surrogate.Score(row)); }
};

/// Fits a StratifiedCalibration on calibration rows: row-major `rows` (num_rows x num_features)
/// and each row's final class-1 count among num_trees trees (`final_counts`, 0..N). The surrogate
/// predicts final_count / N; the cuts are quantiles of the rows' scores (ties merged, so no bucket
/// is empty). Fails with kShapeMismatch when final_counts has not num_rows entries,
/// kInvalidArgument for a count outside 0..N, N out of range, bad options, or what
/// FitLinearSurrogate refuses. options.max_disagreement is not read.
Result<StratifiedCalibration> FitStratifiedCalibration(const float* rows, size_t num_rows, int32_t num_features,
                                                       int32_t num_trees, const std::vector<int32_t>& final_counts,
                                                       const StratifiedOptions& options = {});

/// A calibration with its strategies solved for one target: everything a prediction needs.
struct StratifiedModel {
  StratifiedCalibration calibration;
  StratifiedStrategy strategy;

  int32_t BucketOf(double score) const { return calibration.BucketOf(score); }
  int32_t BucketOfRow(const float* row) const { return calibration.BucketOfRow(row); }
};

/// SolveStratifiedMinimean on the calibration's buckets at `max_disagreement` (its failures).
Result<StratifiedModel> SolveStratifiedModel(StratifiedCalibration calibration, double max_disagreement);

/// FitStratifiedCalibration, then SolveStratifiedModel at options.max_disagreement.
Result<StratifiedModel> FitStratifiedModel(const float* rows, size_t num_rows, int32_t num_features,
                                           int32_t num_trees, const std::vector<int32_t>& final_counts,
                                           const StratifiedOptions& options = {});

/// The exact outcome of a row of `bucket` whose final class-1 count is n, for every bucket and n:
/// out[b][n] mixes ExactBinaryOutcomes of the bucket's two sets by its first_share. Fails like
/// ExactBinaryOutcomes.
Result<std::vector<std::vector<BinaryOutcome>>> ExactStratifiedOutcomes(const StratifiedStrategy& strategy);

}  // namespace urnforest
