// Static pruning: copies the first k trees of an ordering into a smaller Forest, with its OOB
// votes.
#include "urnforest/prune.h"

#include <string>
#include <utility>

#include "base/random.h"
#include "ensemble/bootstrap.h"
#include "ensemble/forest_access.h"
#include "urnforest/predict.h"

namespace urnforest {

using internal::ForestAccess;
namespace {

Status Invalid(const std::string& m) { return Status::Error(StatusCode::kInvalidArgument, m); }

// Copies the tree rooted at old node `root` of `in` to the end of `out`'s tables, breadth first:
// an inner node's two children are allocated adjacently after it, preserving the node-table
// invariant. Fails if more than `budget` nodes would be copied (nodes shared between trees).
Status CopyTree(const Forest& in, uint32_t root, size_t budget, Forest* out, uint32_t* new_root) {
  const NodeTable& from = in.node_table();
  NodeTable& to = ForestAccess::table(*out);
  std::vector<std::pair<uint32_t, uint32_t>> queue;  // (old index, new index)
  *new_root = static_cast<uint32_t>(to.nodes.size());
  to.nodes.push_back(from.nodes[root]);
  queue.emplace_back(root, *new_root);
  for (size_t head = 0; head < queue.size(); ++head) {
    const auto [old_index, new_index] = queue[head];
    Forest::Node node = from.nodes[old_index];
    if (node.feature >= 0) {
      if (to.nodes.size() + 2 > budget) return Invalid("the forest's trees share nodes");
      const uint32_t left = static_cast<uint32_t>(to.nodes.size());
      to.nodes.push_back(from.nodes[node.child_or_class]);
      to.nodes.push_back(from.nodes[node.child_or_class + 1]);
      queue.emplace_back(node.child_or_class, left);
      queue.emplace_back(node.child_or_class + 1, left + 1);
      node.child_or_class = left;
      if (node.aux & Forest::kCategoricalSplit) {
        const uint32_t offset = node.aux >> 2;
        const uint32_t words = in.CategoryWords(node.feature);
        const size_t new_offset = to.category_bits.size();
        to.category_bits.insert(to.category_bits.end(), from.category_bits.begin() + offset,
                                from.category_bits.begin() + offset + words);
        node.aux = (node.aux & 3u) | (static_cast<uint32_t>(new_offset) << 2);
      }
    }
    to.nodes[new_index] = node;
  }
  return Status::Ok();
}

Status RecomputeOob(const Forest& full, const Dataset& data, Forest* pruned) {
  const std::vector<int32_t>& labels = full.train_labels();
  if (data.num_rows() != labels.size() || data.labels() != labels) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "out-of-bag votes can only be recomputed on the exact training data (" +
                             std::to_string(labels.size()) + " labelled rows as trained)");
  }
  Result<std::vector<float>> rows = ModelRows(*pruned, data);
  if (!rows.ok()) return rows.status();
  const uint32_t n = static_cast<uint32_t>(data.num_rows());
  const size_t classes = static_cast<size_t>(pruned->num_classes());
  const size_t features = static_cast<size_t>(pruned->num_features());
  std::vector<uint32_t>& oob = ForestAccess::oob_votes(*pruned);
  std::vector<uint32_t> weights(n);
  for (int32_t t = 0; t < pruned->num_trees(); ++t) {
    internal::Rng rng = internal::Rng::ForStream(pruned->options().seed, pruned->SourceTree(t));
    internal::DrawBootstrap(&rng, n, weights.data());
    for (uint32_t r = 0; r < n; ++r) {
      if (weights[r] != 0) continue;
      ++oob[r * classes + pruned->TreeVote(t, rows.value().data() + r * features)];
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Forest> PruneForest(const Forest& forest, const std::vector<int32_t>& order, int32_t keep,
                           const Dataset* training_data) {
  const int32_t T = forest.num_trees();
  if (T == 0) return Invalid("the forest has no trees");
  if (forest.imported() != nullptr) {
    return Invalid("static pruning of an imported forest is not supported (its leaves hold the source "
                   "library's values); halt it instead, or prune before exporting it");
  }
  if (keep < 1 || static_cast<size_t>(keep) > order.size()) {
    return Invalid("keep must be in 1.." + std::to_string(order.size()) + ", got " +
                   std::to_string(keep));
  }
  std::vector<char> seen(T, 0);
  for (int32_t t : order) {
    if (t < 0 || t >= T) {
      return Invalid("the order names tree " + std::to_string(t) + ", the forest has " +
                     std::to_string(T));
    }
    if (seen[t]) return Invalid("the order repeats tree " + std::to_string(t));
    seen[t] = 1;
  }
  Forest out;
  ForestAccess::schema(out) = forest.schema();
  ForestAccess::options(out) = forest.options();
  ForestAccess::options(out).num_trees = keep;
  ForestAccess::RebuildCaches(out);
  ForestAccess::train_labels(out) = forest.train_labels();
  ForestAccess::oob_votes(out).assign(forest.oob_votes().size(), 0u);
  ForestAccess::tree_roots(out).reserve(keep);
  ForestAccess::source_trees(out).reserve(keep);
  for (int32_t i = 0; i < keep; ++i) {
    const int32_t t = order[i];
    uint32_t root = 0;
    Status status =
        CopyTree(forest, forest.tree_roots()[t], forest.node_table().nodes.size(), &out, &root);
    if (!status.ok()) return status;
    ForestAccess::tree_roots(out).push_back(root);
    ForestAccess::source_trees(out).push_back(forest.SourceTree(t));
    if (!forest.tree_weights().empty())
      ForestAccess::tree_weights(out).push_back(forest.tree_weights()[t]);
  }
  if (training_data != nullptr && forest.options().ensemble != EnsembleKind::kAdaBoost &&
      forest.options().ensemble != EnsembleKind::kVoteBoost) {
    Status status = RecomputeOob(forest, *training_data, &out);
    if (!status.ok()) return status;
  }
  return out;
}

}  // namespace urnforest
