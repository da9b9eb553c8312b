// The urn model's posterior over final tallies given a partial tally (urnforest/tally_posterior.h).
#include "urnforest/tally_posterior.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "halting/dirichlet_urn.h"
#include "halting/tally_lattice.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

double LogChoose(int32_t n, int32_t k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

// log of the probability of drawing one particular sequence with counts t (n votes) without
// replacement from an urn of final tally s (T votes): sum_j log s_j^(t_j falling) - log T^(n
// falling); -inf when some s_j < t_j.
double LogDrawProb(const int32_t* s, const int32_t* t, int32_t l, int32_t T, int32_t n) {
  double lp = std::lgamma(T - n + 1.0) - std::lgamma(T + 1.0);
  for (int32_t j = 0; j < l; ++j) {
    if (s[j] < t[j]) return -std::numeric_limits<double>::infinity();
    lp += std::lgamma(s[j] + 1.0) - std::lgamma(s[j] - t[j] + 1.0);
  }
  return lp;
}

// Accumulates mixture parts in log space: part k has log weight lw_k and mean vector m_k.
class LogMixtureMean {
 public:
  explicit LogMixtureMean(int32_t l) : sum_(static_cast<size_t>(l), 0.0) {}
  void Add(double log_weight, const double* mean) {
    if (log_weight == -std::numeric_limits<double>::infinity()) return;
    if (log_weight > max_) {
      const double scale = std::exp(max_ - log_weight);
      total_ *= scale;
      for (double& v : sum_) v *= scale;
      max_ = log_weight;
    }
    const double w = std::exp(log_weight - max_);
    total_ += w;
    for (size_t j = 0; j < sum_.size(); ++j) sum_[j] += w * mean[j];
  }
  bool empty() const { return total_ == 0.0; }
  double mean(size_t j) const { return sum_[j] / total_; }

 private:
  std::vector<double> sum_;
  double total_ = 0.0;
  double max_ = -std::numeric_limits<double>::infinity();
};

}  // namespace

Status PosteriorMeanShares(const Prior& prior, int32_t num_trees, const int32_t* tally,
                           double* shares) {
  const int32_t l = prior.num_classes();
  if (num_trees < 1) return Status::Error(StatusCode::kInvalidArgument, "num_trees must be >= 1");
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) {
    if (tally[j] < 0) return Status::Error(StatusCode::kInvalidArgument, "a tally count is negative");
    n += tally[j];
  }
  if (n > num_trees) {
    return Status::Error(StatusCode::kInvalidArgument, "the tally has " + std::to_string(n) +
                                                           " votes, more than " +
                                                           std::to_string(num_trees) + " trees");
  }
  const double T = num_trees;
  const double left = num_trees - n;
  if (n == num_trees) {
    for (int32_t j = 0; j < l; ++j) shares[j] = tally[j] / T;
    return Status::Ok();
  }
  LogMixtureMean mix(l);
  std::vector<double> mean(static_cast<size_t>(l));
  // A Dirichlet(beta) part with log prior weight lw: weight times the sequence probability of t,
  // final means t_j + (T - n) (t_j + beta_j) / (n + B).
  auto dirichlet = [&](double lw, const double* beta) {
    double b = 0.0;
    for (int32_t j = 0; j < l; ++j) b += beta[j];
    for (int32_t j = 0; j < l; ++j) mean[j] = tally[j] + left * (tally[j] + beta[j]) / (n + b);
    mix.Add(lw + internal::DirichletSequenceLogProb(beta, tally, l), mean.data());
  };
  switch (prior.kind()) {
    case PriorKind::kUniform:
    case PriorKind::kDirichlet:
    case PriorKind::kDirichletMixture:
      for (const DirichletComponent& c : prior.components()) {
        if (c.weight > 0.0) dirichlet(std::log(c.weight), c.beta.data());
      }
      break;
    case PriorKind::kHistogram: {
      Result<TallyPosterior> post =
          FinalTallyPosterior(prior, num_trees, std::vector<int32_t>(tally, tally + l));
      if (!post.ok()) return post.status();
      const TallyPosterior& p = post.value();
      for (size_t k = 0; k < p.probability.size(); ++k) {
        if (p.probability[k] <= 0.0) continue;
        for (int32_t j = 0; j < l; ++j) mean[j] = p.tallies[k * l + j];
        mix.Add(std::log(p.probability[k]), mean.data());
      }
      break;
    }
    case PriorKind::kTallyMixture: {
      if (prior.num_trees() != num_trees) {
        return Status::Error(StatusCode::kShapeMismatch,
                             "the prior is over final tallies of " +
                                 std::to_string(prior.num_trees()) + " votes, not " +
                                 std::to_string(num_trees));
      }
      const std::vector<int32_t>& support = prior.support();
      const std::vector<double>& weights = prior.support_weights();
      for (size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0.0) continue;
        const int32_t* s = support.data() + i * static_cast<size_t>(l);
        for (int32_t j = 0; j < l; ++j) mean[j] = s[j];
        mix.Add(std::log(weights[i]) + LogDrawProb(s, tally, l, num_trees, n), mean.data());
      }
      if (prior.uniform_weight() > 0.0) {
        const std::vector<double> ones(static_cast<size_t>(l), 1.0);
        dirichlet(std::log(prior.uniform_weight()), ones.data());
      }
      break;
    }
  }
  if (mix.empty()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "no final tally reachable from the tally has prior mass");
  }
  double total = 0.0;
  for (int32_t j = 0; j < l; ++j) total += shares[j] = mix.mean(static_cast<size_t>(j)) / T;
  for (int32_t j = 0; j < l; ++j) shares[j] /= total;  // 1 up to rounding; exactly 1 after
  return Status::Ok();
}

