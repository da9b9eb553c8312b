// Minimal cost-complexity pruning ([BFOS84] ch. 3): the weakest-link sequence and its CV choice.
#include "tree/cost_complexity_pruning.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "tree/tree_walk.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace internal {

int32_t PruningTree::Majority(int32_t node) const {
  return Plurality(counts.data() + static_cast<size_t>(node) * classes,
                   static_cast<size_t>(classes));
}

int64_t PruningTree::LeafErrors(int32_t node) const {
  const int64_t* c = counts.data() + static_cast<size_t>(node) * classes;
  int64_t total = 0;
  for (int32_t k = 0; k < classes; ++k) total += c[k];
  return total - c[Majority(node)];
}

PruningSequence WeakestLinkSequence(const PruningTree& tree) {
  const int32_t n = tree.num_nodes();
  PruningSequence seq;
  seq.collapse_alpha.assign(n, 0.0);
  std::vector<int32_t> parent(n, -1);
  for (int32_t t = 0; t < n; ++t) {
    if (tree.left[t] >= 0) parent[tree.left[t]] = parent[tree.left[t] + 1] = t;
  }
  int64_t total = 0;
  for (int32_t k = 0; k < tree.classes; ++k) total += tree.counts[k];
  const double scale = total > 0 ? static_cast<double>(total) : 1.0;

  std::vector<bool> collapsed(n, false);
  std::vector<int64_t> branch_errors(n);
  std::vector<int32_t> branch_leaves(n);
  std::vector<double> g(n);
  seq.alphas.push_back(0.0);
  for (;;) {
    // Branch error R(T_t) and leaf count |T_t| of the current subtree, children before parents.
    for (int32_t t = n - 1; t >= 0; --t) {
      if (tree.left[t] < 0 || collapsed[t]) {
        branch_errors[t] = tree.LeafErrors(t);
        branch_leaves[t] = 1;
      } else {
        const int32_t l = tree.left[t];
        branch_errors[t] = branch_errors[l] + branch_errors[l + 1];
        branch_leaves[t] = branch_leaves[l] + branch_leaves[l + 1];
      }
    }
    seq.leaves.push_back(branch_leaves[0]);
    if (tree.left.empty() || tree.left[0] < 0 || collapsed[0]) break;
    double g_min = std::numeric_limits<double>::infinity();
    for (int32_t t = 0; t < n; ++t) {
      if (tree.left[t] < 0 || collapsed[t]) continue;
      g[t] = static_cast<double>(tree.LeafErrors(t) - branch_errors[t]) /
             static_cast<double>(branch_leaves[t] - 1);
      g_min = std::min(g_min, g[t]);
    }
    const double alpha = g_min / scale;
    if (alpha == seq.alphas.back()) {
      seq.leaves.pop_back();  // Collapsing at the previous alpha (T_1 = T(0)): same subtree entry.
    } else {
      seq.alphas.push_back(alpha);
    }
    // Parents come before children: a node under a collapsed one is removed at the same alpha.
    for (int32_t t = 0; t < n; ++t) {
      if (tree.left[t] < 0 || collapsed[t]) continue;
      if ((parent[t] >= 0 && collapsed[parent[t]]) || g[t] == g_min) {
        collapsed[t] = true;
        seq.collapse_alpha[t] = alpha;
      }
    }
  }
  return seq;
}

std::vector<bool> LeavesAt(const PruningTree& tree, const PruningSequence& sequence, double alpha) {
  std::vector<bool> leaf(tree.num_nodes());
  for (int32_t t = 0; t < tree.num_nodes(); ++t) {
    leaf[t] = tree.left[t] < 0 || sequence.collapse_alpha[t] <= alpha;
  }
  return leaf;
}

