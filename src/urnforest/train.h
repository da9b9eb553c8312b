#pragma once
// Training: ensemble kinds and their options, the option names the front ends accept, and Train.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

class Forest;

/// Which ensemble to train.
enum class EnsembleKind : uint8_t {
  kRandomForest = 0,  ///< Bootstrap samples, `mtry` candidate features per node (Breiman 2001).
  kBagging = 1,       ///< Bootstrap samples, all features at every node (Breiman 1996).
  /// AdaBoost.M1 with CART trees (two classes; SAMME for more), weighted vote by tree_weights().
  /// Details in docs/design.md ("Training") and docs/pruning.md.
  kAdaBoost = 2,
  /// Vote-boosting ([SMS18]): row weights are a beta emphasis of the ensemble's Laplace-corrected
  /// vote fraction; unweighted majority vote. Options in TrainOptions::voteboost; details in
  /// urnforest/voteboost.h and docs/voteboost.md.
  kVoteBoost = 3,
  /// Trees imported from another library (urnforest/onnx_import.h); never trained here.
  kImported = 4,
};

/// Base learner of vote-boosting (TrainOptions::voteboost.base).
enum class VoteBoostBase : uint8_t {
  /// Unpruned random-forest tree: ResolveMtry's kRandomForest mtry (sqrt by default).
  kRandomTree = 0,
  kUnprunedCart = 1,  ///< Unpruned CART: every feature at every node.
  kStump = 2,         ///< Decision stump: CART with max_depth 1.
  /// CART with every feature, then minimal cost-complexity pruning with internal cross-validation
  /// (TreePruning::kCostComplexityCV with TrainOptions::pruning's folds and SE rule).
  kPrunedCart = 3,
};

/// How each tree is pruned after it has been grown (every ensemble kind).
enum class TreePruning : uint8_t {
  kNone = 0,  ///< Unpruned (the default; Breiman's random forests and bagging).
  /// Minimal cost-complexity pruning (Breiman et al. 1984, ch. 3): the weakest-link sequence of
  /// subtrees of the full tree, alpha chosen by stratified V-fold cross-validation on the tree's
  /// own training sample (details in src/tree/cost_complexity_pruning.h and docs/voteboost.md).
  kCostComplexityCV = 1,
};

/// Tree pruning options (TrainOptions::pruning).
struct TreePruningOptions {
  TreePruning mode = TreePruning::kNone;
  /// V of the internal cross-validation, 2..100; default 10 (the CART book's choice).
  int32_t cv_folds = 10;
  /// k of the k-SE rule: the smallest subtree whose CV error is at most min + k * SE is chosen;
  /// 0 = the minimum-error subtree. Default 1 (the CART book's 1-SE rule). In [0, 10].
  double se_rule = 1.0;
  static constexpr int32_t kMinCvFolds = 2;    ///< Smallest cv_folds Train accepts.
  static constexpr int32_t kMaxCvFolds = 100;  ///< Largest cv_folds Train accepts.
  static constexpr int32_t kMaxSeRule = 10;    ///< Largest se_rule Train accepts (the smallest: 0).
};

/// Vote-boosting options ([SMS18] §3, Algorithm 1). The emphasis is the beta density
/// g(p) = p^(a-1) (1-p)^(b-1) (normalising constant dropped), evaluated in log space.
struct VoteBoostOptions {
  double a = 1.0;  ///< Emphasis a > 0 (the paper's grid: 0.25 .. 40). a = b = 1: bagging / RF.
  /// Emphasis b > 0, or 0 = symmetric (b = a, the paper's setting). Asymmetric only for 2 classes.
  double b = 0.0;
  VoteBoostBase base = VoteBoostBase::kRandomTree;
  /// The b actually used.
  double ResolvedB() const { return b > 0.0 ? b : a; }
  /// The emphasis range the CLI (--emphasis, --emphasis-b) and the JS API accept for a and b
  /// (Train itself only requires them positive and finite).
  static constexpr double kMinEmphasis = 1e-6;
  static constexpr double kMaxEmphasis = 1e6;
};

/// How AdaBoost feeds its row weights to the tree learner (ignored by other ensembles).
enum class BoostingVariant : uint8_t {
  /// Boosting by resampling: each tree grows on N rows drawn with replacement with probabilities
  /// equal to the current weights (multiplicity = weight, as bagging's bootstrap).
  kResample = 0,
  /// Boosting by reweighting: each tree grows on all rows with the weights themselves, quantised
  /// to integers summing to about 2^24 (every row keeps at least weight 1); min_leaf is then in
  /// units of the mean row weight. With unlimited depth a tree usually fits the training data
  /// exactly (epsilon = 0, docs/design.md "Training"): combine with max_depth or min_leaf.
  kReweight = 1,
};

/// How the default number of candidate features per node is chosen when TrainOptions::mtry == 0.
enum class MtryRule : uint8_t {
  kSqrt = 0,       ///< floor(sqrt(M)), at least 1 (scikit-learn, randomForest).
  kLog2 = 1,       ///< floor(log2(M)), at least 1.
  kLog2Plus1 = 2,  ///< floor(log2(M) + 1) (Breiman's and the thesis's variant).
};

