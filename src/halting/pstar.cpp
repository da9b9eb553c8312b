// Agreement probabilities for one partial tally, computed directly: the finite urn ([Sot11] Eq.
// 2.38) and the infinite ensemble ([HMS11] Eqs. 7-8).
#include "urnforest/pstar.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "halting/tally_lattice.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

// log (x)_m = lgamma(x + m) - lgamma(x)
double LogRising(double x, int32_t m) { return std::lgamma(x + m) - std::lgamma(x); }

// Regularised lower incomplete gamma P(k, x) for integer k >= 1, x >= 0.
double GammaP(int32_t k, double x) {
  if (x <= 0.0) return 0.0;
  if (x < k) {
    double term = std::exp(k * std::log(x) - x - std::lgamma(k + 1.0));
    double sum = 0.0;
    for (int32_t m = k; term > 1e-300; ++m) {
      sum += term;
      term *= x / (m + 1);
      if (term < sum * 1e-17) break;
    }
    return sum;
  }
  double term = std::exp((k - 1) * std::log(x) - x - std::lgamma(static_cast<double>(k)));
  double q = 0.0;
  for (int32_t m = k - 1; m >= 0; --m) {
    q += term;
    term *= m / x;
    if (term < q * 1e-17) break;
  }
  return 1.0 - q;
}

}  // namespace

Result<double> PStarBySum(const Prior& prior, int32_t num_trees, const std::vector<int32_t>& tally) {
  const int32_t l = prior.num_classes();
  if (static_cast<int32_t>(tally.size()) != l)
    return Status::Error(StatusCode::kShapeMismatch, "tally has " + std::to_string(tally.size()) +
                                                         " counts, prior " + std::to_string(l));
  if (l > 4) return Status::Error(StatusCode::kLimitExceeded, "PStarBySum needs l <= 4");
  int32_t n = 0;
  for (int32_t v : tally) {
    if (v < 0) return Status::Error(StatusCode::kInvalidArgument, "negative vote count");
    n += v;
  }
  if (n > num_trees)
    return Status::Error(StatusCode::kInvalidArgument, "tally has more votes than trees");
  if (prior.kind() == PriorKind::kHistogram && prior.num_trees() != num_trees)
    return Status::Error(StatusCode::kShapeMismatch, "histogram prior is for another T");
  const int32_t k = StrictLeader(tally);
  if (k < 0) return 0.0;
  const int32_t R = num_trees - n;
  internal::Compositions comp(R, l);
  internal::Compositions full(num_trees, l);
  // log posterior weight of each completion d (final tally t + d), then normalise.
  std::vector<double> logw;
  std::vector<uint8_t> win;
  std::vector<int32_t> fin(l);
  // mixture posterior weights over components
  const auto& comps = prior.components();
  std::vector<double> comp_logw(comps.size());
  for (size_t i = 0; i < comps.size(); ++i) {
    double bs = 0.0, lw = std::log(comps[i].weight);
    for (int32_t j = 0; j < l; ++j) {
      bs += comps[i].beta[j];
      lw += LogRising(comps[i].beta[j], tally[j]);
    }
    comp_logw[i] = lw - LogRising(bs, n);
  }
  comp.ForEach(R, [&](const int32_t* d) {
    for (int32_t j = 0; j < l; ++j) fin[j] = tally[j] + d[j];
    bool w = true;
    for (int32_t j = 0; j < l; ++j)
      if (j != k && fin[j] >= fin[k]) w = false;
    double lw;
    if (prior.kind() == PriorKind::kHistogram) {
      double mass = prior.histogram()[full.Rank(fin.data())];
      if (mass <= 0.0) return;
      lw = std::log(mass);
      for (int32_t j = 0; j < l; ++j) lw += std::lgamma(fin[j] + 1.0) - std::lgamma(d[j] + 1.0);
    } else {
      double mx = -INFINITY;
      std::vector<double> parts(comps.size());
      double base = std::lgamma(R + 1.0);
      for (int32_t j = 0; j < l; ++j) base -= std::lgamma(d[j] + 1.0);
      for (size_t i = 0; i < comps.size(); ++i) {
        double bs = 0.0, v = comp_logw[i] + base;
        for (int32_t j = 0; j < l; ++j) {
          bs += comps[i].beta[j];
          v += LogRising(comps[i].beta[j] + tally[j], d[j]);
        }
        v -= LogRising(bs + n, R);
        parts[i] = v;
        mx = std::max(mx, v);
      }
      double s = 0.0;
      for (double v : parts) s += std::exp(v - mx);
      lw = mx + std::log(s);
    }
    logw.push_back(lw);
    win.push_back(w ? 1 : 0);
  });
  if (logw.empty()) return std::nan("");
  double mx = *std::max_element(logw.begin(), logw.end());
  double total = 0.0, good = 0.0;
  for (size_t i = 0; i < logw.size(); ++i) {
    double w = std::exp(logw[i] - mx);
    total += w;
    if (win[i]) good += w;
  }
  return good / total;
}

