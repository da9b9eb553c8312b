#include "urnforest/stratified_stopping.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/linear_surrogate.h"

using urnforest::BinaryOutcome;
using urnforest::ExactStratifiedOutcomes;
using urnforest::FitLinearSurrogate;
using urnforest::FitStratifiedModel;
using urnforest::LinearSurrogate;
using urnforest::MinimeanProblem;
using urnforest::SolveMinimean;
using urnforest::SolveStratifiedMinimean;
using urnforest::StatusCode;
using urnforest::StratifiedModel;
using urnforest::StratifiedOptions;
using urnforest::StratifiedProblem;
using urnforest::StratifiedStrategy;
using urnforest::SurrogateOptions;

namespace {

uint64_t Next(uint64_t* state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 11;
}

double Uniform(uint64_t* state) { return static_cast<double>(Next(state)) / 9007199254740992.0; }

std::vector<double> Weights(int32_t num_trees, uint64_t state, int32_t centre) {
  std::vector<double> w(static_cast<size_t>(num_trees) + 1);
  for (int32_t n = 0; n <= num_trees; ++n) {
    const double u = Uniform(&state);
    w[n] = u < 0.2 ? 0.0 : u / (1.0 + std::abs(n - centre));
  }
  return w;
}

// The overall exact disagreement and trees of a strategy on the distribution it was solved for.
BinaryOutcome Overall(const StratifiedStrategy& s, const StratifiedProblem& p) {
  const auto exact = ExactStratifiedOutcomes(s).value();
  BinaryOutcome o;
  double total = 0.0;
  for (const auto& w : p.bucket_final_counts) {
    for (double x : w) total += x;
  }
  for (size_t b = 0; b < exact.size(); ++b) {
    for (size_t n = 0; n < exact[b].size(); ++n) {
      const double q = p.bucket_final_counts[b][n] / total;
      o.trees += q * exact[b][n].trees;
      o.disagreement += q * exact[b][n].disagreement;
    }
  }
  return o;
}

}  // namespace

TEST_CASE("With one bucket the stratified strategy is the minimean strategy", "[stratified]") {
  for (int32_t trees : {1, 9, 21, 51}) {
    for (double target : {0.0, 0.001, 0.01, 0.05, 0.5}) {
      MinimeanProblem mp;
      mp.num_trees = trees;
      mp.final_count_weights = Weights(trees, 7 + trees, trees / 2);
      mp.max_disagreement = target;
      const auto lp = SolveMinimean(mp).value();
      StratifiedProblem sp;
      sp.num_trees = trees;
      sp.bucket_final_counts = {mp.final_count_weights};
      sp.max_disagreement = target;
      const auto st = SolveStratifiedMinimean(sp).value();
      REQUIRE(st.buckets.size() == 1);
      CHECK(st.bucket_weights[0] == 1.0);
      CHECK(st.buckets[0].first.stop == lp.first.stop);
      CHECK(st.buckets[0].first.answer == lp.first.answer);
      CHECK(st.buckets[0].second.stop == lp.second.stop);
      CHECK(st.buckets[0].second.answer == lp.second.answer);
      CHECK(st.buckets[0].first_share == lp.first_share);
      CHECK(st.expected_trees == lp.expected_trees);
      CHECK(st.expected_disagreement == lp.expected_disagreement);
      CHECK(st.multiplier == lp.multiplier);
    }
  }
}

TEST_CASE("The stratified strategy meets the overall target exactly and never uses more trees than one bucket",
          "[stratified]") {
  const int32_t trees = 31;
  for (double target : {0.0, 0.0005, 0.002, 0.02}) {
    StratifiedProblem sp;
    sp.num_trees = trees;
    sp.bucket_final_counts = {Weights(trees, 11, 2), Weights(trees, 12, 15), Weights(trees, 13, 29)};
    for (double& x : sp.bucket_final_counts[1]) x *= 0.5;
    sp.max_disagreement = target;
    const auto st = SolveStratifiedMinimean(sp).value();
    const BinaryOutcome exact = Overall(st, sp);
    CHECK(exact.disagreement <= target * (1.0 + 1e-9) + 1e-15);
    CHECK(exact.disagreement == Approx(st.expected_disagreement).margin(1e-12));
    CHECK(exact.trees == Approx(st.expected_trees).epsilon(1e-12));
    double sum = 0.0;
    for (double w : st.bucket_weights) sum += w;
    CHECK(sum == Approx(1.0).epsilon(1e-15));
    for (const auto& b : st.buckets) CHECK(b.first_share == st.buckets[0].first_share);

    MinimeanProblem pooled;
    pooled.num_trees = trees;
    pooled.final_count_weights.assign(trees + 1, 0.0);
    for (const auto& w : sp.bucket_final_counts) {
      for (int32_t n = 0; n <= trees; ++n) pooled.final_count_weights[n] += w[n];
    }
    pooled.max_disagreement = target;
    CHECK(st.expected_trees <= SolveMinimean(pooled).value().expected_trees * (1.0 + 1e-12));
  }
}