/// Progress of a long run (Train, RunExperiment): called with (units done, total units); returning
/// false cancels the run, which then fails with kInvalidArgument "cancelled". May be empty.
using ProgressFn = std::function<bool(int32_t done, int32_t total)>;

/// How a training run executes. Nothing here is stored in the model: its bytes are identical for
/// every value.
struct TrainExecution {
  /// Threads growing the trees of a bagging or random forest (each tree's randomness comes from
  /// (seed, tree index), so the split of trees over threads does not matter): 0 = every hardware
  /// thread, 1 = the calling thread only. AdaBoost and vote-boosting grow one tree after another.
  /// WebAssembly builds always use one thread (the JS worker spreads a run over workers instead).
  int32_t threads = 0;
};

/// Training options; every field has a sensible default.
struct TrainOptions {
  EnsembleKind ensemble = EnsembleKind::kRandomForest;
  int32_t num_trees = 101;  ///< T, 1..kMaxTrees.
  /// Candidate features per node; 0 = by mtry_rule. Ignored for bagging.
  int32_t mtry = 0;
  MtryRule mtry_rule = MtryRule::kSqrt;
  int32_t max_depth = 0;        ///< 0 = unlimited; the root has depth 0. 0..kMaxDepth.
  int32_t min_leaf = 1;         ///< Minimum rows in a leaf, 1..kMaxMinLeaf.
  BoostingVariant boosting = BoostingVariant::kResample;  ///< AdaBoost only.
  /// Pruning of every tree (kNone by default). Vote-boosting's kPrunedCart base prunes with these
  /// folds and SE rule whatever the mode says.
  TreePruningOptions pruning;
  VoteBoostOptions voteboost;  ///< Vote-boosting only.
  uint64_t seed = 1;            ///< Same data + options + seed => byte-identical model.
  static constexpr int32_t kMaxTrees = 100000;  ///< Largest num_trees (and every other tree count).
  /// Largest max_depth, for every front end: deeper than any tree the row limit leaves room for
  /// in practice (a depth of 100,000 needs a chain of 100,000 splits), so a larger value could only
  /// mean "unlimited", which is 0.
  static constexpr int32_t kMaxDepth = 100000;
  /// Largest min_leaf: the most rows a data set may have (DatasetLimits::kMaxRows).
  static constexpr int32_t kMaxMinLeaf = static_cast<int32_t>(DatasetLimits::kMaxRows);
};

/// Checks every bound and every rule between fields of `options` for data with `num_features`
/// feature columns: ensemble, boosting, mtry_rule, pruning.mode and voteboost.base are known enum
/// values; num_trees in 1..kMaxTrees; mtry in 0..num_features; max_depth in 0..kMaxDepth; min_leaf
/// in 1..kMaxMinLeaf; pruning.cv_folds in TreePruningOptions' range, pruning.se_rule in
/// [0, kMaxSeRule]; with vote-boosting, voteboost.a in [kMinEmphasis, kMaxEmphasis] and voteboost.b
/// 0 or in that range. Fails with kInvalidArgument and the message "option NAME must be ..., got V"
/// (NAME the field's name, e.g. max_depth, voteboost.a). Train and RunExperiment call it; front ends
/// read the same bounds (the constants above) to check their own spelling of the options.
/// (Rules that need the data, e.g. asymmetric emphasis needs two classes, are Train's.)
Status CheckTrainOptions(const TrainOptions& options, size_t num_features);

/// Option names: the strings the CLI and the JS API accept for each option enum. `*Name` never
/// returns null; `Parse*` fails with kInvalidArgument naming the string and listing the valid
/// names; `*Names()` lists the names in enum order.
/// EnsembleKind: "rf", "bagging", "adaboost", "voteboost" (EnsembleKindName also names
/// kImported "imported", which is not a training option and does not parse).
const char* EnsembleKindName(EnsembleKind kind);
Result<EnsembleKind> ParseEnsembleKind(std::string_view name);
const std::vector<std::string>& EnsembleKindNames();
/// MtryRule: "sqrt", "log2", "log2plus1".
const char* MtryRuleName(MtryRule rule);
Result<MtryRule> ParseMtryRule(std::string_view name);
const std::vector<std::string>& MtryRuleNames();
/// BoostingVariant: "resample", "reweight".
const char* BoostingVariantName(BoostingVariant variant);
Result<BoostingVariant> ParseBoostingVariant(std::string_view name);
const std::vector<std::string>& BoostingVariantNames();
/// TreePruning: "none", "cv".
const char* TreePruningName(TreePruning mode);
Result<TreePruning> ParseTreePruning(std::string_view name);
const std::vector<std::string>& TreePruningNames();
/// VoteBoostBase: "random", "unpruned", "stump", "pruned".
const char* VoteBoostBaseName(VoteBoostBase base);
Result<VoteBoostBase> ParseVoteBoostBase(std::string_view name);
const std::vector<std::string>& VoteBoostBaseNames();

