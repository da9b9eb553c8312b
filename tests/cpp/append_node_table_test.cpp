// AppendNodeTable (ensemble/grow_bagged.h): how a forest's node table grows tree by tree.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "ensemble/grow_bagged.h"
#include "urnforest/node_table.h"

using urnforest::NodeTable;
using urnforest::TreeNode;
using urnforest::internal::AppendNodeTable;

namespace {

// A stump: node 0 splits feature 0 at 0.5; nodes 1 and 2 are leaves voting classes 0 and 1.
NodeTable Stump() {
  NodeTable t;
  t.nodes = {TreeNode{0, 0.5f, 1u, 0u}, TreeNode{-1, 0.0f, 0u, 0u}, TreeNode{-1, 0.0f, 1u, 0u}};
  return t;
}

}  // namespace

TEST_CASE("Appended tables land after the earlier ones with their child indices moved", "[forest][append]") {
  NodeTable forest;
  for (uint32_t k = 0; k < 3; ++k) {
    uint32_t base = 99;
    REQUIRE(AppendNodeTable(Stump(), &forest, &base).ok());
    CHECK(base == 3 * k);
  }
  REQUIRE(forest.nodes.size() == 9);
  for (uint32_t k = 0; k < 3; ++k) {
    CHECK(forest.nodes[3 * k].feature == 0);
    CHECK(forest.nodes[3 * k].child_or_class == 3 * k + 1);  // inner: moved by the base
    CHECK(forest.nodes[3 * k + 1].child_or_class == 0);      // leaves: the class, unchanged
    CHECK(forest.nodes[3 * k + 2].child_or_class == 1);
  }
}

TEST_CASE("Appending tree after tree reallocates the node table a logarithmic number of times", "[forest][append]") {
  // 20,000 trees of three nodes: growth by a constant factor reallocates about log_1.5(60,000) ~ 27
  // times; one reallocation per tree (a copy of the whole table each time) made training quadratic
  // in the number of trees (100,000 trees, the most a forest may have: ~50 s natively).
  NodeTable forest;
  const NodeTable stump = Stump();
  int32_t reallocations = 0;
  for (int32_t t = 0; t < 20000; ++t) {
    const TreeNode* before = forest.nodes.data();
    uint32_t base = 0;
    REQUIRE(AppendNodeTable(stump, &forest, &base).ok());
    reallocations += forest.nodes.data() != before;
  }
  CHECK(forest.nodes.size() == 60000);
  CHECK(forest.nodes[59997].child_or_class == 59998);
  CHECK(reallocations <= 35);
}
