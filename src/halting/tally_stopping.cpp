// Minimean stopping over full tallies for any number of classes and the exact outcome of a
// stopping set: see urnforest/tally_stopping.h for the derivation.
#include "urnforest/tally_stopping.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "halting/tally_below.h"

namespace urnforest {
namespace {

using internal::Binomials;
using internal::ForEachBelow;

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, "tally stopping: " + message);
}

// Distinct final tallies with their share of the rows.
using TallyWeights = std::map<std::vector<int32_t>, double>;

Result<TallyWeights> Rows(int32_t num_trees, int32_t k, const std::vector<uint32_t>& tallies) {
  if (tallies.empty() || tallies.size() % static_cast<size_t>(k) != 0) {
    return Invalid("final tallies must be a non-empty multiple of " + std::to_string(k) + " counts, got " +
                   std::to_string(tallies.size()));
  }
  const size_t rows = tallies.size() / static_cast<size_t>(k);
  TallyWeights out;
  std::vector<int32_t> f(static_cast<size_t>(k));
  for (size_t r = 0; r < rows; ++r) {
    int64_t sum = 0;
    for (int32_t c = 0; c < k; ++c) {
      f[static_cast<size_t>(c)] = static_cast<int32_t>(std::min<uint32_t>(tallies[r * k + c], 1u << 30));
      sum += f[static_cast<size_t>(c)];
    }
    if (sum != num_trees) {
      return Invalid("row " + std::to_string(r) + "'s votes sum to " + std::to_string(sum) + ", not " +
                     std::to_string(num_trees) + " trees");
    }
    out[f] += 1.0 / static_cast<double>(rows);
  }
  return out;
}

// Per state: A (mass of the state over the rows) and W (the part whose full vote differs from
// the state's leader).
struct Masses {
  std::vector<double> all, wrong;
};

Masses StateMasses(const TallyLattice& lattice, const TallyWeights& rows) {
  const int32_t k = lattice.num_classes();
  const Binomials binom(lattice.num_trees());
  Masses m;
  m.all.assign(static_cast<size_t>(lattice.size()), 0.0);
  m.wrong.assign(m.all.size(), 0.0);
  for (const auto& row : rows) {
    const std::vector<int32_t>& f = row.first;
    const double weight = row.second;
    const int32_t winner = TallyLeader(f.data(), k);
    ForEachBelow(f, binom, lattice.num_trees(), [&](const int32_t* x, int32_t sum, double h) {
      const size_t s = static_cast<size_t>(lattice.Index(x, sum));
      m.all[s] += weight * h;
      if (TallyLeader(x, k) != winner) m.wrong[s] += weight * h;
    });
  }
  return m;
}

// Backward induction for E[trees] + mu E[disagreement] (the header's G), two levels at a time.
TallyStoppingSet Induce(const TallyLattice& lattice, const Masses& m, double mu) {
  const int32_t n = lattice.num_trees(), k = lattice.num_classes();
  TallyStoppingSet set;
  set.num_trees = n;
  set.num_classes = k;
  set.stop.assign(static_cast<size_t>(lattice.size()), 0);
  std::vector<double> g, above;
  for (int32_t i = n; i >= 0; --i) {
    above.swap(g);
    const int64_t start = lattice.LevelStart(i);
    g.assign(static_cast<size_t>(lattice.LevelStart(i + 1) - start), 0.0);
    const int64_t next_start = i < n ? lattice.LevelStart(i + 1) : 0;
    lattice.ForEachOfSum(i, [&](const int32_t* x) {
      const int64_t s = lattice.Index(x, i);
      const double stop_cost = i * m.all[static_cast<size_t>(s)] + mu * m.wrong[static_cast<size_t>(s)];
      double& out = g[static_cast<size_t>(s - start)];
      if (i == n) {
        set.stop[static_cast<size_t>(s)] = 1;
        out = stop_cost;
        return;
      }
      double go = 0.0;
      for (int32_t c = 0; c < k; ++c) {
        go += above[static_cast<size_t>(lattice.IndexPlusOne(x, i, c) - next_start)] * (x[c] + 1);
      }
      go /= (i + 1);
      const bool stop = i > 0 && stop_cost <= go;
      set.stop[static_cast<size_t>(s)] = stop ? 1 : 0;
      out = stop ? stop_cost : go;
    });
  }
  return set;
}

