#include <catch2/catch.hpp>

#include <vector>

#include "urnforest/expected_cost.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

using urnforest::BuildHaltingTable;
using urnforest::ExactCostOverPrior;
using urnforest::HaltingRule;
using urnforest::HaltingTableOptions;
using urnforest::Prior;

namespace {

urnforest::CostEstimate CostOf(HaltingRule rule, const Prior& prior, int32_t T, int32_t l) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_trees = T;
  o.num_classes = l;
  auto t = BuildHaltingTable(o, &prior);
  REQUIRE(t.ok());
  auto c = ExactCostOverPrior(t.value(), prior);
  REQUIRE(c.ok());
  return c.value();
}

}  // namespace

TEST_CASE("Optimal rule queries fewer trees than siba at expected disagreement <= 1 - alpha",
          "[optimal]") {
  Prior u = Prior::Uniform(2).value();
  auto siba = CostOf(HaltingRule::kSiba, u, 101, 2);
  auto opt = CostOf(HaltingRule::kOptimal, u, 101, 2);
  CAPTURE(siba.expected_trees, siba.disagreement, opt.expected_trees, opt.disagreement);
  REQUIRE(opt.disagreement <= 0.01 + 1e-9);
  REQUIRE(opt.expected_trees < siba.expected_trees);
}

TEST_CASE("Optimal rule beats hyper on a bimodal histogram prior for three classes", "[optimal]") {
  const int32_t T = 31, l = 3;
  Prior uni = Prior::Uniform(l).value();
  auto mass = urnforest::FinalTallyMass(Prior::Mixture({{0.5, {4.0, 1.0, 1.0}}, {0.5, {1.0, 2.0, 2.0}}}).value(), T).value();
  Prior hist = Prior::Histogram(l, T, mass).value();
  auto hyper = CostOf(HaltingRule::kHyper, hist, T, l);
  auto opt = CostOf(HaltingRule::kOptimal, hist, T, l);
  CAPTURE(hyper.expected_trees, hyper.disagreement, opt.expected_trees, opt.disagreement);
  REQUIRE(opt.disagreement <= 0.01 + 1e-9);
  REQUIRE(opt.expected_trees <= hyper.expected_trees + 1e-9);
  (void)uni;
}
