// The perfect-tree layout built from a node table (tree/perfect_walk.h).
#include "tree/perfect_walk.h"

#include <limits>

namespace urnforest {
namespace internal {

namespace {

// Lays node `node` of `table` (and everything below it) out at slot `j` (level `level`) of tree
// slot `s` of `p`. A leaf above the last level pads: every slot below it names that leaf.
void Place(const NodeTable& table, PerfectTrees* p, size_t s, uint32_t node, uint32_t j, uint32_t level) {
  const TreeNode& n = table.nodes[node];
  if (level == p->depth) {  // a leaf slot: `node` is a leaf here unless only top levels are laid out
    const size_t at = s * p->leaves + (j - p->inner);
    p->leaf_index[at] = static_cast<int32_t>(node);
    p->leaf_class[at] = static_cast<int32_t>(n.child_or_class);
    p->leaf_row[at] = static_cast<int32_t>(n.aux);
    return;
  }
  const size_t at = s * p->inner + j;
  if (n.feature >= 0) {
    p->features[at] = static_cast<uint16_t>(n.feature);
    p->thresholds[at] = n.threshold;
    Place(table, p, s, n.child_or_class, 2 * j + 1, level + 1);
    Place(table, p, s, n.child_or_class + 1, 2 * j + 2, level + 1);
    return;
  }
  p->features[at] = 0;
  p->thresholds[at] = std::numeric_limits<float>::infinity();
  Place(table, p, s, node, 2 * j + 1, level + 1);
  Place(table, p, s, node, 2 * j + 2, level + 1);
}

}  // namespace

PerfectTrees BuildPerfectTrees(const NodeTable& table, size_t num_features,
                               const std::vector<uint8_t>& heights, uint32_t top_levels) {
  PerfectTrees p;
  const size_t n = table.nodes.size();
  if (n == 0 || num_features == 0 || num_features > 65536 || heights.size() != n) return p;
  std::vector<bool> is_child(n, false);
  for (const TreeNode& node : table.nodes) {
    if (node.feature < 0) continue;
    if (node.child_or_class + size_t{1} >= n) return p;
    is_child[node.child_or_class] = true;
    is_child[node.child_or_class + 1] = true;
  }
  std::vector<uint32_t> roots;
  uint32_t depth = 0;
  for (size_t i = 0; i < n; ++i) {
    if (is_child[i]) continue;
    const uint32_t h = top_levels > 0 && heights[i] > top_levels ? top_levels : heights[i];
    if (h > kPerfectMaxDepth) return p;
    roots.push_back(static_cast<uint32_t>(i));
    if (h > depth) depth = h;
  }
  const size_t inner = (size_t{1} << depth) - 1;
  const size_t leaves = size_t{1} << depth;
  if (top_levels == 0 && roots.size() * (inner + leaves) > kPerfectMaxSlotsPerNode * n) return p;
  p.depth = depth;
  p.inner = static_cast<uint32_t>(inner);
  p.leaves = static_cast<uint32_t>(leaves);
  p.features.assign(roots.size() * inner, 0);
  p.thresholds.assign(roots.size() * inner, 0.0f);
  p.leaf_index.assign(roots.size() * leaves, 0);
  p.leaf_class.assign(roots.size() * leaves, 0);
  p.leaf_row.assign(roots.size() * leaves, 0);
  p.slot_of_node.assign(n, PerfectTrees::kNoSlot);
  for (size_t s = 0; s < roots.size(); ++s) {
    p.slot_of_node[roots[s]] = static_cast<uint32_t>(s);
    Place(table, &p, s, roots[s], 0, 0);
  }
  return p;
}

}  // namespace internal
}  // namespace urnforest
