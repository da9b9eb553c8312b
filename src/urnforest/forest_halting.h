#pragma once
// Glue between a trained Forest and the halting engine: priors from the forest's out-of-bag votes,
// tables for the forest's size, and halted (sequential) prediction of a Dataset.
#include <cstdint>

#include <optional>
#include <string>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"

namespace urnforest {

/// The prior `rule` needs, estimated from the forest's out-of-bag votes and training labels, for
/// tables of `num_trees` queried trees (0 = forest.num_trees()). Uniform for alpha1/siba/infinite.
/// Fails like PriorForRule (e.g. kLimitExceeded for hyper with more than 4 classes).
Result<Prior> PriorForForest(const Forest& forest, HaltingRule rule, int32_t num_trees = 0);

/// The halting table of `rule` at confidence `alpha` for the forest's own size (or `num_trees`
/// queried trees, e.g. after static pruning): a copy of the table stored with the forest when one
/// matches exactly (Forest::FindStoredTable: same rule, bit-identical alpha, same T), else built
/// from the forest's out-of-bag prior (a built table is not stored; see StoreForestTable). Fails
/// like BuildHaltingTable, or kInvalidArgument when `num_trees` exceeds the forest's trees.
/// `from_store`, when given, is set to whether the stored table was used.
Result<HaltingTable> BuildForestTable(const Forest& forest, HaltingRule rule, double alpha,
                                      int32_t num_trees = 0, bool* from_store = nullptr);

/// A forest's halting table together with the prior of its rule (for expected costs).
struct ForestTable {
  HaltingTable table;
  /// PriorForForest(forest, rule, T): the data prior for hyper/1dir/ndir/optimal, else uniform.
  Prior prior;
  bool from_store = false;  ///< The table is a copy of one stored with the forest.
};

/// The table of `rule` at `alpha` for `num_trees` queried trees (0 = forest.num_trees()) and its
/// rule's prior, as the wasm bindings' tables hold them: the prior is always estimated first
/// (PriorForForest; its failure is returned, e.g. kLimitExceeded for hyper with more than 4
/// classes, even when a table is stored); the table is the stored one when
/// Forest::FindStoredTable(rule, alpha, T) finds it, else built as BuildForestTable builds it
/// (kInvalidArgument when T exceeds the forest's trees; else fails like BuildHaltingTable).
/// `progress` (may be empty) is HaltingTableOptions::progress of the build.
Result<ForestTable> BuildForestTableWithPrior(const Forest& forest, HaltingRule rule, double alpha,
                                              int32_t num_trees = 0,
                                              const BuildProgressFn& progress = BuildProgressFn());

/// Builds the table of `rule` at `alpha` for `num_trees` queried trees (0 = all) with
/// BuildForestTable and stores it in `forest` (Forest::StoreTable), so that SerializeForest writes
/// it. Fails like BuildForestTable.
Status StoreForestTable(Forest* forest, HaltingRule rule, double alpha, int32_t num_trees = 0);

/// Halted prediction of every row of `data` (columns as for PredictFull/ModelRows: kColumnMismatch).
/// The table's T must not exceed the forest's trees (kInvalidArgument); the query order is that
/// of `options` (generation order by default).
Result<SequentialVoteResult> PredictHalted(const Forest& forest, const Dataset& data,
                                           const HaltingTable& table,
                                           const SequentialVoteOptions& options = {});

/// PredictHalted on `num_rows` rows already in the forest's layout (ModelRows: row-major,
/// num_features() floats per row). Same checks except the column ones. Blocked and inlined tree
/// walks (PredictSequentialBlocked); results identical to PredictSequential with TreeVote.
/// `rows_without_nan` (optional, num_rows flags as RowsWithoutNaN returns, borrowed): saves the
/// scan for missing values when the same rows are predicted again; null: scanned here.
Result<SequentialVoteResult> PredictHaltedRows(const Forest& forest, const float* rows,
                                               size_t num_rows, const HaltingTable& table,
                                               const SequentialVoteOptions& options = {},
                                               const uint8_t* rows_without_nan = nullptr);

/// PredictHaltedRows writing every row's outcome into `out` (caller-owned, num_rows rows;
/// PredictSequentialBlockedInto): the same values and checks, no result vectors allocated. On
/// failure the contents of `out` are unspecified.
Status PredictHaltedRowsInto(const Forest& forest, const float* rows, size_t num_rows,
                             const HaltingTable& table, const SequentialVoteOptions& options,
                             const uint8_t* rows_without_nan, const SequentialVoteSpans& out);

/// Per row of `num_rows` rows of `num_features` floats (row-major): 1 when no value is NaN
/// (missing), else 0.
std::vector<uint8_t> RowsWithoutNaN(const float* rows, size_t num_rows, size_t num_features);

/// Options of the prediction of a table's cost from training data alone (TrainingCostPredictor).
struct TrainingCostOptions {
  /// Monte Carlo draws: the estimate itself for l > 4; for l <= 4 an extra Monte Carlo estimate
  /// over the same data prior when > 0 (0 = exact only).
  int64_t monte_carlo_samples = 20000;
  uint64_t seed = 1;  ///< Monte Carlo seed (deterministic).
  /// l <= 4: also fill CostEstimate::stop_probability (ExactCostOverPrior, one DP per final
  /// tally; falls back to the backward recursion without it beyond that DP's work limit).
  bool stop_probability = false;
  /// Estimator of the data prior for l <= 4 (its hyper_estimator; the default is the deconvolved
  /// histogram, which does not spread the ~0.37 T OOB votes' binomial noise onto T-vote tallies).
  PriorFitOptions prior = DataPriorDefaults();
  static PriorFitOptions DataPriorDefaults() {
    PriorFitOptions o;
    o.hyper_estimator = HistogramEstimator::kDeconvolved;
    return o;
  }
};

/// A table's cost predicted from training data alone.
struct TrainingCost {
  CostEstimate estimate;  ///< Exact for l <= 4, Monte Carlo over the OOB tallies beyond.
  /// "exact" (l <= 4, data prior, backward recursion or per-tally DP) or
  /// "monte_carlo_oob_tallies" (l > 4: the rows' OOB tallies rescaled to T, random orders).
  std::string method;
  bool has_monte_carlo = false;  ///< l <= 4 with monte_carlo_samples > 0: `monte_carlo` is set.
  CostEstimate monte_carlo;      ///< Monte Carlo over the data prior (l <= 4 only).
};

/// The one place that predicts the expected trees queried and the disagreement of a halting table
/// on rows that vote like the training rows' out-of-bag votes (the experiments' "predicted from the
/// training data"): exactly over the data prior (DeconvolvedPriorFromOob by default) where
/// TrainingCostIsExact, else by Monte Carlo over the rows' OOB tallies rescaled to T
/// (RescaledOobTallies; no prior family fits many-class votes well). Built once per (OOB votes, T), then Predict() per table.
class TrainingCostPredictor {
 public:
  /// `oob_votes` row-major (rows x num_classes, as Forest::oob_votes()), tables of `num_trees`
  /// votes. Fails with kShapeMismatch / kInvalidArgument (no row with OOB votes, bad options).
  static Result<TrainingCostPredictor> FromOob(const std::vector<uint32_t>& oob_votes,
                                               int32_t num_classes, int32_t num_trees,
                                               const TrainingCostOptions& options = {});
  /// FromOob on the forest's OOB votes; num_trees 0 = forest.num_trees().
  static Result<TrainingCostPredictor> FromForest(const Forest& forest, int32_t num_trees = 0,
                                                  const TrainingCostOptions& options = {});
  /// The prediction for `table` (same classes and T as the predictor: kShapeMismatch).
  Result<TrainingCost> Predict(const HaltingTable& table) const;
  /// Predict() for several tables (borrowed for the call), equal to it table by table; for l <= 4
  /// without stop probabilities the exact costs come from one shared recursion
  /// (ExactCostsByRecursion), e.g. every rule and alpha of an experiment's partition at once.
  Result<std::vector<TrainingCost>> PredictMany(const std::vector<const HaltingTable*>& tables) const;
  /// The data prior (l <= 4); nullptr for l > 4.
  const Prior* data_prior() const { return has_prior_ ? &prior_ : nullptr; }

