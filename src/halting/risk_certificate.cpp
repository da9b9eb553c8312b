// Learn-then-Test certificates with Hoeffding-Bentkus p-values: see urnforest/risk_certificate.h.
#include "urnforest/risk_certificate.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace urnforest {
namespace {

// Bernoulli relative entropy KL(a || b), a <= b, b in (0, 1).
double RelativeEntropy(double a, double b) {
  double out = 0.0;
  if (a > 0.0) out += a * std::log(a / b);
  if (a < 1.0) out += (1.0 - a) * std::log((1.0 - a) / (1.0 - b));
  return out;
}

// log P(Binomial(n, p) <= k), summed in log space (n up to billions of rows without underflow).
double LogBinomialCdf(size_t n, size_t k, double p) {
  if (k >= n) return 0.0;
  const double log_ratio = std::log(p) - std::log1p(-p);
  double log_term = static_cast<double>(n) * std::log1p(-p);  // k = 0
  double log_sum = log_term;
  for (size_t i = 0; i < k; ++i) {
    log_term += std::log(static_cast<double>(n - i) / static_cast<double>(i + 1)) + log_ratio;
    const double hi = std::max(log_sum, log_term), lo = std::min(log_sum, log_term);
    log_sum = hi + std::log1p(std::exp(lo - hi));
  }
  return log_sum;
}

Status Invalid(const std::string& what) {
  return Status::Error(StatusCode::kInvalidArgument, "risk certificate: " + what);
}

double Mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

double HoeffdingBentkusPValue(double mean_loss, size_t rows, double max_risk) {
  if (rows == 0 || !(mean_loss < max_risk)) return 1.0;
  const double n = static_cast<double>(rows);
  const double hoeffding = std::exp(-n * RelativeEntropy(std::max(mean_loss, 0.0), max_risk));
  // ceil(n Rhat), with a tolerance for sums of exact zeros that round to a few ulps.
  const double scaled = n * std::max(mean_loss, 0.0);
  const size_t k = static_cast<size_t>(std::ceil(scaled - 1e-9 * std::max(1.0, scaled)));
  const double bentkus = std::exp(1.0 + LogBinomialCdf(rows, k, max_risk));
  return std::min({1.0, hoeffding, bentkus});
}

double RiskUpperBound(double mean_loss, size_t rows, double delta) {
  if (rows == 0) return 1.0;
  double lo = std::max(mean_loss, 0.0), hi = 1.0;
  if (HoeffdingBentkusPValue(mean_loss, rows, std::nextafter(1.0, 0.0)) > delta) return 1.0;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (HoeffdingBentkusPValue(mean_loss, rows, mid) <= delta ? hi : lo) = mid;
  }
  return hi;
}

Result<RiskCertificate> CertifyRisk(const std::vector<RiskFamily>& families, double max_risk,
                                    double delta) {
  if (!(max_risk > 0.0 && max_risk < 1.0)) return Invalid("the risk target must be in (0, 1)");
  if (!(delta > 0.0 && delta < 1.0)) return Invalid("delta must be in (0, 1)");
  if (families.empty()) return Invalid("no candidate strategies");
  size_t rows = 0;
  bool sized = false;
  for (const RiskFamily& family : families) {
    for (const RiskCandidate& c : family) {
      if (!sized) rows = c.loss.size(), sized = true;
      if (c.loss.size() != rows || c.trees.size() != rows) {
        return Invalid("candidate '" + c.name + "' has another number of rows");
      }
      for (double l : c.loss) {
        if (!(l >= 0.0 && l <= 1.0)) return Invalid("losses must be in [0, 1] ('" + c.name + "')");
      }
    }
  }
  if (rows == 0) return Invalid("no calibration rows");

  RiskCertificate out;
  out.rows = rows;
  out.max_risk = max_risk;
  out.delta = delta;
  const double level = delta / static_cast<double>(families.size());
  out.smallest_certifiable_risk = RiskUpperBound(0.0, rows, level);
  out.largest_certifiable_alpha = 1.0 - out.smallest_certifiable_risk;
  for (size_t f = 0; f < families.size(); ++f) {
    for (size_t i = 0; i < families[f].size(); ++i) {
      const RiskCandidate& c = families[f][i];
      const double loss = Mean(c.loss);
      ++out.tested;
      if (HoeffdingBentkusPValue(loss, rows, max_risk) > level) break;  // the sequence stops
      const double trees = Mean(c.trees);
      if (out.certified && trees >= out.mean_trees) continue;
      out.certified = true;
      out.family = static_cast<int>(f);
      out.index = static_cast<int>(i);
      out.name = c.name;
      out.mean_loss = loss;
      out.mean_trees = trees;
      out.bound = RiskUpperBound(loss, rows, level);
    }
  }
  return out;
}

}  // namespace urnforest
