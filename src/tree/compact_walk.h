#pragma once
// Internal: the compact walk layout of a forest's numeric trees (8 bytes a node instead of 16) and
// its branch-free group walk, built from the stored node table when a forest is first walked
// (the model bytes are unchanged). WalkView (tree/tree_walk.h) takes it for rows without NaN.
//
// A node keeps its node-table index, so a walk ends on the same leaf index as Walk/WalkToLeaf:
//  * inner node: `threshold` as stored; `link` = (left - index) << feature_bits | feature, so one
//    step is  index += (link >> feature_bits) + (row[link & feature_mask] > threshold)
//    (the right child is left + 1; for a row without NaN, x > t is exactly !(x <= t));
//  * leaf: `threshold` a quiet NaN whose payload is the leaf's class (child_or_class), or, in a
//    leaf-row layout (imported forests), its leaf-value row (aux), `link` 0: the step compares with
//    NaN (always false) and adds 0, so a walk that reached its leaf stays there.
// Every walk of a group therefore takes the same branch-free steps until none moves.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "urnforest/node_table.h"

namespace urnforest {
namespace internal {

/// One node of the compact layout (see the file comment): 8 bytes, trivially copyable.
struct CompactNode {
  float threshold;
  uint32_t link;
};

/// Rows (or trees) walked side by side by CompactWalk (measured: docs/benchmarks.md, "Cost per
/// tree").
constexpr size_t kCompactGroup = 8;

/// A group whose trees are at most this deep takes exactly that many steps without checking
/// whether its walks still move (a leaf stays put); deeper ones check every kCompactCheckEvery
/// steps (measured: docs/benchmarks.md, "Cost per tree, second pass").
constexpr uint32_t kCompactFixedDepth = 10;
constexpr uint32_t kCompactCheckEvery = 2;

/// What a walk returns for the leaf it reached (CompactWalk, WalkView): its class, its node-table
/// index, or its leaf-value row (the leaf's aux: row of an imported model's leaf_values).
constexpr int kEndClass = 0;
constexpr int kEndLeafIndex = 1;
constexpr int kEndLeafRow = 2;

/// The compact layout of a whole node table: nodes[i] stands for NodeTable::nodes[i].
struct CompactTrees {
  /// Empty when the node table cannot be laid out so (BuildCompactTrees).
  std::vector<CompactNode> nodes;
  size_t source_nodes = 0;     ///< NodeTable::nodes.size() of the table it was built from.
  size_t source_features = 0;  ///< The num_features it was built for.
  uint32_t feature_bits = 0;  ///< Low bits of `link` holding the feature index.
  uint32_t feature_mask = 0;  ///< (1 << feature_bits) - 1.
  /// True in a leaf-row layout: a leaf's payload is its leaf-value row (aux), and row_classes[row]
  /// its class (every leaf sharing a row has the same class, or the layout keeps classes).
  bool payload_is_row = false;
  std::vector<int32_t> row_classes;  ///< Class per leaf-value row; empty unless payload_is_row.
  /// heights[i]: the depth of the deepest leaf below node i (0 for a leaf), capped at 255 (one
  /// byte a node; CompactWalk reads it at the roots it starts from).
  std::vector<uint8_t> heights;

