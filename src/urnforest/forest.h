#pragma once
// Forest: a trained ensemble of classification trees in one flat node table, with out-of-bag votes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/node_table.h"
#include "urnforest/status.h"

namespace urnforest {

namespace internal {
class ForestAccess;
}  // namespace internal

/// Which ensemble to train.
enum class EnsembleKind : uint8_t {
  kRandomForest = 0,  ///< Bootstrap samples, `mtry` candidate features per node (Breiman 2001).
  kBagging = 1,       ///< Bootstrap samples, all features at every node (Breiman 1996).
  /// AdaBoost.M1 with CART trees (two classes; SAMME for more), weighted vote by tree_weights().
  /// Details on Train and in docs/pruning.md.
  kAdaBoost = 2,
  /// Vote-boosting ([SMS18]): row weights are a beta emphasis of the ensemble's Laplace-corrected
  /// vote fraction; unweighted majority vote. Options in TrainOptions::voteboost; details in
  /// urnforest/voteboost.h and docs/voteboost.md.
  kVoteBoost = 3,
};

/// Base learner of vote-boosting (TrainOptions::voteboost.base).
enum class VoteBoostBase : uint8_t {
  kRandomTree = 0,    ///< Unpruned random-forest tree: ResolveMtry's kRandomForest mtry (sqrt by default).
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
  /// own training sample (details in src/cost_complexity_pruning.h and docs/voteboost.md).
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
};

/// How AdaBoost feeds its row weights to the tree learner (ignored by other ensembles).
enum class BoostingVariant : uint8_t {
  /// Boosting by resampling: each tree grows on N rows drawn with replacement with probabilities
  /// equal to the current weights (multiplicity = weight, as bagging's bootstrap).
  kResample = 0,
  /// Boosting by reweighting: each tree grows on all rows with the weights themselves, quantised
  /// to integers summing to about 2^24 (every row keeps at least weight 1); min_leaf is then in
  /// units of the mean row weight. With unlimited depth a tree usually fits the training data
  /// exactly (epsilon = 0, see Train): combine with max_depth or min_leaf.
  kReweight = 1,
};

/// How the default number of candidate features per node is chosen when TrainOptions::mtry == 0.
enum class MtryRule : uint8_t {
  kSqrt = 0,      ///< floor(sqrt(M)), at least 1 (scikit-learn, randomForest).
  kLog2 = 1,      ///< floor(log2(M)), at least 1.
  kLog2Plus1 = 2, ///< floor(log2(M) + 1) (Breiman's and the thesis's variant).
};

/// Progress of a long run (Train, RunExperiment): called with (units done, total units); returning
/// false cancels the run, which then fails with kInvalidArgument "cancelled". May be empty.
using ProgressFn = std::function<bool(int32_t done, int32_t total)>;

/// Training options; every field has a sensible default.
struct TrainOptions {
  EnsembleKind ensemble = EnsembleKind::kRandomForest;
  int32_t num_trees = 101;      ///< T, 1..kMaxTrees.
  int32_t mtry = 0;             ///< Candidate features per node; 0 = by mtry_rule. Ignored for bagging.
  MtryRule mtry_rule = MtryRule::kSqrt;
  int32_t max_depth = 0;        ///< 0 = unlimited; the root has depth 0.
  int32_t min_leaf = 1;         ///< Minimum rows in a leaf.
  BoostingVariant boosting = BoostingVariant::kResample;  ///< AdaBoost only.
  /// Pruning of every tree (kNone by default). Vote-boosting's kPrunedCart base prunes with these
  /// folds and SE rule whatever the mode says.
  TreePruningOptions pruning;
  VoteBoostOptions voteboost;  ///< Vote-boosting only.
  uint64_t seed = 1;            ///< Same data + options + seed => byte-identical model.
  static constexpr int32_t kMaxTrees = 100000;
};

/// Option names: the strings the CLI and the JS API accept for each option enum. `*Name` never
/// returns null; `Parse*` fails with kInvalidArgument naming the string and listing the valid names;
/// `*Names()` lists the names in enum order.
/// EnsembleKind: "rf", "bagging", "adaboost", "voteboost".
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


/// A trained ensemble. Trees are stored flat (one node table for the whole forest); tree t's root is
/// node `tree_roots()[t]`. Immutable after training/loading (except for the stored halting tables,
/// see StoreTable); safe to share between threads for reading.
class Forest {
 public:
  Forest() = default;

