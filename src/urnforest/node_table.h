#pragma once
// Node table: the flat array of tree nodes (and categorical bit sets) that trees are grown into
// and walked over; a Forest stores one for all its trees.
#include <cstdint>
#include <vector>

namespace urnforest {

/// One node of a flat node table: 16 bytes, trivially copyable. Children of an inner node are
/// adjacent and come strictly after their parent (left = child_or_class, right = left + 1), so a
/// walk from any root always terminates.
struct TreeNode {
  /// Leaf: -1. Inner: feature index (schema order).
  int32_t feature;
  /// Numeric inner: a non-missing x goes left when x <= threshold. Otherwise 0.
  float threshold;
  /// Inner: index of the left child; the right child is left + 1. Leaf: class index voted.
  uint32_t child_or_class;
  /// Inner: bit 0 (kMissingLeft) = missing values go left; bit 1 (kCategoricalSplit) = subset
  /// split; bits 2..31 = word offset of the split's bit set in NodeTable::category_bits
  /// (categorical only). Leaf: 0.
  uint32_t aux;

  static constexpr uint32_t kMissingLeft = 1u;       ///< aux bit: missing values go left.
  static constexpr uint32_t kCategoricalSplit = 2u;  ///< aux bit: a categorical subset split.
  static constexpr uint32_t kMaxCategoryWords = 1u << 30;  ///< aux offset range.
};

/// The nodes of one or more trees and the bit sets of their categorical splits. Trees are appended
/// (a tree's nodes are contiguous, its root first); roots are kept by the owner (Forest).
struct NodeTable {
  std::vector<TreeNode> nodes;
  /// Categorical splits: a split's bit set is (categories of its feature + 31) / 32 words from its
  /// offset; bit c (word c / 32, bit c % 32) set => category c goes left. Categories absent from
  /// the node's training rows go to the child that received more training rows.
  std::vector<uint32_t> category_bits;
};

}  // namespace urnforest