TEST_CASE("A surrogate that separates rows perfectly brings the trees down to the analytic value", "[stratified]") {
  // Half the rows have x = 0 and one class-1 vote of 11, half x = 1 and ten. Knowing the bucket,
  // a row stops after the first tree when it votes the bucket's majority (10 of 11), else after the
  // second (a tie, answered with the bucket's winner): 10/11 + 2/11 = 12/11 trees, no disagreement.
  const int32_t trees = 11;
  std::vector<float> x;
  std::vector<int32_t> counts;
  for (int r = 0; r < 40; ++r) {
    x.push_back(static_cast<float>(r % 2));
    counts.push_back(r % 2 == 0 ? 1 : 10);
  }
  StratifiedOptions options;
  options.buckets = 2;
  options.min_rows_per_bucket = 1;
  options.max_disagreement = 0.0;
  const StratifiedModel model = FitStratifiedModel(x.data(), x.size(), 1, trees, counts, options).value();
  REQUIRE(model.calibration.cuts.size() == 1);
  const float zero = 0.0f, one = 1.0f;
  CHECK(model.BucketOfRow(&zero) == 0);
  CHECK(model.BucketOfRow(&one) == 1);
  CHECK(model.strategy.expected_trees == Approx(12.0 / 11.0).epsilon(1e-12));
  CHECK(model.strategy.expected_disagreement == 0.0);

  MinimeanProblem pooled;
  pooled.num_trees = trees;
  pooled.final_count_weights.assign(trees + 1, 0.0);
  pooled.final_count_weights[1] = pooled.final_count_weights[10] = 20.0;
  pooled.max_disagreement = 0.0;
  CHECK(SolveMinimean(pooled).value().expected_trees > 12.0 / 11.0 + 0.5);
}

TEST_CASE("The surrogate recovers a linear vote share and scores missing and infinite cells finitely",
          "[stratified]") {
  uint64_t state = 5;
  const int32_t f = 3;
  std::vector<float> rows;
  std::vector<double> y;
  for (int r = 0; r < 200; ++r) {
    const float a = static_cast<float>(Uniform(&state) * 4 - 2), b = static_cast<float>(Uniform(&state));
    rows.insert(rows.end(), {a, b, 7.0f});
    y.push_back(0.5 + 0.1 * a - 0.2 * b);
  }
  SurrogateOptions exact;
  exact.ridge = 0.0;
  const LinearSurrogate s = FitLinearSurrogate(rows.data(), 200, f, y, exact).value();
  for (int r = 0; r < 200; ++r) CHECK(s.Score(&rows[r * f]) == Approx(y[r]).margin(1e-9));
  CHECK(s.weights[2] == 0.0);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const float missing[3] = {nan, nan, nan};
  CHECK(s.Score(missing) == Approx(s.intercept).margin(1e-12));
  const float infinite[3] = {inf, -inf, inf};
  CHECK(std::isfinite(s.Score(infinite)));
  CHECK(s.Score(infinite) <= 0.5 + 0.1 * 2 + 1e-6);
}

TEST_CASE("Constant features give one bucket and the minimean strategy", "[stratified]") {
  const int32_t trees = 21;
  std::vector<float> rows(100, 3.0f);
  std::vector<int32_t> counts;
  MinimeanProblem mp;
  mp.num_trees = trees;
  mp.final_count_weights.assign(trees + 1, 0.0);
  for (int r = 0; r < 100; ++r) {
    counts.push_back((r * 7) % (trees + 1));
    mp.final_count_weights[counts.back()] += 1.0;
  }
  mp.max_disagreement = 0.01;
  StratifiedOptions options;
  options.min_rows_per_bucket = 1;
  options.max_disagreement = 0.01;
  const StratifiedModel model = FitStratifiedModel(rows.data(), 100, 1, trees, counts, options).value();
  CHECK(model.calibration.cuts.empty());
  CHECK(model.strategy.buckets[0].first.stop == SolveMinimean(mp).value().first.stop);
}

