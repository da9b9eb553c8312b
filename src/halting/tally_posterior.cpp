// The urn model's posterior over final tallies given a partial tally (urnforest/tally_posterior.h).
#include "urnforest/tally_posterior.h"

#include <cmath>
#include <limits>
#include <string>

#include "halting/tally_lattice.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

double LogChoose(int32_t n, int32_t k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

}  // namespace

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
