#pragma once
// Internal: inlined tree walks over the flat node table, shared by Forest::TreeVote, the batch
// full-vote predictor and the blocked halted predictor. Every walker returns exactly what
// Forest::TreeVote returns (the same comparisons in the same order), only faster:
//  * WalkNumeric is the path of forests without any categorical feature (no categorical branch);
//  * WalkView::VoteMany walks kWalkGroup rows through the same tree at once, so the dependent node
//    loads of different rows overlap instead of waiting for each other (walks are latency-bound);
//    rows without NaN (most) take a single comparison per numeric split, and, when the view has
//    the forest's compact layout (tree/compact_walk.h), the compact branch-free walk.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "tree/compact_walk.h"
#include "urnforest/node_table.h"

namespace urnforest {
namespace internal {

/// True when none of the n values is NaN (x != x only for NaN; an integer OR instead of a bool
/// AND: about 2.8 instructions per value natively instead of 7, callgrind).
inline bool NoNaN(const float* x, size_t n) {
  uint32_t nan = 0;
  for (size_t i = 0; i < n; ++i) nan |= static_cast<uint32_t>(x[i] != x[i]);
  return nan == 0;
}

/// Rows walked together by VoteMany (measured in wasm and natively: 1 is 2-3x slower, 8 is slower
/// than 4).
constexpr size_t kWalkGroup = 4;

/// True when `node` (an inner node) sends `x` left; `category_counts` may be null when the forest
/// has no categorical split.
inline bool GoesLeft(const TreeNode& node, float x, const uint32_t* bits,
                     const uint32_t* category_counts) {
  if (node.aux & TreeNode::kCategoricalSplit) {
    // Out-of-range or non-integral categories are treated like missing values.
    const uint32_t count = category_counts[node.feature];
    if (x >= 0.0f && x < static_cast<float>(count) && x == std::floor(x)) {
      const uint32_t c = static_cast<uint32_t>(x);
      return (bits[(node.aux >> 2) + (c >> 5)] >> (c & 31u)) & 1u;
    }
    return node.aux & TreeNode::kMissingLeft;
  }
  if (x <= node.threshold) return true;
  return std::isnan(x) && (node.aux & TreeNode::kMissingLeft) != 0;
}

/// Numeric-only split (no categorical flag possible): x <= threshold, NaN by the missing bit.
inline bool GoesLeftNumeric(const TreeNode& node, float x) {
  return (x <= node.threshold) | (std::isnan(x) & ((node.aux & TreeNode::kMissingLeft) != 0));
}

/// The class voted by the tree rooted at `index` for `row` (any forest).
inline int32_t Walk(const TreeNode* nodes, const uint32_t* bits,
                    const uint32_t* category_counts, uint32_t index, const float* row) {
  for (;;) {
    const TreeNode& node = nodes[index];
    if (node.feature < 0) return static_cast<int32_t>(node.child_or_class);
    const bool left = GoesLeft(node, row[node.feature], bits, category_counts);
    index = node.child_or_class + (left ? 0u : 1u);
  }
}

/// The index of the leaf node that the tree rooted at `index` sends `row` to (any forest); an
/// imported forest's leaf values are found from it (the leaf's aux).
inline uint32_t WalkToLeaf(const TreeNode* nodes, const uint32_t* bits,
                           const uint32_t* category_counts, uint32_t index, const float* row) {
  for (;;) {
    const TreeNode& node = nodes[index];
    if (node.feature < 0) return index;
    const bool left = GoesLeft(node, row[node.feature], bits, category_counts);
    index = node.child_or_class + (left ? 0u : 1u);
  }
}

/// Walk for a forest without categorical splits.
inline int32_t WalkNumeric(const TreeNode* nodes, uint32_t index, const float* row) {
  for (;;) {
    const TreeNode& node = nodes[index];
    if (node.feature < 0) return static_cast<int32_t>(node.child_or_class);
    index = node.child_or_class + (GoesLeftNumeric(node, row[node.feature]) ? 0u : 1u);
  }
}

/// A read-only view of a forest's walk tables; `numeric_only` selects the fast path.
struct WalkView {
  const TreeNode* nodes;
  const uint32_t* bits;
  const uint32_t* category_counts;
  const uint32_t* roots;
  bool numeric_only;
  /// The compact layout of the same nodes (tree/compact_walk.h), or null: used for rows without
  /// NaN of numeric-only forests. Held, so the view stays valid if the owner drops its copy.
  std::shared_ptr<const CompactTrees> compact;

