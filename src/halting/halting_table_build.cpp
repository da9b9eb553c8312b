// Building halting tables: HaltingTableBuilder's thresholds (backward recursion over tallies, or
// bisection on the optimal rule's cost multiplier with a cached replay), pairwise and infinite
// builders.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "halting/halting_table_builder.h"
#include "halting/tally_lattice.h"
#include "halting/urn_recursion.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {


constexpr int64_t kMaxThresholdStates = 60'000'000;  // C(T + l, l) for kThresholds layouts
constexpr int32_t kMaxPairTrees = 1000;              // kPairwiseBound and kInfiniteProduct

// kLimitExceeded unless T fits the pair tables of `what` (kPairwiseBound, kInfiniteProduct).
Status CheckPairTrees(int32_t T, const char* what) {
  if (T <= kMaxPairTrees) return Status::Ok();
  return Status::Error(StatusCode::kLimitExceeded,
                       std::string(what) + " supports T <= " + std::to_string(kMaxPairTrees));
}


// Cache of the lambda-independent part of the optimal-stopping recursion (see Thresholds): per state
// of every level, in rank order, the predictive probabilities, the ranks of the children, whether
// the predictive is defined and a strict leader exists, the leader's complement and the tally.
class OptimalReplay {
 public:
  static constexpr int64_t kMaxCachedStates = 2'000'000;

  // Fills the cache with one backward sweep; false when the lattice is too large or the sweep
  // fails (the caller then runs full sweeps, which report the error).
  bool Build(const Prior& prior, int32_t T, int32_t l) {
    internal::Compositions comp(T, l);
    T_ = T;
    l_ = l;
    start_.assign(T + 2, 0);
    for (int32_t n = 0; n <= T; ++n) start_[n + 1] = start_[n] + comp.Count(n);
    const int64_t states = start_[T + 1];
    if (states > kMaxCachedStates) return false;
    pi_.assign(states * l, 0.0);
    child_.assign(states * l, 0);
    tally_.assign(states * l, 0);
    flags_.assign(states, 0);
    complement_.assign(states, 0.0);
    Status s = internal::BackwardSweep(
        prior, T, l,
        [&](const int32_t* t, double* v) {
          int32_t k = StrictLeader(t, static_cast<size_t>(l));
          for (int32_t c = 0; c < l; ++c) v[c] = c == k ? 0.0 : 1.0;
        },
        [&](int32_t n, const int32_t* t, const double* pi, bool ok, double* v) {
          const int64_t i = start_[n] + comp.Rank(t);
          const int32_t k = StrictLeader(t, static_cast<size_t>(l));
          flags_[i] = static_cast<uint8_t>((ok ? 1 : 0) | (k >= 0 ? 2 : 0));
          complement_[i] = k >= 0 ? v[k] : 0.0;
          for (int32_t j = 0; j < l; ++j) {
            tally_[i * l + j] = t[j];
            if (n < T) {
              pi_[i * l + j] = pi[j];
              child_[i * l + j] = static_cast<int32_t>(comp.RankPlusOne(t, j));
            }
          }
        });
    return s.ok();
  }

  // One recursion of (cost-to-go, disagreement, trees) for multiplier `lambda`; calls `record`
  // (when set) for every state with a defined predictive and a strict leader, as the full sweep
  // does. Returns the disagreement at the root.
  double Run(double lambda, const std::function<void(int32_t, const int32_t*, double, bool)>& record) {
    const int32_t l = l_;
    std::vector<double> next, cur(3 * (start_[T_ + 1] - start_[T_]), 0.0);
    for (int64_t i = start_[T_]; i < start_[T_ + 1]; ++i)
      if (record && (flags_[i] & 3) == 3) record(T_, &tally_[i * l], complement_[i], true);
    double root = 0.0;
    for (int32_t n = T_ - 1; n >= 0; --n) {
      next.swap(cur);
      cur.assign(3 * (start_[n + 1] - start_[n]), 0.0);
      for (int64_t i = start_[n], r = 0; i < start_[n + 1]; ++i, ++r) {
        double* v = &cur[3 * r];
        if (flags_[i] & 1) {
          for (int32_t j = 0; j < l; ++j) {
            const double p = pi_[i * l + j];
            if (p == 0.0) continue;
            const double* c = &next[3 * static_cast<int64_t>(child_[i * l + j])];
            v[0] += p * c[0];
            v[1] += p * c[1];
            v[2] += p * c[2];
          }
        }
        v[0] += 1.0;
        v[2] += 1.0;
        if (n == 0) root = v[1];
        if ((flags_[i] & 3) != 3) continue;
        bool stop = false;
        const double stop_cost = lambda * complement_[i];
        if (stop_cost <= v[0]) {
          stop = true;
          v[0] = stop_cost;
          v[1] = complement_[i];
          v[2] = 0.0;
        }
        if (record) record(n, &tally_[i * l], complement_[i], stop);
      }
    }
    return root;
  }