  int32_t num_trees() const { return static_cast<int32_t>(tree_roots_.size()); }
  int32_t num_classes() const { return static_cast<int32_t>(schema_.class_names.size()); }
  int32_t num_features() const { return static_cast<int32_t>(schema_.features.size()); }
  const Schema& schema() const { return schema_; }
  const TrainOptions& options() const { return options_; }

  /// Class index (0..num_classes-1) voted by tree `tree` for one row given as num_features()
  /// floats in schema order (NaN = missing; categorical values are category indices, and an
  /// out-of-range or non-integral one is treated as missing). Precondition: 0 <= tree <
  /// num_trees(). No allocation; a tight loop over 16-byte nodes.
  int32_t TreeVote(int32_t tree, const float* row) const;

  /// Out-of-bag vote counts of the training rows, row-major: `oob_votes()[r * num_classes() + c]`
  /// is the number of trees that did not see row r in their bootstrap sample and voted c.
  const std::vector<uint32_t>& oob_votes() const { return oob_votes_; }
  /// Training labels (class indices), one per training row, aligned with oob_votes().
  const std::vector<int32_t>& train_labels() const { return train_labels_; }
  /// Out-of-bag error: over training rows with at least one OOB vote, the expected error of the OOB
  /// majority with ties broken uniformly at random (a row whose true class ties with m - 1 others
  /// for first place counts 1 - 1/m). With ~0.37 T OOB votes per row, ties are common on hard
  /// data; counting them as plain errors overstated sonar's OOB error by about 4 points.
  double oob_error() const;

  /// Vote weight of each tree (AdaBoost's alpha_t >= 0), or empty for unweighted (plurality)
  /// ensembles. PredictFull and the halting engine count votes unweighted; PredictWeighted
  /// (weighted_vote.h) uses these weights.
  const std::vector<double>& tree_weights() const { return tree_weights_; }
  /// Generation index of each tree in the ensemble it was trained in (differs from 0..T-1 after
  /// PruneForest), or empty when tree t is the t-th tree generated.
  const std::vector<uint32_t>& source_trees() const { return source_trees_; }
  /// Generation index of tree t (source_trees()[t], or t when empty).
  uint32_t SourceTree(int32_t t) const {
    return source_trees_.empty() ? static_cast<uint32_t>(t) : source_trees_[t];
  }

  /// Stores a halting table with the model: SerializeForest writes it, DeserializeForest
  /// restores it, and BuildForestTable returns it instead of rebuilding when rule, alpha
  /// (bit-identical) and T match. Replaces a stored table with the same (rule, alpha, T). The
  /// table should have been built for this forest (BuildForestTable); only its shape is checked:
  /// kShapeMismatch when its classes differ from num_classes(), kInvalidArgument when its T exceeds
  /// num_trees(). Not thread-safe against concurrent readers of this forest.
  Status StoreTable(HaltingTable table);
  /// The stored table for (rule, alpha, T) with alpha compared bit for bit, or nullptr. `num_trees`
  /// 0 means num_trees(). The pointer is invalidated by StoreTable and ClearStoredTables.
  const HaltingTable* FindStoredTable(HaltingRule rule, double alpha, int32_t num_trees = 0) const;
  /// Stored tables in storage order (first stored first; a replacement keeps its position).
  const std::vector<HaltingTable>& stored_tables() const { return stored_tables_; }
  /// Removes every stored table (the model bytes then equal those of the forest as trained).
  void ClearStoredTables() { stored_tables_.clear(); }

