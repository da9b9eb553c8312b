// The finite-T agreement probability of one tally under a Dirichlet prior (see dirichlet_urn.h).
#include "halting/dirichlet_urn.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "halting/tracked_probability.h"

namespace urnforest::internal {

double DirichletExactCost(int32_t num_classes, int32_t remaining) {
  const double m = remaining + 1.0;
  return (num_classes - 1.0) * m * m * m / 6.0 + m;
}

double DirichletLoseExact(const double* a, const int32_t* t, int32_t l, int32_t k, int32_t m) {
  if (m == 0) {
    for (int32_t j = 0; j < l; ++j)
      if (j != k && t[j] >= t[k]) return 1.0;
    return 0.0;
  }
  double A = 0.0;
  for (int32_t j = 0; j < l; ++j) A += a[j];
  const double q = m / (m + A);
  const double log_p = std::log1p(-q);
  // pmf[j][r] = NB(a_j, q)(r), r = 0..m
  std::vector<std::vector<double>> pmf(l);
  for (int32_t j = 0; j < l; ++j) {
    std::vector<double>& p = pmf[j];
    p.resize(static_cast<size_t>(m) + 1);
    p[0] = std::exp(a[j] * log_p);
    if (!(p[0] > 0.0)) return std::nan("");
    for (int32_t r = 0; r < m; ++r) p[r + 1] = p[r] * (a[j] + r) / (r + 1) * q;
  }
  const double total = std::exp(std::lgamma(A + m) - std::lgamma(A) - std::lgamma(m + 1.0) +
                                A * log_p + m * std::log(q));
  if (!(total > 0.0)) return std::nan("");
  std::vector<double> poly, next;
  double win = 0.0;
  for (int32_t rk = 0; rk <= m; ++rk) {
    const int32_t rest = m - rk;
    const int32_t top = t[k] + rk;
    bool possible = true;
    poly.assign(static_cast<size_t>(rest) + 1, 0.0);
    poly[0] = 1.0;
    int32_t degree = 0;  // highest nonzero power of poly so far
    for (int32_t j = 0; j < l && possible; ++j) {
      if (j == k) continue;
      const int32_t cap = std::min(top - t[j] - 1, rest);
      if (cap < 0) {
        possible = false;
        break;
      }
      const int32_t new_degree = std::min(rest, degree + cap);
      next.assign(static_cast<size_t>(new_degree) + 1, 0.0);
      const double* pj = pmf[j].data();
      for (int32_t x = 0; x <= degree; ++x) {
        const double v = poly[x];
        if (v == 0.0) continue;
        const int32_t up = std::min(cap, new_degree - x);
        double* out = next.data() + x;
        for (int32_t r = 0; r <= up; ++r) out[r] += v * pj[r];
      }
      poly.swap(next);
      degree = new_degree;
    }
    if (!possible || degree < rest) continue;
    win += pmf[k][rk] * poly[rest];
  }
  const double p_star = std::min(1.0, win / total);
  return std::max(0.0, 1.0 - p_star);
}

double DirichletPairLose(double a_k, double a_j, double a_rest, int32_t lead, int32_t m) {
  if (lead <= 0) return 1.0;
  if (m < lead) return 0.0;  // even m votes for j cannot reach a tie
  const double a2 = a_k + a_j;
  // g[s] = P(X_s >= h(s)), X_s the j-count after s draws of the Polya urn (a_j, a_k),
  // h(s) = ceil((s + lead) / 2); cur = P(X_s = h(s) - 1), carried by the pmf's ratios.
  std::vector<double> g(static_cast<size_t>(m) + 1, 0.0);
  double tail = 0.0;  // P(X_0 >= h(0)) = 0 since h(0) >= 1
  TrackedProbability cur;
  bool started = false;
  for (int32_t s = 0; s < m; ++s) {
    const int32_t x = (s + lead + 1) / 2 - 1;
    if (x > s) continue;
    if (!started) {
      // log C(s, x) + log (a_j)^(x) + log (a_k)^(s - x) - log (a2)^(s), rising factorials.
      cur.Set(LogRising(s - x + 1.0, x) - LogRising(1.0, x) + LogRising(a_j, x) +
              LogRising(a_k, s - x) - LogRising(a2, s));
      started = true;
    }
    // P(X_{s+1} >= h) = P(X_s >= h) + P(X_s = h - 1) (a_j + h - 1) / (a_j + a_k + s)
    tail += cur.UpperBound() * (a_j + x) / (a2 + s);
    cur.Mul((s + 1.0) / (s + 1.0 - x) * (a_k + s - x) / (a2 + s));  // P(X_{s+1} = x)
    if ((s + 1 + lead + 1) / 2 - 1 > x) {                            // h grows by one
      cur.Mul((s + 1.0 - x) / (x + 1.0) * (a_j + x) / (a_k + s - x));  // P(X_{s+1} = x + 1)
      tail -= cur.Value();
    }
    tail = std::min(1.0, std::max(0.0, tail));
    g[s + 1] = tail;
  }
  if (a_rest <= 0.0) return g[m];
  // sum over s of P(S = s) g[s], S = R_k + R_j ~ BetaBinomial(m; a_k + a_j, a_rest).
  TrackedProbability ps;
  ps.Set(LogRising(m - lead + 1.0, lead) - LogRising(1.0, lead) + LogRising(a2, lead) +
         LogRising(a_rest, m - lead) - LogRising(a2 + a_rest, m));
  double sum = 0.0;
  for (int32_t s = lead; s <= m; ++s) {
    sum += ps.UpperBound() * g[s];
    if (s < m) ps.Mul((m - s) / (s + 1.0) * (a2 + s) / (a_rest + m - s - 1.0));
  }
  return std::min(1.0, std::max(0.0, sum));
}

double DirichletPairLoseApprox(double a_k, double a_j, double a_rest, int32_t lead, int32_t m) {
  if (lead <= 0) return 1.0;
  if (m < lead) return 0.0;
  const double A = a_k + a_j + a_rest;
  const double pk = a_k / A, pj = a_j / A;
  const double f = m * (A + m) / (A + 1.0);
  const double mean = m * (pj - pk) - lead;  // E[(t_j + R_j) - (t_k + R_k)]
  const double var = f * (pj * (1 - pj) + pk * (1 - pk) + 2 * pj * pk);
  if (!(var > 0.0)) return mean >= 0.0 ? 1.0 : 0.0;
  // P(D >= 0) = P(D > -0.5)
  return 0.5 * std::erfc((-0.5 - mean) / std::sqrt(2.0 * var));
}

double DirichletSequenceLogProb(const double* beta, const int32_t* t, int32_t l) {
  double b = 0.0, out = 0.0;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) {
    b += beta[j];
    n += t[j];
    if (t[j] > 0) out += LogRising(beta[j], t[j]);
  }
  return out - LogRising(b, n);
}

double LogRising(double x, int32_t n) {
  if (n > 24 || x > 1e12) return std::lgamma(x + n) - std::lgamma(x);
  // One log of the product instead of two lgamma calls (the product of at most 24 factors of at
  // most x + 23 stays far inside double range for x below 1e12).
  double product = 1.0;
  for (int32_t i = 0; i < n; ++i) product *= x + i;
  return std::log(product);
}

}  // namespace urnforest::internal