// Calls visit(index, i, f) for every state with f = the fraction of vote orders into it that no
// earlier state stopped (the header's f), level by level.
template <typename Visit>
void ForEachAlive(const TallyLattice& lattice, const TallyStoppingSet& set, Visit&& visit) {
  const int32_t n = lattice.num_trees(), k = lattice.num_classes();
  std::vector<double> f(1, 1.0), next;
  for (int32_t i = 0; i <= n; ++i) {
    const int64_t start = lattice.LevelStart(i);
    const int64_t next_start = lattice.LevelStart(i + 1);
    if (i < n) next.assign(static_cast<size_t>(lattice.LevelStart(i + 2) - next_start), 0.0);
    lattice.ForEachOfSum(i, [&](const int32_t* x) {
      const int64_t s = lattice.Index(x, i);
      const double alive = f[static_cast<size_t>(s - start)];
      visit(s, i, alive);
      if (i == n || set.stop[static_cast<size_t>(s)] || alive == 0.0) return;
      for (int32_t c = 0; c < k; ++c) {
        next[static_cast<size_t>(lattice.IndexPlusOne(x, i, c) - next_start)] += alive * (x[c] + 1) / (i + 1);
      }
    });
    f.swap(next);
  }
}

TallyOutcome Expected(const TallyLattice& lattice, const TallyStoppingSet& set, const Masses& m) {
  TallyOutcome out;
  ForEachAlive(lattice, set, [&](int64_t s, int32_t i, double alive) {
    const size_t u = static_cast<size_t>(s);
    if (!set.stop[u] || alive == 0.0) return;
    out.disagreement += alive * m.wrong[u];
    out.trees += alive * m.all[u] * i;
  });
  return out;
}

// Stops only once all T votes are in: the full vote itself (never disagrees).
TallyStoppingSet FullVoteSet(const TallyLattice& lattice) {
  TallyStoppingSet set;
  set.num_trees = lattice.num_trees();
  set.num_classes = lattice.num_classes();
  set.stop.assign(static_cast<size_t>(lattice.size()), 0);
  for (int64_t s = lattice.LevelStart(set.num_trees); s < lattice.size(); ++s) set.stop[static_cast<size_t>(s)] = 1;
  return set;
}

Result<TallyLattice> CheckSet(const TallyStoppingSet& set) {
  Result<TallyLattice> lattice = TallyLattice::Make(set.num_trees, set.num_classes);
  if (!lattice.ok()) return lattice.status();
  const TallyLattice& l = lattice.value();
  if (set.stop.size() != static_cast<size_t>(l.size())) {
    return Invalid(std::to_string(l.size()) + " stop flags expected for T = " + std::to_string(set.num_trees) +
                   ", K = " + std::to_string(set.num_classes) + ", got " + std::to_string(set.stop.size()));
  }
  for (uint8_t flag : set.stop) {
    if (flag > 1) return Invalid("stop flags must be 0 or 1");
  }
  if (set.stop[0] != 0) return Invalid("the empty tally cannot stop (no vote seen)");
  for (int64_t s = l.LevelStart(set.num_trees); s < l.size(); ++s) {
    if (!set.stop[static_cast<size_t>(s)]) return Invalid("every tally of all T votes must stop");
  }
  return lattice;
}

struct Prepared {
  TallyLattice lattice;
  Masses masses;
};

Result<Prepared> Prepare(const TallyMinimeanProblem& problem) {
  Result<TallyLattice> lattice = TallyLattice::Make(problem.num_trees, problem.num_classes);
  if (!lattice.ok()) return lattice.status();
  Result<TallyWeights> rows = Rows(problem.num_trees, problem.num_classes, problem.final_tallies);
  if (!rows.ok()) return rows.status();
  Masses m = StateMasses(lattice.value(), rows.value());
  return Prepared{std::move(lattice).value(), std::move(m)};
}

}  // namespace

