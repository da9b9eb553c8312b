#include "urnforest/tally_lagrangian_ladder.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "urnforest/tally_stopping.h"
#include "tally_enumeration.h"

namespace urnforest {
namespace {

uint64_t Next(uint64_t* state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 11;
}

// `rows` final tallies of t votes over k classes, skewed towards unanimity like real forests.
std::vector<uint32_t> SomeRows(int32_t t, int32_t k, int32_t rows, uint64_t seed) {
  std::vector<uint32_t> out;
  for (int32_t r = 0; r < rows; ++r) {
    std::vector<uint32_t> f(static_cast<size_t>(k), 0);
    const int32_t favourite = static_cast<int32_t>(Next(&seed) % k);
    const double strength = static_cast<double>(Next(&seed) % 1000) / 1000.0;
    for (int32_t v = 0; v < t; ++v) {
      const double u = static_cast<double>(Next(&seed) % 100000) / 100000.0;
      f[static_cast<size_t>(u < strength ? favourite : static_cast<int32_t>(Next(&seed) % k))] += 1;
    }
    out.insert(out.end(), f.begin(), f.end());
  }
  return out;
}

std::vector<int32_t> RowOf(const std::vector<uint32_t>& tallies, size_t r, int32_t k) {
  return std::vector<int32_t>(tallies.begin() + r * k, tallies.begin() + (r + 1) * k);
}

using testing::EnumeratedOutcome;

bool SomeRowAbove(const std::vector<uint32_t>& rows, int32_t k, const int32_t* x) {
  for (size_t r = 0; r * k < rows.size(); ++r) {
    bool above = true;
    for (int32_t c = 0; c < k; ++c) above = above && static_cast<int32_t>(rows[r * k + c]) >= x[c];
    if (above) return true;
  }
  return false;
}

const double kMultipliers[] = {0.0, 0.5, 2.0, 8.0, 64.0, 1e4};

TEST_CASE("Every ladder set's exact row outcomes equal the average over every vote order (K = 3)", "[tally_ladder]") {
  for (int32_t t : {5, 7}) {
    const std::vector<uint32_t> fit = SomeRows(t, 3, 10, 7 + t);
    std::vector<uint32_t> reach = fit;
    const std::vector<uint32_t> others = SomeRows(t, 3, 14, 99 + t);  // rows unlike the fit rows too
    reach.insert(reach.end(), others.begin(), others.end());
    const TallyLagrangianLadder ladder = TallyLagrangianLadder::Make(t, 3, fit, reach).value();
    const TallyLattice lattice = TallyLattice::Make(t, 3).value();
    std::vector<SupportStopSet> sets;
    for (double mu : kMultipliers) sets.push_back(ladder.Solve(mu));
    const auto outcomes = ladder.ReachOutcomes(sets);
    REQUIRE(outcomes.size() == sets.size());
    for (size_t j = 0; j < sets.size(); ++j) {
      const TallyStoppingSet full = ladder.Expand(sets[j]);
      const std::vector<TallyOutcome> exact = ExactTallyOutcomes(full, reach).value();
      REQUIRE(outcomes[j].size() == reach.size() / 3);
      for (size_t r = 0; r < outcomes[j].size(); ++r) {
        const TallyOutcome brute = EnumeratedOutcome(lattice, full, RowOf(reach, r, 3));
        CAPTURE(t, kMultipliers[j], r);
        CHECK(outcomes[j][r].trees == Approx(brute.trees).epsilon(1e-12));
        CHECK(outcomes[j][r].disagreement == Approx(brute.disagreement).margin(1e-12));
        CHECK(exact[r].disagreement == Approx(brute.disagreement).margin(1e-12));
      }
    }
  }
}

TEST_CASE("A ladder set is the Lagrangian set where fit rows go and goes on where none does", "[tally_ladder]") {
  for (int32_t k : {3, 4}) {
    const int32_t t = k == 3 ? 15 : 9;
    const std::vector<uint32_t> fit = SomeRows(t, k, 25, 3 * k);
    std::vector<uint32_t> reach = SomeRows(t, k, 40, 5 * k);
    const TallyLagrangianLadder ladder = TallyLagrangianLadder::Make(t, k, fit, reach).value();
    const TallyLattice lattice = TallyLattice::Make(t, k).value();
    TallyMinimeanProblem problem;
    problem.num_trees = t;
    problem.num_classes = k;
    problem.final_tallies = fit;
    for (double mu : kMultipliers) {
      CAPTURE(k, mu);
      const TallyStoppingSet ours = ladder.Expand(ladder.Solve(mu));
      const TallyStoppingSet lagrangian = TallyLagrangianSet(problem, mu).value();
      int64_t compared = 0;
      for (int32_t i = 0; i < t; ++i) {
        lattice.ForEachOfSum(i, [&](const int32_t* x) {
          const size_t s = static_cast<size_t>(lattice.Index(x, i));
          if (SomeRowAbove(fit, k, x)) {
            CHECK(ours.stop[s] == lagrangian.stop[s]);
            ++compared;
          } else {
            CHECK(ours.stop[s] == 0);
          }
        });
      }
      CHECK(compared > 0);
      // The same Lagrangian value on the fit rows, which the exact outcomes and FitOutcome agree on.
      const std::vector<TallyOutcome> a = ExactTallyOutcomes(ours, fit).value();
      const std::vector<TallyOutcome> b = ExactTallyOutcomes(lagrangian, fit).value();
      double value_a = 0.0, value_b = 0.0, dis_a = 0.0, trees_a = 0.0;
      for (size_t r = 0; r < a.size(); ++r) {
        value_a += (a[r].trees + mu * a[r].disagreement) / a.size();
        value_b += (b[r].trees + mu * b[r].disagreement) / b.size();
        dis_a += a[r].disagreement / a.size();
        trees_a += a[r].trees / a.size();
      }
      CHECK(value_a == Approx(value_b).epsilon(1e-12));
      const TallyOutcome fitted = ladder.FitOutcome(ladder.Solve(mu));
      CHECK(fitted.disagreement == Approx(dis_a).margin(1e-12));
      CHECK(fitted.trees == Approx(trees_a).epsilon(1e-12));
    }
  }
}

TEST_CASE("With pseudo-errors a large multiplier stops only where the leader is decided, without, few fit rows look certain", "[tally_ladder]") {
  const int32_t t = 15;
  const std::vector<uint32_t> fit = SomeRows(t, 3, 12, 41);
  const std::vector<uint32_t> reach = SomeRows(t, 3, 200, 43);
  const TallyLagrangianLadder plain = TallyLagrangianLadder::Make(t, 3, fit, reach).value();
  const TallyLagrangianLadder pessimistic = TallyLagrangianLadder::Make(t, 3, fit, reach, 0.01).value();
  const double mu = 1e12;
  const auto careful = pessimistic.ReachOutcomes({pessimistic.Solve(mu)}).at(0);
  const auto confident = plain.ReachOutcomes({plain.Solve(mu)}).at(0);
  double worst_careful = 0.0, worst_confident = 0.0;
  for (size_t r = 0; r < careful.size(); ++r) {
    worst_careful = std::max(worst_careful, careful[r].disagreement);
    worst_confident = std::max(worst_confident, confident[r].disagreement);
  }
  CHECK(worst_careful == 0.0);   // every stop is at a decided leader: the exact exit's answers
  CHECK(worst_confident > 0.0);  // stops where 12 rows never disagreed, and rows unlike them do
  CHECK(pessimistic.FitOutcome(pessimistic.Solve(mu)).trees < t);  // decided rows still stop early
  CHECK(TallyLagrangianLadder::Make(t, 3, fit, reach, -1.0).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("The ladder covers only states some row reaches and refuses what does not fit", "[tally_ladder]") {
  const std::vector<uint32_t> unanimous = {6, 0, 0, 0, 6, 0};
  const TallyLagrangianLadder ladder = TallyLagrangianLadder::Make(6, 3, unanimous, unanimous).value();
  CHECK(ladder.support_size() == 1 + 2 * 6);  // the empty tally and two rays
  const SupportStopSet cheap = ladder.Solve(0.0);
  CHECK(ladder.FitOutcome(cheap).trees == Approx(1.0));  // unanimous rows stop after one vote
  CHECK(ladder.FitOutcome(cheap).disagreement == 0.0);
  CHECK(ladder.Solve(-1.0).empty());
  CHECK(TallyLagrangianLadder::Make(6, 3, {}, unanimous).status().code == StatusCode::kInvalidArgument);
  CHECK(TallyLagrangianLadder::Make(6, 3, {6, 0, 1}, unanimous).status().code == StatusCode::kInvalidArgument);
  CHECK(TallyLagrangianLadder::Make(1001, 5, unanimous, unanimous).status().code == StatusCode::kLimitExceeded);
}

}  // namespace
}  // namespace urnforest
