// [KM26] minimean stopping for two classes and the exact outcome of a stopping set: see
// urnforest/binary_stopping.h for the derivation.
#include "urnforest/binary_stopping.h"

#include <cmath>
#include <string>

#include "halting/binary_lagrangian.h"

namespace urnforest {
namespace {

int64_t NumStates(int32_t n) { return BinaryStoppingSet::Rank(n + 1, 0); }

Status CheckTrees(int32_t num_trees) {
  if (num_trees < 1 || num_trees > kMaxBinaryStoppingTrees) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping: the number of trees must be in 1.." +
                             std::to_string(kMaxBinaryStoppingTrees) + ", got " +
                             std::to_string(num_trees));
  }
  return Status::Ok();
}

// The weights normalised to sum 1, or an error naming what is wrong.
Result<std::vector<double>> Normalised(int32_t num_trees, const std::vector<double>& weights) {
  if (Status s = CheckTrees(num_trees); !s.ok()) return s;
  if (weights.size() != static_cast<size_t>(num_trees) + 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping: " + std::to_string(num_trees + 1) +
                             " final-count weights expected (n = 0.." + std::to_string(num_trees) +
                             "), got " + std::to_string(weights.size()));
  }
  double total = 0.0;
  for (double w : weights) {
    if (!std::isfinite(w) || w < 0.0) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "binary stopping: final-count weights must be finite and >= 0");
    }
    total += w;
  }
  if (!(total > 0.0)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping: final-count weights are all zero (no calibration rows)");
  }
  std::vector<double> out(weights);
  for (double& w : out) w /= total;
  return out;
}

// Hypergeometric layers for one final count n: calls visit(i, h) for i = 0..N with h[j] the
// probability of j class-1 votes among the first i of N draws (h has i + 1 entries).
template <typename Visit>
void HypergeometricLayers(int32_t num_trees, int32_t n, Visit&& visit) {
  std::vector<double> h(1, 1.0);
  std::vector<double> next;
  visit(0, h);
  for (int32_t i = 0; i < num_trees; ++i) {
    next.assign(static_cast<size_t>(i) + 2, 0.0);
    const double left = static_cast<double>(num_trees - i);
    for (int32_t j = 0; j <= i; ++j) {
      if (h[j] == 0.0) continue;
      const double ones_left = static_cast<double>(n - j);
      const double zeros_left = static_cast<double>(num_trees - n - (i - j));
      if (zeros_left > 0) next[j] += h[j] * zeros_left / left;
      if (ones_left > 0) next[j + 1] += h[j] * ones_left / left;
    }
    h.swap(next);
    visit(i + 1, h);
  }
}

bool FullVoteIsOne(int32_t num_trees, int32_t n) { return 2 * n > num_trees; }

}  // namespace

namespace internal {

StateMasses Masses(int32_t num_trees, const std::vector<double>& d) {
  StateMasses m;
  m.zero.assign(static_cast<size_t>(NumStates(num_trees)), 0.0);
  m.one.assign(m.zero.size(), 0.0);
  for (int32_t n = 0; n <= num_trees; ++n) {
    if (d[n] == 0.0) continue;
    std::vector<double>& target = FullVoteIsOne(num_trees, n) ? m.one : m.zero;
    HypergeometricLayers(num_trees, n, [&](int32_t i, const std::vector<double>& h) {
      const int64_t base = BinaryStoppingSet::Rank(i, 0);
      for (int32_t j = 0; j <= i; ++j) target[base + j] += d[n] * h[j];
    });
  }
  return m;
}

// The leader; at a tie the class with more mass of full-vote winners (class 0 if equal).
uint8_t Answer(int32_t i, int32_t j, double zero, double one) {
  if (2 * j > i) return 1;
  if (2 * j < i) return 0;
  return one > zero ? 1 : 0;
}

std::vector<uint8_t> Answers(int32_t num_trees, const StateMasses& m) {
  std::vector<uint8_t> answer(m.zero.size());
  for (int32_t i = 0; i <= num_trees; ++i) {
    for (int32_t j = 0; j <= i; ++j) {
      const int64_t r = BinaryStoppingSet::Rank(i, j);
      answer[r] = Answer(i, j, m.zero[r], m.one[r]);
    }
  }
  return answer;
}

// Backward induction for E[trees] + mu E[disagreement] (file comment of the header).
BinaryStoppingSet Induce(int32_t num_trees, const StateMasses& m, const std::vector<uint8_t>& answer,
                         double mu) {
  BinaryStoppingSet set;
  set.num_trees = num_trees;
  set.answer = answer;
  set.stop.assign(m.zero.size(), 0);
  std::vector<double> g(static_cast<size_t>(num_trees) + 1), above;
  for (int32_t i = num_trees; i >= 0; --i) {
    above.swap(g);
    g.assign(static_cast<size_t>(i) + 1, 0.0);
    for (int32_t j = 0; j <= i; ++j) {
      const int64_t r = BinaryStoppingSet::Rank(i, j);
      const double wrong = answer[r] == 1 ? m.zero[r] : m.one[r];
      const double stop_cost = i * (m.zero[r] + m.one[r]) + mu * wrong;
      if (i == num_trees) {
        set.stop[r] = 1;
        g[j] = stop_cost;
        continue;
      }
      const double go_cost = (above[j] * (i + 1 - j) + above[j + 1] * (j + 1)) / (i + 1);
      const bool stop = i > 0 && stop_cost <= go_cost;
      set.stop[r] = stop ? 1 : 0;
      g[j] = stop ? stop_cost : go_cost;
    }
  }
  return set;
}

// f(i, j) of the header: the fraction of vote orders into (i, j) that no earlier state stopped.
std::vector<double> AliveFractions(const BinaryStoppingSet& set) {
  const int32_t n = set.num_trees;
  std::vector<double> f(set.stop.size(), 0.0);
  f[0] = 1.0;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j <= i; ++j) {
      const int64_t r = BinaryStoppingSet::Rank(i, j);
      if (set.stop[r] || f[r] == 0.0) continue;
      f[BinaryStoppingSet::Rank(i + 1, j)] += f[r] * (i + 1 - j) / (i + 1);
      f[BinaryStoppingSet::Rank(i + 1, j + 1)] += f[r] * (j + 1) / (i + 1);
    }
  }
  return f;
}

