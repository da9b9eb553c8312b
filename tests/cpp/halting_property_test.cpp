#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "base/random.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/pstar.h"

using urnforest::BuildHaltingTable;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;
using urnforest::Prior;
using urnforest::PStarBySum;

namespace {

HaltingTable Build(HaltingRule rule, int32_t T, int32_t l, const Prior* prior, double alpha = 0.99,
                   bool pairwise = false) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_trees = T;
  o.num_classes = l;
  o.alpha = alpha;
  o.force_pairwise_bound = pairwise;
  auto t = BuildHaltingTable(o, prior);
  REQUIRE(t.ok());
  return t.value();
}

size_t Count(int32_t T, int32_t l) {
  double c = 1.0;
  for (int32_t i = 1; i < l; ++i) c = c * (T + i) / i;
  return static_cast<size_t>(std::llround(c));
}

Prior RandomHistogram(int32_t T, int32_t l, uint64_t seed, bool zeros = true) {
  urnforest::internal::DetRng rng(seed);
  std::vector<double> mass(Count(T, l));
  for (double& m : mass) m = (zeros && rng.Uniform() < 0.3) ? 0.0 : rng.Uniform();
  mass[0] += 0.1;
  return Prior::Histogram(l, T, mass).value();
}

void ForEachTally(int32_t T, int32_t l, const std::function<void(std::vector<int32_t>&)>& f) {
  std::vector<int32_t> t(l, 0);
  std::function<void(int32_t, int32_t)> rec = [&](int32_t i, int32_t left) {
    if (i == l) { f(t); return; }
    for (int32_t v = 0; v <= left; ++v) { t[i] = v; rec(i + 1, left - v); }
  };
  rec(0, T);
}

}  // namespace

TEST_CASE("1DIR unanimous halting point at T = 101 follows the symmetric-beta table",
          "[halting][anchor]") {
  std::vector<std::pair<double, int32_t>> rows = {{1, 6},    {0.5, 5},  {0.3, 4},
                                                  {0.2, 4},  {0.15, 3}, {0.1, 3},
                                                  {0.05, 2}, {0.02, 2}, {0.01, 1}};
  for (auto [beta, votes] : rows) {
    CAPTURE(beta);
    Prior p = Prior::Dirichlet({beta, beta}).value();
    HaltingTable t = Build(HaltingRule::kOneDir, 101, 2, &p);
    REQUIRE(t.BinaryThresholds(0).at(0) == votes);
    REQUIRE(t.BinaryThresholds(1).at(0) == votes);
  }
}

TEST_CASE("HYPER table halts after one vote on a U-shaped prior", "[halting]") {
  std::vector<double> mass(102, 0.0);
  mass[0] = mass[101] = 0.5;
  mass[50] = 1e-9;
  Prior p = Prior::Histogram(2, 101, mass).value();
  HaltingTable t = Build(HaltingRule::kHyper, 101, 2, &p);
  REQUIRE(t.BinaryThresholds(0).at(0) == 1);
}

TEST_CASE("HYPER with a uniform histogram reproduces SIBA exactly", "[halting][property]") {
  for (int32_t l : {2, 3}) {
    for (double alpha : {0.9, 0.99, 0.999}) {
      CAPTURE(l, alpha);
      const int32_t T = l == 2 ? 101 : 51;
      Prior u = Prior::Histogram(l, T, std::vector<double>(Count(T, l), 1.0)).value();
      HaltingTable hyper = Build(HaltingRule::kHyper, T, l, &u, alpha);
      HaltingTable siba = Build(HaltingRule::kSiba, T, l, nullptr, alpha);
      bool same = true;
      double worst = 0.0;
      for (int32_t n = 0; n <= T; ++n) {
        ForEachTally(n, l, [&](std::vector<int32_t>& s) {
          if (hyper.Halts(s.data()) != siba.Halts(s.data())) same = false;
          worst = std::max(worst, std::fabs(hyper.Confidence(s.data()) - siba.Confidence(s.data())));
        });
      }
      REQUIRE(same);
      REQUIRE(worst < 1e-6);
    }
  }
}

