#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <vector>

#include "urnforest/expected_cost.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

TEST_CASE("Benchmark: all per-class hyper tables for T = 101 and l = 2, 3, 4", "[.bench]") {
  for (int32_t l : {2, 3, 4}) {
    std::vector<double> beta(l, 0.4);
    auto mass = urnforest::FinalTallyMass(urnforest::Prior::Dirichlet(beta).value(), 101).value();
    auto prior = urnforest::Prior::Histogram(l, 101, mass).value();
    urnforest::HaltingTableOptions o;
    o.rule = urnforest::HaltingRule::kHyper;
    o.num_classes = l;
    int reps = l == 4 ? 3 : 20;
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      auto t = urnforest::BuildHaltingTable(o, &prior);
      auto t1 = std::chrono::steady_clock::now();
      REQUIRE(t.ok());
      best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::printf("hyper T=101 l=%d: %.2f ms (best of %d)\n", l, best, reps);
  }
  for (int32_t l : {2, 3}) {
    urnforest::HaltingTableOptions o;
    o.rule = urnforest::HaltingRule::kOptimal;
    o.num_classes = l;
    auto prior = urnforest::Prior::Uniform(l).value();
    auto t0 = std::chrono::steady_clock::now();
    auto t = urnforest::BuildHaltingTable(o, &prior);
    auto t1 = std::chrono::steady_clock::now();
    REQUIRE(t.ok());
    urnforest::HaltingTableOptions s = o;
    s.rule = urnforest::HaltingRule::kSiba;
    auto siba = urnforest::BuildHaltingTable(s).value();
    auto co = urnforest::ExactCostOverPrior(t.value(), prior).value();
    auto cs = urnforest::ExactCostOverPrior(siba, prior).value();
    std::printf("optimal T=101 l=%d: %.1f ms; uniform prior: optimal %.3f trees dis %.5f | siba %.3f trees dis %.5f\n",
                l, std::chrono::duration<double, std::milli>(t1 - t0).count(), co.expected_trees,
                co.disagreement, cs.expected_trees, cs.disagreement);
  }
}
