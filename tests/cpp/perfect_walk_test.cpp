// The perfect-tree walk of shallow forests (tree/perfect_walk.h, used by CompactWalk) against a
// plain reference walk over the node table: the same leaf, class and leaf-value row for random
// trees of every depth up to kPerfectMaxDepth, rows through one tree and trees for one row, values
// on, beside and beyond the thresholds (infinities included), every remainder of the groups; and the
// layout refused where it cannot stand for the node table.
#include "tree/perfect_walk.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "tree/compact_walk.h"

namespace urnforest {
namespace {

// Appends to `table` a random tree at most `depth` deep over `features` features (a node splits
// with probability `split` above the last level; thresholds from a small grid so that rows hit
// them exactly); leaves get class and leaf-value row from `next_leaf`. Returns its root. The
// children of a node are adjacent and come after it, as in every node table.
uint32_t AddRandomTree(NodeTable* table, uint32_t depth, uint32_t features, double split, std::mt19937_64& rng,
                       uint32_t* next_leaf) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const uint32_t root = static_cast<uint32_t>(table->nodes.size());
  table->nodes.push_back(TreeNode{-1, 0.0f, 0u, 0u});
  // (node, level) pairs still to decide, breadth first.
  std::vector<std::pair<uint32_t, uint32_t>> open = {{root, 0}};
  for (size_t k = 0; k < open.size(); ++k) {
    const auto [node, level] = open[k];
    if (level < depth && (level == 0 || u(rng) < split)) {
      const uint32_t left = static_cast<uint32_t>(table->nodes.size());
      const float t = static_cast<float>(std::floor(u(rng) * 16.0) / 4.0 - 2.0);
      table->nodes[node] = TreeNode{static_cast<int32_t>(u(rng) * features), t, left, 0u};
      table->nodes.push_back(TreeNode{-1, 0.0f, 0u, 0u});
      table->nodes.push_back(TreeNode{-1, 0.0f, 0u, 0u});
      open.push_back({left, level + 1});
      open.push_back({left + 1, level + 1});
    } else {
      const uint32_t leaf = (*next_leaf)++;
      table->nodes[node] = TreeNode{-1, 0.0f, leaf % 5u, leaf};
    }
  }
  return root;
}

// The leaf that the tree rooted at `i` sends `row` (no NaN) to, the node table's way.
uint32_t ReferenceLeaf(const NodeTable& table, uint32_t i, const float* row) {
  while (table.nodes[i].feature >= 0) {
    const TreeNode& n = table.nodes[i];
    i = n.child_or_class + (row[n.feature] <= n.threshold ? 0u : 1u);
  }
  return i;
}

// Rows of `features` values on the threshold grid, just beside it, far from it and infinite.
std::vector<float> ProbeRows(size_t rows, uint32_t features, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<float> out(rows * features);
  for (float& x : out) {
    const double p = u(rng);
    const float grid = static_cast<float>(std::floor(u(rng) * 16.0) / 4.0 - 2.0);
    x = p < 0.05   ? -std::numeric_limits<float>::infinity()
        : p < 0.1  ? std::numeric_limits<float>::infinity()
        : p < 0.45 ? grid
        : p < 0.65 ? std::nextafter(grid, INFINITY)
        : p < 0.85 ? std::nextafter(grid, -INFINITY)
                   : static_cast<float>(u(rng) * 10.0 - 5.0);
  }
  return out;
}

// Checks every end of CompactWalk (leaf index, class, leaf-value row) against ReferenceLeaf for
// walks (root_of(i), row_ptr(i)), i < count.
template <class RootOf, class RowPtr>
void RequireReferenceEnds(const NodeTable& table, const internal::CompactTrees& trees, size_t count, RootOf root_of,
                          RowPtr row_ptr) {
  std::vector<int32_t> leaves(count), classes(count), value_rows(count);
  internal::CompactWalk<internal::kEndLeafIndex>(trees, count, root_of, row_ptr, leaves.data());
  internal::CompactWalk<internal::kEndClass>(trees, count, root_of, row_ptr, classes.data());
  if (trees.payload_is_row) internal::CompactWalk<internal::kEndLeafRow>(trees, count, root_of, row_ptr, value_rows.data());
  for (size_t i = 0; i < count; ++i) {
    const uint32_t want = ReferenceLeaf(table, root_of(i), row_ptr(i));
    INFO("walk " << i << " of " << count << ", root " << root_of(i));
    REQUIRE(static_cast<uint32_t>(leaves[i]) == want);
    REQUIRE(static_cast<uint32_t>(classes[i]) == table.nodes[want].child_or_class);
    if (trees.payload_is_row) REQUIRE(static_cast<uint32_t>(value_rows[i]) == table.nodes[want].aux);
  }
}

TEST_CASE("A shallow forest's perfect walk ends on the reference leaf for rows through one tree and trees for one row",
          "[perfect]") {
  for (uint32_t depth = 0; depth <= internal::kPerfectMaxDepth; ++depth) {
    for (double split : {1.0, 0.92}) {
      INFO("depth " << depth << ", split " << split);
      std::mt19937_64 rng(depth * 10 + static_cast<uint64_t>(split * 4));
      NodeTable table;
      std::vector<uint32_t> roots;
      uint32_t next_leaf = 0;
      const uint32_t features = 5;
      for (int t = 0; t < 12; ++t) {
        // Trees of the forest's depth and shallower ones, padded to it.
        const uint32_t d = t % 3 == 2 && depth > 0 ? depth - 1 : depth;
        roots.push_back(AddRandomTree(&table, d, features, split, rng, &next_leaf));
      }
      for (bool leaf_rows : {false, true}) {
        const auto trees = internal::BuildCompactTrees(table, features, leaf_rows);
        REQUIRE_FALSE(trees->nodes.empty());
        REQUIRE_FALSE(trees->perfect.empty());
        REQUIRE(trees->payload_is_row == leaf_rows);
        const std::vector<float> rows = ProbeRows(45, features, rng);
        for (size_t t = 0; t < roots.size(); ++t) {
          for (size_t count = 0; count <= 45; count += count < 40 ? 1 : 5) {
            const uint32_t root = roots[t];
            RequireReferenceEnds(table, *trees, count, [root](size_t) { return root; },
                                 [&](size_t i) { return rows.data() + i * features; });
          }
        }
        // One row through the trees in an order that mixes trees inside every group.
        for (size_t r = 0; r < 45; ++r) {
          for (size_t count = 0; count <= 3 * roots.size(); ++count) {
            RequireReferenceEnds(table, *trees, count, [&](size_t i) { return roots[(i * 7 + r) % roots.size()]; },
                                 [&](size_t) { return rows.data() + r * features; });
          }
        }
      }
    }
  }
}

TEST_CASE("A padding node's leaf stands below it for infinite values in either direction", "[perfect]") {
  // Depth 2: the left subtree is a leaf at depth 1, padded with threshold +inf.
  NodeTable table;
  table.nodes = {TreeNode{0, 0.0f, 1u, 0u},  TreeNode{-1, 0.0f, 0u, 0u}, TreeNode{1, 1.0f, 3u, 0u},
                 TreeNode{-1, 0.0f, 1u, 1u}, TreeNode{-1, 0.0f, 2u, 2u}};
  const auto trees = internal::BuildCompactTrees(table, 2, true);
  REQUIRE(trees->perfect.depth == 2);
  CHECK(trees->perfect.thresholds[1] == std::numeric_limits<float>::infinity());
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> rows = {-inf, inf, -inf, -inf, 0.0f, inf, inf, inf, inf, 1.0f, 0.5f, 1.0f};
  RequireReferenceEnds(table, *trees, 6, [](size_t) { return 0u; }, [&](size_t i) { return rows.data() + 2 * i; });
}

TEST_CASE("Walks that start below a root leave the perfect walk for the compact walk", "[perfect]") {
  std::mt19937_64 rng(3);
  NodeTable table;
  uint32_t next_leaf = 0;
  const uint32_t root = AddRandomTree(&table, 5, 3, 1.0, rng, &next_leaf);
  const auto trees = internal::BuildCompactTrees(table, 3);
  REQUIRE_FALSE(trees->perfect.empty());
  const uint32_t inner = table.nodes[root].child_or_class;  // an inner node, not a root
  REQUIRE(trees->perfect.slot_of_node[inner] == internal::PerfectTrees::kNoSlot);
  const std::vector<float> rows = ProbeRows(40, 3, rng);
  for (size_t first_inner : {size_t{0}, size_t{5}, size_t{16}, size_t{33}}) {
    RequireReferenceEnds(table, *trees, 40, [&](size_t i) { return i == first_inner ? inner : root; },
                         [&](size_t i) { return rows.data() + 3 * i; });
  }
}

TEST_CASE("The perfect layout is refused for deep trees, sparse padding and too many features", "[perfect]") {
  std::mt19937_64 rng(9);
  uint32_t next_leaf = 0;
  NodeTable deep;
  AddRandomTree(&deep, internal::kPerfectMaxDepth + 1, 3, 1.0, rng, &next_leaf);
  const auto deep_trees = internal::BuildCompactTrees(deep, 3);
  REQUIRE_FALSE(deep_trees->nodes.empty());
  CHECK(deep_trees->perfect.empty());
  // A comb 8 deep: 17 nodes would take 511 slots.
  NodeTable comb;
  for (uint32_t j = 0; j < 8; ++j) {
    comb.nodes.push_back(TreeNode{0, static_cast<float>(j), 2 * j + 1, 0u});
    comb.nodes.push_back(TreeNode{-1, 0.0f, j, 0u});
  }
  comb.nodes.push_back(TreeNode{-1, 0.0f, 8u, 0u});
  CHECK(internal::BuildCompactTrees(comb, 1)->perfect.empty());
  NodeTable wide;
  wide.nodes = {TreeNode{70000, 0.5f, 1u, 0u}, TreeNode{-1, 0.0f, 0u, 0u}, TreeNode{-1, 0.0f, 1u, 0u}};
  const auto wide_trees = internal::BuildCompactTrees(wide, 70001);
  REQUIRE_FALSE(wide_trees->nodes.empty());
  CHECK(wide_trees->perfect.empty());
}

}  // namespace
}  // namespace urnforest
