// Rival-catches-leader probabilities for i.i.d. votes with known class probabilities (see
// multinomial_race.h).
#include "halting/multinomial_race.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace urnforest::internal {
namespace {

// Below this a tracked probability is recomputed from logs instead of updated by ratios.
constexpr double kTiny = 1e-280;

}  // namespace

double MultinomialPairChernoff(double p_k, double p_j, int32_t lead, int32_t m) {
  if (lead <= 0) return 1.0;
  if (m < lead) return 0.0;
  if (p_j <= 0.0) return 0.0;
  const double r = std::max(0.0, 1.0 - p_j - p_k);
  const double L = lead;
  if (m == lead) return std::min(1.0, std::pow(p_j, m));  // every vote to come must go to j
  // Stationary point of log f(z): (m - L) p_j z^2 - L r z - (m + L) p_k = 0.
  const double a = (m - L) * p_j;
  const double z = (L * r + std::sqrt(L * L * r * r + 4.0 * a * (m + L) * p_k)) / (2.0 * a);
  if (!(z > 1.0)) return 1.0;  // the drift already reaches the lead: no bound below 1
  const double log_f = -L * std::log(z) + m * std::log(p_j * z + p_k / z + r);
  return std::min(1.0, std::exp(log_f));
}

double MultinomialPairLose(double p_k, double p_j, int32_t lead, int32_t m,
                           const double* log_factorial) {
  if (lead <= 0) return 1.0;
  if (m < lead || p_j <= 0.0) return 0.0;
  const double pair = std::min(1.0, p_k + p_j);
  const double q = p_j / (p_k + p_j);
  if (q >= 1.0) {  // the leader gets no vote: j catches up iff at least `lead` of m go to j or k
    double tail = 0.0, log_pmf;
    for (int32_t s = lead; s <= m; ++s) {
      log_pmf = std::lgamma(m + 1.0) - std::lgamma(s + 1.0) - std::lgamma(m - s + 1.0) +
                s * std::log(pair) + (pair < 1.0 ? (m - s) * std::log1p(-pair) : (m == s ? 0.0 : -INFINITY));
      tail += std::exp(log_pmf);
    }
    return std::min(1.0, tail);
  }
  const double log_q = std::log(q), log_1q = std::log1p(-q);
  const double odds = q / (1.0 - q);
  std::vector<double> own;
  if (log_factorial == nullptr) {
    own.assign(static_cast<size_t>(m) + 1, 0.0);
    for (int32_t i = 1; i <= m; ++i) own[i] = own[i - 1] + std::log(static_cast<double>(i));
    log_factorial = own.data();
  }
  const double* lf = log_factorial;
  auto log_pmf_x = [&](int32_t s, int32_t x) {
    return lf[s] - lf[x] - lf[s - x] + x * log_q + (s - x) * log_1q;
  };
  // g[s] = P(X_s >= h(s)), X_s ~ Bin(s, q), h(s) = ceil((s + lead) / 2). cur = P(X_s = h(s) - 1),
  // carried from s to s + 1 by ratios.
  std::vector<double> g(static_cast<size_t>(m) + 1, 0.0);
  double tail = 0.0;
  double cur = 0.0;
  bool valid = false;  // cur holds P(X_s = h(s) - 1) with 0 <= h(s) - 1 <= s
  for (int32_t s = 0; s < m; ++s) {
    const int32_t x = (s + lead + 1) / 2 - 1;
    if (x > s) continue;  // tail and g stay 0
    if (!valid || cur < kTiny) {
      cur = std::exp(log_pmf_x(s, x));
      valid = true;
      // Two steps later (x + 1 at s + 2) the probability is multiplied by R(s) q (1 - q),
      // R(s) = (s + 1)(s + 2) / ((s + 1 - x)(x + 1)); along the boundary R tends to 4 and never
      // exceeds max(R(s), R(s + 1), 4) afterwards (checked for leads < 400 and s < 8000). Once that
      // factor r2 < 1, what the tail can still gain is below q (cur + next) / (1 - r2).
      auto r_of = [&](int32_t u) {
        const int32_t y = (u + lead + 1) / 2 - 1;
        return (u + 1.0) * (u + 2.0) / ((u + 1.0 - y) * (y + 1.0));
      };
      const double r2 = std::max({r_of(s), r_of(s + 1), 4.0}) * q * (1.0 - q);
      if (cur < kTiny && r2 < 0.9) {
        const double step = (s + 1.0) / (s + 1.0 - x) * (1.0 - q) *
                            std::max(1.0, (s + 1.0 - x) / (x + 1.0) * odds);
        const double rest = std::min(1.0, tail + q * cur * (1.0 + step) / (1.0 - r2) + kTiny);
        for (int32_t u = s + 1; u <= m; ++u) g[u] = rest;
        break;
      }
    }
    tail += cur * q;  // P(X_{s+1} >= h) = P(X_s >= h) + P(X_s = h - 1) q
    double next = cur * (s + 1.0) / (s + 1.0 - x) * (1.0 - q);  // P(X_{s+1} = x)
    if ((s + 1 + lead + 1) / 2 - 1 > x) {                       // h grows by one
      next *= (s + 1.0 - x) / (x + 1.0) * odds;                 // P(X_{s+1} = x + 1)
      tail -= next;
    }
    cur = next;
    tail = std::min(1.0, std::max(0.0, tail));
    g[s + 1] = tail;
  }
  if (pair >= 1.0) return g[m];
  // sum over s of P(S = s) g[s], S ~ Bin(m, pair); P(S = s) carried by ratios.
  const double log_p = std::log(pair), log_1p = std::log1p(-pair);
  const double s_odds = pair / (1.0 - pair);
  double sum = 0.0, ps = 0.0;
  bool have = false;
  for (int32_t s = lead; s <= m; ++s) {
    if (!have || ps < kTiny) {
      ps = std::exp(lf[m] - lf[s] - lf[m - s] + s * log_p + (m - s) * log_1p);
      have = true;
      // Past the mode the binomial decreases geometrically: what is left is below ps / (1 - ratio).
      const double ratio = (m - s) / (s + 1.0) * s_odds;
      if (ps < kTiny && ratio < 0.5) {
        sum += 2.0 * ps;
        break;
      }
    }
    sum += ps * g[s];
    ps *= (m - s) / (s + 1.0) * s_odds;
  }
  return std::min(1.0, std::max(0.0, sum));
}

}  // namespace urnforest::internal