int32_t ChooseSubtree(const std::vector<double>& cv_errors, double total, double se_rule) {
  int32_t best = 0;
  for (int32_t k = 1; k < static_cast<int32_t>(cv_errors.size()); ++k) {
    if (cv_errors[k] <= cv_errors[best]) best = k;  // ties: the smaller tree
  }
  const double e = cv_errors[best];
  const double se = total > 0.0 ? std::sqrt(std::max(0.0, e * (total - e) / total)) : 0.0;
  const double limit = e + se_rule * se;
  int32_t chosen = best;
  for (int32_t k = best + 1; k < static_cast<int32_t>(cv_errors.size()); ++k) {
    if (cv_errors[k] <= limit) chosen = k;
  }
  return chosen;
}

TreeGrower::TreeGrower(const TrainingData& data, const float* row_major, const CartParams& params,
                       const CostComplexityParams& pruning)
    : data_(data), row_major_(row_major), pruning_(pruning), builder_(data, params) {}

Status TreeGrower::GrowCounted(const uint32_t* weights, Rng* rng, NodeTable* into, uint32_t* root,
                               PruningTree* tree) {
  Status status = builder_.Build(weights, rng, into, root, &node_counts_);
  if (!status.ok()) return status;
  const uint32_t n = static_cast<uint32_t>(into->nodes.size()) - *root;
  tree->classes = data_.classes;
  tree->left.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const TreeNode& node = into->nodes[*root + i];
    tree->left[i] = node.feature < 0 ? -1 : static_cast<int32_t>(node.child_or_class - *root);
  }
  tree->counts = node_counts_;
  return Status::Ok();
}

Status TreeGrower::CrossValidate(const uint32_t* weights, const PruningSequence& sequence,
                                 Rng* rng, std::vector<double>* errors) {
  const size_t rows = data_.rows;
  const uint32_t folds = static_cast<uint32_t>(pruning_.cv_folds);
  // Stratified folds over the distinct sample rows.
  fold_of_.assign(rows, 0u);
  std::vector<uint32_t> members;
  uint32_t dealt = 0;
  for (int32_t c = 0; c < data_.classes; ++c) {
    members.clear();
    for (size_t r = 0; r < rows; ++r) {
      if (weights[r] > 0 && data_.labels[r] == static_cast<uint32_t>(c)) {
        members.push_back(static_cast<uint32_t>(r));
      }
    }
    for (size_t i = members.size(); i > 1; --i) {
      std::swap(members[i - 1], members[rng->Below(static_cast<uint32_t>(i))]);
    }
    for (uint32_t r : members) fold_of_[r] = dealt++ % folds;
  }
  const size_t subtrees = sequence.alphas.size();
  std::vector<double> beta(subtrees);
  for (size_t k = 0; k < subtrees; ++k) {
    beta[k] = k + 1 < subtrees ? std::sqrt(sequence.alphas[k] * sequence.alphas[k + 1])
                               : std::numeric_limits<double>::infinity();
  }
  errors->assign(subtrees, 0.0);
  const size_t features = static_cast<size_t>(data_.features);
  PruningTree fold_tree;
  std::vector<int32_t> path;
  for (uint32_t v = 0; v < std::min<uint32_t>(folds, dealt); ++v) {
    fold_weights_.assign(weights, weights + rows);
    for (size_t r = 0; r < rows; ++r) {
      if (fold_of_[r] == v) fold_weights_[r] = 0;
    }
    scratch_.nodes.clear();
    scratch_.category_bits.clear();
    uint32_t root = 0;
    Status status = GrowCounted(fold_weights_.data(), rng, &scratch_, &root, &fold_tree);
    if (!status.ok()) return status;
    const PruningSequence fold_sequence = WeakestLinkSequence(fold_tree);
    for (size_t r = 0; r < rows; ++r) {
      if (weights[r] == 0 || fold_of_[r] != v) continue;
      path.clear();
      const float* row = row_major_ + r * features;
      int32_t t = 0;
      for (;;) {
        path.push_back(t);
        const TreeNode& node = scratch_.nodes[root + t];
        if (node.feature < 0) break;
        const bool left = GoesLeft(node, row[node.feature], scratch_.category_bits.data(),
                                   data_.category_counts.data());
        t = fold_tree.left[t] + (left ? 0 : 1);
      }
      for (size_t k = 0; k < subtrees; ++k) {
        size_t i = 0;
        while (i + 1 < path.size() && fold_sequence.collapse_alpha[path[i]] > beta[k]) ++i;
        if (fold_tree.Majority(path[i]) != static_cast<int32_t>(data_.labels[r])) {
          (*errors)[k] += weights[r];
        }
      }
    }
  }
  return Status::Ok();
}

