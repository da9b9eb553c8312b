#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "halting/dirichlet_urn.h"
#include "halting/tally_lattice.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/vote.h"

using urnforest::BuildHaltingTable;
using urnforest::DirichletComponent;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;
using urnforest::Prior;
using urnforest::TableLayout;

namespace {

HaltingTable Build(HaltingRule rule, int32_t trees, int32_t classes, const Prior* prior,
                   bool on_demand, double budget = 5e5) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_trees = trees;
  o.num_classes = classes;
  o.alpha = 0.99;
  o.force_on_demand = on_demand;
  o.exact_budget = budget;
  auto r = BuildHaltingTable(o, prior);
  REQUIRE(r.ok());
  return r.value();
}

// Calls f(t) for every tally of at most T votes over l classes.
void ForEachTally(int32_t T, int32_t l, const std::function<void(const int32_t*)>& f) {
  urnforest::internal::Compositions comp(T, l + 1);
  comp.ForEach(T, [&](const int32_t* t) { f(t); });
}

// 1 - P* by enumerating every completion (any l; small T): the posterior of the final tally t + d
// is prod_j C(beta_j + t_j + d_j - 1, d_j) up to a constant (Dirichlet-multinomial).
double BruteLose(const std::vector<double>& beta, const std::vector<int32_t>& t, int32_t T) {
  const int32_t l = static_cast<int32_t>(t.size());
  int32_t n = 0;
  for (int32_t v : t) n += v;
  const int32_t k = urnforest::StrictLeader(t);
  double total = 0.0, lose = 0.0;
  urnforest::internal::Compositions comp(T - n, l);
  comp.ForEach(T - n, [&](const int32_t* d) {
    double lw = 0.0;
    bool win = true;
    for (int32_t j = 0; j < l; ++j) {
      const double a = beta[j] + t[j];
      lw += std::lgamma(a + d[j]) - std::lgamma(a) - std::lgamma(d[j] + 1.0);
      if (j != k && t[j] + d[j] >= t[k] + d[k]) win = false;
    }
    const double w = std::exp(lw);
    total += w;
    if (!win) lose += w;
  });
  return lose / total;
}

std::vector<uint32_t> SyntheticOob(int32_t l, int32_t rows) {
  std::vector<uint32_t> votes;
  for (int32_t r = 0; r < rows; ++r) {
    for (int32_t c = 0; c < l; ++c) {
      uint32_t v = static_cast<uint32_t>((r * 7 + c * 13) % 5);
      if (c == r % l) v += 20 + r % 11;
      votes.push_back(v);
    }
  }
  return votes;
}

