#include "urnforest/experiment.h"

#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/expected_cost.h"
#include "urnforest/generators.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

using namespace urnforest;

namespace {

HaltingTable Table(HaltingRule rule, int32_t trees, int32_t classes, double alpha) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_trees = trees;
  o.num_classes = classes;
  o.alpha = alpha;
  return BuildHaltingTable(o).value();
}

// Four rows of five votes; alpha1 stops after 3, 5, 3 and 4 votes.
const std::vector<int32_t> kVotes = {0, 0, 0, 0, 0,  //
                                     0, 1, 0, 1, 0,  //
                                     1, 1, 1, 0, 0,  //
                                     0, 1, 1, 1, 0};
const std::vector<int32_t> kTruth = {0, 1, 1, 0};

}  // namespace

TEST_CASE("The alpha1 rule on a hand-made vote matrix queries 3, 5, 3 and 4 trees and never disagrees", "[experiment]") {
  const HaltingTable a1 = Table(HaltingRule::kAlpha1, 5, 2, 1.0);
  const std::vector<int32_t> a1_trees = {3, 5, 3, 4};
  RuleStats<double> m = MeasureRule(a1, kVotes, 4, 5, 2, kTruth, a1_trees, {}).value();
  REQUIRE(m.trees == 3.75);
  REQUIRE(m.trees_alpha1 == 3.75);
  REQUIRE(m.disagreement == 0.0);
  REQUIRE(m.error == 50.0);
  REQUIRE(m.speedup_vs_alpha1 == 1.0);
  REQUIRE(m.speedup_vs_T == Approx((5.0 / 3 + 1 + 5.0 / 3 + 5.0 / 4) / 4));
  REQUIRE(m.speedup_ratio_of_means_vs_T == Approx(5.0 / 3.75));
  REQUIRE(m.coverage == 75.0);
  REQUIRE(m.certified == 100.0);
  REQUIRE(m.fixed_trees == 4.0);
  REQUIRE(m.fixed_disagreement == 0.0);
  REQUIRE(m.fixed_error == 50.0);
  REQUIRE(std::isnan(m.expected_trees));
  REQUIRE(std::isnan(m.proxy_disagreement));
}

TEST_CASE("A rule that stops at the first vote is measured against alpha1, the full vote and a proxy", "[experiment]") {
  const HaltingTable inf = Table(HaltingRule::kInfinite, 5, 2, 0.5);
  RuleStats<double> m =
      MeasureRule(inf, kVotes, 4, 5, 2, kTruth, {3, 5, 3, 4}, {0, 0, 0, 0}).value();
  REQUIRE(m.trees == 1.0);
  REQUIRE(m.disagreement == 25.0);
  REQUIRE(m.error == 25.0);
  REQUIRE(m.speedup_vs_alpha1 == 3.75);
  REQUIRE(m.speedup_vs_T == 5.0);
  REQUIRE(m.coverage == 100.0);
  REQUIRE(m.fixed_trees == 1.0);
  REQUIRE(m.fixed_disagreement == 25.0);
  REQUIRE(m.proxy_disagreement == 25.0);
  REQUIRE(m.proxy_disagreement_halted == 25.0);
  REQUIRE(m.proxy_error_halted == 50.0);
  REQUIRE(m.trees_halted == 1.0);
}

TEST_CASE("MeasureRule rejects mismatched shapes", "[experiment][errors]") {
  const HaltingTable a1 = Table(HaltingRule::kAlpha1, 5, 2, 1.0);
  REQUIRE(MeasureRule(a1, kVotes, 4, 5, 2, {0, 1}, {3, 5, 3, 4}, {}).status().code ==
          StatusCode::kShapeMismatch);
  const HaltingTable other = Table(HaltingRule::kAlpha1, 7, 2, 1.0);
  REQUIRE(MeasureRule(other, kVotes, 4, 5, 2, kTruth, {3, 5, 3, 4}, {}).status().code ==
          StatusCode::kShapeMismatch);
}

TEST_CASE("The recursion gives the same expected trees and disagreement as the per-tally DP", "[experiment][cost]") {
  SECTION("two classes, histogram prior") {
    std::vector<double> mass(16);
    for (int i = 0; i < 16; ++i) mass[i] = 1.0 + (i % 5) * (i < 3 || i > 12 ? 10 : 1);
    const Prior prior = Prior::Histogram(2, 15, mass).value();
    HaltingTableOptions o;
    o.rule = HaltingRule::kHyper;
    o.num_trees = 15;
    o.alpha = 0.9;
    const HaltingTable t = BuildHaltingTable(o, &prior).value();
    const CostEstimate a = ExactCostOverPrior(t, prior).value();
    const CostEstimate b = ExactCostByRecursion(t, prior).value();
    REQUIRE(b.expected_trees == Approx(a.expected_trees).epsilon(1e-12));
    REQUIRE(b.disagreement == Approx(a.disagreement).epsilon(1e-10));
  }
  SECTION("three classes, siba table under a Dirichlet prior") {
    const Prior prior = Prior::Dirichlet({0.3, 0.6, 1.5}).value();
    const HaltingTable t = Table(HaltingRule::kSiba, 21, 3, 0.95);
    const CostEstimate a = ExactCostOverPrior(t, prior).value();
    const CostEstimate b = ExactCostByRecursion(t, prior).value();
    REQUIRE(b.expected_trees == Approx(a.expected_trees).epsilon(1e-12));
    REQUIRE(b.disagreement == Approx(a.disagreement).margin(1e-12));
    REQUIRE(a.disagreement > 0.0);
  }
}

