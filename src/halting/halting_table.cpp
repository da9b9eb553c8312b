// Halting tables: building, the per-vote lookup, and the table byte format ("UFHT").
#include "urnforest/halting_table.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

#include "halting/tally_lattice.h"
#include "halting/urn_recursion.h"

namespace urnforest {
namespace {

constexpr int64_t kMaxThresholdStates = 60'000'000;  // C(T + l, l) for kThresholds layouts
constexpr int32_t kMaxPairTrees = 1000;              // kPairwiseBound and kInfiniteProduct
constexpr int32_t kMaxOptimalClasses = 3;

Status Invalid(const std::string& m) { return Status::Error(StatusCode::kInvalidArgument, m); }

// Strict leader of t[0..l-1], or -1.
int32_t StrictLeader(const int32_t* t, int32_t l) {
  int32_t best = 0;
  bool tie = false;
  for (int32_t c = 1; c < l; ++c) {
    if (t[c] > t[best]) {
      best = c;
      tie = false;
    } else if (t[c] == t[best]) {
      tie = true;
    }
  }
  return tie ? -1 : best;
}

}  // namespace

// Builds kThresholds tables (finite-T prior rules and optimal) and the pair tables.
class HaltingTableBuilder {
 public:
  static Result<HaltingTable> Thresholds(const HaltingTableOptions& o, const Prior& prior,
                                         bool optimal);
  static Result<HaltingTable> Pairwise(const HaltingTableOptions& o, double beta);
  static Result<HaltingTable> Infinite(const HaltingTableOptions& o);
};

void HaltingTable::InitBinom() {
  const int32_t rows = num_trees_ + num_classes_ + 4;
  const int32_t cols = std::min(num_classes_, 4) + 2;
  binom_.assign(static_cast<size_t>(rows) * cols, 0);
  for (int32_t n = 0; n < rows; ++n)
    for (int32_t i = 0; i < cols; ++i)
      binom_[n * cols + i] = i == 0 ? 1 : (n == 0 ? 0 : binom_[(n - 1) * cols + i - 1] + binom_[(n - 1) * cols + i]);
}

int64_t HaltingTable::StateRank(const int32_t* tally) const {
  // rank of (t_1..t_l, T - sum) among compositions of T into l + 1 parts
  const int32_t cols = std::min(num_classes_, 4) + 2;
  int64_t rank = 0;
  int32_t s = -1;
  for (int32_t i = 1; i <= num_classes_; ++i) {
    s += tally[i - 1] + 1;
    rank += binom_[s * cols + i];
  }
  return rank;
}

int64_t HaltingTable::OthersRank(int32_t c, const int32_t* tally) const {
  const int32_t cols = std::min(num_classes_, 4) + 2;
  int64_t rank = 0;
  int32_t s = -1;
  int32_t i = 1;
  for (int32_t j = 0; j < num_classes_; ++j) {
    if (j == c) continue;
    s += tally[j] + 1;
    rank += binom_[s * cols + i];
    ++i;
  }
  return rank;
}

int32_t HaltingTable::Leader(const int32_t* tally) const { return StrictLeader(tally, num_classes_); }

bool HaltingTable::Halts(const int32_t* tally) const {
  if (layout_ == TableLayout::kThresholds && num_classes_ == 2) {
    // Hot path of sequential voting (binary problems): the same lookup as below, with
    // OthersRank(k, t) = t[other] and per_class = size / 2, without the loops and the division.
    const int32_t a = tally[0];
    const int32_t b = tally[1];
    if (a == b) return false;
    const int32_t k = a > b ? 0 : 1;
    return tally[k] >= thresholds_[(thresholds_.size() >> 1) * k + tally[1 - k]];
  }
  const int32_t l = num_classes_;
  int32_t k = StrictLeader(tally, l);
  if (k < 0) return false;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += tally[j];
  switch (layout_) {
    case TableLayout::kLeadRule: {
      int32_t second = 0;
      for (int32_t j = 0; j < l; ++j)
        if (j != k) second = std::max(second, tally[j]);
      return tally[k] - second > num_trees_ - n;
    }
    case TableLayout::kThresholds: {
      int64_t per_class = static_cast<int64_t>(thresholds_.size()) / l;
      return tally[k] >= thresholds_[k * per_class + OthersRank(k, tally)];
    }
    case TableLayout::kPairwiseBound: return PairBound(tally, k, n) <= 1.0 - alpha_;
    case TableLayout::kInfiniteProduct: return Confidence(tally) > alpha_;
  }
  return false;
}

double HaltingTable::Confidence(const int32_t* tally) const {
  const int32_t l = num_classes_;
  int32_t k = StrictLeader(tally, l);
  if (k < 0) return 0.0;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += tally[j];
  switch (layout_) {
    case TableLayout::kLeadRule: return Halts(tally) ? 1.0 : 0.0;
    case TableLayout::kThresholds: return pstar_[StateRank(tally)];
    case TableLayout::kPairwiseBound: return std::max(0.0, 1.0 - PairBound(tally, k, n));
    case TableLayout::kInfiniteProduct: {
      double prod = 1.0;
      for (int32_t j = 0; j < l; ++j)
        if (j != k) prod *= 1.0 - pair_[static_cast<size_t>(tally[k]) * (num_trees_ + 1) + tally[j]];
      return prod;
    }
  }
  return 0.0;
}

double HaltingTable::PairBound(const int32_t* tally, int32_t k, int32_t n) const {
  const int32_t cols = std::min(num_classes_, 4) + 2;
  double bound = 0.0;
  int32_t parts[3] = {tally[k], 0, 0};
  for (int32_t j = 0; j < num_classes_; ++j) {
    if (j == k) continue;
    parts[1] = tally[j];
    parts[2] = n - tally[k] - tally[j];
    int64_t rank = 0;  // (a, b, s, T - n) among 4-part compositions of T
    int32_t s = -1;
    for (int32_t i = 1; i <= 3; ++i) {
      s += parts[i - 1] + 1;
      rank += binom_[s * cols + i];
    }
    bound += pair_[rank];
  }
  return bound;
}

int32_t HaltingTable::MinLeaderVotes(int32_t c, const int32_t* others) const {
  const int32_t l = num_classes_;
  // No allocation for small l: the blocked halted vote asks for 2 (T + 1) of these per call.
  int32_t small[8] = {};
  std::vector<int32_t> large;
  if (l > 8) large.assign(l, 0);
  int32_t* t = l > 8 ? large.data() : small;
  int32_t sum = 0, mx = 0;
  for (int32_t j = 0, i = 0; j < l; ++j) {
    if (j == c) continue;
    t[j] = others[i++];
    sum += t[j];
    mx = std::max(mx, t[j]);
  }
  if (sum >= num_trees_) return num_trees_ + 1;
  if (layout_ == TableLayout::kThresholds) {
    t[c] = 0;
    int64_t per_class = static_cast<int64_t>(thresholds_.size()) / l;
    return thresholds_[c * per_class + OthersRank(c, t)];
  }
  int32_t best = num_trees_ + 1;
  for (int32_t m = num_trees_ - sum; m > mx; --m) {
    t[c] = m;
    if (!Halts(t)) break;
    best = m;
  }
  return best;
}

const uint16_t* HaltingTable::BinaryThresholdRow(int32_t c) const {
  if (layout_ != TableLayout::kThresholds || num_classes_ != 2 || c < 0 || c > 1) return nullptr;
  return thresholds_.data() + (thresholds_.size() >> 1) * static_cast<size_t>(c);
}

const float* HaltingTable::BinaryPStar() const {
  // StateRank for l = 2 is C(a, 1) + C(a + b + 1, 2) = a + n (n + 1) / 2.
  if (layout_ != TableLayout::kThresholds || num_classes_ != 2) return nullptr;
  return pstar_.data();
}

const int32_t* HaltingTable::BinaryZeroWinsUpTo() const {
  return zero_wins_up_to_.empty() ? nullptr : zero_wins_up_to_.data();
}

const int32_t* HaltingTable::BinaryOneWinsFrom() const {
  return one_wins_from_.empty() ? nullptr : one_wins_from_.data();
}

void HaltingTable::DeriveBinaryBounds() {
  zero_wins_up_to_.clear();
  one_wins_from_.clear();
  min_votes_to_halt_ = 1;
  const uint16_t* row0 = BinaryThresholdRow(0);
  const uint16_t* row1 = BinaryThresholdRow(1);
  if (row0 == nullptr) return;
  const int32_t T = num_trees_;
  // Halting with class c ahead at (t_c, k) needs t_c >= row_c[k], so at least row_c[k] + k votes
  // (for any thresholds, monotone or not).
  int32_t fewest = T + 1;
  for (const uint16_t* row : {row0, row1}) {
    for (int32_t k = 0; k <= T; ++k) fewest = std::min(fewest, static_cast<int32_t>(row[k]) + k);
  }
  min_votes_to_halt_ = std::max(fewest, 1);
  for (int32_t k = 0; k < T; ++k) {
    if (row0[k + 1] < row0[k] || row1[k + 1] < row1[k]) return;
  }
  // The leader, with m - k votes against the other's k, wins iff 2k < m and m - k >= row[k]. With a
  // nondecreasing row both hold up to some k and fail beyond, and what holds for m holds for m + 1:
  // the largest winning k per m grows with m, found in one pass.
  auto wins = [](const uint16_t* row, int32_t k, int32_t m) { return 2 * k < m && m - k >= row[k]; };
  zero_wins_up_to_.resize(static_cast<size_t>(T) + 1);
  one_wins_from_.resize(static_cast<size_t>(T) + 1);
  int32_t zero_k = -1;  // largest class-1 count with which class 0 wins after m votes
  int32_t one_k = -1;   // largest class-0 count with which class 1 wins after m votes
  for (int32_t m = 0; m <= T; ++m) {
    while (zero_k < T && wins(row0, zero_k + 1, m)) ++zero_k;
    while (one_k < T && wins(row1, one_k + 1, m)) ++one_k;
    zero_wins_up_to_[m] = zero_k;
    one_wins_from_[m] = one_k < 0 ? m + 1 : m - one_k;
  }
}

std::vector<int32_t> HaltingTable::BinaryThresholds(int32_t c) const {
  std::vector<int32_t> out;
  if (num_classes_ != 2) return out;
  for (int32_t k = 0; k < num_trees_; ++k) {
    int32_t m = MinLeaderVotes(c, &k);
    if (m > num_trees_ - k) break;
    out.push_back(m);
  }
  return out;
}

namespace {

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
          int32_t k = StrictLeader(t, l);
          for (int32_t c = 0; c < l; ++c) v[c] = c == k ? 0.0 : 1.0;
        },
        [&](int32_t n, const int32_t* t, const double* pi, bool ok, double* v) {
          const int64_t i = start_[n] + comp.Rank(t);
          const int32_t k = StrictLeader(t, l);
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
  HaltingTable table;
  table.rule_ = o.rule;
  table.layout_ = TableLayout::kThresholds;
  table.num_trees_ = T;
  table.num_classes_ = l;
  table.alpha_ = o.alpha;
  table.InitBinom();
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
    int32_t k = StrictLeader(t, l);
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
  auto run = [&](bool keep) -> Status {
    return internal::BackwardSweep(
        prior, T, width, terminal,
        [&](int32_t n, const int32_t* t, const double* pi, bool ok, double* v) {
          int32_t k = StrictLeader(t, l);
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
        });
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
    auto step = [&](bool keep) -> Status {
      if (!cached) return run(keep);
      root_d = replay.Run(lambda, keep ? record : std::function<void(int32_t, const int32_t*, double, bool)>());
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
  if (T > kMaxPairTrees)
    return Status::Error(StatusCode::kLimitExceeded,
                         "the pairwise bound supports T <= " + std::to_string(kMaxPairTrees));
  HaltingTable table;
  table.rule_ = o.rule;
  table.layout_ = TableLayout::kPairwiseBound;
  table.num_trees_ = T;
  table.num_classes_ = l;
  table.alpha_ = o.alpha;
  table.min_relative_gap_ = std::nan("");
  table.InitBinom();
  internal::Compositions four(T, 4);
  table.pair_.assign(four.Count(T), 1.0);
  // 3-class urn (leader a, rival b, rest s) with Dirichlet(beta, beta, (l - 2) beta).
  Result<Prior> p3 = Prior::Dirichlet({beta, beta, (l - 2) * beta});
  if (!p3.ok()) return p3.status();
  int32_t full[4];
  Status s = internal::BackwardSweep(
      p3.value(), T, 1, [](const int32_t* t, double* v) { v[0] = t[1] >= t[0] ? 1.0 : 0.0; },
      [&](int32_t n, const int32_t* t, const double*, bool, double* v) {
        full[0] = t[0];
        full[1] = t[1];
        full[2] = t[2];
        full[3] = T - n;
        table.pair_[four.Rank(full)] = v[0];
      });
  if (!s.ok()) return s;
  return table;
}

Result<HaltingTable> HaltingTableBuilder::Infinite(const HaltingTableOptions& o) {
  const int32_t T = o.num_trees;
  if (T > kMaxPairTrees)
    return Status::Error(StatusCode::kLimitExceeded,
                         "the infinite rule supports T <= " + std::to_string(kMaxPairTrees));
  HaltingTable table;
  table.rule_ = o.rule;
  table.layout_ = TableLayout::kInfiniteProduct;
  table.num_trees_ = T;
  table.num_classes_ = o.num_classes;
  table.alpha_ = o.alpha;
  table.min_relative_gap_ = std::nan("");
  table.InitBinom();
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

Result<HaltingTable> BuildHaltingTable(const HaltingTableOptions& o, const Prior* prior) {
  const int32_t l = o.num_classes;
  if (o.num_trees < 1 || o.num_trees > 100000) return Invalid("num_trees must be in [1, 100000]");
  if (l < 2 || l > 4096) return Invalid("num_classes must be in [2, 4096]");
  if (!(o.alpha > 0.0 && o.alpha <= 1.0)) return Invalid("alpha must be in (0, 1]");
  if (static_cast<int32_t>(o.rule) < 0 || static_cast<int32_t>(o.rule) >= kNumHaltingRules)
    return Invalid("unknown halting rule");
  if (o.rule == HaltingRule::kAlpha1) {
    HaltingTable table;
    table.rule_ = o.rule;
    table.layout_ = TableLayout::kLeadRule;
    table.num_trees_ = o.num_trees;
    table.num_classes_ = l;
    table.alpha_ = 1.0;
    table.min_relative_gap_ = std::nan("");
    return table;
  }
  if (o.rule == HaltingRule::kInfinite) return HaltingTableBuilder::Infinite(o);
  Prior used;
  if (o.rule == HaltingRule::kSiba) {
    used = Prior::Uniform(l).value();
  } else {
    if (prior == nullptr)
      return Invalid(std::string("rule ") + RuleName(o.rule) + " needs a prior");
    if (prior->num_classes() != l)
      return Status::Error(StatusCode::kShapeMismatch,
                           "prior has " + std::to_string(prior->num_classes()) +
                               " classes, table asked for " + std::to_string(l));
    PriorKind want = prior->kind();
    if (o.rule == HaltingRule::kHyper && want != PriorKind::kHistogram)
      return Invalid("rule hyper needs a histogram prior");
    if (o.rule == HaltingRule::kOneDir && want != PriorKind::kDirichlet && want != PriorKind::kUniform)
      return Invalid("rule 1dir needs a Dirichlet prior");
    if (o.rule == HaltingRule::kNDir && want != PriorKind::kDirichletMixture)
      return Invalid("rule ndir needs a Dirichlet-mixture prior");
    used = *prior;
  }
  if (o.rule == HaltingRule::kOptimal) {
    if (l > kMaxOptimalClasses)
      return Status::Error(StatusCode::kLimitExceeded, "rule optimal supports at most 3 classes");
    return HaltingTableBuilder::Thresholds(o, used, true);
  }
  if (o.force_pairwise_bound || l > 4) {
    if (!used.IsSymmetricDirichlet())
      return Status::Error(StatusCode::kLimitExceeded,
                           std::string("rule ") + RuleName(o.rule) + " with " + std::to_string(l) +
                               " classes needs l <= 4 (for more classes use siba, alpha1 or "
                               "infinite, or a symmetric 1dir prior)");
    return HaltingTableBuilder::Pairwise(o, used.components()[0].beta[0]);
  }
  return HaltingTableBuilder::Thresholds(o, used, false);
}

}  // namespace urnforest

namespace urnforest {
namespace {

constexpr uint32_t kTableVersion = 1;

void PutU32(std::vector<uint8_t>* b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void PutU64(std::vector<uint8_t>* b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void PutF64(std::vector<uint8_t>* b, double d) {
  uint64_t v;
  std::memcpy(&v, &d, 8);
  PutU64(b, v);
}
uint64_t Fnv1a(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

struct Reader {
  const uint8_t* p;
  size_t n, pos = 0;
  bool ok = true;
  uint64_t Get(int bytes) {
    if (pos + bytes > n) {
      ok = false;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(p[pos + i]) << (8 * i);
    pos += bytes;
    return v;
  }
  double F64() {
    uint64_t v = Get(8);
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  }
};

}  // namespace

std::vector<uint8_t> HaltingTable::ToBytes() const {
  std::vector<uint8_t> b = {'U', 'F', 'H', 'T'};
  PutU32(&b, kTableVersion);
  PutU32(&b, static_cast<uint32_t>(rule_));
  PutU32(&b, static_cast<uint32_t>(layout_));
  PutU32(&b, static_cast<uint32_t>(num_trees_));
  PutU32(&b, static_cast<uint32_t>(num_classes_));
  PutF64(&b, alpha_);
  PutU32(&b, monotone_ ? 1 : 0);
  PutF64(&b, min_relative_gap_);
  PutU64(&b, thresholds_.size());
  for (uint16_t v : thresholds_) {
    b.push_back(static_cast<uint8_t>(v));
    b.push_back(static_cast<uint8_t>(v >> 8));
  }
  PutU64(&b, pstar_.size());
  for (float f : pstar_) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    PutU32(&b, v);
  }
  PutU64(&b, pair_.size());
  for (double d : pair_) PutF64(&b, d);
  PutU64(&b, Fnv1a(b.data(), b.size()));
  return b;
}

Result<HaltingTable> HaltingTable::FromBytes(const uint8_t* data, size_t size) {
  auto corrupt = [](const std::string& m) {
    return Status::Error(StatusCode::kCorruptModel, "halting table bytes: " + m);
  };
  if (data == nullptr || size < 16 || std::memcmp(data, "UFHT", 4) != 0) return corrupt("bad magic");
  Reader r{data, size - 8};
  r.pos = 4;
  uint32_t version = static_cast<uint32_t>(r.Get(4));
  if (version != kTableVersion)
    return Status::Error(StatusCode::kUnsupportedVersion,
                         "halting table version " + std::to_string(version) + " is not supported");
  Reader tail{data, size, size - 8};
  if (tail.Get(8) != Fnv1a(data, size - 8)) return corrupt("checksum mismatch");
  HaltingTable t;
  uint32_t rule = static_cast<uint32_t>(r.Get(4));
  uint32_t layout = static_cast<uint32_t>(r.Get(4));
  t.num_trees_ = static_cast<int32_t>(r.Get(4));
  t.num_classes_ = static_cast<int32_t>(r.Get(4));
  t.alpha_ = r.F64();
  t.monotone_ = r.Get(4) != 0;
  t.min_relative_gap_ = r.F64();
  if (!r.ok || rule >= static_cast<uint32_t>(kNumHaltingRules) || layout > 3 || t.num_trees_ < 1 ||
      t.num_trees_ > 100000 || t.num_classes_ < 2 || t.num_classes_ > 4096)
    return corrupt("bad header");
  t.rule_ = static_cast<HaltingRule>(rule);
  t.layout_ = static_cast<TableLayout>(layout);
  uint64_t n = r.Get(8);
  if (!r.ok || n > (r.n - r.pos) / 2) return corrupt("bad threshold count");
  t.thresholds_.resize(n);
  for (uint64_t i = 0; i < n; ++i) t.thresholds_[i] = static_cast<uint16_t>(r.Get(2));
  n = r.Get(8);
  if (!r.ok || n > (r.n - r.pos) / 4) return corrupt("bad confidence count");
  t.pstar_.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t v = static_cast<uint32_t>(r.Get(4));
    std::memcpy(&t.pstar_[i], &v, 4);
  }
  n = r.Get(8);
  if (!r.ok || n > (r.n - r.pos) / 8) return corrupt("bad pair-table count");
  t.pair_.resize(n);
  for (uint64_t i = 0; i < n; ++i) t.pair_[i] = r.F64();
  if (!r.ok || r.pos != r.n) return corrupt("length mismatch");
  // Structural checks so that lookups stay in bounds.
  const int32_t T = t.num_trees_, l = t.num_classes_;
  switch (t.layout_) {
    case TableLayout::kThresholds:
      if (l > 4 || static_cast<int64_t>(t.pstar_.size()) != internal::Compositions(T, l + 1).Count(T) ||
          static_cast<int64_t>(t.thresholds_.size()) != internal::Compositions(T, l).Count(T) * l)
        return corrupt("threshold table sizes do not match T and l");
      break;
    case TableLayout::kPairwiseBound:
      if (static_cast<int64_t>(t.pair_.size()) != internal::Compositions(T, 4).Count(T))
        return corrupt("pair table size does not match T");
      break;
    case TableLayout::kInfiniteProduct:
      if (t.pair_.size() != static_cast<size_t>(T + 1) * (T + 1))
        return corrupt("pair table size does not match T");
      break;
    case TableLayout::kLeadRule: break;
  }
  t.InitBinom();
  t.DeriveBinaryBounds();
  return t;
}

}  // namespace urnforest
