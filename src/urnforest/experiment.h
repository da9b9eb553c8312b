#pragma once
// The experiment harness: for every partition of a protocol, train an ensemble, vote every
// test row with all T trees once (a vote matrix), then run each halting rule's sequential vote from
// that matrix and measure it against the full vote, the truth and (optionally) a large proxy
// ensemble; aggregate mean and standard deviation over partitions.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/double_pruning.h"
#include "urnforest/forest.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/ordering.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"
#include "urnforest/train_request.h"
#include "urnforest/voteboost.h"

namespace urnforest {

/// How partitions are made.
enum class ProtocolKind : int32_t {
  kKFold = 0,      ///< Repeated (stratified) k-fold CV of ExperimentOptions::data (protocol.h).
  kHoldout = 1,    ///< Repeated holdout of ExperimentOptions::data (protocol.h).
  kSynthetic = 2,  ///< Per repetition a fresh training sample of train_rows and test sample of
                   ///< test_rows from ExperimentOptions::generator (generators.h).
};

/// Progress of a run (RunExperiment's `progress`): called before the first partition (done = 0)
/// and after each one. Returning false cancels the run (kInvalidArgument "cancelled").
using ExperimentProgressFn = ProgressFn;

/// What to run. Every field has a default; the data source is required.
struct ExperimentOptions {
  /// Real data for kKFold / kHoldout (labels required). Not owned; must outlive the call.
  const Dataset* data = nullptr;
  /// Generator name for kSynthetic (GeneratorNames()).
  std::string generator;
  std::string dataset_name;  ///< Reported as-is (e.g. the file's base name).
  ProtocolKind protocol = ProtocolKind::kKFold;
  int32_t folds = 10;                 ///< kKFold: k, 2..the data's rows.
  /// Repetitions of any protocol (k-fold: 10 x k partitions), 1..kMaxRepeats.
  int32_t repeats = 10;
  double test_fraction = 1.0 / 3.0;   ///< kHoldout, in (0, 1).
  bool stratified = true;             ///< kKFold and kHoldout (see protocol.h).
  size_t train_rows = 300;            ///< kSynthetic, 2..DatasetLimits::kMaxRows.
  size_t test_rows = 1000;            ///< kSynthetic, 1..DatasetLimits::kMaxRows.
  /// Ensemble, num_trees (T), mtry, ... The seed field is ignored: partition p trains
  /// with a seed derived from (seed, p).
  TrainOptions train;
  /// The options of TrainOptionKey the caller named (TrainRequest::named): CheckExperimentOptions
  /// refuses one named for an ensemble it does not apply to, as CheckTrainRequest does.
  TrainOptionKeys train_named;
  /// Target confidences; every rule is evaluated at every alpha on the same forests (alpha1
  /// ignores it). Each in (0, 1].
  std::vector<double> alphas = {0.99};
  /// The rules measured, each once (the default, alpha1, siba and hyper, is also the CLI's and the
  /// JS API's default).
  std::vector<HaltingRule> rules = {HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper};
  uint64_t seed = 1;  ///< Partitions, synthetic samples and forests all derive from it.
  /// Threads growing each partition's trees (TrainExecution::threads: 0 = every core). Results do
  /// not depend on it.
  int32_t threads = 0;
  /// The most work RunExperiment starts, in row-trees (ExperimentWork): an experiment estimated
  /// above it fails with kLimitExceeded before any work, naming the estimate and this limit.
  /// 10^9 row-trees take roughly 10 to 30 minutes on one core natively (twonorm: 0.6 to 1.3 us a
  /// row-tree); raise it to run more.
  double max_work = 1e9;
  /// > 0: also train an independent ensemble of this many trees ([HMS11] §4: a 10,000-tree proxy
  /// of the infinite ensemble) per partition and report agreement with it. Expensive.
  int32_t proxy_trees = 0;
  /// Draws of the Monte Carlo prediction used when the exact one is unavailable (l > 4),
  /// 1..kMaxMonteCarloSamples.
  int64_t monte_carlo_samples = 20000;