  /// Borrows `table`, `category_counts` (categories per feature, 0 for numeric) and `roots` (one
  /// root node index per tree). `numeric_only`: the table's features are all numeric, so no node
  /// carries kCategoricalSplit (the trainer and the loader guarantee that split kinds match
  /// feature types).
  /// `compact`: the compact layout built from `table` (BuildCompactTrees) or null; one with empty
  /// nodes counts as null.
  WalkView(const NodeTable& table, const uint32_t* category_counts, const uint32_t* roots,
           bool numeric_only, std::shared_ptr<const CompactTrees> compact = nullptr)
      : nodes(table.nodes.data()),
        bits(table.category_bits.data()),
        category_counts(category_counts),
        roots(roots),
        numeric_only(numeric_only),
        compact(compact != nullptr && !compact->nodes.empty() ? std::move(compact) : nullptr) {}

  int32_t Vote(int32_t tree, const float* row) const {
    return numeric_only ? WalkNumeric(nodes, roots[tree], row)
                        : Walk(nodes, bits, category_counts, roots[tree], row);
  }

  /// out[i] = vote of `tree` for row_ptr(i), i < count, walking kWalkGroup rows at a time.
  /// `no_nan(i)` says that row_ptr(i) has no NaN (then a numeric split is a single comparison).
  template <bool kNumericOnly, class RowPtr, class NoNaNFn>
  void VoteMany(int32_t tree, size_t count, RowPtr row_ptr, NoNaNFn no_nan, int32_t* out) const {
    const uint32_t root = roots[tree];
    WalkGroups<kNumericOnly>(count, [root](size_t) { return root; }, row_ptr, no_nan, out);
  }

  /// out[i] = index of the leaf node that `tree` sends row_ptr(i) to, i < count (VoteMany's walk;
  /// an imported forest reads its leaf values from there).
  template <bool kNumericOnly, class RowPtr, class NoNaNFn>
  void LeavesMany(int32_t tree, size_t count, RowPtr row_ptr, NoNaNFn no_nan, int32_t* out) const {
    const uint32_t root = roots[tree];
    WalkGroups<kNumericOnly, kEndLeafIndex>(count, [root](size_t) { return root; }, row_ptr, no_nan, out);
  }

  /// out[j] = index of the leaf node that tree trees[j] sends `row` to, j < count, walking
  /// kWalkGroup trees at a time (VoteTrees' walk, for a single row).
  template <bool kNumericOnly>
  void LeavesOfTrees(const int32_t* trees, size_t count, const float* row, bool no_nan,
                     int32_t* out) const {
    const uint32_t* r = roots;
    WalkGroups<kNumericOnly, kEndLeafIndex>(count, [r, trees](size_t j) { return r[trees[j]]; },
                                   [row](size_t) { return row; }, [no_nan](size_t) { return no_nan; },
                                   out);
  }

  /// out[i] = the leaf-value row (the leaf's aux) of the leaf that `tree` sends row_ptr(i) to,
  /// i < count: LeavesMany's walk without reading the node table when the view's compact layout
  /// carries leaf rows (an imported forest's).
  template <bool kNumericOnly, class RowPtr, class NoNaNFn>
  void LeafRowsMany(int32_t tree, size_t count, RowPtr row_ptr, NoNaNFn no_nan, int32_t* out) const {
    const uint32_t root = roots[tree];
    WalkGroups<kNumericOnly, kEndLeafRow>(count, [root](size_t) { return root; }, row_ptr, no_nan, out);
  }

  /// out[j] = the leaf-value row of the leaf that tree trees[j] sends `row` to, j < count
  /// (LeavesOfTrees' walk, ending as LeafRowsMany's).
  template <bool kNumericOnly>
  void LeafRowsOfTrees(const int32_t* trees, size_t count, const float* row, bool no_nan,
                       int32_t* out) const {
    const uint32_t* r = roots;
    WalkGroups<kNumericOnly, kEndLeafRow>(count, [r, trees](size_t j) { return r[trees[j]]; },
                                          [row](size_t) { return row; },
                                          [no_nan](size_t) { return no_nan; }, out);
  }

  /// out[j] = vote of tree trees[j] for row_ptr(j), j < count: rows side by side, each through its
  /// own tree (random query orders), walked as VoteMany's rows.
  template <bool kNumericOnly, class RowPtr, class NoNaNFn>
  void VotePairs(const int32_t* trees, size_t count, RowPtr row_ptr, NoNaNFn no_nan, int32_t* out) const {
    const uint32_t* r = roots;
    WalkGroups<kNumericOnly>(count, [r, trees](size_t j) { return r[trees[j]]; }, row_ptr, no_nan, out);
  }

  /// out[j] = vote of trees[j] for `row`, j < count, walking kWalkGroup trees at a time (one row
  /// through several trees: their node loads overlap as VoteMany's rows do). `no_nan`: `row` has no
  /// NaN.
  template <bool kNumericOnly>
  void VoteTrees(const int32_t* trees, size_t count, const float* row, bool no_nan,
                 int32_t* out) const {
    const uint32_t* r = roots;
    WalkGroups<kNumericOnly>(count, [r, trees](size_t j) { return r[trees[j]]; },
                             [row](size_t) { return row; }, [no_nan](size_t) { return no_nan; },
                             out);
  }