Result<TallyLattice> TallyLattice::Make(int32_t num_trees, int32_t num_classes) {
  if (num_trees < 1) return Invalid("the number of trees must be >= 1, got " + std::to_string(num_trees));
  if (num_classes < 2) return Invalid("the number of classes must be >= 2, got " + std::to_string(num_classes));
  // C(T + K, K) in double first: refuse before any table is allocated.
  double states = 1.0;
  for (int32_t c = 1; c <= num_classes && states <= 2.0 * kMaxTallyStoppingStates; ++c) {
    states = states * (num_trees + c) / c;
  }
  if (states > static_cast<double>(kMaxTallyStoppingStates) + 0.5) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "tally stopping: " + std::to_string(num_classes) + " classes and " +
                             std::to_string(num_trees) + " trees need more than " +
                             std::to_string(kMaxTallyStoppingStates) +
                             " full-tally states C(T + K, K) (K = 3 fits up to T = 308, K = 4 up to T = 103)");
  }
  TallyLattice l;
  l.num_trees_ = num_trees;
  l.num_classes_ = num_classes;
  const int32_t rows = num_trees + num_classes + 2;
  l.binom_.assign(static_cast<size_t>(rows) * (num_classes + 1), 0);
  for (int32_t a = 0; a < rows; ++a) {
    for (int32_t b = 0; b <= num_classes; ++b) {
      int64_t v = 0;
      if (b == 0) v = 1;
      else if (a > 0) v = l.B(a - 1, b - 1) + l.B(a - 1, b);
      l.binom_[static_cast<size_t>(a) * (num_classes + 1) + b] = v;
    }
  }
  l.offsets_.assign(static_cast<size_t>(num_trees) + 2, 0);
  for (int32_t i = 0; i <= num_trees; ++i) {
    l.offsets_[static_cast<size_t>(i) + 1] = l.offsets_[static_cast<size_t>(i)] + l.B(i + num_classes - 1, num_classes - 1);
  }
  return l;
}

int64_t TallyLattice::Index(const int32_t* x, int32_t sum) const {
  int64_t rank = offsets_[static_cast<size_t>(sum)];
  int32_t s = -1;
  for (int32_t m = 1; m < num_classes_; ++m) {
    s += x[m - 1] + 1;
    rank += B(s, m);
  }
  return rank;
}

int64_t TallyLattice::IndexPlusOne(const int32_t* x, int32_t sum, int32_t c) const {
  int64_t rank = offsets_[static_cast<size_t>(sum) + 1];
  int32_t s = -1;
  for (int32_t m = 1; m < num_classes_; ++m) {
    s += x[m - 1] + 1;
    rank += B(m - 1 >= c ? s + 1 : s, m);
  }
  return rank;
}

int32_t TallyLeader(const int32_t* x, int32_t num_classes) {
  int32_t best = 0;
  for (int32_t c = 1; c < num_classes; ++c) {
    if (x[c] > x[best]) best = c;
  }
  return best;
}

Result<TallyStoppingSet> TallyLagrangianSet(const TallyMinimeanProblem& problem, double multiplier) {
  if (!std::isfinite(multiplier) || multiplier < 0.0) return Invalid("the multiplier must be finite and >= 0");
  Result<Prepared> p = Prepare(problem);
  if (!p.ok()) return p.status();
  return Induce(p.value().lattice, p.value().masses, multiplier);
}

