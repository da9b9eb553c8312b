// Ordered-aggregation timings (not a test): the vote matrix of 101 bagged trees on 5,000 twonorm
// rows, then a full ordering of the trees by every heuristic. Prints one line per case.
//
//   bench_orderings
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "bench_util.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/ordering.h"

using namespace urnforest;

namespace {

// The value of `r`, or exit(1) with its error and `what`.
template <typename T>
T OrDie(Result<T> r, const char* what) {
  return bench::OrDie(std::move(r), "bench_orderings", what);
}

using bench::MsSince;

}  // namespace

int main() {
  Dataset data = OrDie(Twonorm(5000, 11), "twonorm");
  TrainOptions o;
  o.ensemble = EnsembleKind::kBagging;
  o.num_trees = 101;
  Forest forest = OrDie(Train(data, o), "train");
  const auto t0 = std::chrono::steady_clock::now();
  VoteMatrix votes = OrDie(ComputeVoteMatrix(forest, data), "vote matrix");
  std::printf("vote matrix 101 x 5000: %.2f ms\n", MsSince(t0));
  for (int32_t i = 0; i < kNumOrderings; ++i) {
    OrderingOptions options;
    options.ordering = static_cast<Ordering>(i);
    const int reps = options.ordering == Ordering::kBoosting ? 10 : 2;
    double best = 1e30;
    for (int rep = 0; rep < reps; ++rep) {
      const auto a = std::chrono::steady_clock::now();
      OrDie(OrderTrees(votes, options), "ordering");
      best = std::min(best, MsSince(a));
    }
    std::printf("%-16s full ordering of 101 trees on 5000 rows: %.2f ms (best of %d)\n",
                OrderingName(options.ordering), best, reps);
  }
  return 0;
}