BinaryOutcome Expected(const BinaryStoppingSet& set, const StateMasses& m) {
  const std::vector<double> f = AliveFractions(set);
  BinaryOutcome out;
  for (int32_t i = 0; i <= set.num_trees; ++i) {
    for (int32_t j = 0; j <= i; ++j) {
      const int64_t r = BinaryStoppingSet::Rank(i, j);
      if (!set.stop[r] || f[r] == 0.0) continue;
      out.trees += f[r] * i * (m.zero[r] + m.one[r]);
      out.disagreement += f[r] * (set.answer[r] == 1 ? m.zero[r] : m.one[r]);
      if (set.answer[r] == 1) out.answer_one += f[r] * (m.zero[r] + m.one[r]);
    }
  }
  return out;
}

// Stops only once all N votes are in: the full vote itself (never disagrees).
BinaryStoppingSet FullVoteSet(int32_t num_trees, const std::vector<uint8_t>& answer) {
  BinaryStoppingSet set;
  set.num_trees = num_trees;
  set.answer = answer;
  set.stop.assign(answer.size(), 0);
  for (int32_t j = 0; j <= num_trees; ++j) set.stop[BinaryStoppingSet::Rank(num_trees, j)] = 1;
  return set;
}

}  // namespace internal

namespace {

using internal::AliveFractions;
using internal::Answers;
using internal::Expected;
using internal::FullVoteSet;
using internal::Induce;
using internal::Masses;
using internal::StateMasses;

Status CheckSet(const BinaryStoppingSet& set) {
  if (Status s = CheckTrees(set.num_trees); !s.ok()) return s;
  const size_t states = static_cast<size_t>(NumStates(set.num_trees));
  if (set.stop.size() != states || set.answer.size() != states) {
    return Status::Error(StatusCode::kInvalidArgument, "binary stopping set: " +
                                                           std::to_string(states) +
                                                           " states expected for N = " +
                                                           std::to_string(set.num_trees));
  }
  for (size_t r = 0; r < states; ++r) {
    if (set.stop[r] > 1 || set.answer[r] > 1) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "binary stopping set: flags and answers must be 0 or 1");
    }
  }
  if (set.stop[0] != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping set: state (0, 0) cannot stop (no vote seen)");
  }
  for (int32_t j = 0; j <= set.num_trees; ++j) {
    if (!set.stop[BinaryStoppingSet::Rank(set.num_trees, j)]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "binary stopping set: every state with all N votes must stop");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<BinaryStoppingSet> LagrangianStoppingSet(int32_t num_trees,
                                                const std::vector<double>& final_count_weights,
                                                double multiplier) {
  Result<std::vector<double>> d = Normalised(num_trees, final_count_weights);
  if (!d.ok()) return d.status();
  if (!std::isfinite(multiplier) || multiplier < 0.0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping: the multiplier must be finite and >= 0");
  }
  const StateMasses m = Masses(num_trees, d.value());
  return Induce(num_trees, m, Answers(num_trees, m), multiplier);
}

Result<BinaryStoppingStrategy> SolveMinimean(const MinimeanProblem& problem) {
  Result<std::vector<double>> d = Normalised(problem.num_trees, problem.final_count_weights);
  if (!d.ok()) return d.status();
  if (!(problem.max_disagreement >= 0.0 && problem.max_disagreement <= 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping: the disagreement target must be in [0, 1]");
  }
  const int32_t n = problem.num_trees;
  const double target = problem.max_disagreement;
  const StateMasses m = Masses(n, d.value());
  const std::vector<uint8_t> answer = Answers(n, m);

  BinaryStoppingStrategy out;
  BinaryStoppingSet cheap = Induce(n, m, answer, 0.0);
  BinaryOutcome cheap_outcome = Expected(cheap, m);
  if (cheap_outcome.disagreement <= target) {
    out.first = out.second = std::move(cheap);
    out.expected_trees = cheap_outcome.trees;
    out.expected_disagreement = cheap_outcome.disagreement;
    return out;
  }
  // Bracket the critical multiplier: lo breaks the target, hi meets it. A multiplier above
  // N / (smallest positive wrong mass) never stops where a row could disagree, so doubling ends.
  double lo = 0.0, hi = 1.0;
  BinaryStoppingSet safe = Induce(n, m, answer, hi);
  BinaryOutcome safe_outcome = Expected(safe, m);
  for (int k = 0; safe_outcome.disagreement > target && k < 1000; ++k) {
    lo = hi;
    cheap = std::move(safe);
    cheap_outcome = safe_outcome;
    hi *= 2.0;
    safe = Induce(n, m, answer, hi);
    safe_outcome = Expected(safe, m);
  }
  if (safe_outcome.disagreement > target) {
    // Wrong masses below 2^-1000 of a tree: only the full vote (stop at N) is safe.
    lo = hi;
    safe = FullVoteSet(n, answer);
    safe_outcome = Expected(safe, m);
  }
  for (int k = 0; k < 200 && hi - lo > hi * 1e-15; ++k) {
    const double mid = 0.5 * (lo + hi);
    BinaryStoppingSet set = Induce(n, m, answer, mid);
    const BinaryOutcome o = Expected(set, m);
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
  // Mix: share of `safe` so that the expected disagreement equals the target.
  const double gap = cheap_outcome.disagreement - safe_outcome.disagreement;
  const double share =
      gap > 0.0 ? std::fmin(1.0, std::fmax(0.0, (cheap_outcome.disagreement - target) / gap)) : 1.0;
  out.first = std::move(safe);
  out.second = std::move(cheap);
  out.first_share = share;
  out.expected_trees = share * safe_outcome.trees + (1.0 - share) * cheap_outcome.trees;
  out.expected_disagreement =
      share * safe_outcome.disagreement + (1.0 - share) * cheap_outcome.disagreement;
  out.multiplier = hi;
  return out;
}

Result<std::vector<BinaryOutcome>> ExactBinaryOutcomes(const BinaryStoppingSet& set) {
  if (Status s = CheckSet(set); !s.ok()) return s;
  const int32_t num_trees = set.num_trees;
  const std::vector<double> f = AliveFractions(set);
  std::vector<BinaryOutcome> out(static_cast<size_t>(num_trees) + 1);
  for (int32_t n = 0; n <= num_trees; ++n) {
    const uint8_t full = FullVoteIsOne(num_trees, n) ? 1 : 0;
    BinaryOutcome& o = out[n];
    HypergeometricLayers(num_trees, n, [&](int32_t i, const std::vector<double>& h) {
      const int64_t base = BinaryStoppingSet::Rank(i, 0);
      for (int32_t j = 0; j <= i; ++j) {
        const int64_t r = base + j;
        if (!set.stop[r] || h[j] == 0.0) continue;
        const double p = f[r] * h[j];
        o.trees += p * i;
        if (set.answer[r] != full) o.disagreement += p;
        if (set.answer[r] == 1) o.answer_one += p;
      }
    });
  }
  return out;
}

Result<BinaryOutcome> ExpectedBinaryOutcome(const BinaryStoppingSet& set,
                                            const std::vector<double>& final_count_weights) {
  if (Status s = CheckSet(set); !s.ok()) return s;
  Result<std::vector<double>> d = Normalised(set.num_trees, final_count_weights);
  if (!d.ok()) return d.status();
  return Expected(set, Masses(set.num_trees, d.value()));
}

Result<std::vector<double>> StopProbabilities(const BinaryStoppingStrategy& strategy) {
  if (Status s = CheckSet(strategy.first); !s.ok()) return s;
  if (Status s = CheckSet(strategy.second); !s.ok()) return s;
  if (strategy.first.num_trees != strategy.second.num_trees) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping strategy: its two sets have different numbers of trees");
  }
  const double share = strategy.first_share;
  if (!(share >= 0.0 && share <= 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "binary stopping strategy: first_share must be in [0, 1]");
  }
  std::vector<double> stop(strategy.first.stop.size());
  for (size_t r = 0; r < stop.size(); ++r) {
    stop[r] = share * strategy.first.stop[r] + (1.0 - share) * strategy.second.stop[r];
  }
  return stop;
}

}  // namespace urnforest
