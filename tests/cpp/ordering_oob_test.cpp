#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/ordering.h"
#include "urnforest/vote_matrix.h"

using namespace urnforest;

namespace {

Forest TrainOn(const Dataset& data, EnsembleKind kind, TreePruning pruning) {
  TrainOptions o;
  o.ensemble = kind;
  o.num_trees = 11;
  o.seed = 3;
  o.pruning.mode = pruning;
  if (kind == EnsembleKind::kAdaBoost) o.max_depth = 3;
  Result<Forest> f = Train(data, o);
  REQUIRE(f.ok());
  return std::move(f).value();
}

Dataset TwonormRows(size_t rows, uint64_t seed) {
  Result<Dataset> data = Twonorm(rows, seed);
  REQUIRE(data.ok());
  return std::move(data).value();
}

}  // namespace

TEST_CASE("Out-of-bag boosting ordering scores each tree only on the rows it left out", "[ordering][oob]") {
  // Tree 0 errs only on its in-bag row 0, tree 1 is right everywhere but has no out-of-bag row,
  // tree 2 errs on out-of-bag row 1 of its two.
  Result<VoteMatrix> m = MakeVoteMatrix(3, 2, {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, {0, 0, 0, 0});
  REQUIRE(m.ok());
  const std::vector<uint8_t> in_bag = {1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1};
  Result<std::vector<int32_t>> oob = OrderBoostingOutOfBag(m.value(), in_bag);
  REQUIRE(oob.ok());
  CHECK(oob.value() == std::vector<int32_t>{0, 2, 1});
  OrderingOptions on_data;
  Result<std::vector<int32_t>> data = OrderTrees(m.value(), on_data);
  REQUIRE(data.ok());
  CHECK(data.value() == std::vector<int32_t>{1, 0, 2});
}

TEST_CASE("Out-of-bag boosting ordering refuses a mask of the wrong size", "[ordering][oob]") {
  Result<VoteMatrix> m = MakeVoteMatrix(2, 2, {0, 1, 1, 0}, {0, 0});
  REQUIRE(m.ok());
  CHECK(OrderBoostingOutOfBag(m.value(), {0, 0, 0}).status().code == StatusCode::kShapeMismatch);
}

TEST_CASE("Ordering sources parse by name and round-trip", "[ordering][oob]") {
  CHECK(ParseOrderingSource("data").value() == OrderingSource::kData);
  CHECK(ParseOrderingSource("oob").value() == OrderingSource::kOutOfBag);
  CHECK(std::string(OrderingSourceName(OrderingSource::kOutOfBag)) == "oob");
  CHECK(ParseOrderingSource("training").status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("OrderForest on out-of-bag votes gives a permutation of a bagged forest's trees", "[ordering][oob]") {
  const Dataset data = TwonormRows(300, 7);
  const Forest forest = TrainOn(data, EnsembleKind::kBagging, TreePruning::kNone);
  OrderingOptions o;
  o.on = OrderingSource::kOutOfBag;
  Result<std::vector<int32_t>> order = OrderForest(forest, data, o);
  REQUIRE(order.ok());
  CHECK(std::set<int32_t>(order.value().begin(), order.value().end()).size() == 11);
  o.ordering = Ordering::kEarly;
  CHECK(OrderForest(forest, data, o).value() == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
}

TEST_CASE("Ordering on out-of-bag votes refuses AdaBoost, other orderings and data other than the training set", "[ordering][oob]") {
  const Dataset data = TwonormRows(300, 7);
  OrderingOptions o;
  o.on = OrderingSource::kOutOfBag;
  const Forest boosted = TrainOn(data, EnsembleKind::kAdaBoost, TreePruning::kNone);
  CHECK(OrderForest(boosted, data, o).status().code == StatusCode::kInvalidArgument);
  const Forest bagged = TrainOn(data, EnsembleKind::kBagging, TreePruning::kNone);
  CHECK(OrderForest(bagged, TwonormRows(200, 8), o).status().code == StatusCode::kShapeMismatch);
  o.ordering = Ordering::kKappa;
  CHECK(OrderForest(bagged, data, o).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("Ordering unpruned trees on their own training data warns, pruned trees, out-of-bag votes or other data do not", "[ordering][oob]") {
  const Dataset data = TwonormRows(300, 7);
  const Forest unpruned = TrainOn(data, EnsembleKind::kBagging, TreePruning::kNone);
  OrderingOptions o;
  CHECK(OrderingWarnings(unpruned, data, o).size() == 1);
  CHECK(OrderingWarnings(unpruned, TwonormRows(200, 8), o).empty());
  OrderingOptions oob = o;
  oob.on = OrderingSource::kOutOfBag;
  CHECK(OrderingWarnings(unpruned, data, oob).empty());
  OrderingOptions early = o;
  early.ordering = Ordering::kEarly;
  CHECK(OrderingWarnings(unpruned, data, early).empty());
  const Forest pruned = TrainOn(data, EnsembleKind::kBagging, TreePruning::kCostComplexityCV);
  CHECK(OrderingWarnings(pruned, data, o).empty());
}
