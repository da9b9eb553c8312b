// The compact walk layout built from a node table (tree/compact_walk.h).
#include "tree/compact_walk.h"

#include <algorithm>
#include <cmath>

namespace urnforest {
namespace internal {

namespace {

// Fills out->row_classes (class per leaf-value row) from the leaves of `table`; false when some
// leaf's row does not fit the payload or two leaves of one row have different classes.
bool FillRowClasses(const NodeTable& table, CompactTrees* out) {
  std::vector<int32_t>& classes = out->row_classes;
  for (const TreeNode& node : table.nodes) {
    if (node.feature >= 0) continue;
    if (node.aux > CompactTrees::kPayloadMask || node.child_or_class > 0x7fffffffu) return false;
    if (node.aux >= classes.size()) classes.resize(node.aux + size_t{1}, -1);
    const int32_t c = static_cast<int32_t>(node.child_or_class);
    if (classes[node.aux] != -1 && classes[node.aux] != c) return false;
    classes[node.aux] = c;
  }
  return true;
}

// Fills `out` (nodes already sized; payload_is_row chosen) from `table`; false when some node
// cannot be laid out.
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
      const uint32_t payload = out->payload_is_row ? node.aux : node.child_or_class;
      if (payload > CompactTrees::kPayloadMask) return false;
      const uint32_t nan_bits = CompactTrees::kQuietNaN | payload;
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

// out->heights from `table` (pre-order: children come after their parent, so one backward pass).
void FillHeights(const NodeTable& table, CompactTrees* out) {
  std::vector<uint8_t>& h = out->heights;
  h.assign(table.nodes.size(), 0);
  for (size_t i = table.nodes.size(); i-- > 0;) {
    const TreeNode& node = table.nodes[i];
    if (node.feature < 0) continue;
    if (node.child_or_class + size_t{1} >= h.size()) {  // not a walkable table: never a fixed walk
      h[i] = 255;
      continue;
    }
    const uint32_t below = std::max(h[node.child_or_class], h[node.child_or_class + 1]);
    h[i] = static_cast<uint8_t>(std::min<uint32_t>(255, below + 1));
  }
}

}  // namespace

std::shared_ptr<const CompactTrees> BuildCompactTrees(const NodeTable& table, size_t num_features,
                                                      bool leaf_rows) {
  auto out = std::make_shared<CompactTrees>();
  out->payload_is_row = leaf_rows && FillRowClasses(table, out.get());
  if (!out->payload_is_row) {
    out->row_classes.clear();
    out->row_classes.shrink_to_fit();
  }
  out->source_nodes = table.nodes.size();
  out->source_features = num_features;
  out->nodes.resize(table.nodes.size());
  if (LayOut(table, num_features, out.get())) {
    FillHeights(table, out.get());
  } else {
    out->nodes.clear();
    out->nodes.shrink_to_fit();
    out->row_classes.clear();
    out->payload_is_row = false;
    out->heights.clear();
  }
  return out;
}

}  // namespace internal
}  // namespace urnforest
