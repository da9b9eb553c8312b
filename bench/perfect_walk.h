#pragma once
// Bench-only (bench/walk_kernels.cpp): the perfect-tree layout of a shallow forest and its
// branch-free walk, measured against the compact walk (tree/compact_walk.h) and not in the
// prediction path: it gave no gain natively and 0.96-0.98 of the compact walk's time in wasm
// (docs/benchmarks.md, "Cost per tree, third pass"); it reached the reference leaf on every test of
// the commit that had it in CompactWalk (551d3c7). Built when every tree of a node table is at most
// kPerfectMaxDepth deep. Every tree is padded to a complete binary tree of the forest's depth D in
// breadth-first order: inner node j (0 <= j < 2^D - 1) keeps a feature and a threshold in two
// parallel arrays, its children are 2j + 1 and 2j + 2, so one step is
//     j = 2j + 1 + (row[feature[j]] > threshold[j])
// (no child offset to load), and after exactly D steps j - (2^D - 1) indexes the tree's 2^D leaf
// slots. A leaf shallower than D becomes an inner node with threshold +inf and feature 0, and every
// leaf slot below it names that same leaf, so the direction such a padding node sends a row (even
// +inf) does not matter. Like the compact walk it serves rows without NaN only (for those, x > t is
// exactly !(x <= t), the node table's test); rows with NaN keep the node table's walk and its
// missing-value directions.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "urnforest/node_table.h"

namespace urnforest {
namespace bench_perfect {

/// The deepest forest laid out as perfect trees (2^8 leaf slots a tree).
constexpr uint32_t kPerfectMaxDepth = 8;
/// The most inner and leaf slots per node of the table the padding may take (sparse shallow trees
/// are refused instead of growing many-fold).
constexpr size_t kPerfectMaxSlotsPerNode = 4;

/// The perfect-tree layout of every tree of a node table (see the file comment). Empty (`depth`
/// 0 and no slots) when the table has a tree deeper than kPerfectMaxDepth, more than 65,536
/// features, or cannot be walked so.
struct PerfectTrees {
  static constexpr uint32_t kNoSlot = 0xffffffffu;
  uint32_t depth = 0;   ///< D: steps of every walk (the deepest tree's depth).
  uint32_t inner = 0;   ///< 2^D - 1: inner slots per tree.
  uint32_t leaves = 0;  ///< 2^D: leaf slots per tree; 0 when the layout is empty.
  /// Inner slot j of tree slot s at [s * inner + j]: split feature and threshold.
  std::vector<uint16_t> features;
  std::vector<float> thresholds;
  /// Leaf slot j of tree slot s at [s * leaves + j]: the node-table index of the leaf it stands
  /// for, its class (child_or_class) and its leaf-value row (aux).
  std::vector<int32_t> leaf_index;
  std::vector<int32_t> leaf_class;
  std::vector<int32_t> leaf_row;
  /// slot_of_node[i]: the tree slot of the tree whose root is node i, kNoSlot for other nodes.
  std::vector<uint32_t> slot_of_node;

  bool empty() const { return leaves == 0; }
};

namespace detail {

// Lays node `node` of `table` (and everything below it) out at slot `j` (level `level`) of tree
// slot `s` of `p`. A leaf above the last level pads: every slot below it names that leaf.
inline void Place(const NodeTable& table, PerfectTrees* p, size_t s, uint32_t node, uint32_t j, uint32_t level) {
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

}  // namespace detail

/// The perfect layout of `table` (rows of `num_features` features): one tree per node that no
/// inner node points at. `heights` are the compact layout's (CompactTrees::heights, node i's
/// height capped at 255); call it only on a table the compact layout accepted (children after
/// their parent, no categorical split, no NaN threshold). Allocates about 6 bytes per inner slot
/// and 12 per leaf slot, plus 4 per node; empty when the table does not qualify (see
/// PerfectTrees) or when padding would need more than kPerfectMaxSlotsPerNode slots per node.
/// The depth-d trees of boosting are complete or nearly so (about 1 slot per node).
/// `top_levels` > 0 (bench/walk_kernels.cpp): lay out only the first `top_levels` levels of every
/// tree whatever its depth; a leaf slot then names the node (maybe inner) reached at that level.
inline PerfectTrees BuildPerfectTrees(const NodeTable& table, size_t num_features,
                                      const std::vector<uint8_t>& heights, uint32_t top_levels = 0) {
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
    detail::Place(table, &p, s, roots[s], 0, 0);
  }
  return p;
}


/// The perfect walk of walks i .. i + kGroup - 1 (walk x: row row_ptr(x) from the tree rooted at
/// node root_of(x)); writes what kEnd names (kEndClass 0, kEndLeafIndex 1, kEndLeafRow 2, as in
/// tree/compact_walk.h) to out[i ..]. Returns false, having written nothing, when some walk does not
/// start at a tree root of the layout.
template <int kEnd, size_t kGroup, class RootOf, class RowPtr>
inline bool PerfectGroup(const PerfectTrees& p, size_t i, RootOf& root_of, RowPtr& row_ptr, int32_t* out) {
  uint32_t slot[kGroup];
  bool same = true;
  for (size_t g = 0; g < kGroup; ++g) {
    slot[g] = p.slot_of_node[root_of(i + g)];
    if (slot[g] == PerfectTrees::kNoSlot) return false;
    same = same && slot[g] == slot[0];
  }
  const float* rows[kGroup];
  for (size_t g = 0; g < kGroup; ++g) rows[g] = row_ptr(i + g);
  const int32_t* ends = kEnd == 1 ? p.leaf_index.data() : kEnd == 2 ? p.leaf_row.data() : p.leaf_class.data();
  uint32_t j[kGroup];
  for (size_t g = 0; g < kGroup; ++g) j[g] = 0;
  if (same) {
    // One tree for the whole group (a block of rows through one tree): one base for every walk.
    const uint16_t* f = p.features.data() + size_t{slot[0]} * p.inner;
    const float* t = p.thresholds.data() + size_t{slot[0]} * p.inner;
    for (uint32_t s = 0; s < p.depth; ++s) {
      for (size_t g = 0; g < kGroup; ++g) j[g] = 2 * j[g] + 1 + static_cast<uint32_t>(rows[g][f[j[g]]] > t[j[g]]);
    }
    const int32_t* e = ends + size_t{slot[0]} * p.leaves;
    for (size_t g = 0; g < kGroup; ++g) out[i + g] = e[j[g] - p.inner];
    return true;
  }
  // Trees differ (one row through several trees): each walk indexes from its tree's base.
  uint32_t base[kGroup];
  for (size_t g = 0; g < kGroup; ++g) base[g] = slot[g] * p.inner;
  const uint16_t* f = p.features.data();
  const float* t = p.thresholds.data();
  for (uint32_t s = 0; s < p.depth; ++s) {
    for (size_t g = 0; g < kGroup; ++g) {
      const uint32_t at = base[g] + j[g];
      j[g] = 2 * j[g] + 1 + static_cast<uint32_t>(rows[g][f[at]] > t[at]);
    }
  }
  for (size_t g = 0; g < kGroup; ++g) out[i + g] = ends[size_t{slot[g]} * p.leaves + j[g] - p.inner];
  return true;
}

}  // namespace bench_perfect
}  // namespace urnforest