double InfinitePairProbability(int32_t a, int32_t b) {
  const int32_t n = a + b + 1;
  // upper tail P(X > a), X ~ Bin(n, 1/2), summed from k = a + 1 upward
  double log_pmf = std::lgamma(n + 1.0) - std::lgamma(a + 2.0) - std::lgamma(n - a) - n * std::log(2.0);
  double pmf = std::exp(log_pmf);
  double tail = 0.0;
  for (int32_t k = a + 1; k <= n; ++k) {
    tail += pmf;
    pmf *= static_cast<double>(n - k) / (k + 1);
    if (pmf < tail * 1e-18) break;
  }
  if (n <= 1000) {  // exact dyadic start for moderate n: pmf(a + 1) from 2^-n
    double p = std::ldexp(1.0, -n);
    for (int32_t k = 0; k <= a; ++k) p = p * (n - k) / (k + 1);
    double t2 = 0.0;
    for (int32_t k = a + 1; k <= n; ++k) {
      t2 += p;
      p = p * (n - k) / (k + 1);
    }
    tail = t2;
  }
  return 1.0 - tail;
}

double InfiniteLowerBound(const std::vector<int32_t>& tally, int32_t i) {
  double prod = 1.0;
  for (size_t j = 0; j < tally.size(); ++j)
    if (static_cast<int32_t>(j) != i) prod *= InfinitePairProbability(tally[i], tally[j]);
  return prod;
}

double InfiniteExactProbability(const std::vector<int32_t>& tally, int32_t i) {
  const int32_t ki = tally[i] + 1;
  double hi = ki + 20.0 * std::sqrt(static_cast<double>(ki)) + 60.0;
  const int32_t panels = 40000;
  const double h = hi / panels;
  auto f = [&](double x) {
    if (x <= 0.0) return 0.0;
    double v = std::exp((ki - 1) * std::log(x) - x - std::lgamma(static_cast<double>(ki)));
    for (size_t j = 0; j < tally.size(); ++j)
      if (static_cast<int32_t>(j) != i) v *= GammaP(tally[j] + 1, x);
    return v;
  };
  double sum = f(0.0) + f(hi);
  for (int32_t p = 1; p < panels; ++p) sum += f(p * h) * (p % 2 == 1 ? 4.0 : 2.0);
  return sum * h / 3.0;
}

std::vector<int32_t> InfiniteTStar(int32_t max_t, double pi) {
  std::vector<int32_t> out;
  for (int32_t t = 1; t <= max_t; ++t) {
    int32_t found = 0;
    for (int32_t m = t / 2 + 1; m <= t; ++m) {
      if (InfinitePairProbability(m, t - m) > pi) {
        found = m;
        break;
      }
    }
    out.push_back(found);
  }
  return out;
}

}  // namespace urnforest
