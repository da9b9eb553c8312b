#pragma once
// Internal: the perfect-tree layout of a shallow forest and its branch-free walk, built beside the
// compact layout (tree/compact_walk.h) when every tree of a node table is at most
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
#include <vector>

#include "urnforest/node_table.h"

namespace urnforest {
namespace internal {

/// The deepest forest laid out as perfect trees (2^8 leaf slots a tree; measured:
/// docs/benchmarks.md, "Cost per tree, third pass").
constexpr uint32_t kPerfectMaxDepth = 8;
/// The most inner and leaf slots per node of the table the padding may take (sparse shallow trees
/// keep the compact walk instead of growing many-fold).
constexpr size_t kPerfectMaxSlotsPerNode = 4;

/// The perfect-tree layout of every tree of a node table (see the file comment). Empty (`depth`
/// 0 and no slots) when the table has a tree deeper than kPerfectMaxDepth, more than 65,536
/// features, or cannot be walked so (the caller then keeps the compact walk).
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

/// The perfect layout of `table` (rows of `num_features` features): one tree per node that no
/// inner node points at. `heights` are the compact layout's (CompactTrees::heights, node i's
/// height capped at 255); call it only on a table the compact layout accepted (children after
/// their parent, no categorical split, no NaN threshold). Allocates about 6 bytes per inner slot
/// and 12 per leaf slot, plus 4 per node; empty when the table does not qualify (see
/// PerfectTrees) or when padding would need more than kPerfectMaxSlotsPerNode slots per node.
/// The depth-d trees of boosting are complete or nearly so (about 1 slot per node).
/// `top_levels` > 0 (bench/walk_kernels.cpp): lay out only the first `top_levels` levels of every
/// tree whatever its depth; a leaf slot then names the node (maybe inner) reached at that level.
PerfectTrees BuildPerfectTrees(const NodeTable& table, size_t num_features,
                               const std::vector<uint8_t>& heights, uint32_t top_levels = 0);

/// The perfect walk of walks i .. i + kGroup - 1 (walk x: row row_ptr(x) from the tree rooted at
/// node root_of(x)); writes what kEnd names (kEndClass 0, kEndLeafIndex 1, kEndLeafRow 2, as in
/// compact_walk.h) to out[i ..]. Returns false, having written nothing, when some walk does not
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

}  // namespace internal
}  // namespace urnforest