Result<TallyPosterior> FinalTallyPosterior(const Prior& prior, int32_t num_trees,
                                           const std::vector<int32_t>& tally) {
  const int32_t l = prior.num_classes();
  if (tally.size() != static_cast<size_t>(l)) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the tally must have the prior's " + std::to_string(l) + " classes");
  }
  int64_t seen = 0;
  for (int32_t v : tally) {
    if (v < 0) return Status::Error(StatusCode::kInvalidArgument, "a tally count is negative");
    seen += v;
  }
  if (num_trees >= 1 && seen > num_trees) {
    return Status::Error(StatusCode::kInvalidArgument, "the tally has " + std::to_string(seen) +
                                                           " votes, more than " +
                                                           std::to_string(num_trees) + " trees");
  }
  Result<std::vector<double>> mass = FinalTallyMass(prior, num_trees);
  if (!mass.ok()) return mass.status();
  const internal::Compositions ranks(num_trees, l);
  TallyPosterior out;
  out.num_classes = l;
  out.num_trees = num_trees;
  // Final tallies t + r over the compositions r of the votes left, first class outermost.
  std::vector<int32_t> final_tally(tally);
  std::vector<double> log_p;
  double max_log = -std::numeric_limits<double>::infinity();
  auto visit = [&](auto&& self, int32_t i, int32_t left) -> void {
    if (i == l - 1) {
      final_tally[i] = tally[i] + left;
      const double m = mass.value()[static_cast<size_t>(ranks.Rank(final_tally.data()))];
      double lp = m > 0.0 ? std::log(m) : -std::numeric_limits<double>::infinity();
      for (int32_t j = 0; j < l; ++j) lp += LogChoose(final_tally[j], tally[j]);
      out.tallies.insert(out.tallies.end(), final_tally.begin(), final_tally.end());
      log_p.push_back(lp);
      if (lp > max_log) max_log = lp;
      return;
    }
    for (int32_t v = 0; v <= left; ++v) {
      final_tally[i] = tally[i] + v;
      self(self, i + 1, left - v);
    }
  };
  visit(visit, 0, num_trees - static_cast<int32_t>(seen));
  if (max_log == -std::numeric_limits<double>::infinity()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "no final tally reachable from the tally has prior mass");
  }
  double total = 0.0;
  out.probability.resize(log_p.size());
  for (size_t k = 0; k < log_p.size(); ++k) {
    out.probability[k] = std::exp(log_p[k] - max_log);
    total += out.probability[k];
  }
  for (double& p : out.probability) p /= total;
  out.leader = StrictLeader(tally);
  out.win.assign(static_cast<size_t>(l), 0.0);
  for (size_t k = 0; k < out.probability.size(); ++k) {
    const int32_t winner = StrictLeader(out.tallies.data() + k * l, static_cast<size_t>(l));
    if (winner >= 0) out.win[static_cast<size_t>(winner)] += out.probability[k];
  }
  return out;
}

}  // namespace urnforest
