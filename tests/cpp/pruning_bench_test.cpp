#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/ordering.h"

using namespace urnforest;

TEST_CASE("Benchmark: orderings of 101 bagged trees on 5000 rows", "[.bench]") {
  Result<Dataset> data = Twonorm(5000, 11);
  REQUIRE(data.ok());
  TrainOptions o;
  o.ensemble = EnsembleKind::kBagging;
  o.num_trees = 101;
  Result<Forest> f = Train(data.value(), o);
  REQUIRE(f.ok());
  auto t0 = std::chrono::steady_clock::now();
  Result<VoteMatrix> m = ComputeVoteMatrix(f.value(), data.value());
  auto t1 = std::chrono::steady_clock::now();
  REQUIRE(m.ok());
  std::printf("vote matrix 101 x 5000: %.2f ms\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count());
  for (int32_t i = 0; i < kNumOrderings; ++i) {
    OrderingOptions options;
    options.ordering = static_cast<Ordering>(i);
    const int reps = options.ordering == Ordering::kBoosting ? 10 : 2;
    double best = 1e30;
    for (int rep = 0; rep < reps; ++rep) {
      auto a = std::chrono::steady_clock::now();
      Result<std::vector<int32_t>> order = OrderTrees(m.value(), options);
      auto b = std::chrono::steady_clock::now();
      REQUIRE(order.ok());
      best = std::min(best, std::chrono::duration<double, std::milli>(b - a).count());
    }
    std::printf("%-16s full ordering of 101 trees on 5000 rows: %.2f ms (best of %d)\n",
                OrderingName(options.ordering), best, reps);
  }
}