  /// Root node index of each tree (tree t's root is `node_table().nodes[tree_roots()[t]]`).
  const std::vector<uint32_t>& tree_roots() const { return tree_roots_; }
  /// The nodes of every tree and their categorical bit sets.
  const NodeTable& node_table() const { return table_; }
  /// Categories per feature (0 for numeric), derived from schema(); one entry per feature.
  const std::vector<uint32_t>& category_counts() const { return category_counts_; }

  /// Total nodes in the node table.
  size_t num_nodes() const;

  /// One node of the flat node table (urnforest/node_table.h).
  using Node = TreeNode;
  static constexpr uint32_t kMissingLeft = TreeNode::kMissingLeft;
  static constexpr uint32_t kCategoricalSplit = TreeNode::kCategoricalSplit;
  static constexpr uint32_t kMaxCategoryWords = TreeNode::kMaxCategoryWords;

  /// Number of 32-bit words in the bit set of a categorical split on `feature`.
  uint32_t CategoryWords(int32_t feature) const { return (category_counts_[feature] + 31u) / 32u; }

 private:
  // Written only by the code that builds or rewrites forests (the trainer, the loader,
  // PruneForest) through internal::ForestAccess (src/ensemble/forest_access.h).
  friend class internal::ForestAccess;

  /// Recomputes derived caches (category_counts_) from schema_; called by the trainer and loader.
  void RebuildCaches();