Status TreeGrower::Rewrite(const PruningTree& tree, const std::vector<bool>& leaf, uint32_t root,
                           size_t bits_before, NodeTable* table) {
  const std::vector<TreeNode> old(table->nodes.begin() + root, table->nodes.end());
  const std::vector<uint32_t> old_bits(table->category_bits.begin() + bits_before,
                                       table->category_bits.end());
  table->nodes.resize(root);
  table->category_bits.resize(bits_before);
  std::vector<TreeNode>& nodes = table->nodes;
  nodes.push_back(TreeNode{-1, 0.0f, 0, 0});
  // Same allocation order as TreeBuilder::Build: children appended when their parent is
  // processed, left subtree first, so an unchanged tree keeps its exact layout.
  std::vector<std::pair<int32_t, uint32_t>> stack{{0, root}};
  while (!stack.empty()) {
    const auto [t, at] = stack.back();
    stack.pop_back();
    if (leaf[t]) {
      nodes[at] = TreeNode{-1, 0.0f, static_cast<uint32_t>(tree.Majority(t)), 0};
      continue;
    }
    TreeNode node = old[t];
    const uint32_t left = static_cast<uint32_t>(nodes.size());
    nodes.push_back(TreeNode{-1, 0.0f, 0, 0});
    nodes.push_back(TreeNode{-1, 0.0f, 0, 0});
    node.child_or_class = left;
    if (node.aux & TreeNode::kCategoricalSplit) {
      const size_t offset = (node.aux >> 2) - bits_before;
      const uint32_t words = (data_.category_counts[node.feature] + 31u) / 32u;
      const uint32_t now = static_cast<uint32_t>(table->category_bits.size());
      table->category_bits.insert(table->category_bits.end(), old_bits.begin() + offset,
                                    old_bits.begin() + offset + words);
      node.aux = (node.aux & 3u) | (now << 2);
    }
    nodes[at] = node;
    stack.push_back({tree.left[t] + 1, left + 1});
    stack.push_back({tree.left[t], left});
  }
  return Status::Ok();
}

Status TreeGrower::Grow(const uint32_t* weights, Rng* rng, NodeTable* table, uint32_t* root) {
  if (!pruning_.enabled) return builder_.Build(weights, rng, table, root);
  const size_t bits_before = table->category_bits.size();
  PruningTree tree;
  Status status = GrowCounted(weights, rng, table, root, &tree);
  if (!status.ok()) return status;
  const PruningSequence sequence = WeakestLinkSequence(tree);
  int32_t chosen = 0;
  if (sequence.alphas.size() > 1) {
    std::vector<double> errors;
    status = CrossValidate(weights, sequence, rng, &errors);
    if (!status.ok()) return status;
    double total = 0.0;
    for (size_t r = 0; r < data_.rows; ++r) total += weights[r];
    chosen = ChooseSubtree(errors, total, pruning_.se_rule);
  }
  const std::vector<bool> leaf = LeavesAt(tree, sequence, sequence.alphas[chosen]);
  bool unchanged = true;
  for (int32_t t = 0; t < tree.num_nodes(); ++t) unchanged &= leaf[t] == (tree.left[t] < 0);
  if (unchanged) return Status::Ok();
  return Rewrite(tree, leaf, *root, bits_before, table);
}

}  // namespace internal
}  // namespace urnforest