 private:
  int32_t num_classes_ = 2;
  int32_t num_trees_ = 1;
  TrainingCostOptions options_;
  bool has_prior_ = false;
  Prior prior_;                  // l <= 4
  std::vector<int32_t> tallies_;  // l > 4
};

/// A TrainingCost as the front ends report it: the exact estimate or why there is none, and the
/// Monte Carlo estimate when one was made.
struct TrainingCostReport {
  /// The exact estimate (method "exact", l <= 4), else kLimitExceeded "the exact cost needs at
  /// most 4 classes".
  Result<CostEstimate> exact = Status::Error(StatusCode::kLimitExceeded,
                                             "the exact cost needs at most 4 classes");
  /// l <= 4: the Monte Carlo estimate over the data prior when one was asked for; l > 4: the only
  /// estimate (Monte Carlo over the OOB tallies).
  std::optional<CostEstimate> monte_carlo;
};

/// Splits `cost` into exact and Monte Carlo estimates (TrainingCostReport).
TrainingCostReport ReportTrainingCost(const TrainingCost& cost);

/// Whether the cost of tables of `num_trees` votes over `num_classes` classes is predicted exactly
/// (l <= 4 and at most 200,000 final tallies, e.g. T <= 101 for l = 4, 630 for l = 3), else by
/// Monte Carlo over the OOB tallies: the exact routes visit every tally, and a large table is
/// decided on demand.
bool TrainingCostIsExact(int32_t num_classes, int32_t num_trees);

/// Monte Carlo draws to use when a caller asks for `samples` (0 = none) on `num_classes` classes
/// and `num_trees` trees: where Monte Carlo is the only estimate (!TrainingCostIsExact), 0 becomes
/// kManyClassCostSamples.
constexpr int64_t kManyClassCostSamples = 10000;
/// Monte Carlo draws of a cost estimate when the caller names none (the CLI's `expected --samples`
/// and the JS expectedCost's `samples` default).
constexpr int64_t kDefaultCostSamples = 10000;
/// Largest number of Monte Carlo draws a cost estimate takes from a front end (the CLI's
/// `expected --samples`, the JS expectedCost's `samples`).
constexpr int64_t kMaxCostSamples = 100000000;
int64_t TrainingCostSamples(int32_t num_classes, int32_t num_trees, int64_t samples);

/// The expected cost of `table` from the forest's training data as the JS expectedCost reports
/// it: PredictCostFromTraining with TrainingCostSamples(classes, T, samples) draws (samples <= 0 =
/// none), `seed` and stop probabilities, split by ReportTrainingCost. Fails like
/// PredictCostFromTraining.
Result<TrainingCostReport> ReportCostFromTraining(const Forest& forest, const HaltingTable& table,
                                                  int64_t samples, uint64_t seed);

/// TrainingCostPredictor::FromForest(forest, table.num_trees(), options).Predict(table).
Result<TrainingCost> PredictCostFromTraining(const Forest& forest, const HaltingTable& table,
                                             const TrainingCostOptions& options = {});

}  // namespace urnforest