TEST_CASE("RunExperiment on a tiny synthetic problem: alpha1 agrees exactly with the full vote", "[experiment]") {
  ExperimentOptions o;
  o.protocol = ProtocolKind::kSynthetic;
  o.generator = "twonorm";
  o.train_rows = 60;
  o.test_rows = 40;
  o.repeats = 3;
  o.train.num_trees = 21;
  o.alphas = {0.99, 0.9};
  o.rules = {HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper};
  int32_t calls = 0;
  auto progress = [&](int32_t done, int32_t total) {
    REQUIRE(done == calls++);
    REQUIRE(total == 3);
    return true;
  };
  Result<ExperimentResult> run = RunExperiment(o, progress);
  REQUIRE(run.ok());
  const ExperimentResult& r = run.value();
  REQUIRE(calls == 4);
  REQUIRE(r.partitions == 3);
  REQUIRE(r.rules.size() == 6);
  const RuleResult& a1 = r.rules[r.RuleIndex(0, 0, 3)];
  REQUIRE(a1.rule == HaltingRule::kAlpha1);
  REQUIRE(a1.partitions.size() == 3);
  REQUIRE(a1.summary.disagreement.mean == 0.0);
  REQUIRE(a1.summary.error.mean == Approx(r.full_error.mean).epsilon(1e-12));
  REQUIRE(a1.summary.trees.mean == Approx(r.full_trees_alpha1.mean).epsilon(1e-12));
  REQUIRE(a1.summary.speedup_vs_alpha1.mean == 1.0);
  REQUIRE(a1.summary.expected_disagreement.mean == Approx(0.0).margin(1e-9));
  REQUIRE(a1.expected_method == "exact");
  const RuleResult& siba99 = r.rules[r.RuleIndex(0, 1, 3)];
  const RuleResult& siba90 = r.rules[r.RuleIndex(1, 1, 3)];
  REQUIRE(siba99.alpha == 0.99);
  REQUIRE(siba90.alpha == 0.9);
  REQUIRE(siba90.summary.trees.mean <= siba99.summary.trees.mean);
  REQUIRE(siba99.summary.trees.mean < a1.summary.trees.mean);
  REQUIRE(std::isnan(siba99.summary.proxy_disagreement.mean));
  REQUIRE(siba99.summary.proxy_disagreement.count == 0);

  Result<ExperimentResult> again = RunExperiment(o);
  for (size_t i = 0; i < r.rules.size(); ++i) {
    REQUIRE(again.value().rules[i].summary.trees.mean == r.rules[i].summary.trees.mean);
    REQUIRE(again.value().rules[i].summary.error.mean == r.rules[i].summary.error.mean);
  }
}

TEST_CASE("RunExperiment cross-validates a ten-class data set with every rule", "[experiment]") {
  const Dataset data = Led(200, 4).value();
  ExperimentOptions o;
  o.data = &data;
  o.folds = 4;
  o.repeats = 1;
  o.train.num_trees = 15;
  o.rules = {HaltingRule::kSiba, HaltingRule::kHyper, HaltingRule::kInfinite};
  o.monte_carlo_samples = 500;
  Result<ExperimentResult> run = RunExperiment(o);
  REQUIRE(run.ok());
  REQUIRE(run.value().partitions == 4);
  REQUIRE(run.value().classes == 10);
  REQUIRE(run.value().rules[0].available);
  REQUIRE(run.value().rules[0].expected_method == "monte_carlo_oob_tallies");
  REQUIRE(run.value().rules[1].available);
  REQUIRE(run.value().rules[2].available);
}

TEST_CASE("RunExperiment validates its options and can be cancelled", "[experiment][errors]") {
  ExperimentOptions o;
  REQUIRE(RunExperiment(o).status().code == StatusCode::kInvalidArgument);
  o.protocol = ProtocolKind::kSynthetic;
  o.generator = "nope";
  REQUIRE(RunExperiment(o).status().code == StatusCode::kInvalidArgument);
  o.generator = "circle";
  o.alphas = {1.5};
  REQUIRE(RunExperiment(o).status().code == StatusCode::kInvalidArgument);
  o.alphas = {0.99};
  o.train_rows = 40;
  o.test_rows = 10;
  o.train.num_trees = 5;
  Result<ExperimentResult> run =
      RunExperiment(o, [](int32_t done, int32_t) { return done < 1; });
  REQUIRE(run.status().code == StatusCode::kInvalidArgument);
  REQUIRE(run.status().message == "cancelled");
}

namespace urnforest {
TEST_CASE("An experiment above max_work row-trees is refused before any work, naming the estimate", "[experiment][limits]") {
  ExperimentOptions o;
  o.protocol = ProtocolKind::kSynthetic;
  o.generator = "twonorm";
  o.train_rows = 300;
  o.repeats = 100;
  o.train.num_trees = 101;
  o.proxy_trees = 10000;
  // 100 repetitions x (101 + 10,000) trees x 300 rows.
  REQUIRE(ExperimentWork(o) == Approx(100.0 * 10101 * 300));
  o.train.pruning.mode = TreePruning::kCostComplexityCV;
  REQUIRE(ExperimentWork(o) == Approx(100.0 * 10101 * 300 * (o.train.pruning.cv_folds + 1)));
  int32_t calls = 0;
  Result<ExperimentResult> refused = RunExperiment(o, [&](int32_t, int32_t) { ++calls; return true; });
  REQUIRE(refused.status().code == StatusCode::kLimitExceeded);
  REQUIRE(refused.status().message.find("3.33e+09 row-trees") != std::string::npos);
  REQUIRE(refused.status().message.find("max_work") != std::string::npos);
  REQUIRE(calls == 0);
  o.max_work = 0.0;
  REQUIRE(RunExperiment(o).status().code == StatusCode::kInvalidArgument);
}
}  // namespace urnforest
