#include "urnforest/tally_stopping.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "simplex_oracle.h"
#include "tally_enumeration.h"

namespace urnforest {
namespace {

uint64_t Next(uint64_t* state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 11;
}

// Every tally of sum t over k classes.
std::vector<std::vector<int32_t>> TalliesOfSum(int32_t t, int32_t k) {
  std::vector<std::vector<int32_t>> out;
  std::vector<int32_t> x(static_cast<size_t>(k), 0);
  auto rec = [&](auto&& self, int32_t c, int32_t left) -> void {
    if (c == k - 1) {
      x[static_cast<size_t>(c)] = left;
      out.push_back(x);
      return;
    }
    for (int32_t v = 0; v <= left; ++v) {
      x[static_cast<size_t>(c)] = v;
      self(self, c + 1, left - v);
    }
  };
  rec(rec, 0, t);
  return out;
}

// Calibration rows: `rows` final tallies of t votes, skewed towards unanimity like real forests.
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

TallyStoppingSet RandomSet(const TallyLattice& lattice, uint64_t seed) {
  TallyStoppingSet set;
  set.num_trees = lattice.num_trees();
  set.num_classes = lattice.num_classes();
  set.stop.assign(static_cast<size_t>(lattice.size()), 0);
  for (int64_t s = lattice.LevelStart(1); s < lattice.size(); ++s) {
    set.stop[static_cast<size_t>(s)] = s >= lattice.LevelStart(lattice.num_trees()) || Next(&seed) % 3 == 0;
  }
  return set;
}

using testing::EnumeratedOutcome;

TEST_CASE("The tally lattice indexes every tally once, level by level", "[tally_stopping]") {
  for (int32_t k : {2, 3, 4}) {
    const TallyLattice lattice = TallyLattice::Make(7, k).value();
    std::set<int64_t> seen;
    for (int32_t i = 0; i <= 7; ++i) {
      int64_t visited = 0;
      lattice.ForEachOfSum(i, [&](const int32_t* x) {
        const int64_t s = lattice.Index(x, i);
        CHECK(s >= lattice.LevelStart(i));
        CHECK(s < lattice.LevelStart(i + 1));
        CHECK(seen.insert(s).second);
        ++visited;
        if (i < 7) {
          for (int32_t c = 0; c < k; ++c) {
            std::vector<int32_t> y(x, x + k);
            y[static_cast<size_t>(c)] += 1;
            CHECK(lattice.IndexPlusOne(x, i, c) == lattice.Index(y.data(), i + 1));
          }
        }
      });
      CHECK(visited == static_cast<int64_t>(TalliesOfSum(i, k).size()));
    }
    CHECK(static_cast<int64_t>(seen.size()) == lattice.size());
  }
}

TEST_CASE("Exact tally outcomes equal the average over every vote order (K = 3)", "[tally_stopping]") {
  for (int32_t t : {3, 5, 6}) {
    const TallyLattice lattice = TallyLattice::Make(t, 3).value();
    for (uint64_t seed : {1u, 2u, 3u}) {
      const TallyStoppingSet set = RandomSet(lattice, seed * 31 + t);
      std::vector<uint32_t> rows;
      for (const auto& f : TalliesOfSum(t, 3)) rows.insert(rows.end(), f.begin(), f.end());
      const std::vector<TallyOutcome> exact = ExactTallyOutcomes(set, rows).value();
      const auto finals = TalliesOfSum(t, 3);
      for (size_t r = 0; r < finals.size(); ++r) {
        const TallyOutcome brute = EnumeratedOutcome(lattice, set, finals[r]);
        CAPTURE(t, seed, r);
        CHECK(exact[r].trees == Approx(brute.trees).epsilon(1e-12));
        CHECK(exact[r].disagreement == Approx(brute.disagreement).margin(1e-12));
      }
    }
  }
}

// Mean exact outcome of a strategy over the rows.
TallyOutcome MeanOutcome(const TallyStoppingStrategy& s, const std::vector<uint32_t>& rows) {
  const std::vector<TallyOutcome> per_row = ExactTallyOutcomes(s, rows).value();
  TallyOutcome mean;
  for (const TallyOutcome& o : per_row) {
    mean.trees += o.trees / per_row.size();
    mean.disagreement += o.disagreement / per_row.size();
  }
  return mean;
}

TEST_CASE("Tally minimean's expected figures are the mean of its exact row outcomes", "[tally_stopping]") {
  TallyMinimeanProblem p;
  p.num_trees = 15;
  p.num_classes = 3;
  p.final_tallies = SomeRows(15, 3, 300, 5);
  p.max_disagreement = 0.01;
  const TallyStoppingStrategy s = SolveTallyMinimean(p).value();
  const TallyOutcome mean = MeanOutcome(s, p.final_tallies);
  CHECK(s.expected_trees == Approx(mean.trees).epsilon(1e-10));
  CHECK(s.expected_disagreement == Approx(mean.disagreement).epsilon(1e-9));
  CHECK(s.expected_disagreement <= 0.01 + 1e-12);
  CHECK(s.expected_disagreement == Approx(0.01).epsilon(1e-6));
  CHECK(s.expected_trees < 15.0);
}

// The [KM26] flow LP over full tallies: per state x, stopped g_x and going-on h_x fractions of the
// orders into x, g_x + h_x = sum_c h(x - e_c) x_c / i (1 at the empty tally), g = 0 at the empty
// tally, h = 0 at sum T; minimise sum g_x i A_x subject to sum g_x W_x <= target.
double FlowLpTrees(const TallyLattice& lattice, const std::vector<uint32_t>& rows, double target) {
  const int32_t t = lattice.num_trees(), k = lattice.num_classes();
  const int64_t states = lattice.size();
  const size_t vars = static_cast<size_t>(2 * states + 1);
  const size_t num_rows = rows.size() / static_cast<size_t>(k);
  // A and W from the definition (multivariate hypergeometric by enumeration of tallies).
  auto choose = [](int32_t n, int32_t r) {
    if (r < 0 || r > n) return 0.0;
    double v = 1.0;
    for (int32_t i = 1; i <= r; ++i) v = v * (n - r + i) / i;
    return v;
  };
  std::vector<std::vector<double>> a;
  std::vector<double> b, cost(vars, 0.0), wrong_row(vars, 0.0);
  for (int32_t i = 0; i <= t; ++i) {
    for (const auto& x : TalliesOfSum(i, k)) {
      const int64_t s = lattice.Index(x.data(), i);
      double mass = 0.0, wrong = 0.0;
      for (size_t r = 0; r < num_rows; ++r) {
        std::vector<int32_t> f(rows.begin() + static_cast<long>(r * k), rows.begin() + static_cast<long>((r + 1) * k));
        double h = 1.0 / choose(t, i);
        for (int32_t c = 0; c < k; ++c) h *= choose(f[static_cast<size_t>(c)], x[static_cast<size_t>(c)]);
        mass += h / num_rows;
        if (TallyLeader(x.data(), k) != TallyLeader(f.data(), k)) wrong += h / num_rows;
      }
      cost[static_cast<size_t>(s)] = i * mass;
      wrong_row[static_cast<size_t>(s)] = wrong;
      std::vector<double> row(vars, 0.0);
      row[static_cast<size_t>(s)] = 1.0;
      row[static_cast<size_t>(states + s)] = 1.0;
      for (int32_t c = 0; c < k && i > 0; ++c) {
        if (x[static_cast<size_t>(c)] == 0) continue;
        std::vector<int32_t> y = x;
        y[static_cast<size_t>(c)] -= 1;
        row[static_cast<size_t>(states + lattice.Index(y.data(), i - 1))] -= static_cast<double>(x[static_cast<size_t>(c)]) / i;
      }
      a.push_back(row);
      b.push_back(i == 0 ? 1.0 : 0.0);
      if (i == 0 || i == t) {
        std::vector<double> fix(vars, 0.0);
        fix[static_cast<size_t>(i == 0 ? s : states + s)] = 1.0;
        a.push_back(fix);
        b.push_back(0.0);
      }
    }
  }
  wrong_row[vars - 1] = 1.0;
  a.push_back(wrong_row);
  b.push_back(target);
  return SimplexMinimum(a, b, cost);
}

TEST_CASE("Tally minimean reaches the linear program's optimum over every randomised strategy (K = 3, T <= 9)", "[tally_stopping]") {
  // T = 9 (220 states) once: the dense simplex takes seconds there.
  for (int32_t t : {3, 5, 7, 9}) {
    const TallyLattice lattice = TallyLattice::Make(t, 3).value();
    for (uint64_t draw : {1u, 2u}) {
      if (t == 9 && draw == 2) continue;
      const std::vector<uint32_t> rows = SomeRows(t, 3, 40, draw * 101 + t);
      for (double target : {0.0, 0.003, 0.03, 0.1}) {
        if (t == 9 && target != 0.03) continue;
        TallyMinimeanProblem p;
        p.num_trees = t;
        p.num_classes = 3;
        p.final_tallies = rows;
        p.max_disagreement = target;
        const TallyStoppingStrategy s = SolveTallyMinimean(p).value();
        CAPTURE(t, draw, target);
        const double lp = FlowLpTrees(lattice, rows, target);
        REQUIRE(std::isfinite(lp));
        CHECK(s.expected_disagreement <= target + 1e-12);
        CHECK(s.expected_trees == Approx(lp).epsilon(1e-8).margin(1e-9));
      }
    }
  }
}

// A and W of every state by the definition (multivariate hypergeometric over the rows).
void StateMassesByDefinition(const TallyLattice& lattice, const std::vector<uint32_t>& rows, std::vector<double>* all,
                             std::vector<double>* wrong) {
  const int32_t t = lattice.num_trees(), k = lattice.num_classes();
  const size_t num_rows = rows.size() / static_cast<size_t>(k);
  auto choose = [](int32_t n, int32_t r) {
    if (r < 0 || r > n) return 0.0;
    double v = 1.0;
    for (int32_t i = 1; i <= r; ++i) v = v * (n - r + i) / i;
    return v;
  };
  all->assign(static_cast<size_t>(lattice.size()), 0.0);
  wrong->assign(all->size(), 0.0);
  for (int32_t i = 0; i <= t; ++i) {
    for (const auto& x : TalliesOfSum(i, k)) {
      const size_t s = static_cast<size_t>(lattice.Index(x.data(), i));
      for (size_t r = 0; r < num_rows; ++r) {
        std::vector<int32_t> f(rows.begin() + static_cast<long>(r * k), rows.begin() + static_cast<long>((r + 1) * k));
        double h = 1.0 / choose(t, i);
        for (int32_t c = 0; c < k; ++c) h *= choose(f[static_cast<size_t>(c)], x[static_cast<size_t>(c)]);
        (*all)[s] += h / num_rows;
        if (TallyLeader(x.data(), k) != TallyLeader(f.data(), k)) (*wrong)[s] += h / num_rows;
      }
    }
  }
}

TEST_CASE("The Lagrangian set is the best of every deterministic stopping set (exhaustive, K = 3, T = 4)", "[tally_stopping]") {
  const int32_t t = 4, k = 3;
  const TallyLattice lattice = TallyLattice::Make(t, k).value();
  TallyMinimeanProblem p;
  p.num_trees = t;
  p.num_classes = k;
  p.final_tallies = SomeRows(t, k, 30, 9);
  std::vector<double> mass, wrong;
  StateMassesByDefinition(lattice, p.final_tallies, &mass, &wrong);
  // States in forward order with their predecessors (index, share of orders whose last vote is c).
  struct State { size_t index; int32_t level; std::vector<std::pair<size_t, double>> from; };
  std::vector<State> states;
  for (int32_t i = 0; i <= t; ++i) {
    for (const auto& x : TalliesOfSum(i, k)) {
      State st{static_cast<size_t>(lattice.Index(x.data(), i)), i, {}};
      for (int32_t c = 0; c < k && i > 0; ++c) {
        if (x[static_cast<size_t>(c)] == 0) continue;
        std::vector<int32_t> y = x;
        y[static_cast<size_t>(c)] -= 1;
        st.from.emplace_back(static_cast<size_t>(lattice.Index(y.data(), i - 1)), static_cast<double>(x[static_cast<size_t>(c)]) / i);
      }
      states.push_back(st);
    }
  }
  const int64_t first = lattice.LevelStart(1), last = lattice.LevelStart(t);
  const int64_t free_states = last - first;
  REQUIRE(free_states == 19);
  std::vector<TallyOutcome> all;
  std::vector<uint8_t> stop(static_cast<size_t>(lattice.size()), 0);
  std::vector<double> alive(stop.size());
  for (int64_t s = last; s < lattice.size(); ++s) stop[static_cast<size_t>(s)] = 1;
  for (uint32_t mask = 0; mask < (1u << free_states); ++mask) {
    for (int64_t s = 0; s < free_states; ++s) stop[static_cast<size_t>(first + s)] = (mask >> s) & 1u;
    TallyOutcome o;
    for (const State& st : states) {
      double f = st.level == 0 ? 1.0 : 0.0;
      for (const auto& [from, share] : st.from) f += stop[from] ? 0.0 : alive[from] * share;
      alive[st.index] = f;
      if (stop[st.index]) {
        o.trees += f * st.level * mass[st.index];
        o.disagreement += f * wrong[st.index];
      }
    }
    all.push_back(o);
  }
  for (double mu : {0.0, 0.5, 3.0, 20.0, 400.0}) {
    const TallyStoppingSet best = TallyLagrangianSet(p, mu).value();
    const TallyOutcome o = MeanOutcome(TallyStoppingStrategy{best, best, 1.0, 0.0, 0.0, 0.0}, p.final_tallies);
    double fewest = 1e300;
    for (const TallyOutcome& other : all) fewest = std::min(fewest, other.trees + mu * other.disagreement);
    CAPTURE(mu);
    CHECK(o.trees + mu * o.disagreement == Approx(fewest).epsilon(1e-12));
  }
  for (double target : {0.0, 0.02, 0.1}) {
    p.max_disagreement = target;
    const TallyStoppingStrategy s = SolveTallyMinimean(p).value();
    for (const TallyOutcome& other : all) {
      if (other.disagreement <= target) CHECK(s.expected_trees <= other.trees + 1e-12);
    }
  }
}

TEST_CASE("Tally stopping refuses what does not fit with stable codes", "[tally_stopping]") {
  CHECK(TallyLattice::Make(101, 5).status().code == StatusCode::kLimitExceeded);
  CHECK(TallyLattice::Make(101, 26).status().code == StatusCode::kLimitExceeded);
  CHECK(TallyLattice::Make(1001, 4).status().code == StatusCode::kLimitExceeded);
  CHECK(TallyLattice::Make(101, 4).ok());
  CHECK(TallyLattice::Make(308, 3).ok());
  CHECK(TallyLattice::Make(309, 3).status().code == StatusCode::kLimitExceeded);
  CHECK(TallyLattice::Make(0, 3).status().code == StatusCode::kInvalidArgument);
  CHECK(TallyLattice::Make(5, 1).status().code == StatusCode::kInvalidArgument);
  TallyMinimeanProblem p;
  p.num_trees = 5;
  p.num_classes = 3;
  p.final_tallies = {2, 2, 1, 3, 1, 0};
  CHECK(SolveTallyMinimean(p).status().code == StatusCode::kInvalidArgument);
  CHECK(SolveTallyMinimean(p).status().message.find("sum to 4") != std::string::npos);
  p.final_tallies = {2, 2, 1, 3, 1};
  CHECK(SolveTallyMinimean(p).status().code == StatusCode::kInvalidArgument);
  p.final_tallies = {};
  CHECK(SolveTallyMinimean(p).status().code == StatusCode::kInvalidArgument);
  p.final_tallies = {2, 2, 1};
  p.max_disagreement = 1.5;
  CHECK(SolveTallyMinimean(p).status().code == StatusCode::kInvalidArgument);
  p.max_disagreement = 0.01;
  p.num_classes = 26;
  p.num_trees = 101;
  p.final_tallies.assign(26, 0);
  p.final_tallies[0] = 101;
  CHECK(SolveTallyMinimean(p).status().code == StatusCode::kLimitExceeded);
  TallyStoppingSet bad;
  bad.num_trees = 3;
  bad.num_classes = 3;
  bad.stop.assign(5, 1);
  CHECK(ExactTallyOutcomes(bad, {1, 1, 1}).status().code == StatusCode::kInvalidArgument);
  const TallyLattice lattice = TallyLattice::Make(3, 3).value();
  bad.stop.assign(static_cast<size_t>(lattice.size()), 1);
  CHECK(ExactTallyOutcomes(bad, {1, 1, 1}).status().message.find("empty tally") != std::string::npos);
}

}  // namespace
}  // namespace urnforest
