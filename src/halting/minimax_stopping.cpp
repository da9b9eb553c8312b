// [KM26]'s minimax stopping for two classes by a multiplicative dual search over per-count
// multipliers: see urnforest/minimax_stopping.h.
#include "urnforest/minimax_stopping.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace urnforest {
namespace {

// Dual steps: the multiplier of a count n moves by a factor of (dis_n + slack) / target, clamped
// to [1 / bound, bound]; the bound shrinks through the phases so the search settles.
constexpr int kPhases = 3;
constexpr int kStepsPerPhase = 120;
constexpr double kBounds[kPhases] = {2.0, 1.25, 1.05};

int64_t Rank(int32_t i, int32_t j) { return BinaryStoppingSet::Rank(i, j); }

// h[n * states + rank]: the probability of state (i, j) among the first i of N draws, final count n.
std::vector<double> Hypergeometric(int32_t num_trees) {
  const size_t states = static_cast<size_t>(Rank(num_trees + 1, 0));
  std::vector<double> h(static_cast<size_t>(num_trees + 1) * states, 0.0);
  for (int32_t n = 0; n <= num_trees; ++n) {
    double* out = h.data() + static_cast<size_t>(n) * states;
    out[0] = 1.0;
    for (int32_t i = 0; i < num_trees; ++i) {
      const double left = static_cast<double>(num_trees - i);
      for (int32_t j = 0; j <= i; ++j) {
        const double p = out[Rank(i, j)];
        if (p == 0.0) continue;
        const double ones_left = static_cast<double>(n - j);
        const double zeros_left = static_cast<double>(num_trees - n - (i - j));
        if (zeros_left > 0) out[Rank(i + 1, j)] += p * zeros_left / left;
        if (ones_left > 0) out[Rank(i + 1, j + 1)] += p * ones_left / left;
      }
    }
  }
  return h;
}

// Backward induction on stop cost i A + W (W = +infinity forbids stopping).
void Induce(int32_t num_trees, const std::vector<double>& a, const std::vector<double>& w, BinaryStoppingSet* set) {
  std::vector<double> g(static_cast<size_t>(num_trees) + 1), above;
  for (int32_t i = num_trees; i >= 0; --i) {
    above.swap(g);
    g.assign(static_cast<size_t>(i) + 1, 0.0);
    for (int32_t j = 0; j <= i; ++j) {
      const size_t r = static_cast<size_t>(Rank(i, j));
      const double stop_cost = i == num_trees ? i * a[r] : i * a[r] + w[r];
      if (i == num_trees) {
        set->stop[r] = 1;
        g[static_cast<size_t>(j)] = stop_cost;
        continue;
      }
      const double go = (above[static_cast<size_t>(j)] * (i + 1 - j) + above[static_cast<size_t>(j) + 1] * (j + 1)) / (i + 1);
      const bool stop = i > 0 && stop_cost <= go;
      set->stop[r] = stop ? 1 : 0;
      g[static_cast<size_t>(j)] = stop ? stop_cost : go;
    }
  }
}

std::vector<double> Alive(const BinaryStoppingSet& set) {
  const int32_t n = set.num_trees;
  std::vector<double> f(set.stop.size(), 0.0);
  f[0] = 1.0;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j <= i; ++j) {
      const size_t r = static_cast<size_t>(Rank(i, j));
      if (set.stop[r] || f[r] == 0.0) continue;
      f[static_cast<size_t>(Rank(i + 1, j))] += f[r] * (i + 1 - j) / (i + 1);
      f[static_cast<size_t>(Rank(i + 1, j + 1))] += f[r] * (j + 1) / (i + 1);
    }
  }
  return f;
}

struct Figures {
  double trees = 0.0;
  std::vector<double> disagreement;  // per n
};

Figures Evaluate(const BinaryStoppingSet& set, const std::vector<double>& h, const std::vector<double>& a) {
  const int32_t n_trees = set.num_trees;
  const size_t states = set.stop.size();
  const std::vector<double> f = Alive(set);
  Figures out;
  out.disagreement.assign(static_cast<size_t>(n_trees) + 1, 0.0);
  for (int32_t i = 0; i <= n_trees; ++i) {
    for (int32_t j = 0; j <= i; ++j) {
      const size_t r = static_cast<size_t>(Rank(i, j));
      if (!set.stop[r] || f[r] == 0.0) continue;
      out.trees += f[r] * i * a[r];
      for (int32_t n = 0; n <= n_trees; ++n) {
        if (set.answer[r] != (2 * n > n_trees ? 1 : 0)) out.disagreement[static_cast<size_t>(n)] += f[r] * h[static_cast<size_t>(n) * states + r];
      }
    }
  }
  return out;
}

}  // namespace

