#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "fixtures.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/ordering.h"
#include "urnforest/predict.h"
#include "urnforest/prune.h"
#include "urnforest/serialize.h"
#include "urnforest/weighted_vote.h"

using namespace urnforest;
using namespace urnforest::test;

TEST_CASE("AdaBoost.M1 stumps by reweighting match a hand computation", "[boost]") {
  // x = 1..5, classes A A B B A. Round 1 (uniform): x <= 2.5 -> A else B, wrong on x = 5,
  // eps = 1/5, alpha = ln 2; weights become 1/8 1/8 1/8 1/8 1/2. Round 2: the best Gini split is
  // x <= 4.5, whose left leaf ties 2:2 (-> A), so the stump says A everywhere: eps = 1/4,
  // alpha = ln 3 / 2; weights 1/12 1/12 1/4 1/4 1/3. Round 3: x <= 4.5 -> B else A, wrong on
  // x = 1, 2: eps = 1/6, alpha = ln 5 / 2.
  const Dataset d = SmallDataset({1, 2, 3, 4, 5}, {0, 0, 1, 1, 0}, 2);
  TrainOptions o;
  o.ensemble = EnsembleKind::kAdaBoost;
  o.boosting = BoostingVariant::kReweight;
  o.num_trees = 3;
  o.max_depth = 1;
  Result<Forest> f = Train(d, o);
  REQUIRE(f.ok());
  const std::vector<double>& a = f.value().tree_weights();
  REQUIRE(a.size() == 3);
  CHECK(a[0] == Approx(std::log(2.0)));
  CHECK(a[1] == Approx(0.5 * std::log(3.0)));
  CHECK(a[2] == Approx(0.5 * std::log(5.0)));
  const Dataset probe = SmallDataset({1, 3, 5}, {0, 1, 0}, 2);
  Result<WeightedVote> v = PredictWeighted(f.value(), probe);
  REQUIRE(v.ok());
  // x = 1: A from trees 1, 2; B from tree 3.  x = 3: B from 1, 3.  x = 5: A from 2, 3.
  CHECK(v.value().scores[0] == Approx(std::log(2.0) + 0.5 * std::log(3.0)));
  CHECK(v.value().scores[1] == Approx(0.5 * std::log(5.0)));
  CHECK(v.value().scores[2] == Approx(0.5 * std::log(3.0)));
  CHECK(v.value().scores[3] == Approx(std::log(2.0) + 0.5 * std::log(5.0)));
  CHECK(v.value().scores[4] == Approx(0.5 * std::log(3.0) + 0.5 * std::log(5.0)));
  CHECK(v.value().scores[5] == Approx(std::log(2.0)));
  CHECK(v.value().labels == std::vector<int32_t>{0, 1, 0});
  Result<FullVote> unweighted = PredictFull(f.value(), probe);
  REQUIRE(unweighted.ok());
  CHECK(unweighted.value().votes == std::vector<uint32_t>{2, 1, 1, 2, 2, 1});
}

TEST_CASE("AdaBoost keeps a perfect tree with a capped weight and restarts from uniform weights", "[boost]") {
  const Dataset d = SmallDataset({1, 2, 3, 4}, {0, 0, 1, 1}, 2);
  TrainOptions o;
  o.ensemble = EnsembleKind::kAdaBoost;
  o.boosting = BoostingVariant::kReweight;
  o.num_trees = 3;
  Result<Forest> f = Train(d, o);
  REQUIRE(f.ok());
  for (double a : f.value().tree_weights()) CHECK(a == Approx(0.5 * std::log((1 - 1e-10) / 1e-10)));
}

