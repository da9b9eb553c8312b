#include "urnforest/binary_stopping.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

using urnforest::BinaryOutcome;
using urnforest::BinaryStoppingSet;
using urnforest::ExactBinaryOutcomes;
using urnforest::ExpectedBinaryOutcome;
using urnforest::LagrangianStoppingSet;
using urnforest::MinimeanProblem;
using urnforest::SolveMinimean;
using urnforest::StopProbabilities;

namespace {

// A deterministic pseudo-random weight vector over n = 0..N (some zeros, a U shape on average,
// as final tallies of a forest are).
std::vector<double> Weights(int32_t num_trees, uint64_t state) {
  std::vector<double> w(static_cast<size_t>(num_trees) + 1);
  for (int32_t n = 0; n <= num_trees; ++n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
    const double edge = std::min(n, num_trees - n);
    w[n] = u < 0.2 ? 0.0 : u / (1.0 + edge);
  }
  return w;
}

// Walks one vote order (bits: 1 = a class-1 vote) through the set: {trees used, answer}.
std::pair<int32_t, int> Walk(const BinaryStoppingSet& set, const std::vector<int>& order) {
  int32_t j = 0;
  for (int32_t i = 0;; ++i) {
    const int64_t r = BinaryStoppingSet::Rank(i, j);
    if (set.stop[r]) return {i, set.answer[r]};
    j += order[i];
  }
}

// The fewest expected trees any mixture of the (disagreement, trees) points reaches with
// disagreement <= target: the lower convex hull at the target, or a point left of it.
double HullTrees(std::vector<BinaryOutcome> points, double target) {
  std::sort(points.begin(), points.end(), [](const BinaryOutcome& a, const BinaryOutcome& b) {
    return a.disagreement < b.disagreement || (a.disagreement == b.disagreement && a.trees < b.trees);
  });
  std::vector<BinaryOutcome> hull;  // monotone chain, lower part
  for (const BinaryOutcome& p : points) {
    while (hull.size() >= 2) {
      const BinaryOutcome& a = hull[hull.size() - 2];
      const BinaryOutcome& b = hull.back();
      const double cross = (b.disagreement - a.disagreement) * (p.trees - a.trees) -
                           (b.trees - a.trees) * (p.disagreement - a.disagreement);
      if (cross > 0) break;
      hull.pop_back();
    }
    hull.push_back(p);
  }
  double best = std::numeric_limits<double>::infinity();
  for (const BinaryOutcome& p : points) {
    if (p.disagreement <= target) best = std::min(best, p.trees);
  }
  for (size_t k = 1; k < hull.size(); ++k) {
    const BinaryOutcome& a = hull[k - 1];
    const BinaryOutcome& b = hull[k];
    if (a.disagreement <= target && target < b.disagreement) {
      const double share = (b.disagreement - target) / (b.disagreement - a.disagreement);
      best = std::min(best, share * a.trees + (1.0 - share) * b.trees);
    }
  }
  return best;
}

// Every deterministic stopping set for N trees (states 1 <= i < N free), with the answers of `like`.
std::vector<BinaryOutcome> AllDeterministicOutcomes(const BinaryStoppingSet& like,
                                                    const std::vector<double>& weights) {
  const int32_t n = like.num_trees;
  std::vector<int64_t> free_states;
  for (int32_t i = 1; i < n; ++i) {
    for (int32_t j = 0; j <= i; ++j) free_states.push_back(BinaryStoppingSet::Rank(i, j));
  }
  std::vector<BinaryOutcome> out;
  BinaryStoppingSet set = like;
  for (uint64_t mask = 0; mask < (uint64_t{1} << free_states.size()); ++mask) {
    for (size_t k = 0; k < free_states.size(); ++k) set.stop[free_states[k]] = (mask >> k) & 1;
    out.push_back(ExpectedBinaryOutcome(set, weights).value());
  }
  return out;
}

}  // namespace