  /// Nodes of every tree and the bit sets of their categorical splits (a split's bit set is
  /// CategoryWords(feature) words from its offset).
  NodeTable table_;
  std::vector<uint32_t> tree_roots_;
  Schema schema_;
  TrainOptions options_;
  std::vector<uint32_t> oob_votes_;
  std::vector<int32_t> train_labels_;
  std::vector<double> tree_weights_;    ///< See tree_weights().
  std::vector<uint32_t> source_trees_;  ///< See source_trees().
  std::vector<HaltingTable> stored_tables_;  ///< See stored_tables().
  /// Derived from schema_: categories per feature (0 for numeric). Not serialized.
  std::vector<uint32_t> category_counts_;
};

/// Candidate features per node that Train uses for `options` on data with `num_features` columns:
/// all of them for bagging, AdaBoost and vote-boosting with CART or stumps; for random forests and
/// vote-boosting with random trees, options.mtry (capped at num_features) or the MtryRule value.
int32_t ResolveMtry(const TrainOptions& options, int32_t num_features);

/// True when Train prunes the trees of `options`: pruning.mode is not kNone, or vote-boosting with
/// the pruned-CART base (which prunes whatever the mode says).
bool PrunesTrees(const TrainOptions& options);

/// Trains a forest. Fails with kTooFewClasses (fewer than 2 classes have rows), kMissingLabel
/// (no target column, or a row with label -1), kInvalidArgument (options out of range; the message
/// names the option, e.g. "option mtry must be in 0..20 ..."; or no feature columns),
/// kLimitExceeded (more than 2^31 nodes or 2^30 categorical bit-set words), or
/// kInvalidArgument("cancelled") when `progress` returns false. `progress` (may be empty) is
/// called after each kept tree with (trees done, options.num_trees); it is not stored in the model.
///
/// Each tree t draws from its own random stream derived from (seed, t) only (xoshiro256** seeded
/// by SplitMix64, Lemire's unbiased bounded integers; no <random> distributions), so models are
/// byte-identical across platforms and standard libraries. Tree growing (CART, Gini, unpruned):
/// - Bootstrap: n draws with replacement; a row's multiplicity is its weight (counts, min_leaf and
///   leaf majorities are weighted); rows drawn zero times are that tree's out-of-bag rows.
/// - A node becomes a leaf when it is pure, has depth max_depth (if > 0), holds fewer than
///   2 * min_leaf weighted rows, or has no valid split. A leaf votes the weighted majority class of
///   its rows; ties go to the lowest class index.
/// - Random forest: features are drawn without replacement at each node until `ResolveMtry`
///   features that are non-constant at the node were evaluated (constant ones do not count, as
///   in scikit-learn), or all features were drawn. Bagging evaluates every feature in order.
/// - The split maximising the Gini decrease wins; ties keep the first found (features in draw
///   order, thresholds in increasing order), so the result never depends on sort stability.
/// - Numeric: thresholds at midpoints between consecutive distinct values (midpoint computed in
///   double, then the float t with lower <= t < upper; x <= t goes left).
/// - Categorical: true subset splits. Two classes: the optimal split, scanning categories ordered
///   by their proportion of class 1 (Breiman). More classes: exhaustive over all subsets when at
///   most 10 categories are present at the node; otherwise, for each class c, the ordered splits
///   of the categories sorted by p(c | category), keeping the best. Categories absent from the
///   node go to the child that received more training rows (ties: left).
/// - Missing values (NaN): for every candidate split the node's missing rows are tried on both
///   sides and the better side is kept (ties: left) and stored in the node; a node without missing
///   rows sends missing values to the child with more training rows (ties: left). Missing rows
///   count towards min_leaf on their side.
/// - AdaBoost (kAdaBoost; all features at every node, as bagging): weights start uniform; tree t
///   grows on the weights (options.boosting); eps_t = its weighted error on all training rows.
///   Two classes: AdaBoost.M1, alpha_t = 1/2 ln((1 - eps)/eps). More classes: SAMME,
///   alpha_t = ln((1 - eps)/eps) + ln(l - 1). Wrong rows' weights are multiplied by
///   (l - 1)(1 - eps)/eps and all are renormalised (for l = 2 this is the thesis's Eq. 2.11).
///   eps_t = 0: the tree is kept with alpha_t computed at eps = 1e-10 and the weights are reset to
///   uniform. eps_t >= 1/2 (M1) or >= 1 - 1/l (SAMME): the tree is discarded, the weights are
///   reset to uniform and a tree is grown again; after 10 consecutive discards with uniform
///   weights (a learner no better than chance) training fails with kInvalidArgument. Exactly
///   num_trees trees are kept. OOB votes: resampling records, for each kept tree, the rows it did
///   not draw; reweighting has no out-of-bag rows (all counts stay 0). Attempt a = 0, 1, ...
///   (discarded trees included) uses the random stream (seed, a).
/// - Vote-boosting (kVoteBoost): see urnforest/voteboost.h. Tree t uses stream (seed, t); while the
///   weights are all equal its sample is exactly the bootstrap above, so a = b = 1 with random trees
///   grows the very trees (and OOB votes) of a random forest with the same seed and mtry.
Result<Forest> Train(const Dataset& data, const TrainOptions& options, ProgressFn progress = {});

/// Versioned binary model (portable, byte-identical across platforms for identical forests):
/// 20-byte header = magic "URNF", u32 format version (1), u64 payload length, u32 CRC-32 (IEEE) of
/// the payload; then tagged sections {u32 tag, u64 length, bytes} holding schema, options, nodes,
/// categorical bit sets, tree roots, training labels and OOB votes, plus the optional boosting
/// (variant, tree weights), source-tree and stored-halting-table sections (layout in
/// src/serialize.cpp).
/// All integers little-endian. Unknown sections are skipped by readers, so new features add
/// sections.
std::vector<uint8_t> SerializeForest(const Forest& forest);
/// Inverse of SerializeForest. Fails with kUnsupportedVersion (valid magic, other version) or
/// kCorruptModel (bad magic, truncation, trailing bytes, checksum, missing or duplicate section,
/// or any structural check: counts within the bytes present before allocating, node children
/// strictly after their parent and in range, features, classes, labels and bit-set offsets in
/// range, OOB votes per row at most the tree count; stored halting tables that fail
/// HaltingTable::FromBytes, have other classes than the forest, more trees than the forest, or
/// repeat a (rule, alpha, T)). Never reads out of bounds, never allocates
/// more than a small multiple of `size`; a loaded forest is safe to walk.
Result<Forest> DeserializeForest(const uint8_t* data, size_t size);

}  // namespace urnforest

// Prediction (FullVote, ModelRows, PredictFull, AccumulateVotes) moved to urnforest/predict.h;
// included here so that existing users of forest.h keep compiling.
#include "urnforest/predict.h"  // IWYU pragma: export
