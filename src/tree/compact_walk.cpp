// The compact walk layout built from a node table (tree/compact_walk.h).
#include "tree/compact_walk.h"

#include <cmath>

namespace urnforest {
namespace internal {

namespace {

// Fills `out` (nodes already sized) from `table`; false when some node cannot be laid out.
bool LayOut(const NodeTable& table, size_t num_features, CompactTrees* out) {
  uint32_t bits = 0;
  while (bits < 31 && (size_t{1} << bits) < num_features) ++bits;
  if (num_features == 0 || (size_t{1} << bits) < num_features) return false;
  out->feature_bits = bits;
  out->feature_mask = (1u << bits) - 1u;
  const uint64_t offset_limit = uint64_t{1} << (32 - bits);
  for (size_t i = 0; i < table.nodes.size(); ++i) {
    const TreeNode& node = table.nodes[i];
    CompactNode& c = out->nodes[i];
    if (node.feature < 0) {
      if (node.child_or_class > CompactTrees::kPayloadMask) return false;
      const uint32_t nan_bits = CompactTrees::kQuietNaN | node.child_or_class;
      std::memcpy(&c.threshold, &nan_bits, sizeof c.threshold);
      c.link = 0;
      continue;
    }
    if ((node.aux & TreeNode::kCategoricalSplit) != 0 || std::isnan(node.threshold)) return false;
    if (static_cast<size_t>(node.feature) >= num_features || node.child_or_class <= i) return false;
    const uint64_t offset = node.child_or_class - i;
    if (offset >= offset_limit) return false;
    c.threshold = node.threshold;
    c.link = static_cast<uint32_t>(offset << bits) | static_cast<uint32_t>(node.feature);
  }
  return true;
}

}  // namespace

std::shared_ptr<const CompactTrees> BuildCompactTrees(const NodeTable& table, size_t num_features) {
  auto out = std::make_shared<CompactTrees>();
  out->source_nodes = table.nodes.size();
  out->source_features = num_features;
  out->nodes.resize(table.nodes.size());
  if (!LayOut(table, num_features, out.get())) {
    out->nodes.clear();
    out->nodes.shrink_to_fit();
  }
  return out;
}

}  // namespace internal
}  // namespace urnforest