TEST_CASE("Exact outcomes of a stopping set equal the average over every vote order", "[binary_stopping]") {
  for (int32_t num_trees : {3, 6, 8}) {
    auto set = LagrangianStoppingSet(num_trees, Weights(num_trees, 7 + num_trees), 40.0);
    REQUIRE(set.ok());
    auto exact = ExactBinaryOutcomes(set.value());
    REQUIRE(exact.ok());
    for (int32_t n = 0; n <= num_trees; ++n) {
      // Every arrangement of n ones among N positions is equally likely under random order.
      double trees = 0, disagree = 0, one = 0, count = 0;
      for (uint32_t bits = 0; bits < (1u << num_trees); ++bits) {
        if (__builtin_popcount(bits) != n) continue;
        std::vector<int> order(num_trees);
        for (int32_t k = 0; k < num_trees; ++k) order[k] = (bits >> k) & 1;
        const auto [used, answer] = Walk(set.value(), order);
        trees += used;
        one += answer == 1;
        disagree += answer != (2 * n > num_trees ? 1 : 0);
        count += 1;
      }
      CAPTURE(num_trees, n);
      CHECK(exact.value()[n].trees == Approx(trees / count).epsilon(1e-12));
      CHECK(exact.value()[n].disagreement == Approx(disagree / count).margin(1e-12));
      CHECK(exact.value()[n].answer_one == Approx(one / count).margin(1e-12));
    }
  }
}

TEST_CASE("The expected outcome is the calibration-weighted average of the exact row outcomes", "[binary_stopping]") {
  const int32_t num_trees = 21;
  const std::vector<double> w = Weights(num_trees, 99);
  auto set = LagrangianStoppingSet(num_trees, w, 300.0);
  REQUIRE(set.ok());
  auto rows = ExactBinaryOutcomes(set.value());
  auto mean = ExpectedBinaryOutcome(set.value(), w);
  REQUIRE(rows.ok());
  REQUIRE(mean.ok());
  double total = 0, trees = 0, disagree = 0;
  for (double x : w) total += x;
  for (int32_t n = 0; n <= num_trees; ++n) {
    trees += w[n] / total * rows.value()[n].trees;
    disagree += w[n] / total * rows.value()[n].disagreement;
  }
  CHECK(mean.value().trees == Approx(trees).epsilon(1e-12));
  CHECK(mean.value().disagreement == Approx(disagree).margin(1e-14));
}

namespace {

// Minimean's expected trees against the lower hull of every deterministic stopping set's outcome
// (2^(N(N+1)/2 - 1) sets), for three weight draws and five targets.
void CheckMinimeanAgainstExhaustiveSearch(int32_t num_trees) {
  for (uint64_t draw : {1u, 2u, 3u}) {
    const std::vector<double> w = Weights(num_trees, draw * 31 + num_trees);
    auto like = LagrangianStoppingSet(num_trees, w, 0.0);
    REQUIRE(like.ok());
    const std::vector<BinaryOutcome> points = AllDeterministicOutcomes(like.value(), w);
    for (double target : {0.0, 0.001, 0.01, 0.05, 0.2}) {
      MinimeanProblem p;
      p.num_trees = num_trees;
      p.final_count_weights = w;
      p.max_disagreement = target;
      auto s = SolveMinimean(p);
      REQUIRE(s.ok());
      CAPTURE(num_trees, draw, target);
      CHECK(s.value().expected_disagreement <= target + 1e-12);
      CHECK(s.value().expected_trees == Approx(HullTrees(points, target)).epsilon(1e-9));
    }
  }
}

}  // namespace

TEST_CASE("Minimean reaches the fewest trees of any randomised strategy (exhaustive search, N <= 5)", "[binary_stopping]") {
  for (int32_t num_trees : {2, 3, 4, 5}) CheckMinimeanAgainstExhaustiveSearch(num_trees);
}

// N = 6 enumerates 2^20 stopping sets per draw: a numerical sweep of the same code as N <= 5, run
// natively only (scripts/test-sanitize.sh leaves [slow] out).
TEST_CASE("Minimean reaches the fewest trees of any randomised strategy (exhaustive search, N = 6)",
          "[binary_stopping][slow]") {
  CheckMinimeanAgainstExhaustiveSearch(6);
}

TEST_CASE("Minimean's mixture meets a binding target exactly and its two sets bracket it", "[binary_stopping]") {
  MinimeanProblem p;
  p.num_trees = 101;
  p.final_count_weights = Weights(101, 5);
  p.max_disagreement = 0.001;
  auto s = SolveMinimean(p);
  REQUIRE(s.ok());
  const auto& v = s.value();
  auto first = ExpectedBinaryOutcome(v.first, p.final_count_weights);
  auto second = ExpectedBinaryOutcome(v.second, p.final_count_weights);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(first.value().disagreement <= 0.001);
  CHECK(second.value().disagreement >= 0.001);
  CHECK(v.expected_disagreement == Approx(0.001).epsilon(1e-9));
  CHECK(v.expected_trees < 101.0);
  CHECK(v.expected_trees == Approx(v.first_share * first.value().trees +
                                   (1 - v.first_share) * second.value().trees));
}

