// TrainingCostPredictor (forest_halting.h): the one prediction of a table's cost from OOB votes.
#include <catch2/catch.hpp>

#include <vector>

#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::StatusCode;
using urnforest::TrainingCostOptions;
using urnforest::TrainingCostPredictor;

namespace {

HaltingTable Siba(int32_t classes, int32_t trees) {
  urnforest::HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_classes = classes;
  o.num_trees = trees;
  o.alpha = 0.99;
  auto t = urnforest::BuildHaltingTable(o);
  REQUIRE(t.ok());
  return t.value();
}

// OOB votes of 6 binary rows and of 4 five-class rows (one row without OOB votes each).
const std::vector<uint32_t> kBinary = {30, 2, 0, 0, 25, 7, 1, 33, 16, 16, 37, 0, 3, 29};
const std::vector<uint32_t> kFive = {20, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 9, 2, 1, 0, 0, 0, 30, 2};

}  // namespace

TEST_CASE("For two to four classes the prediction is the exact recursion over the deconvolved OOB prior",
          "[training_cost]") {
  const HaltingTable table = Siba(2, 21);
  TrainingCostOptions o;
  o.monte_carlo_samples = 0;
  auto predictor = TrainingCostPredictor::FromOob(kBinary, 2, 21, o);
  REQUIRE(predictor.ok());
  auto cost = predictor.value().Predict(table);
  REQUIRE(cost.ok());
  CHECK(cost.value().method == "exact");
  CHECK_FALSE(cost.value().has_monte_carlo);
  auto prior = urnforest::DeconvolvedPriorFromOob(kBinary, 2, 21);
  REQUIRE(prior.ok());
  auto want = urnforest::ExactCostByRecursion(table, prior.value());
  REQUIRE(want.ok());
  CHECK(cost.value().estimate.expected_trees == want.value().expected_trees);
  CHECK(cost.value().estimate.disagreement == want.value().disagreement);
  REQUIRE(predictor.value().data_prior() != nullptr);
  CHECK(predictor.value().data_prior()->histogram() == prior.value().histogram());

  // With stop probabilities (the per-tally DP): the same values and a distribution over 0..T.
  o.stop_probability = true;
  o.monte_carlo_samples = 4000;
  auto with_stops = TrainingCostPredictor::FromOob(kBinary, 2, 21, o).value().Predict(table);
  REQUIRE(with_stops.ok());
  CHECK(with_stops.value().estimate.stop_probability.size() == 22);
  CHECK(with_stops.value().estimate.expected_trees == Approx(want.value().expected_trees).epsilon(1e-12));
  REQUIRE(with_stops.value().has_monte_carlo);
  auto mc = urnforest::MonteCarloCost(table, prior.value(), 4000, o.seed);
  CHECK(with_stops.value().monte_carlo.expected_trees == mc.value().expected_trees);
}

TEST_CASE("Beyond four classes the prediction is Monte Carlo over the rescaled OOB tallies",
          "[training_cost]") {
  const HaltingTable table = Siba(5, 11);
  TrainingCostOptions o;
  o.monte_carlo_samples = 3000;
  o.seed = 9;
  auto predictor = TrainingCostPredictor::FromOob(kFive, 5, 11, o);
  REQUIRE(predictor.ok());
  CHECK(predictor.value().data_prior() == nullptr);
  auto cost = predictor.value().Predict(table);
  REQUIRE(cost.ok());
  CHECK(cost.value().method == "monte_carlo_oob_tallies");
  auto tallies = urnforest::RescaledOobTallies(kFive, 5, 11);
  REQUIRE(tallies.ok());
  auto want = urnforest::MonteCarloCostOverTallies(table, tallies.value(), 3000, 9);
  REQUIRE(want.ok());
  CHECK(cost.value().estimate.expected_trees == want.value().expected_trees);
  CHECK(cost.value().estimate.disagreement == want.value().disagreement);
}