// Every tally: same decision, and P* within float rounding (full tables store P* as float).
void RequireSameDecisions(const HaltingTable& full, const HaltingTable& lazy) {
  REQUIRE(full.layout() == TableLayout::kThresholds);
  REQUIRE(lazy.layout() == TableLayout::kOnDemand);
  const int32_t l = full.num_classes();
  int64_t checked = 0;
  ForEachTally(full.num_trees(), l, [&](const int32_t* t) {
    if (full.Halts(t) != lazy.Halts(t)) {
      INFO("tally " << t[0] << "," << t[1] << (l > 2 ? "," + std::to_string(t[2]) : std::string()));
      REQUIRE(full.Halts(t) == lazy.Halts(t));
    }
    REQUIRE(lazy.Confidence(t) == Approx(full.Confidence(t)).margin(2e-6));
    ++checked;
  });
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("Two-class pair term is the exact complement of SIBA's P*", "[halting][on-demand]") {
  // (t_k, t_j) = (5, 0) with T = 101 under the uniform prior, against direct summation.
  const double exact = BruteLose({1.0, 1.0}, {5, 0}, 101);
  CHECK(urnforest::internal::DirichletPairLose(6.0, 1.0, 0.0, 5, 96) == Approx(exact).epsilon(1e-10));
  CHECK(urnforest::internal::DirichletLoseExact(std::vector<double>{6.0, 1.0}.data(),
                                                std::vector<int32_t>{5, 0}.data(), 2, 0, 96) ==
        Approx(exact).epsilon(1e-10));
}

TEST_CASE("Exact Dirichlet P* equals brute force for five and six classes", "[halting][on-demand]") {
  const std::vector<std::vector<double>> betas = {{1, 1, 1, 1, 1}, {0.4, 2.5, 1, 0.7, 3},
                                                  {1, 1, 1, 1, 1, 1}, {0.3, 1.2, 2, 0.5, 0.9, 1.7}};
  const std::vector<std::vector<int32_t>> tallies = {{4, 1, 0, 2, 0}, {3, 0, 0, 0, 0},
                                                     {5, 2, 1, 0, 0, 3}, {2, 1, 0, 0, 1, 0}};
  for (size_t i = 0; i < betas.size(); ++i) {
    const int32_t l = static_cast<int32_t>(betas[i].size());
    const int32_t T = l == 5 ? 19 : 15;
    const std::vector<int32_t>& t = tallies[i];
    int32_t n = 0;
    std::vector<double> a(l);
    for (int32_t j = 0; j < l; ++j) {
      n += t[j];
      a[j] = betas[i][j] + t[j];
    }
    const double brute = BruteLose(betas[i], t, T);
    const int32_t k = urnforest::StrictLeader(t);
    CHECK(urnforest::internal::DirichletLoseExact(a.data(), t.data(), l, k, T - n) ==
          Approx(brute).epsilon(1e-10));
    // The union bound is never below the exact value.
    double bound = 0.0, rest = 0.0;
    for (int32_t j = 0; j < l; ++j) rest += a[j];
    for (int32_t j = 0; j < l; ++j)
      if (j != k)
        bound += urnforest::internal::DirichletPairLose(a[k], a[j], rest - a[k] - a[j], t[k] - t[j], T - n);
    CHECK(bound >= brute - 1e-12);
  }
}

TEST_CASE("On-demand tables decide as the full tables on every tally", "[halting][on-demand]") {
  SECTION("siba, two classes, T = 101") {
    HaltingTable full = Build(HaltingRule::kSiba, 101, 2, nullptr, false);
    RequireSameDecisions(full, Build(HaltingRule::kSiba, 101, 2, nullptr, true));
  }
  SECTION("siba, three classes, T = 41, and four classes, T = 21") {
    RequireSameDecisions(Build(HaltingRule::kSiba, 41, 3, nullptr, false),
                         Build(HaltingRule::kSiba, 41, 3, nullptr, true));
    RequireSameDecisions(Build(HaltingRule::kSiba, 21, 4, nullptr, false),
                         Build(HaltingRule::kSiba, 21, 4, nullptr, true));
  }
  SECTION("1dir and ndir with asymmetric priors, three classes, T = 41") {
    Prior one = Prior::Dirichlet({0.4, 1.5, 0.8}).value();
    RequireSameDecisions(Build(HaltingRule::kOneDir, 41, 3, &one, false),
                         Build(HaltingRule::kOneDir, 41, 3, &one, true));
    Prior mix = Prior::Mixture({{0.6, {3.0, 0.5, 0.5}}, {0.4, {0.5, 2.0, 1.0}}}).value();
    RequireSameDecisions(Build(HaltingRule::kNDir, 41, 3, &mix, false),
                         Build(HaltingRule::kNDir, 41, 3, &mix, true));
  }
  SECTION("hyper from out-of-bag votes, two to four classes, T up to 101") {
    for (int32_t l : {2, 3, 4}) {
      const int32_t T = l == 2 ? 101 : (l == 3 ? 41 : 21);
      auto votes = SyntheticOob(l, 120);
      Prior dense = urnforest::HistogramPriorFromOob(votes, l, T).value();
      Prior sparse = urnforest::TallyMixturePriorFromOob(votes, l, T).value();
      RequireSameDecisions(Build(HaltingRule::kHyper, T, l, &dense, false),
                           Build(HaltingRule::kHyper, T, l, &sparse, true));
    }
  }
}

TEST_CASE("The infinite rule on demand decides as its pair table", "[halting][on-demand]") {
  for (int32_t l : {2, 3, 5}) {
    const int32_t T = l == 2 ? 201 : 31;
    HaltingTable table = Build(HaltingRule::kInfinite, T, l, nullptr, false);
    HaltingTable lazy = Build(HaltingRule::kInfinite, T, l, nullptr, true);
    REQUIRE(table.layout() == TableLayout::kInfiniteProduct);
    REQUIRE(lazy.layout() == TableLayout::kOnDemand);
    ForEachTally(T, l, [&](const int32_t* t) {
      REQUIRE(lazy.Halts(t) == table.Halts(t));
      REQUIRE(lazy.Confidence(t) == Approx(table.Confidence(t)).margin(1e-12));
    });
  }
}

TEST_CASE("The tally-mixture hyper prior has the smoothed histogram's masses", "[halting][prior]") {
  for (int32_t l : {2, 3, 4}) {
    const int32_t T = l == 4 ? 41 : 101;
    auto votes = SyntheticOob(l, 200);
    Prior dense = urnforest::HistogramPriorFromOob(votes, l, T).value();
    Prior sparse = urnforest::TallyMixturePriorFromOob(votes, l, T).value();
    REQUIRE(sparse.kind() == urnforest::PriorKind::kTallyMixture);
    std::vector<double> mass = urnforest::FinalTallyMass(sparse, T).value();
    REQUIRE(mass.size() == dense.histogram().size());
    for (size_t i = 0; i < mass.size(); ++i) REQUIRE(mass[i] == Approx(dense.histogram()[i]).margin(1e-15));
  }
}

TEST_CASE("The union bound never halts where the exact rule would not", "[halting][on-demand]") {
  Prior mix = Prior::Mixture({{0.5, {2.0, 0.5, 1.0}}, {0.5, {0.5, 0.5, 3.0}}}).value();
  HaltingTable exact = Build(HaltingRule::kNDir, 41, 3, &mix, false);
  HaltingTable bound = Build(HaltingRule::kNDir, 41, 3, &mix, true, 0.0);
  int64_t exact_halts = 0, bound_halts = 0;
  ForEachTally(41, 3, [&](const int32_t* t) {
    if (bound.Halts(t)) {
      REQUIRE(exact.Halts(t));
      ++bound_halts;
    }
    if (exact.Halts(t)) ++exact_halts;
  });
  CHECK(bound_halts > 0.8 * exact_halts);
}

TEST_CASE("Every prior rule runs with 26 classes and 2,001 trees", "[halting][on-demand]") {
  auto votes = SyntheticOob(26, 400);
  std::vector<int32_t> labels;
  for (int32_t r = 0; r < 400; ++r) labels.push_back(r % 26);
  std::vector<int32_t> unanimous(26, 0);
  for (HaltingRule rule : {HaltingRule::kSiba, HaltingRule::kHyper, HaltingRule::kOneDir,
                           HaltingRule::kNDir, HaltingRule::kInfinite, HaltingRule::kOptimal}) {
    Prior prior = urnforest::PriorForRule(rule, votes, labels, 26, 2001).value();
    HaltingTableOptions o;
    o.rule = rule;
    o.num_trees = 2001;
    o.num_classes = 26;
    auto table = BuildHaltingTable(o, &prior);
    REQUIRE(table.ok());
    CHECK(table.value().layout() == TableLayout::kOnDemand);
    unanimous.assign(26, 0);
    int32_t n = 0;
    while (!table.value().Halts(unanimous.data()) && n < 2001) {
      ++unanimous[3];
      ++n;
    }
    INFO(urnforest::RuleName(rule));
    CHECK(n >= 1);
    CHECK(n < 200);
    CHECK(table.value().Confidence(unanimous.data()) >= 0.99);
  }
}

TEST_CASE("On-demand tables round-trip through their bytes", "[halting][on-demand][serialize]") {
  auto votes = SyntheticOob(6, 150);
  Prior prior = urnforest::TallyMixturePriorFromOob(votes, 6, 501).value();
  HaltingTableOptions o;
  o.rule = HaltingRule::kHyper;
  o.num_trees = 501;
  o.num_classes = 6;
  HaltingTable table = BuildHaltingTable(o, &prior).value();
  std::vector<uint8_t> bytes = table.ToBytes();
  auto back = HaltingTable::FromBytes(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  CHECK(back.value().ToBytes() == bytes);
  std::vector<int32_t> t = {9, 1, 0, 0, 0, 2};
  CHECK(back.value().Halts(t.data()) == table.Halts(t.data()));
  CHECK(back.value().Confidence(t.data()) == table.Confidence(t.data()));
  bytes[bytes.size() / 2] ^= 0x40;
  CHECK(HaltingTable::FromBytes(bytes.data(), bytes.size()).status().code ==
        urnforest::StatusCode::kCorruptModel);
}

TEST_CASE("Kernel-mixture hyper decides as the full table of the same prior, never halting more",
          "[halting][on-demand][prior]") {
  for (int32_t l : {3, 4}) {
    const int32_t T = l == 3 ? 41 : 21;
    auto votes = SyntheticOob(l, 90);
    Prior kernels = urnforest::KernelMixturePriorFromOob(votes, l).value();
    REQUIRE(kernels.kind() == urnforest::PriorKind::kDirichletMixture);
    REQUIRE(kernels.components().size() >= 2);
    HaltingTable full = Build(HaltingRule::kNDir, T, l, &kernels, false);
    HaltingTable lazy = Build(HaltingRule::kHyper, T, l, &kernels, true, 0.0);
    int64_t full_halts = 0, lazy_halts = 0;
    ForEachTally(T, l, [&](const int32_t* t) {
      if (lazy.Halts(t)) {
        INFO("tally " << t[0] << "," << t[1] << "," << t[2] << " lazy " << lazy.Confidence(t)
                      << " full " << full.Confidence(t));
        REQUIRE(full.Halts(t));
        ++lazy_halts;
      }
      if (full.Halts(t)) ++full_halts;
    });
    CHECK(lazy_halts > 0.8 * full_halts);
  }
}

TEST_CASE("Kernel mixture: at most max_kernels centres, deterministic, uniform part last",
          "[prior]") {
  auto votes = SyntheticOob(7, 300);
  urnforest::PriorFitOptions o;
  o.max_kernels = 5;
  Prior a = urnforest::KernelMixturePriorFromOob(votes, 7, o).value();
  Prior b = urnforest::KernelMixturePriorFromOob(votes, 7, o).value();
  REQUIRE(a.components().size() == 6);
  double total = 0.0;
  for (size_t i = 0; i < a.components().size(); ++i) {
    CHECK(a.components()[i].beta == b.components()[i].beta);
    total += a.components()[i].weight;
  }
  CHECK(total == Approx(1.0));
  CHECK(a.components().back().weight == Approx(1e-3));
  CHECK(a.components().back().beta == std::vector<double>(7, 1.0));
  double concentration = 0.0;
  for (double beta : a.components()[0].beta) concentration += beta;
  CHECK(concentration == Approx(40.0));
}