  /// The payload stored in a leaf's threshold: its class, or in a leaf-row layout its row.
  static uint32_t LeafClass(const CompactNode& leaf) {
    uint32_t bits;
    std::memcpy(&bits, &leaf.threshold, sizeof bits);
    return bits & kPayloadMask;
  }
  /// The class of `leaf` (a leaf of this layout) in either layout.
  int32_t ClassOfLeaf(const CompactNode& leaf) const {
    const uint32_t payload = LeafClass(leaf);
    return payload_is_row ? row_classes[payload] : static_cast<int32_t>(payload);
  }
  static constexpr uint32_t kQuietNaN = 0x7fc00000u;   ///< Leaf threshold bits without payload.
  static constexpr uint32_t kPayloadMask = 0x003fffffu;  ///< 22 payload bits: classes < 2^22.
};

/// The compact layout of `table` for rows of `num_features` features (never null). Its `nodes` are
/// empty when the table cannot be laid out so (no feature, a categorical split, a NaN threshold, a
/// leaf class >= 2^22, or a child offset that does not fit beside the feature bits): the caller
/// then walks the node table. Allocates 8 bytes per node.
/// `leaf_rows`: lay out a leaf-row layout (payload_is_row) when every leaf's aux is < 2^22 and
/// leaves sharing a row share their class (4 more bytes per row); otherwise a class layout.
std::shared_ptr<const CompactTrees> BuildCompactTrees(const NodeTable& table, size_t num_features,
                                                      bool leaf_rows = false);

/// What kEnd names (see CompactWalk) of the leaf at compact index `index`.
template <int kEnd>
inline int32_t CompactEnd(const CompactTrees& trees, uint32_t index) {
  if (kEnd == kEndLeafIndex) return static_cast<int32_t>(index);
  if (kEnd == kEndLeafRow) return static_cast<int32_t>(CompactTrees::LeafClass(trees.nodes[index]));
  return trees.ClassOfLeaf(trees.nodes[index]);
}

/// CompactWalk's group: walks i .. i + kGroup - 1 side by side, each step advancing all of them
/// without a branch, and writes their ends to out[i ..]. A group whose trees are at most
/// kCompactFixedDepth deep takes exactly that many steps; a deeper one checks whether a walk still
/// moves every kCompactCheckEvery steps. kFixedOnly: walk only a group of the first kind (returns
/// false, having walked nothing, for a deeper one).
template <int kEnd, size_t kGroup, bool kFixedOnly, class RootOf, class RowPtr>
inline bool CompactGroup(const CompactTrees& trees, size_t i, RootOf& root_of, RowPtr& row_ptr, int32_t* out) {
  const CompactNode* nodes = trees.nodes.data();
  const uint32_t shift = trees.feature_bits;
  const uint32_t mask = trees.feature_mask;
  uint32_t index[kGroup];
  uint32_t depth = 0;  // of the deepest tree in the group
  for (size_t g = 0; g < kGroup; ++g) {
    index[g] = root_of(i + g);
    depth = trees.heights[index[g]] > depth ? trees.heights[index[g]] : depth;
  }
  if (kFixedOnly && depth > kCompactFixedDepth) return false;
  const float* rows[kGroup];
  for (size_t g = 0; g < kGroup; ++g) rows[g] = row_ptr(i + g);
  // One step of every walk; returns nonzero when some walk moved.
  auto step = [&]() {
    uint32_t moved = 0;
    for (size_t g = 0; g < kGroup; ++g) {
      const CompactNode node = nodes[index[g]];
      const uint32_t next =
          index[g] + (node.link >> shift) + static_cast<uint32_t>(rows[g][node.link & mask] > node.threshold);
      moved |= next ^ index[g];
      index[g] = next;
    }
    return moved;
  };
  if (depth <= kCompactFixedDepth) {
    // `depth` steps bring every walk to its leaf.
    for (uint32_t s = 0; s < depth; ++s) step();
  } else {
    for (;;) {
      for (uint32_t s = 1; s < kCompactCheckEvery; ++s) step();
      if (step() == 0) break;
    }
  }
  for (size_t g = 0; g < kGroup; ++g) out[i + g] = CompactEnd<kEnd>(trees, index[g]);
  return true;
}

/// out[i] = the leaf reached from node root_of(i) by row_ptr(i), i < count, for rows without NaN,
/// kGroup walks at a time (CompactGroup; then 4 and 2 side by side, then one at a time): kEnd (kEndClass,
/// kEndLeafIndex, kEndLeafRow) says what out[i] holds; kEndLeafRow only on a leaf-row layout
/// (payload_is_row). Natively, with the default kGroup, groups of shallow trees (at most
/// kCompactFixedDepth deep) go 2 * kGroup at a time (measured: without checks, more walks fit);
/// not in WebAssembly, where V8 runs 16 walks slower than 8.
/// kGroup: walks side by side (kCompactGroup; other sizes for bench/walk_kernels.cpp).
template <int kEnd, size_t kGroup = kCompactGroup, class RootOf, class RowPtr>
inline void CompactWalk(const CompactTrees& trees, size_t count, RootOf root_of, RowPtr row_ptr,
                        int32_t* out) {
  size_t i = 0;
#if defined(__EMSCRIPTEN__)
  constexpr bool kWide = false;  // V8 ran 16 walks side by side slower than 8 (walk_kernels.cpp)
#else
  constexpr bool kWide = kGroup == kCompactGroup;
#endif
  while (i + kGroup <= count) {
    if (kWide && i + 2 * kGroup <= count &&
        CompactGroup<kEnd, 2 * kGroup, true>(trees, i, root_of, row_ptr, out)) {
      i += 2 * kGroup;
      continue;
    }
    CompactGroup<kEnd, kGroup, false>(trees, i, root_of, row_ptr, out);
    i += kGroup;
  }
  // A remainder of 4 or 2 walks still goes side by side (a row alone through its next 4 trees is
  // the halted vote's step, sequential_vote.cpp): one after another their node loads would not
  // overlap.
  if (kGroup > 4 && i + 4 <= count) {
    CompactGroup<kEnd, 4, false>(trees, i, root_of, row_ptr, out);
    i += 4;
  }
  if (kGroup > 2 && i + 2 <= count) {
    CompactGroup<kEnd, 2, false>(trees, i, root_of, row_ptr, out);
    i += 2;
  }
  const CompactNode* nodes = trees.nodes.data();
  const uint32_t shift = trees.feature_bits;
  const uint32_t mask = trees.feature_mask;
  for (; i < count; ++i) {
    const float* row = row_ptr(i);
    uint32_t index = root_of(i);
    for (;;) {
      const CompactNode node = nodes[index];
      const uint32_t next = index + (node.link >> shift) + static_cast<uint32_t>(row[node.link & mask] > node.threshold);
      if (next == index) break;
      index = next;
    }
    out[i] = CompactEnd<kEnd>(trees, index);
  }
}

}  // namespace internal
}  // namespace urnforest