  // --- Vote-boosting and label noise ([SMS18] §4.3) ---
  /// Fraction of each partition's TRAINING labels flipped (FlipLabels, label_noise.h; seed derived
  /// from (seed, partition)); test labels stay clean. In [0, 1]; 0 = none.
  double label_noise = 0.0;
  /// Vote-boosting only: choose a = b per partition by SelectEmphasisByCV on the (noisy) training
  /// data with `emphasis_cv` (its seed is replaced by one derived from (seed, partition)).
  bool select_emphasis = false;
  EmphasisCvOptions emphasis_cv;
  // Double pruning ([Sot11] ch. 3). With `prune`, every partition's ensemble is ordered on its
  // training part (OrderForest), pruned to its first `keep` trees (PruneForest, exact OOB votes for
  // RF and bagging) and the rules are measured on the pruned ensemble: tables for `keep` trees,
  // disagreement versus the pruned ensemble's unweighted full vote. "full" stays the unpruned one.
  bool prune = false;
  OrderingOptions ordering;  ///< With `prune`: the ordering (default boosting-based).
  /// With `prune`: trees kept, 1..T; 0 = DefaultKeep(T) (21 of 101). Without `prune`: 0.
  int32_t keep = 0;
  /// Query order of the halted votes (with or without pruning): kOrdered = the ensemble's order
  /// (the pruning order, or generation order: IB-SEQ), kRandomPerRow = a seeded permutation per
  /// row (IB-PERM; the seed derives from (seed, partition)). kGeneration is treated as kOrdered.
  PrunedQueryOrder query_order = PrunedQueryOrder::kOrdered;

