// Feature importance: mean decrease in Gini impurity and permutation importance, on each tree's
// in-bag / out-of-bag rows when the training data is given (urnforest/importance.h).
#include "urnforest/importance.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

#include "base/random.h"
#include "ensemble/bootstrap.h"
#include "tree/tree_walk.h"
#include "urnforest/predict.h"

namespace urnforest {
namespace {

// N * G(node) = N - sum_c n_c^2 / N for class weights n (N = their sum); 0 for an empty node.
double WeightedGini(const double* n, size_t k) {
  double total = 0.0, squares = 0.0;
  for (size_t c = 0; c < k; ++c) {
    total += n[c];
    squares += n[c] * n[c];
  }
  return total > 0.0 ? total - squares / total : 0.0;
}

// The labels of `data` as the model's class indices (matched by name), -1 kept.
Result<std::vector<int32_t>> ModelLabels(const Forest& forest, const Dataset& data) {
  if (!data.has_labels()) {
    return Status::Error(StatusCode::kMissingLabel, "feature importance needs labelled rows");
  }
  std::unordered_map<std::string, int32_t> index;
  const std::vector<std::string>& model = forest.schema().class_names;
  for (size_t c = 0; c < model.size(); ++c) index.emplace(model[c], static_cast<int32_t>(c));
  const std::vector<std::string>& have = data.schema().class_names;
  std::vector<int32_t> remap(have.size(), -1);
  for (size_t c = 0; c < have.size(); ++c) {
    const auto it = index.find(have[c]);
    remap[c] = it == index.end() ? -2 : it->second;
  }
  std::vector<int32_t> labels(data.num_rows());
  for (size_t r = 0; r < labels.size(); ++r) {
    const int32_t y = data.labels()[r];
    labels[r] = y < 0 ? -1 : remap[static_cast<size_t>(y)];
    if (labels[r] == -2) {
      return Status::Error(StatusCode::kUnknownClass, "row " + std::to_string(r) + ": label '" +
                                                          have[static_cast<size_t>(y)] +
                                                          "' is not one of the model's classes");
    }
  }
  return labels;
}

// True when the bootstrap samples of `forest` can be replayed on `data`: a random forest or
// bagging trained here, and `labels` equal to its training labels.
bool ReplaysBootstrap(const Forest& forest, const std::vector<int32_t>& labels) {
  const EnsembleKind kind = forest.options().ensemble;
  return forest.imported() == nullptr &&
         (kind == EnsembleKind::kRandomForest || kind == EnsembleKind::kBagging) &&
         labels == forest.train_labels();
}

}  // namespace

const char* ImportanceMethodName(ImportanceMethod method) {
  return method == ImportanceMethod::kPermutation ? "permutation" : "impurity";
}

Result<ImportanceMethod> ParseImportanceMethod(std::string_view name) {
  if (name == "impurity") return ImportanceMethod::kImpurity;
  if (name == "permutation") return ImportanceMethod::kPermutation;
  return Status::Error(StatusCode::kInvalidArgument, "importance method must be impurity or permutation, got '" +
                                                         std::string(name) + "'");
}

Result<std::vector<double>> FeatureImportance(const Forest& forest, const Dataset& data,
                                              const ImportanceOptions& options) {
  if (forest.num_trees() == 0) return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  Result<std::vector<int32_t>> labels_or = ModelLabels(forest, data);
  if (!labels_or.ok()) return labels_or.status();
  const std::vector<int32_t>& labels = labels_or.value();
  Result<std::vector<float>> rows_or = ModelRows(forest, data);
  if (!rows_or.ok()) return rows_or.status();
  std::vector<float>& x = rows_or.value();
  const size_t n = data.num_rows();
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  const int32_t T = forest.num_trees();
  const bool replay = ReplaysBootstrap(forest, labels);
  const TreeNode* nodes = forest.node_table().nodes.data();
  const uint32_t* bits = forest.node_table().category_bits.data();
  const uint32_t* counts = forest.category_counts().data();
  const std::vector<uint32_t>& roots = forest.tree_roots();
  std::vector<double> importance(m, 0.0);
  std::vector<uint32_t> weights(n, 1u);
  std::vector<double> per_tree(m);
  int32_t trees_counted = 0;
  std::vector<double> node_classes;
  std::vector<size_t> eval;  // rows a tree is evaluated on (permutation)
  std::vector<float> saved;
  for (int32_t t = 0; t < T; ++t) {
    if (replay) {
      internal::Rng rng = internal::Rng::ForStream(forest.options().seed, forest.SourceTree(t));
      internal::DrawBootstrap(&rng, static_cast<uint32_t>(n), weights.data());
    }
    std::fill(per_tree.begin(), per_tree.end(), 0.0);
    const uint32_t root = roots[static_cast<size_t>(t)];
    if (options.method == ImportanceMethod::kImpurity) {
      // Class weights per node of this tree (its nodes are contiguous from its root).
      uint32_t end = root + 1;
      for (uint32_t i = root; i < end; ++i) {
        if (nodes[i].feature >= 0) end = std::max(end, nodes[i].child_or_class + 2);
      }
      node_classes.assign(static_cast<size_t>(end - root) * k, 0.0);
      for (size_t r = 0; r < n; ++r) {
        if (weights[r] == 0 || labels[r] < 0) continue;
        const float* row = x.data() + r * m;
        uint32_t i = root;
        for (;;) {
          node_classes[(i - root) * k + static_cast<size_t>(labels[r])] += weights[r];
          const TreeNode& node = nodes[i];
          if (node.feature < 0) break;
          i = node.child_or_class + (internal::GoesLeft(node, row[node.feature], bits, counts) ? 0u : 1u);
        }
      }
      for (uint32_t i = root; i < end; ++i) {
        const TreeNode& node = nodes[i];
        if (node.feature < 0) continue;
        const uint32_t left = node.child_or_class;
        const double decrease = WeightedGini(&node_classes[(i - root) * k], k) -
                                WeightedGini(&node_classes[(left - root) * k], k) -
                                WeightedGini(&node_classes[(left + 1 - root) * k], k);
        per_tree[static_cast<size_t>(node.feature)] += std::max(decrease, 0.0);
      }
      double total = 0.0;
      for (double v : per_tree) total += v;
      if (total <= 0.0) continue;
      for (size_t f = 0; f < m; ++f) importance[f] += per_tree[f] / total;
      ++trees_counted;
      continue;
    }
    // Permutation: the tree's error on its evaluation rows, then with each feature permuted.
    eval.clear();
    for (size_t r = 0; r < n; ++r) {
      if ((replay ? weights[r] == 0 : true) && labels[r] >= 0) eval.push_back(r);
    }
    if (eval.empty()) continue;
    auto errors = [&]() {
      size_t wrong = 0;
      for (size_t r : eval) {
        wrong += internal::Walk(nodes, bits, counts, root, x.data() + r * m) != labels[r] ? 1 : 0;
      }
      return wrong;
    };
    const double base = static_cast<double>(errors());
    saved.resize(eval.size());
    for (size_t f = 0; f < m; ++f) {
      for (size_t j = 0; j < eval.size(); ++j) saved[j] = x[eval[j] * m + f];
      internal::Rng rng = internal::Rng::ForStream(options.seed, static_cast<uint64_t>(t) * m + f);
      std::vector<float> permuted(saved);
      for (size_t j = permuted.size(); j > 1; --j) {
        std::swap(permuted[j - 1], permuted[rng.Below(static_cast<uint32_t>(j))]);
      }
      for (size_t j = 0; j < eval.size(); ++j) x[eval[j] * m + f] = permuted[j];
      per_tree[f] = (static_cast<double>(errors()) - base) / static_cast<double>(eval.size());
      for (size_t j = 0; j < eval.size(); ++j) x[eval[j] * m + f] = saved[j];
    }
    for (size_t f = 0; f < m; ++f) importance[f] += per_tree[f];
    ++trees_counted;
  }
  if (trees_counted == 0) return importance;
  for (double& v : importance) v /= trees_counted;
  if (options.method == ImportanceMethod::kImpurity) {
    double total = 0.0;
    for (double v : importance) total += v;
    if (total > 0.0) {
      for (double& v : importance) v /= total;
    }
  }
  return importance;
}

}  // namespace urnforest
