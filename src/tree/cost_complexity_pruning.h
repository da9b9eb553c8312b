#pragma once
// Minimal cost-complexity pruning (Breiman, Friedman, Olshen and Stone 1984, "Classification and
// Regression Trees", ch. 3 and 11), derived from the book's definitions; internal to the trainer.
//
// For a tree T grown on a (weighted) sample of total weight N, R(t) is the weight of the sample
// rows at node t that t's majority class misclassifies, divided by N; R(T_t) sums R over the leaves
// of the branch T_t at t, and |T_t| counts them. Weakest-link pruning collapses, one step after
// the other, every inner node with the smallest
//     g(t) = (R(t) - R(T_t)) / (|T_t| - 1)
// in the current subtree; the step's alpha is that smallest g. This gives the nested subtrees
// T_1 > T_2 > ... > T_K = {root} and 0 <= alpha_1 < alpha_2 < ... < alpha_K, T_k being the
// smallest subtree minimising R(T) + alpha |T| for alpha in [alpha_k, alpha_k+1). T_1 = T(0) is the
// smallest subtree with the full tree's training error: the full tree itself when it was grown to
// purity (every inner node then has g > 0).
//
// Choosing alpha (TreePruning::kCostComplexityCV): V-fold cross-validation on the tree's own sample.
// The distinct rows of the sample (a row's bootstrap copies stay together, otherwise copies of a
// held-out row would be in the training folds) are split into V folds stratified by class (each
// class's rows shuffled with the tree's random stream, then dealt to the folds in turn, continuing
// across classes). A tree grown on the other V - 1 folds with the same learner is pruned to
// beta_k = sqrt(alpha_k alpha_k+1) (beta_K = infinity) and its errors on the held-out fold, weighted
// by multiplicity, are summed over the folds: R_cv(k). SE(k) = sqrt(R_cv (1 - R_cv) / N). The
// chosen k is the largest (smallest tree) with R_cv(k) <= min_j R_cv(j) + se_rule * SE(argmin),
// argmin being the smallest tree attaining the minimum; se_rule = 1 is the book's 1-SE rule.
#include <cstdint>
#include <vector>

#include "base/random.h"
#include "tree/cart.h"
#include "urnforest/node_table.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// A grown tree as pruning sees it. Nodes are numbered 0..n-1 with the root 0; the children of an
/// inner node are adjacent (left[t], left[t] + 1) and numbered after it.
struct PruningTree {
  int32_t classes = 2;
  std::vector<int32_t> left;    ///< Left child per node; -1 for a leaf.
  std::vector<int64_t> counts;  ///< Weighted class counts of the sample per node (n x classes).

  int32_t num_nodes() const { return static_cast<int32_t>(left.size()); }
  /// Majority class at `node` (ties: lowest index): the vote of `node` as a leaf.
  int32_t Majority(int32_t node) const;
  /// Weight misclassified by `node` as a leaf (its total minus its majority count).
  int64_t LeafErrors(int32_t node) const;
};

/// The weakest-link sequence of a tree.
struct PruningSequence {
  /// alpha_1 = 0 < alpha_2 < ... < alpha_K: subtree k is the tree pruned at alphas[k - 1].
  /// Alphas are in units of misclassified weight per leaf, divided by the root's total weight.
  std::vector<double> alphas;
  std::vector<int32_t> leaves;  ///< |T_k| for each alpha.
  /// Per node: an inner node is a leaf of the pruned tree at alpha exactly when its collapse
  /// alpha is <= alpha (non-increasing from a node to its descendants). 0 for leaves.
  std::vector<double> collapse_alpha;
};

/// Weakest-link pruning of `tree` (exact for integer counts: each g is one correctly rounded
/// quotient of integers, so equal g compare equal). Precondition: a well-formed PruningTree.
PruningSequence WeakestLinkSequence(const PruningTree& tree);

/// Per node, true when it is a leaf of the subtree pruned at `alpha` (>= 0, may be infinity).
std::vector<bool> LeavesAt(const PruningTree& tree, const PruningSequence& sequence, double alpha);

/// Index k (0-based) of the subtree chosen from cross-validated errors `cv_errors` (one per
/// subtree of the sequence, as weights) on `total` > 0 sample weight, by the k-SE rule above.
int32_t ChooseSubtree(const std::vector<double>& cv_errors, double total, double se_rule);

/// Whether and how TreeGrower prunes (the trainer's TreePruningOptions, as the tree layer sees
/// them).
struct CostComplexityParams {
  bool enabled = false;  ///< false: TreeGrower is TreeBuilder itself.
  int32_t cv_folds = 10;  ///< V of the internal cross-validation.
  double se_rule = 1.0;   ///< k of the k-SE rule.
};

/// Grows trees with TreeBuilder and, when pruning is enabled, prunes each one as described at the
/// top of this file before it is stored. Disabled, it is TreeBuilder itself:
/// same nodes, same random stream, same bytes.
class TreeGrower {
 public:
  /// `row_major` (rows x features floats, the training rows) must outlive the grower.
  TreeGrower(const TrainingData& data, const float* row_major, const CartParams& params,
             const CostComplexityParams& pruning);

  /// As TreeBuilder::Build: grows (and prunes) one tree on the rows with weights[row] > 0,
  /// appending the final tree's nodes and bit sets to `table`. Fails only with kLimitExceeded.
  Status Grow(const uint32_t* weights, Rng* rng, NodeTable* table, uint32_t* root);

 private:
  /// Grows a tree into `into` and returns it as a PruningTree (nodes relative to *root).
  Status GrowCounted(const uint32_t* weights, Rng* rng, NodeTable* into, uint32_t* root,
                     PruningTree* tree);
  /// Cross-validated weighted error of each subtree of `sequence` (the full tree's).
  Status CrossValidate(const uint32_t* weights, const PruningSequence& sequence, Rng* rng,
                       std::vector<double>* errors);
  /// Replaces the tree at `root` (the last one in `table`) by its subtree with leaves `leaf`.
  Status Rewrite(const PruningTree& tree, const std::vector<bool>& leaf, uint32_t root,
                 size_t bits_before, NodeTable* table);

  const TrainingData& data_;
  const float* row_major_;
  CostComplexityParams pruning_;
  TreeBuilder builder_;
  NodeTable scratch_;  ///< Fold trees are grown here.
  std::vector<int64_t> node_counts_;
  std::vector<uint32_t> fold_of_;      ///< Fold per training row (sample rows only).
  std::vector<uint32_t> fold_weights_;
};

}  // namespace internal
}  // namespace urnforest