  static constexpr int32_t kMaxRepeats = 100000;  ///< Largest repeats.
  static constexpr int64_t kMaxMonteCarloSamples = 100000000;  ///< Largest monte_carlo_samples.
  static constexpr double kMinMaxWork = 1.0;   ///< Smallest max_work (one row-tree).
  static constexpr double kMaxMaxWork = 1e18;  ///< Largest max_work.
};

/// Checks every bound and rule between fields of `options` that RunExperiment needs before any
/// work, with the messages the CLI and the JS API both report: the data source (labelled,
/// non-empty data for k-fold and holdout; a known generator for kSynthetic), the bounds documented
/// on each field, alphas in (0, 1] (at least one), rules (at least one, each once), proxy_trees
/// 0..kMaxTrees, keep (with prune 0..T, else 0), CheckTrainRequest of the training options (mtry
/// bounded by the data's or the generator's features; select_emphasis and emphasis_cv.num_trees as
/// TrainRequest's select_emphasis and cv_trees), then the estimated work against max_work.
/// Fails with kInvalidArgument, kMissingLabel (no target column, or a row without a label) or
/// kLimitExceeded (ExperimentWork above max_work, naming both).
Status CheckExperimentOptions(const ExperimentOptions& options);

/// The repetitions a front end runs when the caller names none: ExperimentOptions::repeats' 10 for
/// k-fold CV (10 x 10 partitions), 100 for holdout and synthetic problems (one partition each).
/// The CLI's `experiment` and the JS runExperiment default.
int32_t DefaultRepeats(ProtocolKind protocol);

/// Mean and sample standard deviation (n - 1 denominator; 0 for one value) over the partitions
/// where a metric is defined; NaN when it is defined nowhere.
struct MeanStd {
  double mean = 0.0;
  double std = 0.0;
  int32_t count = 0;  ///< Partitions that contributed.
};

/// The metrics of one rule at one alpha. V = double for one partition (NaN = undefined there),
/// V = MeanStd for the aggregate. Errors, disagreements and coverages are in percent of the test
/// rows; trees are counts; speed-ups are ratios.
template <typename V>
struct RuleStats {
  V error{};               ///< Halted label != true label.
  V disagreement{};        ///< Halted label != full T-tree vote (ties: lowest class index).
  V trees{};               ///< Mean trees queried per row.
  V trees_alpha1{};        ///< Mean trees the alpha = 1 rule queries on the same rows.
  V speedup_vs_alpha1{};   ///< Mean over rows of trees_alpha1(x) / trees(x) (the thesis's).
  V speedup_vs_T{};        ///< Mean over rows of T / trees(x).
  V speedup_ratio_of_means_vs_alpha1{};  ///< trees_alpha1 / trees.
  V speedup_ratio_of_means_vs_T{};       ///< T / trees.
  V coverage{};            ///< Rows halted before the T-th vote.
  /// Rows where the rule's condition holds by the T-th vote ([HMS11] Tables 2-3, "halted within T",
  /// %inst); coverage plus the rows certified exactly at T.
  V certified{};
  /// Predicted from the training data alone: the rule's table averaged over the out-of-bag prior
  /// (smoothed histogram for l <= 4, exact; fitted Dirichlet + Monte Carlo beyond).
  V expected_trees{};
  V expected_disagreement{};
  V fixed_trees{};         ///< k = ceil(trees): a fixed sub-ensemble of the same mean cost.
  V fixed_error{};         ///< Majority of the first k trees != truth.
  V fixed_disagreement{};  ///< Majority of the first k trees != full vote.
  V trees_halted{};        ///< Mean trees over the certified rows.
  V error_halted{};        ///< Error over the certified rows.
  // With a proxy ensemble only (NaN otherwise), over the certified rows except proxy_disagreement:
  V proxy_disagreement{};         ///< Halted label != proxy label, all rows.
  V proxy_disagreement_halted{};  ///< [HMS11] Tables 2-3, "Dis IB".
  V fixed_proxy_disagreement_halted{};  ///< [HMS11] "Dis FS": first ceil(trees_halted) trees.
  V fixed_error_halted{};               ///< [HMS11] "Err FS".
  V proxy_error_halted{};               ///< [HMS11] "Err inf".
};

/// Names (the CLI's JSON keys) and members of RuleStats, in declaration order.
template <typename V>
const std::vector<std::pair<const char*, V RuleStats<V>::*>>& RuleStatFields() {
  using S = RuleStats<V>;
  static const std::vector<std::pair<const char*, V S::*>> kFields = {
      {"error", &S::error},
      {"disagreement", &S::disagreement},
      {"trees", &S::trees},
      {"trees_alpha1", &S::trees_alpha1},
      {"speedup_vs_alpha1", &S::speedup_vs_alpha1},
      {"speedup_vs_T", &S::speedup_vs_T},
      {"speedup_ratio_of_means_vs_alpha1", &S::speedup_ratio_of_means_vs_alpha1},
      {"speedup_ratio_of_means_vs_T", &S::speedup_ratio_of_means_vs_T},
      {"coverage", &S::coverage},
      {"certified", &S::certified},
      {"expected_trees", &S::expected_trees},
      {"expected_disagreement", &S::expected_disagreement},
      {"fixed_trees", &S::fixed_trees},
      {"fixed_error", &S::fixed_error},
      {"fixed_disagreement", &S::fixed_disagreement},
      {"trees_halted", &S::trees_halted},
      {"error_halted", &S::error_halted},
      {"proxy_disagreement", &S::proxy_disagreement},
      {"proxy_disagreement_halted", &S::proxy_disagreement_halted},
      {"fixed_proxy_disagreement_halted", &S::fixed_proxy_disagreement_halted},
      {"fixed_error_halted", &S::fixed_error_halted},
      {"proxy_error_halted", &S::proxy_error_halted},
  };
  return kFields;
}

/// One rule at one alpha.
struct RuleResult {
  HaltingRule rule = HaltingRule::kSiba;
  double alpha = 0.99;
  /// False when the rule cannot run on this problem (e.g. hyper with more than 4 classes,
  /// optimal with more than 3): `note` then holds the reason and the stats are empty.
  bool available = true;
  std::string note;
  /// How expected_* were computed: "exact" (l <= 4), "monte_carlo_oob_tallies" (l > 4: Monte Carlo
  /// over the training rows' rescaled OOB tallies) or "monte_carlo" (fallback: fitted prior).
  std::string expected_method;
  RuleStats<MeanStd> summary;
  std::vector<RuleStats<double>> partitions;  ///< One entry per partition, in partition order.
};

/// Everything a run measured.
struct ExperimentResult {
  std::string dataset;
  size_t rows = 0;        ///< Rows of the real data set, or train_rows + test_rows (synthetic).
  int32_t features = 0;
  int32_t classes = 0;
  int32_t partitions = 0;
  int32_t trees = 0;      ///< T.
  int32_t mtry = 0;       ///< Candidate features per node actually used.
  MeanStd full_error;     ///< Full T-tree vote, percent.
  MeanStd full_trees_alpha1;  ///< Mean trees under the alpha = 1 rule ([SSM16] Table 2, "RF*").
  MeanStd oob_error;          ///< Forest::oob_error, percent.
  MeanStd proxy_error;        ///< Proxy ensemble's test error, percent (count 0 without proxy).
  /// Alpha-major: for each alpha in options.alphas, one entry per rule in options.rules order.
  std::vector<RuleResult> rules;
  /// Vote-boosting: the a = b used in each partition (the CV choice with select_emphasis, else the
  /// fixed options.train.voteboost.a); empty for other ensembles.
  std::vector<double> emphasis;
  /// AdaBoost: test error (percent) of its own weighted vote (PredictWeighted); count 0 otherwise.
  /// full_error is always the unweighted majority, which is what the halting rules bound.
  MeanStd weighted_error;

