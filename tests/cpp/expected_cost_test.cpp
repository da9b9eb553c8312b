#include "urnforest/expected_cost.h"

#include <catch2/catch.hpp>

#include <vector>

using urnforest::BuildHaltingTable;
using urnforest::ExactCostForFinalTally;
using urnforest::ExactCostOverPrior;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;
using urnforest::MonteCarloCost;
using urnforest::MonteCarloCostForFinalTally;
using urnforest::Prior;

namespace {

HaltingTable Table(HaltingRule rule, int32_t classes = 2) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_classes = classes;
  auto t = BuildHaltingTable(o);
  REQUIRE(t.ok());
  return t.value();
}

}  // namespace

TEST_CASE("Exact expected trees and disagreement for siba T = 101 match the exact-recursion anchors",
          "[cost][anchor]") {
  HaltingTable siba = Table(HaltingRule::kSiba);
  HaltingTable full = Table(HaltingRule::kAlpha1);
  struct Row { int32_t t1; double trees, dis, trees_alpha1; };
  std::vector<Row> rows = {{101, 6.00, 0.0, 51.00},   {95, 7.25, 0.0, 54.19},
                           {90, 8.70, 0.0, 57.16},    {80, 13.46, 0.0, 64.22},
                           {70, 23.50, 0.0008, 73.27}, {60, 47.45, 0.0077, 85.28},
                           {55, 69.36, 0.0244, 92.89}, {51, 86.21, 0.0943, 100.04}};
  for (const Row& r : rows) {
    CAPTURE(r.t1);
    auto c = ExactCostForFinalTally(siba, {r.t1, 101 - r.t1});
    REQUIRE(c.ok());
    REQUIRE(c.value().expected_trees == Approx(r.trees).margin(0.005));
    REQUIRE(c.value().disagreement == Approx(r.dis).margin(0.00005));
    double total = 0.0;
    for (double p : c.value().stop_probability) total += p;
    REQUIRE(total == Approx(1.0).margin(1e-12));
    auto a = ExactCostForFinalTally(full, {r.t1, 101 - r.t1});
    REQUIRE(a.value().expected_trees == Approx(r.trees_alpha1).margin(0.005));
    REQUIRE(a.value().disagreement == 0.0);
  }
}

TEST_CASE("Monte Carlo expected trees for siba T = 101 are within 1% of the exact values",
          "[cost][anchor]") {
  HaltingTable siba = Table(HaltingRule::kSiba);
  for (int32_t t1 : {101, 95, 90, 80, 70, 60, 55, 51}) {
    CAPTURE(t1);
    double exact = ExactCostForFinalTally(siba, {t1, 101 - t1}).value().expected_trees;
    auto mc = MonteCarloCostForFinalTally(siba, {t1, 101 - t1}, 20000, 7);
    REQUIRE(mc.ok());
    REQUIRE(mc.value().expected_trees == Approx(exact).epsilon(0.01));
  }
  Prior u = Prior::Uniform(2).value();
  auto exact = ExactCostOverPrior(siba, u);
  REQUIRE(exact.ok());
  auto mc = MonteCarloCost(siba, u, 40000, 3);
  REQUIRE(mc.ok());
  REQUIRE(mc.value().expected_trees == Approx(exact.value().expected_trees).epsilon(0.01));
  REQUIRE(exact.value().disagreement < 0.01);
}

TEST_CASE("Prior-averaged siba disagreement stays under 1 - alpha for three classes", "[cost]") {
  HaltingTable siba = Table(HaltingRule::kSiba, 3);
  Prior u = Prior::Uniform(3).value();
  auto exact = ExactCostOverPrior(siba, u);
  REQUIRE(exact.ok());
  REQUIRE(exact.value().disagreement < 0.01);
  auto mc = MonteCarloCost(siba, u, 20000, 5);
  REQUIRE(mc.value().expected_trees == Approx(exact.value().expected_trees).epsilon(0.02));
}

TEST_CASE("Exact cost rejects a final tally that does not sum to T", "[cost][errors]") {
  HaltingTable siba = Table(HaltingRule::kSiba);
  REQUIRE(ExactCostForFinalTally(siba, {50, 50}).status().code ==
          urnforest::StatusCode::kShapeMismatch);
}

TEST_CASE("Monte Carlo over empirical tallies matches the exact cost of those tallies", "[expected]") {
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = 101;
  o.alpha = 0.99;
  auto table = BuildHaltingTable(o);
  REQUIRE(table.ok());
  // Two final tallies, equally likely: the average of their exact costs.
  const std::vector<int32_t> tallies = {90, 11, 60, 41};
  auto a = ExactCostForFinalTally(table.value(), {90, 11});
  auto b = ExactCostForFinalTally(table.value(), {60, 41});
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  const double exact = 0.5 * (a.value().expected_trees + b.value().expected_trees);
  auto mc = urnforest::MonteCarloCostOverTallies(table.value(), tallies, 200000, 7);
  REQUIRE(mc.ok());
  REQUIRE(mc.value().expected_trees == Approx(exact).epsilon(0.01));
  REQUIRE(urnforest::MonteCarloCostOverTallies(table.value(), {90, 10}, 10).status().code ==
          urnforest::StatusCode::kShapeMismatch);
}

TEST_CASE("Rescaled OOB tallies sum to T for any number of classes", "[expected][prior]") {
  const std::vector<uint32_t> oob = {3, 0, 1, 0, 0,  0, 0, 0, 0, 0,  1, 1, 1, 1, 33};
  auto tallies = urnforest::RescaledOobTallies(oob, 5, 101);
  REQUIRE(tallies.ok());
  REQUIRE(tallies.value().size() == 10);  // The row without OOB votes is skipped.
  // 101 * (1,1,1,1,33) / 37 = 2.73 x 4 and 90.08: three leftover votes go to the largest
  // remainders (27 each), ties to the lower class index.
  REQUIRE(tallies.value() == std::vector<int32_t>{76, 0, 25, 0, 0, 3, 3, 3, 2, 90});
}