 private:
  /// out[i] = what kEnd names (compact_walk.h: class, node index or leaf-value row) of the leaf
  /// reached from node root_of(i) by row_ptr(i), i < count, several walks at a time; a walk that
  /// reaches its leaf waits for the others of its group.
  template <bool kNumericOnly, int kEnd = kEndClass, class RootOf, class RowPtr, class NoNaNFn>
  void WalkGroups(size_t count, RootOf root_of, RowPtr row_ptr, NoNaNFn no_nan, int32_t* out) const {
    if (kNumericOnly && compact != nullptr) {
      // Runs of rows without NaN take the compact walk; a row with NaN takes the node table's.
      size_t i = 0;
      while (i < count) {
        size_t end = i;
        while (end < count && no_nan(end)) ++end;
        if (end > i) {
          auto root_at = [&](size_t x) { return root_of(i + x); };
          auto row_at = [&](size_t x) { return row_ptr(i + x); };
          if (kEnd == kEndLeafRow && !compact->payload_is_row) {
            // A class layout: find the leaves, then their rows in the node table.
            CompactWalk<kEndLeafIndex>(*compact, end - i, root_at, row_at, out + i);
            for (size_t x = i; x < end; ++x) out[x] = static_cast<int32_t>(nodes[out[x]].aux);
          } else {
            CompactWalk<kEnd>(*compact, end - i, root_at, row_at, out + i);
          }
        }
        if (end < count) {
          out[end] = EndOf<kEnd>(WalkToLeaf(nodes, bits, category_counts, root_of(end), row_ptr(end)));
          ++end;
        }
        i = end;
      }
      return;
    }
    NodeTableGroups<kNumericOnly, kEnd>(count, root_of, row_ptr, no_nan, out);
  }

  /// What kEnd names of the leaf `leaf` (a node-table index).
  template <int kEnd>
  int32_t EndOf(uint32_t leaf) const {
    if (kEnd == kEndLeafIndex) return static_cast<int32_t>(leaf);
    if (kEnd == kEndLeafRow) return static_cast<int32_t>(nodes[leaf].aux);
    return static_cast<int32_t>(nodes[leaf].child_or_class);
  }

  /// WalkGroups over the node table (no compact layout, or a forest with categorical splits).
  template <bool kNumericOnly, int kEnd, class RootOf, class RowPtr, class NoNaNFn>
  void NodeTableGroups(size_t count, RootOf root_of, RowPtr row_ptr, NoNaNFn no_nan, int32_t* out) const {
    size_t i = 0;
    for (; i + kWalkGroup <= count; i += kWalkGroup) {
      const float* rows[kWalkGroup];
      uint32_t index[kWalkGroup];
      bool all_no_nan = true;
      for (size_t g = 0; g < kWalkGroup; ++g) {
        rows[g] = row_ptr(i + g);
        index[g] = root_of(i + g);
        all_no_nan = all_no_nan && no_nan(i + g);
      }
      // Each step advances every walk that has not reached a leaf; a leaf stays put.
      if (kNumericOnly && all_no_nan) {
        for (;;) {
          bool moved = false;
          for (size_t g = 0; g < kWalkGroup; ++g) {
            const TreeNode& node = nodes[index[g]];
            if (node.feature < 0) continue;
            index[g] = node.child_or_class + (rows[g][node.feature] <= node.threshold ? 0u : 1u);
            moved = true;
          }
          if (!moved) break;
        }
      } else {
        for (;;) {
          bool moved = false;
          for (size_t g = 0; g < kWalkGroup; ++g) {
            const TreeNode& node = nodes[index[g]];
            if (node.feature < 0) continue;
            const float x = rows[g][node.feature];
            const bool left = kNumericOnly ? GoesLeftNumeric(node, x)
                                           : GoesLeft(node, x, bits, category_counts);
            index[g] = node.child_or_class + (left ? 0u : 1u);
            moved = true;
          }
          if (!moved) break;
        }
      }
      for (size_t g = 0; g < kWalkGroup; ++g) out[i + g] = EndOf<kEnd>(index[g]);
    }
    for (; i < count; ++i) {
      if (kEnd != kEndClass) {
        out[i] = EndOf<kEnd>(WalkToLeaf(nodes, bits, category_counts, root_of(i), row_ptr(i)));
      } else {
        out[i] = kNumericOnly ? WalkNumeric(nodes, root_of(i), row_ptr(i))
                              : Walk(nodes, bits, category_counts, root_of(i), row_ptr(i));
      }
    }
  }
};

}  // namespace internal
}  // namespace urnforest