  // With ExperimentOptions::prune only (pruned_size 0 otherwise).
  int32_t pruned_size = 0;  ///< Trees kept (K).
  /// Test error of the pruned ensemble's own combiner (weighted for AdaBoost), percent.
  MeanStd pruned_error;
  /// The full ensemble's own combiner error (= full_error except for AdaBoost, whose full_error
  /// is the weighted vote's and this the unweighted plurality's, which halting approximates).
  MeanStd full_unweighted_error;
  /// Per-partition values behind full_error and pruned_error (percent, partition order; the
  /// latter empty without ExperimentOptions::prune), for paired comparisons between runs that
  /// share partitions and seeds.
  std::vector<double> full_error_by_partition;
  std::vector<double> pruned_error_by_partition;
  /// Mean number of leaves per tree of the ensemble the rules run on (the pruned one with
  /// ExperimentOptions::prune), averaged over partitions.
  MeanStd leaves_per_tree;
  /// Index into `rules` of (alpha index, rule index).
  size_t RuleIndex(size_t alpha_index, size_t rule_index, size_t num_rules) const {
    return alpha_index * num_rules + rule_index;
  }
};

/// The work `options` asks for, in row-trees: every tree an experiment grows times the training
/// rows it is grown on, summed over partitions: the ensemble, the proxy (proxy_trees), the emphasis
/// cross-validation (select_emphasis: grid values x folds ensembles), and cost-complexity pruning
/// (cv_folds + 1 trees grown per kept tree). What RunExperiment checks against max_work.
double ExperimentWork(const ExperimentOptions& options);

/// Runs the experiment. Vote-boosted ensembles are sequential (their trees are not i.i.d.), so
/// every rule is measured on the vote matrix in a seeded random query order per row (the finite-T
/// urn argument then holds, see docs/voteboost.md); the fixed_* metrics then use each row's first k
/// trees in that order. Fails as CheckExperimentOptions, with kInvalidArgument "cancelled", or with
/// the first failure
/// of training, table building or prediction (a rule that is merely unsupported for the problem's
/// class count is reported as unavailable instead).
/// `progress` (may be empty): see ExperimentProgressFn.
Result<ExperimentResult> RunExperiment(const ExperimentOptions& options,
                                       ExperimentProgressFn progress = {});

/// Metrics of one partition from a precomputed vote matrix (exposed for tests and for callers that
/// bring their own ensembles): votes[row * num_trees + tree] in [0, num_classes); truth has one
/// label per row; proxy_labels is empty or has one label per row. `table` is the rule's table,
/// `alpha1_trees` the per-row trees of the alpha = 1 rule. expected_* are left NaN. The trees are
/// queried as `vote_options` says (matrix order by default; kRandomPerRow for IB-PERM).
Result<RuleStats<double>> MeasureRule(const HaltingTable& table,
                                      const std::vector<int32_t>& votes, size_t num_rows,
                                      int32_t num_trees, int32_t num_classes,
                                      const std::vector<int32_t>& truth,
                                      const std::vector<int32_t>& alpha1_trees,
                                      const std::vector<int32_t>& proxy_labels,
                                      const SequentialVoteOptions& vote_options = {});

/// Majority of the first k trees of every row of a vote matrix (ties: lowest class index).
std::vector<int32_t> MajorityOfFirst(const std::vector<int32_t>& votes, size_t num_rows,
                                     int32_t num_trees, int32_t num_classes, int32_t k);

}  // namespace urnforest
