#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>

#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"

using namespace urnforest;

namespace {

Forest TrainOn(const char* problem) {
  Result<Dataset> data = GenerateProblem(problem, 150, 2);
  REQUIRE(data.ok());
  TrainOptions options;
  options.num_trees = 15;
  Result<Forest> forest = Train(data.value(), options);
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

void RequireSame(const CostEstimate& a, const CostEstimate& b) {
  REQUIRE(a.expected_trees == b.expected_trees);
  REQUIRE(a.disagreement == b.disagreement);
  REQUIRE(a.stop_probability == b.stop_probability);
  REQUIRE(a.samples == b.samples);
}

// The wasm bindings' former expectedCost: 0 draws become 10,000 beyond 4 classes; a non-exact
// method reports the exact cost as kLimitExceeded and its estimate as the Monte Carlo one.
void CheckAgainstFormerPolicy(const Forest& forest, int64_t samples) {
  const HaltingTable table = BuildForestTable(forest, HaltingRule::kSiba, 0.95).value();
  TrainingCostOptions options;
  options.monte_carlo_samples = samples > 0 ? samples : 0;
  if (forest.num_classes() > 4 && options.monte_carlo_samples == 0)
    options.monte_carlo_samples = 10000;
  options.seed = 77;
  options.stop_probability = true;
  const TrainingCost cost = PredictCostFromTraining(forest, table, options).value();
  Result<TrainingCostReport> got = ReportCostFromTraining(forest, table, samples, 77);
  REQUIRE(got.ok());
  if (cost.method != "exact") {
    REQUIRE(got.value().exact.status().code == StatusCode::kLimitExceeded);
    REQUIRE(got.value().exact.status().message == "the exact cost needs at most 4 classes");
    REQUIRE(got.value().monte_carlo.has_value());
    RequireSame(*got.value().monte_carlo, cost.estimate);
    return;
  }
  REQUIRE(got.value().exact.ok());
  RequireSame(got.value().exact.value(), cost.estimate);
  REQUIRE(got.value().monte_carlo.has_value() == cost.has_monte_carlo);
  if (cost.has_monte_carlo) RequireSame(*got.value().monte_carlo, cost.monte_carlo);
}

}  // namespace

TEST_CASE("ReportCostFromTraining is exact for 3 classes, with Monte Carlo only when asked",
          "[training_cost][report]") {
  const Forest forest = TrainOn("waveform");
  CheckAgainstFormerPolicy(forest, 0);
  CheckAgainstFormerPolicy(forest, 400);
  CHECK_FALSE(ReportCostFromTraining(
                  forest, BuildForestTable(forest, HaltingRule::kSiba, 0.95).value(), 0, 1)
                  .value()
                  .monte_carlo.has_value());
}

TEST_CASE("ReportCostFromTraining beyond 4 classes is Monte Carlo with 10,000 draws by default",
          "[training_cost][report]") {
  const Forest forest = TrainOn("led");
  REQUIRE(forest.num_classes() > 4);
  CheckAgainstFormerPolicy(forest, 0);
  CheckAgainstFormerPolicy(forest, 300);
  CHECK(TrainingCostSamples(10, 101, 0) == kManyClassCostSamples);
  CHECK(TrainingCostSamples(10, 101, 5) == 5);
  CHECK(TrainingCostSamples(4, 101, 0) == 0);
  CHECK(TrainingCostSamples(3, 101, -2) == 0);
}

TEST_CASE("The training cost is exact up to 200,000 final tallies, Monte Carlo beyond",
          "[training_cost][report]") {
  CHECK(urnforest::TrainingCostIsExact(2, 100000));
  CHECK(urnforest::TrainingCostIsExact(3, 630));
  CHECK_FALSE(urnforest::TrainingCostIsExact(3, 631));
  CHECK(urnforest::TrainingCostIsExact(4, 101));
  CHECK_FALSE(urnforest::TrainingCostIsExact(4, 301));
  CHECK_FALSE(urnforest::TrainingCostIsExact(5, 11));
  CHECK(TrainingCostSamples(4, 301, 0) == kManyClassCostSamples);
}