TEST_CASE("Bad stratified input is refused with its code", "[stratified]") {
  StratifiedProblem sp;
  sp.num_trees = 5;
  SECTION("no bucket") { CHECK(SolveStratifiedMinimean(sp).status().code == StatusCode::kInvalidArgument); }
  SECTION("an empty bucket") {
    sp.bucket_final_counts = {std::vector<double>(6, 1.0), std::vector<double>(6, 0.0)};
    CHECK(SolveStratifiedMinimean(sp).status().code == StatusCode::kInvalidArgument);
  }
  SECTION("a NaN weight") {
    sp.bucket_final_counts = {std::vector<double>(6, std::numeric_limits<double>::quiet_NaN())};
    CHECK(SolveStratifiedMinimean(sp).status().code == StatusCode::kInvalidArgument);
  }
  SECTION("a bucket of the wrong length") {
    sp.bucket_final_counts = {std::vector<double>(5, 1.0)};
    CHECK(SolveStratifiedMinimean(sp).status().code == StatusCode::kInvalidArgument);
  }
  SECTION("a target outside [0, 1]") {
    sp.bucket_final_counts = {std::vector<double>(6, 1.0)};
    sp.max_disagreement = 1.5;
    CHECK(SolveStratifiedMinimean(sp).status().code == StatusCode::kInvalidArgument);
  }
  SECTION("a NaN surrogate target") {
    const float rows[2] = {1.0f, 2.0f};
    const std::vector<double> y = {0.5, std::numeric_limits<double>::quiet_NaN()};
    CHECK(FitLinearSurrogate(rows, 2, 1, y).status().code == StatusCode::kInvalidArgument);
  }
  SECTION("one row, or counts that do not match the rows, or a count above N") {
    const float rows[2] = {1.0f, 2.0f};
    CHECK(FitStratifiedModel(rows, 1, 1, 5, {3}).status().code == StatusCode::kInvalidArgument);
    CHECK(FitStratifiedModel(rows, 2, 1, 5, {3}).status().code == StatusCode::kShapeMismatch);
    CHECK(FitStratifiedModel(rows, 2, 1, 5, {3, 6}).status().code == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("With the pooled share at one every bucket solves the pooled distribution, and a share outside [0, 1] is refused",
          "[stratified]") {
  const int32_t trees = 21;
  std::vector<float> x;
  std::vector<int32_t> counts;
  MinimeanProblem pooled;
  pooled.num_trees = trees;
  pooled.final_count_weights.assign(trees + 1, 0.0);
  for (int r = 0; r < 400; ++r) {
    x.push_back(static_cast<float>(r));
    counts.push_back((r * 21) / 400 + (r % 3 == 0 ? 1 : 0) > trees ? trees : (r * 21) / 400 + (r % 3 == 0 ? 1 : 0));
    pooled.final_count_weights[counts.back()] += 1.0;
  }
  pooled.max_disagreement = 0.01;
  StratifiedOptions options;
  options.buckets = 4;
  options.max_disagreement = 0.01;
  options.pooled_share = 1.0;
  const StratifiedModel model = FitStratifiedModel(x.data(), x.size(), 1, trees, counts, options).value();
  REQUIRE(model.strategy.buckets.size() == 4);
  const auto lp = SolveMinimean(pooled).value();
  CHECK(model.strategy.expected_trees == Approx(lp.expected_trees).epsilon(1e-9));
  for (const auto& b : model.strategy.buckets) CHECK(b.expected_trees == Approx(lp.expected_trees).epsilon(1e-9));
  options.pooled_share = 0.0;
  CHECK(FitStratifiedModel(x.data(), x.size(), 1, trees, counts, options).value().strategy.expected_trees <
        lp.expected_trees);
  options.pooled_share = 1.5;
  CHECK(FitStratifiedModel(x.data(), x.size(), 1, trees, counts, options).status().code == StatusCode::kInvalidArgument);
}
