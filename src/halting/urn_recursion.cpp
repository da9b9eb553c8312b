// Backward recursion over vote tallies, level by level (see urn_recursion.h).
#include "halting/urn_recursion.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "halting/tally_lattice.h"

namespace urnforest::internal {

Status BackwardSweep(const Prior& prior, int32_t T, int32_t width, const TerminalFn& terminal,
                     const VisitFn& visit, const LevelFn& level_done) {
  const int32_t l = prior.num_classes();
  if (l > 4 && prior.kind() != PriorKind::kUniform && prior.kind() != PriorKind::kDirichlet &&
      prior.kind() != PriorKind::kDirichletMixture)
    return Status::Error(StatusCode::kLimitExceeded, "recursion over tallies needs l <= 4");
  if (l > 4) return Status::Error(StatusCode::kLimitExceeded, "recursion over tallies needs l <= 4");
  const bool histogram = prior.kind() == PriorKind::kHistogram;
  if (histogram && prior.num_trees() != T)
    return Status::Error(StatusCode::kShapeMismatch,
                         "histogram prior is for T = " + std::to_string(prior.num_trees()) +
                             ", table asked for T = " + std::to_string(T));
  Compositions comp(T, l);
  const auto& comps = prior.components();
  const size_t K = comps.size();
  // Mixture: log rising factorials lp[(i * l + j) * (T + 1) + m] = log (beta_ij)_m.
  std::vector<double> lp, lps;
  std::vector<double> beta_sum(K, 0.0);
  for (size_t i = 0; i < K; ++i)
    for (int32_t j = 0; j < l; ++j) beta_sum[i] += comps[i].beta[j];
  if (K > 1) {
    lp.assign(K * l * (T + 1), 0.0);
    lps.assign(K * (T + 1), 0.0);
    for (size_t i = 0; i < K; ++i) {
      for (int32_t j = 0; j < l; ++j) {
        double* row = &lp[(i * l + j) * (T + 1)];
        for (int32_t m = 1; m <= T; ++m) row[m] = row[m - 1] + std::log(comps[i].beta[j] + m - 1);
      }
      double* row = &lps[i * (T + 1)];
      for (int32_t m = 1; m <= T; ++m) row[m] = row[m - 1] + std::log(beta_sum[i] + m - 1);
    }
  }

  std::vector<double> next_val, cur_val, next_q, cur_q;
  std::vector<double> pi(l), logw(K), val(width);
  std::vector<int64_t> child(l);
  try {
    // Level T.
    cur_val.assign(static_cast<size_t>(comp.Count(T)) * width, 0.0);
    if (histogram) {
      cur_q.assign(comp.Count(T), 0.0);
      const std::vector<double>& mass = prior.histogram();
      double max_log = -INFINITY;
      std::vector<double> logq(comp.Count(T), -INFINITY);
      const double lt = std::lgamma(T + 1.0);
      comp.ForEach(T, [&](const int32_t* t) {
        int64_t r = comp.Rank(t);
        if (mass[r] > 0.0) {
          double lq = std::log(mass[r]) - lt;
          for (int32_t j = 0; j < l; ++j) lq += std::lgamma(t[j] + 1.0);
          logq[r] = lq;
          max_log = std::max(max_log, lq);
        }
      });
      for (size_t r = 0; r < logq.size(); ++r) cur_q[r] = std::exp(logq[r] - max_log);
    }
    comp.ForEach(T, [&](const int32_t* t) {
      int64_t r = comp.Rank(t);
      double* v = &cur_val[r * width];
      terminal(t, v);
      visit(T, t, nullptr, true, v);
    });
    if (level_done && !level_done(T)) return Status::Error(StatusCode::kInvalidArgument, "cancelled");
    for (int32_t n = T - 1; n >= 0; --n) {
      next_val.swap(cur_val);
      next_q.swap(cur_q);
      cur_val.assign(static_cast<size_t>(comp.Count(n)) * width, 0.0);
      if (histogram) cur_q.assign(comp.Count(n), 0.0);
      double qmax = 0.0;
      comp.ForEach(n, [&](const int32_t* t) {
        int64_t r = comp.Rank(t);
        for (int32_t j = 0; j < l; ++j) child[j] = comp.RankPlusOne(t, j);
        bool ok = true;
        if (histogram) {
          double q = 0.0;
          for (int32_t j = 0; j < l; ++j) q += next_q[child[j]];
          cur_q[r] = q;
          qmax = std::max(qmax, q);
          if (q > 0.0) {
            for (int32_t j = 0; j < l; ++j) pi[j] = next_q[child[j]] / q;
          } else {
            ok = false;
            std::fill(pi.begin(), pi.end(), 0.0);
          }
        } else if (K == 1) {
          const std::vector<double>& b = comps[0].beta;
          double denom = n + beta_sum[0];
          for (int32_t j = 0; j < l; ++j) pi[j] = (t[j] + b[j]) / denom;
        } else {
          double mx = -INFINITY;
          for (size_t i = 0; i < K; ++i) {
            double lw = std::log(comps[i].weight) - lps[i * (T + 1) + n];
            for (int32_t j = 0; j < l; ++j) lw += lp[(i * l + j) * (T + 1) + t[j]];
            logw[i] = lw;
            mx = std::max(mx, lw);
          }
          double wsum = 0.0;
          std::fill(pi.begin(), pi.end(), 0.0);
          for (size_t i = 0; i < K; ++i) {
            double w = std::exp(logw[i] - mx);
            wsum += w;
            double denom = n + beta_sum[i];
            for (int32_t j = 0; j < l; ++j) pi[j] += w * (t[j] + comps[i].beta[j]) / denom;
          }
          for (int32_t j = 0; j < l; ++j) pi[j] /= wsum;
        }
        double* v = &cur_val[r * width];
        if (ok) {
          for (int32_t j = 0; j < l; ++j) {
            if (pi[j] == 0.0) continue;
            const double* c = &next_val[child[j] * width];
            for (int32_t w = 0; w < width; ++w) v[w] += pi[j] * c[w];
          }
        }
        visit(n, t, pi.data(), ok, v);
      });
      if (histogram && qmax > 0.0)
        for (double& q : cur_q) q /= qmax;
      if (level_done && !level_done(n)) return Status::Error(StatusCode::kInvalidArgument, "cancelled");
    }
  } catch (const std::bad_alloc&) {
    return Status::Error(StatusCode::kOutOfMemory, "halting recursion ran out of memory");
  }
  return Status::Ok();
}

}  // namespace urnforest::internal
