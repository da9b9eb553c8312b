// Halting-table building times (not a test): every per-class hyper table for T = 101 and
// l = 2, 3, 4, and the optimal rule for l = 2, 3 with its exact cost over a uniform prior next to
// SIBA's. Prints one line per case.
//
//   bench_halting_tables
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "urnforest/expected_cost.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

using namespace urnforest;

namespace {

// The value of `r`, or exit(1) with its error and `what`.
template <typename T>
T OrDie(Result<T> r, const char* what) {
  return bench::OrDie(std::move(r), "bench_halting_tables", what);
}

using bench::MsSince;

}  // namespace

int main() {
  for (int32_t l : {2, 3, 4}) {
    std::vector<double> beta(l, 0.4);
    auto mass = OrDie(FinalTallyMass(OrDie(Prior::Dirichlet(beta), "prior"), 101), "tally mass");
    auto prior = OrDie(Prior::Histogram(l, 101, mass), "histogram prior");
    HaltingTableOptions o;
    o.rule = HaltingRule::kHyper;
    o.num_classes = l;
    const int reps = l == 4 ? 3 : 20;
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      OrDie(BuildHaltingTable(o, &prior), "hyper table");
      best = std::min(best, MsSince(t0));
    }
    std::printf("hyper T=101 l=%d: %.2f ms (best of %d)\n", l, best, reps);
  }
  for (int32_t l : {2, 3}) {
    HaltingTableOptions o;
    o.rule = HaltingRule::kOptimal;
    o.num_classes = l;
    auto prior = OrDie(Prior::Uniform(l), "uniform prior");
    const auto t0 = std::chrono::steady_clock::now();
    HaltingTable optimal = OrDie(BuildHaltingTable(o, &prior), "optimal table");
    const double ms = MsSince(t0);
    HaltingTableOptions s = o;
    s.rule = HaltingRule::kSiba;
    HaltingTable siba = OrDie(BuildHaltingTable(s), "siba table");
    auto co = OrDie(ExactCostOverPrior(optimal, prior), "optimal cost");
    auto cs = OrDie(ExactCostOverPrior(siba, prior), "siba cost");
    std::printf("optimal T=101 l=%d: %.1f ms; uniform prior: optimal %.3f trees dis %.5f | "
                "siba %.3f trees dis %.5f\n",
                l, ms, co.expected_trees, co.disagreement, cs.expected_trees, cs.disagreement);
  }
  return 0;
}