TEST_CASE("A state's stop probability is the share of rows whose drawn set stops there", "[binary_stopping]") {
  MinimeanProblem p;
  p.num_trees = 101;
  p.final_count_weights = Weights(101, 5);
  p.max_disagreement = 0.001;
  auto s = SolveMinimean(p);
  REQUIRE(s.ok());
  const auto& v = s.value();
  REQUIRE(v.first_share > 0.0);
  REQUIRE(v.first_share < 1.0);
  auto stop = StopProbabilities(v);
  REQUIRE(stop.ok());
  REQUIRE(stop.value().size() == v.first.stop.size());
  int mixed = 0;
  for (size_t r = 0; r < stop.value().size(); ++r) {
    const int both = v.first.stop[r] + v.second.stop[r];
    const double expected = both == 2 ? 1.0 : both == 0 ? 0.0 : v.first.stop[r] ? v.first_share : 1.0 - v.first_share;
    CHECK(stop.value()[r] == expected);
    if (both == 1) ++mixed;
  }
  CHECK(mixed > 0);  // the two sets differ somewhere, so some cells are randomised
  CHECK(stop.value()[0] == 0.0);
  CHECK(stop.value()[BinaryStoppingSet::Rank(101, 50)] == 1.0);

  urnforest::BinaryStoppingStrategy broken = v;
  broken.second.stop.pop_back();
  CHECK(StopProbabilities(broken).status().code == urnforest::StatusCode::kInvalidArgument);
  broken = v;
  broken.first_share = 1.5;
  CHECK(StopProbabilities(broken).status().code == urnforest::StatusCode::kInvalidArgument);
}

TEST_CASE("A looser disagreement target never needs more trees", "[binary_stopping]") {
  MinimeanProblem p;
  p.num_trees = 51;
  p.final_count_weights = Weights(51, 11);
  double previous = 52.0;
  for (double target : {0.0, 1e-4, 1e-3, 1e-2, 0.1}) {
    p.max_disagreement = target;
    auto s = SolveMinimean(p);
    REQUIRE(s.ok());
    CHECK(s.value().expected_trees <= previous + 1e-9);
    previous = s.value().expected_trees;
  }
}

TEST_CASE("A target of zero disagreement on unanimous rows stops after one tree", "[binary_stopping]") {
  MinimeanProblem p;
  p.num_trees = 11;
  p.final_count_weights.assign(12, 0.0);
  p.final_count_weights[0] = 3;
  p.final_count_weights[11] = 1;
  p.max_disagreement = 0.0;
  auto s = SolveMinimean(p);
  REQUIRE(s.ok());
  CHECK(s.value().expected_trees == Approx(1.0));
  CHECK(s.value().expected_disagreement == 0.0);
}

TEST_CASE("Binary stopping refuses malformed problems and sets", "[binary_stopping]") {
  MinimeanProblem p;
  p.num_trees = 5;
  p.final_count_weights = {1, 1, 1};
  CHECK(SolveMinimean(p).status().code == urnforest::StatusCode::kInvalidArgument);
  p.final_count_weights.assign(6, 0.0);
  CHECK(SolveMinimean(p).status().message.find("all zero") != std::string::npos);
  p.final_count_weights[2] = -1;
  CHECK(!SolveMinimean(p).ok());
  p.final_count_weights[2] = 1;
  p.max_disagreement = 1.5;
  CHECK(!SolveMinimean(p).ok());
  p.num_trees = 0;
  CHECK(!SolveMinimean(p).ok());
  CHECK(!LagrangianStoppingSet(5, std::vector<double>(6, 1.0), -1.0).ok());

  auto set = LagrangianStoppingSet(5, std::vector<double>(6, 1.0), 10.0);
  REQUIRE(set.ok());
  BinaryStoppingSet bad = set.value();
  bad.stop[0] = 1;
  CHECK(!ExactBinaryOutcomes(bad).ok());
  bad = set.value();
  bad.stop[BinaryStoppingSet::Rank(5, 2)] = 0;
  CHECK(!ExactBinaryOutcomes(bad).ok());
  bad = set.value();
  bad.stop.pop_back();
  CHECK(!ExactBinaryOutcomes(bad).ok());
}
