#include "urnforest/importance.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "urnforest/train.h"

using namespace urnforest;

namespace {

// 400 rows, 6 features: the class is x0 + x1 > 1 (with 5 % label noise); x2..x5 are noise.
Dataset TwoInformative(uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const size_t rows = 400, cols = 6;
  std::vector<float> x(rows * cols);
  std::vector<int32_t> y(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) x[r * cols + c] = u(gen);
    y[r] = x[r * cols] + x[r * cols + 1] > 1.0f ? 1 : 0;
    if (u(gen) < 0.05f) y[r] = 1 - y[r];
  }
  return Dataset::FromRowMajor(x.data(), rows, cols, y.data(), {}, {}).value();
}

std::vector<size_t> Ranking(const std::vector<double>& importance) {
  std::vector<size_t> order(importance.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return importance[a] > importance[b]; });
  return order;
}

}  // namespace

TEST_CASE("Both importance methods rank the informative features first", "[importance]") {
  const Dataset data = TwoInformative(7);
  TrainOptions options;
  options.num_trees = 60;
  options.seed = 3;
  for (EnsembleKind kind : {EnsembleKind::kRandomForest, EnsembleKind::kBagging}) {
    options.ensemble = kind;
    const Forest forest = Train(data, options).value();
    for (ImportanceMethod method : {ImportanceMethod::kImpurity, ImportanceMethod::kPermutation}) {
      ImportanceOptions io;
      io.method = method;
      Result<std::vector<double>> imp = FeatureImportance(forest, data, io);
      REQUIRE(imp.ok());
      REQUIRE(imp.value().size() == 6);
      const std::vector<size_t> rank = Ranking(imp.value());
      INFO("method " << ImportanceMethodName(method));
      CHECK(std::min(rank[0], rank[1]) == 0);
      CHECK(std::max(rank[0], rank[1]) == 1);
      if (method == ImportanceMethod::kImpurity) {
        CHECK(std::accumulate(imp.value().begin(), imp.value().end(), 0.0) == Approx(1.0));
        CHECK(*std::min_element(imp.value().begin(), imp.value().end()) >= 0.0);
      } else {
        CHECK(imp.value()[0] > 0.05);
      }
    }
  }
}

TEST_CASE("Permutation importance is deterministic given its seed, and held-out data works too", "[importance]") {
  const Dataset data = TwoInformative(7);
  TrainOptions options;
  options.num_trees = 30;
  const Forest forest = Train(data, options).value();
  ImportanceOptions io;
  io.method = ImportanceMethod::kPermutation;
  io.seed = 11;
  const std::vector<double> a = FeatureImportance(forest, data, io).value();
  const std::vector<double> b = FeatureImportance(forest, data, io).value();
  CHECK(a == b);
  const Dataset held_out = TwoInformative(8);
  const std::vector<size_t> rank = Ranking(FeatureImportance(forest, held_out, io).value());
  CHECK(std::min(rank[0], rank[1]) == 0);
  CHECK(std::max(rank[0], rank[1]) == 1);
}

TEST_CASE("Feature importance needs labels and names its method", "[importance]") {
  const Dataset data = TwoInformative(7);
  TrainOptions options;
  options.num_trees = 5;
  const Forest forest = Train(data, options).value();
  std::vector<float> x(6, 0.5f);
  const Dataset unlabelled = Dataset::FromRowMajor(x.data(), 1, 6, nullptr, {}, {}).value();
  CHECK(FeatureImportance(forest, unlabelled).status().code == StatusCode::kMissingLabel);
  CHECK(ParseImportanceMethod("permutation").value() == ImportanceMethod::kPermutation);
  CHECK(ParseImportanceMethod("gain").status().code == StatusCode::kInvalidArgument);
}