TEST_CASE("Tables from the recursion equal the direct sum over final tallies for 2 and 3 classes",
          "[halting][property]") {
  Prior hist2 = RandomHistogram(41, 2, 11);
  Prior hist3 = RandomHistogram(25, 3, 12);
  Prior dir3 = Prior::Dirichlet({0.3, 0.7, 1.4}).value();
  Prior mix3 = Prior::Mixture({{0.6, {2.0, 0.3, 0.5}}, {0.4, {0.2, 0.4, 3.0}}}).value();
  Prior uni3 = Prior::Uniform(3).value();
  struct Case { HaltingRule rule; const Prior* prior; int32_t T, l; };
  std::vector<Case> cases = {{HaltingRule::kHyper, &hist2, 41, 2},
                             {HaltingRule::kHyper, &hist3, 25, 3},
                             {HaltingRule::kOneDir, &dir3, 25, 3},
                             {HaltingRule::kNDir, &mix3, 25, 3},
                             {HaltingRule::kSiba, &uni3, 25, 3}};
  for (const Case& c : cases) {
    CAPTURE(urnforest::RuleName(c.rule), c.l);
    HaltingTable t = Build(c.rule, c.T, c.l, c.prior == &uni3 ? nullptr : c.prior, 0.95);
    double worst = 0.0;
    int32_t mismatched = 0;
    for (int32_t n = 1; n <= c.T; ++n) {
      ForEachTally(n, c.l, [&](std::vector<int32_t>& s) {
        if (t.Leader(s.data()) < 0) return;
        double direct = PStarBySum(*c.prior, c.T, s).value();
        if (std::isnan(direct)) return;
        worst = std::max(worst, std::fabs(direct - t.Confidence(s.data())));
        if (std::fabs(direct - 0.95) > 1e-9 && (direct >= 0.95) != t.Halts(s.data()) && t.monotone())
          ++mismatched;
      });
    }
    REQUIRE(worst < 1e-6);  // confidence is stored as float
    REQUIRE(mismatched == 0);
  }
}

TEST_CASE("Binary tables are monotone for any positive prior and SIBA tables for three classes",
          "[halting][property]") {
  Prior hist = RandomHistogram(101, 2, 21, false);
  Prior dir = Prior::Dirichlet({0.2, 0.5}).value();
  for (const HaltingTable& t :
       {Build(HaltingRule::kHyper, 101, 2, &hist), Build(HaltingRule::kOneDir, 101, 2, &dir),
        Build(HaltingRule::kSiba, 101, 3, nullptr)}) {
    REQUIRE(t.monotone());
    if (t.num_classes() == 2) {
      for (int32_t c = 0; c < 2; ++c) {
        std::vector<int32_t> v = t.BinaryThresholds(c);
        for (size_t k = 1; k < v.size(); ++k) REQUIRE(v[k] >= v[k - 1]);
      }
    }
  }
}

TEST_CASE("Pairwise union bound never halts where the exact SIBA rule does not", "[halting][property]") {
  for (int32_t l : {3, 4}) {
    const int32_t T = l == 3 ? 101 : 41;
    HaltingTable exact = Build(HaltingRule::kSiba, T, l, nullptr);
    HaltingTable bound = Build(HaltingRule::kSiba, T, l, nullptr, 0.99, true);
    REQUIRE(bound.layout() == urnforest::TableLayout::kPairwiseBound);
    int64_t exact_halts = 0, bound_halts = 0, violations = 0;
    for (int32_t n = 1; n <= T; ++n) {
      ForEachTally(n, l, [&](std::vector<int32_t>& s) {
        bool e = exact.Halts(s.data()), b = bound.Halts(s.data());
        exact_halts += e;
        bound_halts += b;
        if (b && !e) ++violations;
        REQUIRE(bound.Confidence(s.data()) <= exact.Confidence(s.data()) + 1e-6);
      });
    }
    CAPTURE(l, exact_halts, bound_halts);
    REQUIRE(violations == 0);
    REQUIRE(bound_halts > 0.9 * exact_halts);
  }
}

TEST_CASE("SIBA for 26 and 32 classes uses the certified pairwise bound", "[halting]") {
  for (int32_t l : {26, 32}) {
    HaltingTable t = Build(HaltingRule::kSiba, 101, l, nullptr);
    REQUIRE(t.layout() == urnforest::TableLayout::kPairwiseBound);
    std::vector<int32_t> s(l, 0);
    s[3] = 5;
    REQUIRE_FALSE(t.Halts(s.data()));
    s[3] = 12;
    REQUIRE(t.Halts(s.data()));
    std::vector<int32_t> o(l - 1, 0);
    int32_t m = t.MinLeaderVotes(3, o.data());
    REQUIRE(m > 7);
    REQUIRE(m <= 12);
  }
}