/// A base learner named for one ensemble kind, as the CLI's --base and the JS API's
/// `voteboost.base` / `adaboost.base` name it. ApplyBaseLearner writes it into TrainOptions.
struct BaseLearner {
  EnsembleKind ensemble = EnsembleKind::kVoteBoost;
  /// Vote-boosting: the base learner.
  VoteBoostBase voteboost_base = VoteBoostBase::kRandomTree;
  /// AdaBoost: the tree depth the name sets ("stump" = 1, "depth:N" = N), or 0 when it sets none.
  int32_t max_depth = 0;
  /// AdaBoost: "pruned", i.e. minimal cost-complexity pruning with internal cross-validation.
  bool cost_complexity_pruned = false;
};

/// Parses a base-learner name for `ensemble`. Vote-boosting: "random", "unpruned", "stump" or
/// "pruned" (VoteBoostBase). AdaBoost: "unpruned" (CART, the default), "pruned" (cost-complexity
/// pruning with internal CV), "stump" (max_depth 1) or "depth:N" (max_depth N, N in 1..999999 with
/// no sign or leading zero). Fails with kInvalidArgument listing the valid names, or when
/// `ensemble` has no base-learner choice (random forests and bagging).
Result<BaseLearner> ParseBaseLearner(EnsembleKind ensemble, std::string_view name);

/// Writes `base` into `options`: vote-boosting's voteboost.base; AdaBoost's max_depth ("stump",
/// "depth:N") or pruning.mode = kCostComplexityCV ("pruned"). Apply it after options->max_depth was
/// set. Fails with kInvalidArgument when options->ensemble differs from base.ensemble, or when the
/// name sets the depth and options->max_depth is already non-zero. `options` is not changed on
/// failure.
Status ApplyBaseLearner(const BaseLearner& base, TrainOptions* options);

/// Candidate features per node that Train uses for `options` on data with `num_features` columns:
/// all of them for bagging, AdaBoost and vote-boosting with CART or stumps; for random forests and
/// vote-boosting with random trees, options.mtry (capped at num_features) or the MtryRule value.
int32_t ResolveMtry(const TrainOptions& options, int32_t num_features);

/// True when Train prunes the trees of `options`: pruning.mode is not kNone, or vote-boosting with
/// the pruned-CART base (which prunes whatever the mode says).
bool PrunesTrees(const TrainOptions& options);

/// True when the trees of `options` are grown until their leaves are pure (or one row): nothing
/// limits them, i.e. !PrunesTrees(options), max_depth 0 and min_leaf 1. Such trees are right on
/// every in-bag row, so their training votes hardly tell them apart (OrderForest warns; the demo
/// orders them on out-of-bag votes). Vote-boosting's stump base grows depth-1 trees, so it is
/// never grown to purity.
bool GrownToPurity(const TrainOptions& options);

/// Trains a forest. Fails with kTooFewClasses (fewer than 2 classes have rows), kMissingLabel
/// (no target column, or a row with label -1), kInvalidArgument (options out of range; the message
/// names the option, e.g. "option mtry must be in 0..20 ..."; or no feature columns),
/// kLimitExceeded (more than 2^31 nodes or 2^30 categorical bit-set words), or
/// kInvalidArgument("cancelled") when `progress` returns false. `progress` (may be empty) is
/// called on the calling thread as trees are kept, with (trees done, options.num_trees); it is not
/// stored in the model. `execution` says how many threads grow the trees.
/// The returned Forest is declared in urnforest/forest.h (include it to use the result). The
/// algorithm (random streams, CART growing, AdaBoost, vote-boosting) is described in
/// docs/design.md, "Training".
Result<Forest> Train(const Dataset& data, const TrainOptions& options, ProgressFn progress = {},
                     const TrainExecution& execution = {});

/// Trees first .. first + count - 1 of the forest Train(data, options) grows, as a forest of
/// `count` trees (options().num_trees = count; source_trees() = first .. first + count - 1, as if
/// pruned from the whole) whose out-of-bag votes count only those trees: bagging and random forests
/// only (their trees are independent). For spreading one run over processes or Web Workers; join
/// the parts with MergeForestParts. Fails as Train, and with kInvalidArgument for another ensemble
/// or a range outside 0 .. options.num_trees - 1. `progress` gets (trees done, count).
Result<Forest> TrainForestPart(const Dataset& data, const TrainOptions& options, int32_t first,
                               int32_t count, ProgressFn progress = {},
                               const TrainExecution& execution = {});

/// The forest Train(data, options) returns, byte for byte, from parts of it (TrainForestPart, or
/// their bytes reloaded) given in tree order: the parts must cover trees 0 .. options.num_trees - 1
/// exactly once, in order, and agree on options (but num_trees), schema and training labels. Fails
/// with kInvalidArgument naming the first part that does not fit; kLimitExceeded as Train. The
/// parts are only read.
Result<Forest> MergeForestParts(const std::vector<const Forest*>& parts);

}  // namespace urnforest
