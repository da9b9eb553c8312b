// DeconvolvedPriorFromOob: the distribution of a row's vote probabilities p, estimated from its
// out-of-bag tally by a non-parametric maximum-likelihood (NPMLE) mixture on a grid of the simplex,
// then mapped to final tallies of T votes (see prior.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "halting/tally_lattice.h"
#include "urnforest/prior.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

// Default grid resolution G (grid points p = k / G): about 1,300-1,800 points for l = 3 and 4.
int32_t DefaultResolution(int32_t l) {
  switch (l) {
    case 2: return 200;
    case 3: return 50;
    default: return 20;
  }
}

}  // namespace

Result<std::vector<double>> DeconvolvedGridWeights(const std::vector<uint32_t>& oob_votes,
                                                   int32_t num_classes, int32_t resolution,
                                                   int32_t iterations) {
  const int32_t l = num_classes;
  if (l < 2 || l > 4) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "the deconvolved prior supports 2 to 4 classes, got " + std::to_string(l));
  }
  if (oob_votes.size() % static_cast<size_t>(l) != 0) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "oob_votes has " + std::to_string(oob_votes.size()) +
                             " entries, not a multiple of num_classes " + std::to_string(l));
  }
  if (resolution < 1 || resolution > 1000) return Invalid("resolution must be in [1, 1000]");
  if (iterations < 1) return Invalid("iterations must be >= 1");
  // Identical OOB tallies share one likelihood row (easy problems have few distinct tallies).
  std::map<std::vector<uint32_t>, double> distinct;
  for (size_t r = 0; r * l < oob_votes.size(); ++r) {
    std::vector<uint32_t> v(oob_votes.begin() + r * l, oob_votes.begin() + (r + 1) * l);
    uint64_t total = 0;
    for (uint32_t c : v) total += c;
    if (total > 0) distinct[v] += 1.0;
  }
  if (distinct.empty()) return Invalid("no training row has out-of-bag votes");
  internal::Compositions grid(resolution, l);
  const size_t K = static_cast<size_t>(grid.Count(resolution));
  std::vector<double> log_p(K * l);
  grid.ForEach(resolution, [&](const int32_t* k) {
    const size_t g = static_cast<size_t>(grid.Rank(k));
    for (int32_t c = 0; c < l; ++c)
      log_p[g * l + c] = k[c] == 0 ? -INFINITY : std::log(static_cast<double>(k[c]) / resolution);
  });
  // Likelihood of every distinct tally under every grid point, scaled by its row maximum
  // (multinomial coefficients cancel in the EM update).
  const size_t R = distinct.size();
  std::vector<double> lik(R * K), count(R);
  size_t r = 0;
  for (const auto& [v, n] : distinct) {
    count[r] = n;
    double* row = &lik[r * K];
    double best = -INFINITY;
    for (size_t g = 0; g < K; ++g) {
      double s = 0.0;
      for (int32_t c = 0; c < l && s != -INFINITY; ++c)
        if (v[c] > 0) s += v[c] * log_p[g * l + c];
      row[g] = s;
      best = std::max(best, s);
    }
    for (size_t g = 0; g < K; ++g) row[g] = row[g] == -INFINITY ? 0.0 : std::exp(row[g] - best);
    ++r;
  }
  double rows = 0.0;
  for (double n : count) rows += n;
  // EM for the mixing weights, started from the uniform distribution over the grid.
  std::vector<double> w(K, 1.0 / K), next(K);
  for (int32_t it = 0; it < iterations; ++it) {
    std::fill(next.begin(), next.end(), 0.0);
    for (size_t i = 0; i < R; ++i) {
      const double* row = &lik[i * K];
      double d = 0.0;
      for (size_t g = 0; g < K; ++g) d += w[g] * row[g];
      const double f = count[i] / (d * rows);
      for (size_t g = 0; g < K; ++g) next[g] += f * row[g];
    }
    for (size_t g = 0; g < K; ++g) w[g] *= next[g];
  }
  return w;
}

Result<Prior> DeconvolvedPriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                      int32_t num_trees, const PriorFitOptions& options) {
  const int32_t l = num_classes;
  if (num_trees < 1) return Invalid("num_trees must be >= 1");
  if (!(options.uniform_mix >= 0.0 && options.uniform_mix <= 1.0))
    return Invalid("uniform_mix must be in [0, 1]");
  const int32_t G = options.deconvolution_resolution > 0 ? options.deconvolution_resolution
                                                         : DefaultResolution(l);
  Result<std::vector<double>> w =
      DeconvolvedGridWeights(oob_votes, l, G, options.deconvolution_iterations);
  if (!w.ok()) return w.status();
  const int32_t T = num_trees;
  internal::Compositions grid(G, l);
  internal::Compositions tallies(T, l);
  // log(T! / prod t_c!) of every final tally, by rank.
  std::vector<double> log_coef(tallies.Count(T));
  std::vector<int32_t> final_of(log_coef.size() * l);
  const double log_tfact = std::lgamma(T + 1.0);
  tallies.ForEach(T, [&](const int32_t* t) {
    const size_t rank = static_cast<size_t>(tallies.Rank(t));
    double s = log_tfact;
    for (int32_t c = 0; c < l; ++c) {
      s -= std::lgamma(t[c] + 1.0);
      final_of[rank * l + c] = t[c];
    }
    log_coef[rank] = s;
  });
  std::vector<double> mass(log_coef.size(), 0.0);
  double w_max = 0.0;
  for (double x : w.value()) w_max = std::max(w_max, x);
  std::vector<double> log_p(l);
  grid.ForEach(G, [&](const int32_t* k) {
    const double wk = w.value()[grid.Rank(k)];
    if (!(wk > 1e-12 * w_max)) return;  // negligible components
    for (int32_t c = 0; c < l; ++c)
      log_p[c] = k[c] == 0 ? -INFINITY : std::log(static_cast<double>(k[c]) / G);
    for (size_t rank = 0; rank < mass.size(); ++rank) {
      const int32_t* t = &final_of[rank * l];
      double s = log_coef[rank];
      bool possible = true;
      for (int32_t c = 0; c < l; ++c) {
        if (t[c] == 0) continue;
        if (k[c] == 0) {
          possible = false;
          break;
        }
        s += t[c] * log_p[c];
      }
      if (possible) mass[rank] += wk * std::exp(s);
    }
  });
  double total = 0.0;
  for (double m : mass) total += m;
  if (!(total > 0.0)) return Status::Error(StatusCode::kInternal, "deconvolved prior has no mass");
  const double uniform = 1.0 / static_cast<double>(mass.size());
  for (double& m : mass) m = (1.0 - options.uniform_mix) * (m / total) + options.uniform_mix * uniform;
  return Prior::Histogram(l, T, std::move(mass));
}

}  // namespace urnforest