TEST_CASE("The training-cost predictor rejects mismatched tables and bad options", "[training_cost]") {
  auto predictor = TrainingCostPredictor::FromOob(kBinary, 2, 21);
  REQUIRE(predictor.ok());
  CHECK(predictor.value().Predict(Siba(2, 11)).status().code == StatusCode::kShapeMismatch);
  CHECK(predictor.value().Predict(Siba(3, 21)).status().code == StatusCode::kShapeMismatch);
  TrainingCostOptions o;
  o.monte_carlo_samples = 0;
  CHECK(TrainingCostPredictor::FromOob(kFive, 5, 11, o).status().code == StatusCode::kInvalidArgument);
  o.monte_carlo_samples = -1;
  CHECK(TrainingCostPredictor::FromOob(kBinary, 2, 21, o).status().code == StatusCode::kInvalidArgument);
  CHECK(TrainingCostPredictor::FromOob({0, 0}, 2, 21).status().code == StatusCode::kInvalidArgument);
  CHECK(TrainingCostPredictor::FromOob({1, 2, 3}, 2, 21).status().code == StatusCode::kShapeMismatch);
}

TEST_CASE("One shared recursion gives every table's exact cost, as the per-tally DP does",
          "[training_cost][cost]") {
  auto prior = urnforest::Prior::Dirichlet({0.4, 0.3, 0.5});
  REQUIRE(prior.ok());
  std::vector<HaltingTable> tables;
  for (HaltingRule rule : {HaltingRule::kSiba, HaltingRule::kOneDir, HaltingRule::kOptimal}) {
    for (double alpha : {0.95, 0.99}) {
      urnforest::HaltingTableOptions o;
      o.rule = rule;
      o.num_classes = 3;
      o.num_trees = 25;
      o.alpha = alpha;
      auto t = urnforest::BuildHaltingTable(o, rule == HaltingRule::kSiba ? nullptr : &prior.value());
      REQUIRE(t.ok());
      tables.push_back(t.value());
    }
  }
  std::vector<const HaltingTable*> borrowed;
  for (const HaltingTable& t : tables) borrowed.push_back(&t);
  auto all = urnforest::ExactCostsByRecursion(borrowed, prior.value());
  REQUIRE(all.ok());
  REQUIRE(all.value().size() == tables.size());
  for (size_t k = 0; k < tables.size(); ++k) {
    auto one = urnforest::ExactCostByRecursion(tables[k], prior.value());
    auto dp = urnforest::ExactCostOverPrior(tables[k], prior.value());
    REQUIRE(one.ok());
    REQUIRE(dp.ok());
    CHECK(all.value()[k].expected_trees == one.value().expected_trees);
    CHECK(all.value()[k].disagreement == one.value().disagreement);
    CHECK(all.value()[k].expected_trees == Approx(dp.value().expected_trees).epsilon(1e-10));
    CHECK(all.value()[k].disagreement == Approx(dp.value().disagreement).margin(1e-12));
  }
  CHECK(urnforest::ExactCostsByRecursion({}, prior.value()).value().empty());
  const HaltingTable other = Siba(3, 21);
  CHECK(urnforest::ExactCostsByRecursion({&tables[0], &other}, prior.value()).status().code ==
        StatusCode::kShapeMismatch);
}

TEST_CASE("PredictMany equals Predict table by table", "[training_cost]") {
  TrainingCostOptions o;
  o.monte_carlo_samples = 0;
  auto predictor = TrainingCostPredictor::FromOob(kBinary, 2, 21, o);
  REQUIRE(predictor.ok());
  const HaltingTable a = Siba(2, 21);
  urnforest::HaltingTableOptions ho;
  ho.rule = HaltingRule::kHyper;
  ho.num_trees = 21;
  ho.alpha = 0.95;
  auto b = urnforest::BuildHaltingTable(ho, predictor.value().data_prior());
  REQUIRE(b.ok());
  auto many = predictor.value().PredictMany({&a, &b.value()});
  REQUIRE(many.ok());
  CHECK(many.value()[0].estimate.expected_trees == predictor.value().Predict(a).value().estimate.expected_trees);
  CHECK(many.value()[1].estimate.disagreement ==
        predictor.value().Predict(b.value()).value().estimate.disagreement);
  const HaltingTable wrong = Siba(2, 11);
  CHECK(predictor.value().PredictMany({&a, &wrong}).status().code == StatusCode::kShapeMismatch);
}