 private:
  int32_t T_ = 0;
  int32_t l_ = 0;
  std::vector<int64_t> start_;
  std::vector<double> pi_;
  std::vector<int32_t> child_;
  std::vector<int32_t> tally_;
  std::vector<uint8_t> flags_;
  std::vector<double> complement_;
};

}  // namespace

HaltingTable HaltingTableBuilder::Start(const HaltingTableOptions& o, TableLayout layout) {
  HaltingTable table;
  table.rule_ = o.rule;
  table.layout_ = layout;
  table.num_trees_ = o.num_trees;
  table.num_classes_ = o.num_classes;
  table.alpha_ = o.alpha;
  table.min_relative_gap_ = std::nan("");
  if (layout != TableLayout::kLeadRule) table.InitBinom();
  return table;
}

Result<HaltingTable> HaltingTableBuilder::Thresholds(const HaltingTableOptions& o,
                                                     const Prior& prior, bool optimal) {
  const int32_t l = o.num_classes;
  const int32_t T = o.num_trees;
  internal::Compositions all(T, l + 1);
  internal::Compositions others(T, l);
  const int64_t total = all.Count(T);
  if (total > kMaxThresholdStates)
    return Status::Error(StatusCode::kLimitExceeded,
                         "a full halting table for T = " + std::to_string(T) + ", l = " +
                             std::to_string(l) + " has " + std::to_string(total) +
                             " states (limit " + std::to_string(kMaxThresholdStates) + ")");
  if (T > 65534) return Status::Error(StatusCode::kLimitExceeded, "T must be <= 65534");
  HaltingTable table = Start(o, TableLayout::kThresholds);
  std::vector<uint8_t> halt;
  try {
    halt.assign(total, 0);
    table.pstar_.assign(total, 0.0f);
  } catch (const std::bad_alloc&) {
    return Status::Error(StatusCode::kOutOfMemory, "halting table too large");
  }
  const double target = 1.0 - o.alpha;  // halt iff 1 - P* <= target
  double min_gap = std::numeric_limits<double>::infinity();
  std::vector<int32_t> full(l + 1);
  const int32_t width = optimal ? l + 3 : l;
  auto terminal = [&](const int32_t* t, double* v) {
    int32_t k = StrictLeader(t, static_cast<size_t>(l));
    for (int32_t c = 0; c < l; ++c) v[c] = c == k ? 0.0 : 1.0;
    if (optimal) v[l] = v[l + 1] = v[l + 2] = 0.0;
  };
  auto record = [&](int32_t n, const int32_t* t, double comp, bool stop) {
    std::copy(t, t + l, full.begin());
    full[l] = T - n;
    int64_t r = all.Rank(full.data());
    table.pstar_[r] = static_cast<float>(1.0 - comp);
    halt[r] = stop ? 1 : 0;
  };
  Status s;
  double lambda = 0.0;
  double root_d = 0.0;
  // Progress: the levels of one sweep, or the steps of the optimal rule's bisection.
  constexpr int64_t kBisectionSteps = 62;
  auto level_done = [&](int32_t n) { return !o.progress || o.progress(T + 1 - n, T + 1); };
  auto run = [&](bool keep) -> Status {
    return internal::BackwardSweep(
        prior, T, width, terminal,
        [&](int32_t n, const int32_t* t, const double* pi, bool ok, double* v) {
          int32_t k = StrictLeader(t, static_cast<size_t>(l));
          if (!optimal) {
            if (k < 0 || !ok) return;
            double comp = v[k];
            bool stop = comp <= target;
            if (target > 0.0) min_gap = std::min(min_gap, std::fabs(comp - target) / target);
            record(n, t, comp, stop);
            return;
          }
          if (n < T) {
            v[l] += 1.0;      // cost-to-go: one more tree
            v[l + 2] += 1.0;  // expected trees
          }
          if (n == 0) root_d = v[l + 1];
          if (k < 0 || !ok) return;
          bool stop = n == T;
          if (n < T) {
            double stop_cost = lambda * v[k];
            if (stop_cost <= v[l]) {
              stop = true;
              v[l] = stop_cost;
              v[l + 1] = v[k];
              v[l + 2] = 0.0;
            }
          }
          if (keep) record(n, t, v[k], stop);
          (void)pi;
        },
        optimal ? internal::LevelFn() : internal::LevelFn(level_done));
  };
  if (!optimal) {
    s = run(true);
    if (!s.ok()) return s;
  } else {
    // The complements v[0..l-1] and the predictive probabilities do not depend on lambda: when the
    // lattice is small enough, one sweep caches them per state and every bisection step replays
    // only the three lambda-dependent values over the cache, with the same operations in the same
    // order as a full sweep (bit-identical policies, ~10x faster for l = 3, T = 101).
    OptimalReplay replay;
    const bool cached = replay.Build(prior, T, l);
    int64_t steps = 0;
    auto step = [&](bool keep) -> Status {
      if (!cached) {
        Status swept = run(keep);
        if (!swept.ok()) return swept;
      } else {
        root_d = replay.Run(lambda, keep ? record : std::function<void(int32_t, const int32_t*, double, bool)>());
      }
      if (o.progress && !o.progress(++steps, kBisectionSteps)) {
        return Status::Error(StatusCode::kInvalidArgument, "cancelled");
      }
      return Status::Ok();
    };
    // Smallest multiplier whose policy keeps the prior-expected disagreement <= 1 - alpha.
    double lo = -3.0, hi = 16.0;  // log10 lambda
    lambda = std::pow(10.0, hi);
    s = step(false);
    if (!s.ok()) return s;
    for (int it = 0; it < 60; ++it) {
      double mid = 0.5 * (lo + hi);
      lambda = std::pow(10.0, mid);
      s = step(false);
      if (!s.ok()) return s;
      if (root_d <= target) hi = mid;
      else lo = mid;
    }
    lambda = std::pow(10.0, hi);
    s = step(true);
    if (!s.ok()) return s;
  }
  table.min_relative_gap_ = optimal || !std::isfinite(min_gap) ? std::nan("") : min_gap;
  // Thresholds: per class and other counts, the least count from which every larger one halts.
  const int64_t per_class = others.Count(T);
  table.thresholds_.assign(per_class * l, static_cast<uint16_t>(T + 1));
  std::vector<int32_t> t(l);
  for (int32_t c = 0; c < l; ++c) {
    others.ForEach(T, [&](const int32_t* o) {  // o[0..l-2] = other counts, o[l-1] = slack
      int32_t sum = 0, mx = 0;
      for (int32_t j = 0, i = 0; j < l; ++j) {
        if (j == c) continue;
        t[j] = o[i++];
        sum += t[j];
        mx = std::max(mx, t[j]);
      }
      int32_t thr = T + 1;
      bool run = true, below = false;
      for (int32_t m = T - sum; m > mx; --m) {
        t[c] = m;
        std::copy(t.begin(), t.end(), full.begin());
        full[l] = T - sum - m;
        bool h = halt[all.Rank(full.data())] != 0;
        if (run && h) thr = m;
        else if (!h) run = false;
        else below = true;
      }
      if (below) table.monotone_ = false;
      table.thresholds_[c * per_class + others.Rank(o)] = static_cast<uint16_t>(thr);
    });
  }
  table.DeriveBinaryBounds();
  return table;
}

