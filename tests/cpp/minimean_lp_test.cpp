#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "simplex_oracle.h"

namespace urnforest {
namespace {

double Choose(int32_t n, int32_t k) {
  if (k < 0 || k > n) return 0.0;
  double v = 1.0;
  for (int32_t i = 1; i <= k; ++i) v = v * (n - k + i) / i;
  return v;
}

// [KM26]'s linear program over randomised strategies, written as flows: per state s = (i, j), the
// stopped fraction g_s and the going-on fraction h_s of the vote orders reaching it, with
// g_s + h_s = f_s (f(0, 0) = 1, f(i + 1, j) = h(i, j)(i + 1 - j)/(i + 1) + h(i, j - 1) j/(i + 1)),
// g(0, 0) = 0 and h = 0 at i = N; minimise sum g_s i A_s subject to sum g_s W_s <= target, with the
// answers of `answers` (the solver's). Returns the fewest expected trees.
double FlowLpTrees(int32_t num_trees, const std::vector<double>& weights, const std::vector<uint8_t>& answers,
                   double target) {
  double total = 0.0;
  for (double w : weights) total += w;
  const int64_t states = BinaryStoppingSet::Rank(num_trees + 1, 0);
  // Variables: g_s (0..states-1), h_s (states..2 states-1), the constraint's slack.
  const size_t vars = static_cast<size_t>(2 * states + 1);
  std::vector<std::vector<double>> a;
  std::vector<double> b, cost(vars, 0.0), disagreement_row(vars, 0.0);
  for (int32_t i = 0; i <= num_trees; ++i) {
    for (int32_t j = 0; j <= i; ++j) {
      const int64_t s = BinaryStoppingSet::Rank(i, j);
      double mass = 0.0, wrong = 0.0;
      for (int32_t n = 0; n <= num_trees; ++n) {
        const double h = Choose(n, j) * Choose(num_trees - n, i - j) / Choose(num_trees, i);
        mass += weights[n] / total * h;
        if ((2 * n > num_trees ? 1 : 0) != answers[s]) wrong += weights[n] / total * h;
      }
      cost[s] = i * mass;
      disagreement_row[s] = wrong;
      std::vector<double> row(vars, 0.0);
      row[s] = 1.0;
      row[states + s] = 1.0;
      if (i > 0) {
        if (j < i) row[states + BinaryStoppingSet::Rank(i - 1, j)] -= static_cast<double>(i - j) / i;
        if (j > 0) row[states + BinaryStoppingSet::Rank(i - 1, j - 1)] -= static_cast<double>(j) / i;
      }
      a.push_back(row);
      b.push_back(i == 0 ? 1.0 : 0.0);
      if (i == 0 || i == num_trees) {  // g(0, 0) = 0; h = 0 at i = N
        std::vector<double> fix(vars, 0.0);
        fix[i == 0 ? s : states + s] = 1.0;
        a.push_back(fix);
        b.push_back(0.0);
      }
    }
  }
  disagreement_row[vars - 1] = 1.0;
  a.push_back(disagreement_row);
  b.push_back(target);
  return SimplexMinimum(a, b, cost);
}

std::vector<double> SomeWeights(int32_t num_trees, uint64_t state) {
  std::vector<double> w(static_cast<size_t>(num_trees) + 1);
  for (int32_t n = 0; n <= num_trees; ++n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
    w[n] = u < 0.15 ? 0.0 : u / (1.0 + std::min(n, num_trees - n));
  }
  return w;
}

TEST_CASE("Minimean reaches the linear program's optimum over every randomised strategy (simplex, N <= 9)", "[binary_stopping]") {
  for (int32_t num_trees : {3, 5, 7, 8, 9}) {
    for (uint64_t draw : {1u, 2u}) {
      const std::vector<double> w = SomeWeights(num_trees, draw * 97 + num_trees);
      for (double target : {0.0, 0.002, 0.02, 0.1}) {
        MinimeanProblem p;
        p.num_trees = num_trees;
        p.final_count_weights = w;
        p.max_disagreement = target;
        const BinaryStoppingStrategy s = SolveMinimean(p).value();
        CAPTURE(num_trees, draw, target);
        const double lp = FlowLpTrees(num_trees, w, s.first.answer, target);
        REQUIRE(std::isfinite(lp));
        CHECK(s.expected_disagreement <= target + 1e-12);
        CHECK(s.expected_trees == Approx(lp).epsilon(1e-8).margin(1e-9));
      }
    }
  }
}

}  // namespace
}  // namespace urnforest