Result<MinimaxStrategy> SolveMinimax(const MinimaxProblem& problem) {
  if (!(problem.max_disagreement >= 0.0 && problem.max_disagreement <= 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "binary stopping: the disagreement target must be in [0, 1]");
  }
  if (problem.num_trees > kMaxMinimaxTrees) {
    return Status::Error(StatusCode::kLimitExceeded, "minimax stopping: at most " + std::to_string(kMaxMinimaxTrees) +
                                                         " trees, got " + std::to_string(problem.num_trees));
  }
  // Validates N and the weights and gives the answers (the leader; a tie by the weights).
  Result<BinaryStoppingSet> base = LagrangianStoppingSet(problem.num_trees, problem.final_count_weights, 0.0);
  if (!base.ok()) return base.status();
  const int32_t nt = problem.num_trees;
  const double target = problem.max_disagreement;
  double total = 0.0;
  for (double w : problem.final_count_weights) total += w;
  const std::vector<double> h = Hypergeometric(nt);
  const size_t states = base.value().stop.size();
  std::vector<double> a(states, 0.0);
  for (int32_t n = 0; n <= nt; ++n) {
    const double d = problem.final_count_weights[static_cast<size_t>(n)] / total;
    if (d == 0.0) continue;
    for (size_t r = 0; r < states; ++r) a[r] += d * h[static_cast<size_t>(n) * states + r];
  }
  BinaryStoppingSet set = base.value();
  auto wrong_mass = [&](const std::vector<double>& lambda, std::vector<double>* w) {
    w->assign(states, 0.0);
    for (int32_t i = 0; i <= nt; ++i) {
      for (int32_t j = 0; j <= i; ++j) {
        const size_t r = static_cast<size_t>(Rank(i, j));
        for (int32_t n = 0; n <= nt; ++n) {
          if (set.answer[r] == (2 * n > nt ? 1 : 0)) continue;
          const double p = h[static_cast<size_t>(n) * states + r];
          if (p == 0.0) continue;
          (*w)[r] = lambda.empty() ? std::numeric_limits<double>::infinity()
                                   : (*w)[r] + lambda[static_cast<size_t>(n)] * p;
        }
      }
    }
  };
  MinimaxStrategy best;
  std::vector<double> w;
  // The safest set: never stop where any count could disagree (the bound 0 is met exactly).
  wrong_mass({}, &w);
  Induce(nt, a, w, &set);
  Figures figures = Evaluate(set, h, a);
  best.set = set;
  best.expected_trees = figures.trees;
  auto keep_if_better = [&](const Figures& fig) {
    const auto worst = std::max_element(fig.disagreement.begin(), fig.disagreement.end());
    if (*worst <= target && fig.trees < best.expected_trees) {
      best.set = set;
      best.expected_trees = fig.trees;
    }
  };
  if (target > 0.0) {
    // Start from minimean's per-count weight mu D(n), every count weighing at least a little.
    MinimeanProblem mean;
    mean.num_trees = nt;
    mean.final_count_weights = problem.final_count_weights;
    mean.max_disagreement = target;
    Result<BinaryStoppingStrategy> mm = SolveMinimean(mean);
    if (!mm.ok()) return mm.status();
    const double mu = mm.value().multiplier > 0.0 ? mm.value().multiplier : static_cast<double>(nt) / target;
    std::vector<double> lambda(static_cast<size_t>(nt) + 1);
    for (int32_t n = 0; n <= nt; ++n) {
      lambda[static_cast<size_t>(n)] = mu * (problem.final_count_weights[static_cast<size_t>(n)] / total + 1.0 / (nt + 1));
    }
    for (int phase = 0; phase < kPhases; ++phase) {
      for (int step = 0; step < kStepsPerPhase; ++step) {
        wrong_mass(lambda, &w);
        Induce(nt, a, w, &set);
        figures = Evaluate(set, h, a);
        keep_if_better(figures);
        for (size_t n = 0; n < lambda.size(); ++n) {
          const double factor = (figures.disagreement[n] + 0.05 * target) / target;
          lambda[n] *= std::min(kBounds[phase], std::max(1.0 / kBounds[phase], factor));
        }
      }
    }
  }
  figures = Evaluate(best.set, h, a);
  const auto worst = std::max_element(figures.disagreement.begin(), figures.disagreement.end());
  best.worst_disagreement = *worst;
  best.worst_count = static_cast<int32_t>(worst - figures.disagreement.begin());
  best.expected_trees = figures.trees;
  return best;
}

}  // namespace urnforest