Result<HaltingTable> HaltingTableBuilder::Pairwise(const HaltingTableOptions& o, double beta) {
  const int32_t l = o.num_classes;
  const int32_t T = o.num_trees;
  Status s = CheckPairTrees(T, "the pairwise bound");
  if (!s.ok()) return s;
  HaltingTable table = Start(o, TableLayout::kPairwiseBound);
  internal::Compositions four(T, 4);
  table.pair_.assign(four.Count(T), 1.0);
  // 3-class urn (leader a, rival b, rest s) with Dirichlet(beta, beta, (l - 2) beta).
  Result<Prior> p3 = Prior::Dirichlet({beta, beta, (l - 2) * beta});
  if (!p3.ok()) return p3.status();
  int32_t full[4];
  s = internal::BackwardSweep(
      p3.value(), T, 1, [](const int32_t* t, double* v) { v[0] = t[1] >= t[0] ? 1.0 : 0.0; },
      [&](int32_t n, const int32_t* t, const double*, bool, double* v) {
        full[0] = t[0];
        full[1] = t[1];
        full[2] = t[2];
        full[3] = T - n;
        table.pair_[four.Rank(full)] = v[0];
      },
      [&](int32_t n) { return !o.progress || o.progress(T + 1 - n, T + 1); });
  if (!s.ok()) return s;
  return table;
}

Result<HaltingTable> HaltingTableBuilder::Infinite(const HaltingTableOptions& o) {
  const int32_t T = o.num_trees;
  Status s = CheckPairTrees(T, "the infinite rule");
  if (!s.ok()) return s;
  HaltingTable table = Start(o, TableLayout::kInfiniteProduct);
  const size_t side = static_cast<size_t>(T) + 1;
  table.pair_.assign(side * side, 1.0);
  std::vector<double> pmf, tail;
  for (int32_t nn = 1; nn <= T + 1; ++nn) {  // n = a + b + 1
    pmf.assign(nn + 1, 0.0);
    pmf[0] = std::ldexp(1.0, -nn);
    for (int32_t k = 0; k < nn; ++k) pmf[k + 1] = pmf[k] * (nn - k) / (k + 1);
    tail.assign(nn + 2, 0.0);  // tail[k] = P(X >= k)
    for (int32_t k = nn; k >= 0; --k) tail[k] = tail[k + 1] + pmf[k];
    for (int32_t a = 0; a < nn; ++a) {
      int32_t b = nn - 1 - a;
      table.pair_[a * side + b] = tail[a + 1];  // 1 - P(p_a > p_b) = P(X > a)
    }
  }
  return table;
}

}  // namespace urnforest
