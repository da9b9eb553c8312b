#include "tree/cart.h"

#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/forest.h"
#include "urnforest/generators.h"

using namespace urnforest;

namespace {

Dataset ConstantFeature(const std::vector<int32_t>& labels) {
  std::vector<float> x(labels.size(), 1.0f);
  Result<Dataset> d = Dataset::FromRowMajor(x.data(), labels.size(), 1, labels.data(), {}, {"a", "b"});
  REQUIRE(d.ok());
  return std::move(d).value();
}

int32_t GrowOneLeaf(const Dataset& data, const std::vector<uint32_t>& weights) {
  internal::TrainingData td = internal::TrainingData::From(data);
  internal::TreeBuilder builder(td, internal::CartParams{1, false, 0, 1});
  NodeTable table;
  internal::Rng rng(1);
  uint32_t root = 0;
  REQUIRE(builder.Build(weights.data(), &rng, &table, &root).ok());
  REQUIRE(table.nodes.size() == 1);
  REQUIRE(table.nodes[root].feature == -1);
  return static_cast<int32_t>(table.nodes[root].child_or_class);
}

}  // namespace

TEST_CASE("A leaf whose classes tie votes the lowest class index", "[cart]") {
  REQUIRE(GrowOneLeaf(ConstantFeature({1, 0}), {1, 1}) == 0);
  REQUIRE(GrowOneLeaf(ConstantFeature({1, 1, 0, 0}), {1, 1, 1, 1}) == 0);
}

TEST_CASE("Bootstrap multiplicities count as repeated rows in leaf majorities", "[cart]") {
  REQUIRE(GrowOneLeaf(ConstantFeature({1, 0}), {3, 1}) == 1);
  REQUIRE(GrowOneLeaf(ConstantFeature({1, 0, 0}), {3, 1, 0}) == 1);
}

TEST_CASE("Children are stored adjacently and strictly after their parent", "[cart]") {
  Result<Dataset> data = Twonorm(500, 2);
  TrainOptions o;
  o.num_trees = 5;
  Result<Forest> f = Train(data.value(), o);
  REQUIRE(f.ok());
  const std::vector<Forest::Node>& nodes = f.value().node_table().nodes;
  std::vector<int> parents(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].feature < 0) {
      REQUIRE(nodes[i].child_or_class < 2);
      continue;
    }
    REQUIRE(nodes[i].child_or_class > i);
    REQUIRE(nodes[i].child_or_class + 1 < nodes.size());
    ++parents[nodes[i].child_or_class];
    ++parents[nodes[i].child_or_class + 1];
  }
  for (uint32_t root : f.value().tree_roots()) REQUIRE(parents[root] == 0);
  size_t roots = 0;
  for (int p : parents) {
    REQUIRE(p <= 1);
    roots += p == 0;
  }
  REQUIRE(roots == 5);
}