Result<TallyStoppingStrategy> SolveTallyMinimean(const TallyMinimeanProblem& problem) {
  if (!(problem.max_disagreement >= 0.0 && problem.max_disagreement <= 1.0)) {
    return Invalid("the disagreement target must be in [0, 1]");
  }
  Result<Prepared> prepared = Prepare(problem);
  if (!prepared.ok()) return prepared.status();
  const TallyLattice& lattice = prepared.value().lattice;
  const Masses& m = prepared.value().masses;
  const double target = problem.max_disagreement;
  TallyStoppingStrategy out;
  TallyStoppingSet cheap = Induce(lattice, m, 0.0);
  TallyOutcome cheap_outcome = Expected(lattice, cheap, m);
  if (cheap_outcome.disagreement <= target) {
    out.first = cheap;
    out.second = std::move(cheap);
    out.expected_trees = cheap_outcome.trees;
    out.expected_disagreement = cheap_outcome.disagreement;
    return out;
  }
  // Bracket the critical multiplier (lo breaks the target, hi meets it), as the two-class solver.
  double lo = 0.0, hi = 1.0;
  TallyStoppingSet safe = Induce(lattice, m, hi);
  TallyOutcome safe_outcome = Expected(lattice, safe, m);
  for (int it = 0; safe_outcome.disagreement > target && it < 1000; ++it) {
    lo = hi;
    cheap = std::move(safe);
    cheap_outcome = safe_outcome;
    hi *= 2.0;
    safe = Induce(lattice, m, hi);
    safe_outcome = Expected(lattice, safe, m);
  }
  if (safe_outcome.disagreement > target) {
    lo = hi;
    safe = FullVoteSet(lattice);
    safe_outcome = Expected(lattice, safe, m);
  }
  for (int it = 0; it < 200 && hi - lo > hi * 1e-15; ++it) {
    const double mid = 0.5 * (lo + hi);
    TallyStoppingSet set = Induce(lattice, m, mid);
    const TallyOutcome o = Expected(lattice, set, m);
    if (o.disagreement <= target) {
      hi = mid;
      safe = std::move(set);
      safe_outcome = o;
    } else {
      lo = mid;
      cheap = std::move(set);
      cheap_outcome = o;
    }
  }
  const double gap = cheap_outcome.disagreement - safe_outcome.disagreement;
  const double share =
      gap > 0.0 ? std::fmin(1.0, std::fmax(0.0, (cheap_outcome.disagreement - target) / gap)) : 1.0;
  out.first = std::move(safe);
  out.second = std::move(cheap);
  out.first_share = share;
  out.expected_trees = share * safe_outcome.trees + (1.0 - share) * cheap_outcome.trees;
  out.expected_disagreement = share * safe_outcome.disagreement + (1.0 - share) * cheap_outcome.disagreement;
  out.multiplier = hi;
  return out;
}

Result<std::vector<TallyOutcome>> ExactTallyOutcomes(const TallyStoppingSet& set,
                                                     const std::vector<uint32_t>& final_tallies) {
  Result<TallyLattice> lattice = CheckSet(set);
  if (!lattice.ok()) return lattice.status();
  const TallyLattice& l = lattice.value();
  const int32_t k = set.num_classes;
  // Validates the rows (their weights are not used here).
  if (Result<TallyWeights> rows = Rows(set.num_trees, k, final_tallies); !rows.ok()) return rows.status();
  std::vector<double> alive(static_cast<size_t>(l.size()), 0.0);
  ForEachAlive(l, set, [&](int64_t s, int32_t, double f) { alive[static_cast<size_t>(s)] = f; });
  const Binomials binom(set.num_trees);
  const size_t rows = final_tallies.size() / static_cast<size_t>(k);
  std::vector<TallyOutcome> out(rows);
  std::vector<int32_t> f(static_cast<size_t>(k));
  for (size_t r = 0; r < rows; ++r) {
    for (int32_t c = 0; c < k; ++c) f[static_cast<size_t>(c)] = static_cast<int32_t>(final_tallies[r * k + c]);
    const int32_t winner = TallyLeader(f.data(), k);
    TallyOutcome& o = out[r];
    ForEachBelow(f, binom, set.num_trees, [&](const int32_t* x, int32_t sum, double h) {
      const size_t s = static_cast<size_t>(l.Index(x, sum));
      if (!set.stop[s] || alive[s] == 0.0) return;
      const double p = alive[s] * h;
      o.trees += p * sum;
      if (TallyLeader(x, k) != winner) o.disagreement += p;
    });
  }
  return out;
}

Result<std::vector<TallyOutcome>> ExactTallyOutcomes(const TallyStoppingStrategy& strategy,
                                                     const std::vector<uint32_t>& final_tallies) {
  if (strategy.first.num_trees != strategy.second.num_trees ||
      strategy.first.num_classes != strategy.second.num_classes) {
    return Invalid("the strategy's two sets have different shapes");
  }
  const double share = strategy.first_share;
  if (!(share >= 0.0 && share <= 1.0)) return Invalid("first_share must be in [0, 1]");
  Result<std::vector<TallyOutcome>> a = ExactTallyOutcomes(strategy.first, final_tallies);
  if (!a.ok()) return a.status();
  Result<std::vector<TallyOutcome>> b = ExactTallyOutcomes(strategy.second, final_tallies);
  if (!b.ok()) return b.status();
  std::vector<TallyOutcome> out = std::move(a).value();
  for (size_t r = 0; r < out.size(); ++r) {
    out[r].trees = share * out[r].trees + (1.0 - share) * b.value()[r].trees;
    out[r].disagreement = share * out[r].disagreement + (1.0 - share) * b.value()[r].disagreement;
  }
  return out;
}

}  // namespace urnforest