TEST_CASE("AdaBoost fails when the learner is no better than chance on uniform weights", "[boost]") {
  const Dataset d = SmallDataset({1, 1, 1, 1}, {0, 1, 0, 1}, 2);
  TrainOptions o;
  o.ensemble = EnsembleKind::kAdaBoost;
  o.num_trees = 3;
  for (BoostingVariant v : {BoostingVariant::kReweight, BoostingVariant::kResample}) {
    o.boosting = v;
    Result<Forest> f = Train(d, o);
    CHECK(f.status().code == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("AdaBoost by resampling beats a single tree on twonorm and is deterministic", "[boost]") {
  Result<Dataset> train = Twonorm(300, 3);
  Result<Dataset> test = Twonorm(1000, 4);
  REQUIRE(train.ok());
  REQUIRE(test.ok());
  TrainOptions o;
  o.ensemble = EnsembleKind::kAdaBoost;
  o.num_trees = 25;
  o.max_depth = 2;
  Result<Forest> f = Train(train.value(), o);
  REQUIRE(f.ok());
  CHECK(f.value().num_trees() == 25);
  Result<Forest> again = Train(train.value(), o);
  REQUIRE(again.ok());
  CHECK(SerializeForest(f.value()) == SerializeForest(again.value()));
  std::vector<int32_t> first = {0};
  for (int32_t i = 1; i < 25; ++i) first.push_back(i);
  Result<Forest> single = PruneForest(f.value(), first, 1);
  REQUIRE(single.ok());
  auto error = [&](const Forest& model) {
    Result<WeightedVote> v = PredictWeighted(model, test.value());
    REQUIRE(v.ok());
    size_t wrong = 0;
    for (size_t r = 0; r < test.value().num_rows(); ++r) wrong += v.value().labels[r] != test.value().labels()[r];
    return static_cast<double>(wrong) / test.value().num_rows();
  };
  CHECK(error(f.value()) < error(single.value()) - 0.05);
  uint64_t oob = 0;
  for (uint32_t v : f.value().oob_votes()) oob += v;
  CHECK(oob > 0);
}

TEST_CASE("SAMME boosts three classes with alpha including ln(l - 1)", "[boost]") {
  std::vector<float> x;
  std::vector<int32_t> y;
  for (int32_t i = 0; i < 90; ++i) {
    x.push_back(static_cast<float>(i % 30));
    x.push_back(static_cast<float>((i * 7) % 11));
    y.push_back(i % 30 < 10 ? 0 : (i % 30 < 20 ? 1 : 2));
  }
  const Dataset d = SmallDataset(x, y, 3);
  TrainOptions o;
  o.ensemble = EnsembleKind::kAdaBoost;
  o.boosting = BoostingVariant::kReweight;
  o.num_trees = 5;
  o.max_depth = 1;
  Result<Forest> f = Train(d, o);
  REQUIRE(f.ok());
  // A stump separates one class from the other two: eps = 1/3 on uniform weights,
  // alpha = ln(2) + ln(2) (a plain M1 alpha would be 1/2 ln 2).
  CHECK(f.value().tree_weights()[0] == Approx(2.0 * std::log(2.0)));
  Result<WeightedVote> v = PredictWeighted(f.value(), d);
  REQUIRE(v.ok());
  size_t wrong = 0;
  for (size_t r = 0; r < d.num_rows(); ++r) wrong += v.value().labels[r] != y[r];
  CHECK(wrong == 0);
}

TEST_CASE("A boosted model round-trips with its variant and tree weights", "[boost][serialize]") {
  Result<Dataset> train = Twonorm(200, 3);
  REQUIRE(train.ok());
  TrainOptions o;
  o.ensemble = EnsembleKind::kAdaBoost;
  o.boosting = BoostingVariant::kReweight;
  o.num_trees = 9;
  o.max_depth = 2;
  Result<Forest> f = Train(train.value(), o);
  REQUIRE(f.ok());
  const std::vector<uint8_t> bytes = SerializeForest(f.value());
  Result<Forest> back = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  CHECK(back.value().options().ensemble == EnsembleKind::kAdaBoost);
  CHECK(back.value().options().boosting == BoostingVariant::kReweight);
  CHECK(back.value().tree_weights() == f.value().tree_weights());
  CHECK(SerializeForest(back.value()) == bytes);

  OrderingOptions greedy;
  greedy.ordering = Ordering::kGreedySdp;
  Result<std::vector<int32_t>> order = OrderForest(f.value(), train.value(), greedy);
  REQUIRE(order.ok());
  Result<Forest> pruned = PruneForest(f.value(), order.value(), 4, &train.value());
  REQUIRE(pruned.ok());
  for (int32_t i = 0; i < 4; ++i) {
    CHECK(pruned.value().tree_weights()[i] == f.value().tree_weights()[order.value()[i]]);
  }
  const std::vector<uint8_t> small = SerializeForest(pruned.value());
  Result<Forest> small_back = DeserializeForest(small.data(), small.size());
  REQUIRE(small_back.ok());
  CHECK(small_back.value().tree_weights() == pruned.value().tree_weights());
  CHECK(SerializeForest(small_back.value()) == small);
}

TEST_CASE("Random forest and bagging models carry no boosting section", "[boost][serialize]") {
  Result<Dataset> train = Twonorm(100, 3);
  REQUIRE(train.ok());
  TrainOptions o;
  o.num_trees = 3;
  Result<Forest> f = Train(train.value(), o);
  REQUIRE(f.ok());
  CHECK(f.value().tree_weights().empty());
  const std::vector<uint8_t> bytes = SerializeForest(f.value());
  const std::string text(bytes.begin(), bytes.end());
  CHECK(text.find("BOST") == std::string::npos);
  CHECK(text.find("SRCT") == std::string::npos);
}
