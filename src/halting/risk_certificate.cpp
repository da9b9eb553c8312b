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

namespace {

// The checks CertifyRisk and CertifySequence share; the number of rows on success.
Result<size_t> CheckCandidates(const std::vector<RiskFamily>& families, double max_risk, double delta) {
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
  return rows;
}

}  // namespace

Result<RiskCertificate> CertifyRisk(const std::vector<RiskFamily>& families, double max_risk,
                                    double delta) {
  Result<size_t> checked = CheckCandidates(families, max_risk, delta);
  if (!checked.ok()) return checked.status();
  const size_t rows = checked.value();

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

double BettingPValue(const std::vector<double>& losses, double max_risk, double delta) {
  if (losses.empty() || !(max_risk > 0.0 && max_risk < 1.0)) return 1.0;
  const double n = static_cast<double>(losses.size());
  const double cap = kBettingCap / (1.0 - max_risk);
  const double scale = 2.0 * std::log(1.0 / std::min(std::max(delta, 1e-300), 0.5)) / n;
  double log_capital = 0.0, best = 0.0;
  double sum = 0.0, squares = 0.0;  // of the losses so far, and of their deviations
  double seen = 0.0;
  for (double loss : losses) {
    const double mean = (max_risk + sum) / (seen + 1.0);            // prior: the null's boundary
    const double variance = (0.25 * max_risk + squares) / (seen + 1.0);
    const double lambda = std::min(cap, std::sqrt(scale / variance));
    log_capital += std::log1p(lambda * (max_risk - loss));
    best = std::max(best, log_capital);
    sum += loss;
    squares += (loss - mean) * (loss - mean);
    seen += 1.0;
  }
  return std::min(1.0, std::exp(-best));
}

const char* PValueMethodName(PValueMethod method) {
  switch (method) {
    case PValueMethod::kHoeffdingBentkus: return "hoeffding-bentkus";
    case PValueMethod::kBetting: return "betting";
    case PValueMethod::kCombined: return "hoeffding-bentkus+betting";
  }
  return "hoeffding-bentkus";
}

double RiskPValue(PValueMethod method, const std::vector<double>& losses, double max_risk, double delta) {
  const auto hb = [&] { return HoeffdingBentkusPValue(Mean(losses), losses.size(), max_risk); };
  switch (method) {
    case PValueMethod::kHoeffdingBentkus: return hb();
    case PValueMethod::kBetting: return BettingPValue(losses, max_risk, delta);
    case PValueMethod::kCombined:
      return std::min(1.0, 2.0 * std::min(hb(), BettingPValue(losses, max_risk, delta / 2.0)));
  }
  return 1.0;
}

double RiskUpperBoundOf(PValueMethod method, const std::vector<double>& losses, double delta) {
  if (method == PValueMethod::kHoeffdingBentkus) return RiskUpperBound(Mean(losses), losses.size(), delta);
  if (losses.empty() || RiskPValue(method, losses, std::nextafter(1.0, 0.0), delta) > delta) return 1.0;
  double lo = std::max(Mean(losses), 0.0), hi = 1.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (RiskPValue(method, losses, mid, delta) <= delta ? hi : lo) = mid;
  }
  return hi;
}

Result<RiskCertificate> CertifySequence(const std::vector<RiskCandidate>& sequence, double max_risk,
                                        double delta, PValueMethod method) {
  if (sequence.empty()) return Invalid("no candidate strategies");
  const std::vector<RiskFamily> one = {sequence};
  Result<size_t> checked = CheckCandidates(one, max_risk, delta);
  if (!checked.ok()) return checked.status();
  const size_t rows = checked.value();
  RiskCertificate out;
  out.rows = rows;
  out.max_risk = max_risk;
  out.delta = delta;
  out.method = PValueMethodName(method);
  out.smallest_certifiable_risk = RiskUpperBoundOf(method, std::vector<double>(rows, 0.0), delta);
  out.largest_certifiable_alpha = 1.0 - out.smallest_certifiable_risk;
  for (size_t i = 0; i < sequence.size(); ++i) {
    const RiskCandidate& c = sequence[i];
    const double loss = Mean(c.loss);
    ++out.tested;
    if (RiskPValue(method, c.loss, max_risk, delta) > delta) {
      out.first_failure = static_cast<int>(i);
      break;  // the sequence stops: nothing after a failure is certified
    }
    const double trees = Mean(c.trees);
    if (out.certified && trees >= out.mean_trees) continue;
    out.certified = true;
    out.family = 0;
    out.index = static_cast<int>(i);
    out.name = c.name;
    out.mean_loss = loss;
    out.mean_trees = trees;
    // Rejected at max_risk: the bound never claims more than the test did.
    out.bound = std::min(max_risk, RiskUpperBoundOf(method, c.loss, delta));
  }
  return out;
}

}  // namespace urnforest
