// Ridge least squares on standardised features: see urnforest/linear_surrogate.h.
#include "urnforest/linear_surrogate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, "surrogate: " + message);
}

// The standardised value of one cell (NaN -> 0, +-Inf -> the fit's extremes).
double Standardised(const LinearSurrogate& s, int32_t f, float x) {
  if (std::isnan(x)) return 0.0;
  if (std::isinf(x)) return x > 0 ? s.high[f] : s.low[f];
  return (static_cast<double>(x) - s.mean[f]) * s.inv_sd[f];
}

// The terms of one row: z, then z^2 with squares.
void Terms(const LinearSurrogate& s, const float* row, std::vector<double>* phi) {
  const int32_t f_count = s.num_features;
  for (int32_t f = 0; f < f_count; ++f) {
    const double z = Standardised(s, f, row[f]);
    (*phi)[f] = z;
    if (s.squares) (*phi)[f_count + f] = z * z;
  }
}

// Solves a x = b for a symmetric positive semi-definite p x p matrix by Gaussian elimination with
// partial pivoting; a direction with a vanishing pivot (a term that never varies) gets 0.
std::vector<double> SolveSymmetric(std::vector<double> a, std::vector<double> b, size_t p) {
  std::vector<size_t> col_of(p);
  for (size_t k = 0; k < p; ++k) col_of[k] = k;
  std::vector<bool> dead(p, false);
  double scale = 0.0;
  for (size_t k = 0; k < p; ++k) scale = std::max(scale, std::fabs(a[k * p + k]));
  const double tiny = scale * 1e-12;
  for (size_t k = 0; k < p; ++k) {
    size_t best = k;
    for (size_t r = k + 1; r < p; ++r) {
      if (std::fabs(a[r * p + k]) > std::fabs(a[best * p + k])) best = r;
    }
    if (!(std::fabs(a[best * p + k]) > tiny)) {
      dead[k] = true;
      continue;
    }
    if (best != k) {
      for (size_t c = 0; c < p; ++c) std::swap(a[k * p + c], a[best * p + c]);
      std::swap(b[k], b[best]);
    }
    for (size_t r = k + 1; r < p; ++r) {
      const double m = a[r * p + k] / a[k * p + k];
      if (m == 0.0) continue;
      for (size_t c = k; c < p; ++c) a[r * p + c] -= m * a[k * p + c];
      b[r] -= m * b[k];
    }
  }
  std::vector<double> x(p, 0.0);
  for (size_t k = p; k-- > 0;) {
    if (dead[k]) continue;
    double v = b[k];
    for (size_t c = k + 1; c < p; ++c) v -= a[k * p + c] * x[c];
    x[k] = v / a[k * p + k];
  }
  return x;
}

}  // namespace

double LinearSurrogate::Score(const float* row) const {
  double s = intercept;
  for (int32_t f = 0; f < num_features; ++f) {
    const double z = Standardised(*this, f, row[f]);
    s += weights[f] * z;
    if (squares) s += weights[num_features + f] * z * z;
  }
  return s;
}

Result<LinearSurrogate> FitLinearSurrogate(const float* rows, size_t num_rows, int32_t num_features,
                                           const std::vector<double>& targets,
                                           const SurrogateOptions& options) {
  if (num_rows < 2) return Invalid("at least two rows are needed, got " + std::to_string(num_rows));
  if (num_features < 1) return Invalid("the rows have no features");
  if (targets.size() != num_rows) {
    return Status::Error(StatusCode::kShapeMismatch, "surrogate: " + std::to_string(num_rows) +
                                                         " targets expected, got " + std::to_string(targets.size()));
  }
  if (!(std::isfinite(options.ridge) && options.ridge >= 0.0)) return Invalid("ridge must be finite and >= 0");
  for (double t : targets) {
    if (!std::isfinite(t)) return Invalid("every target must be finite");
  }
  const size_t f_count = static_cast<size_t>(num_features);
  LinearSurrogate s;
  s.num_features = num_features;
  s.squares = options.squares;
  s.mean.assign(f_count, 0.0);
  s.inv_sd.assign(f_count, 0.0);
  s.low.assign(f_count, 0.0);
  s.high.assign(f_count, 0.0);
  for (size_t f = 0; f < f_count; ++f) {
    double sum = 0.0, count = 0.0;
    for (size_t r = 0; r < num_rows; ++r) {
      const float x = rows[r * f_count + f];
      if (std::isfinite(x)) sum += x, count += 1.0;
    }
    if (count == 0.0) continue;  // no finite cell: the column stays at weight 0
    s.mean[f] = sum / count;
    double ss = 0.0;
    for (size_t r = 0; r < num_rows; ++r) {
      const float x = rows[r * f_count + f];
      if (std::isfinite(x)) ss += (x - s.mean[f]) * (x - s.mean[f]);
    }
    const double sd = std::sqrt(ss / count);
    if (sd > 1e-12 * std::max(1.0, std::fabs(s.mean[f]))) s.inv_sd[f] = 1.0 / sd;
    double lo = 0.0, hi = 0.0;
    for (size_t r = 0; r < num_rows; ++r) {
      const float x = rows[r * f_count + f];
      if (!std::isfinite(x)) continue;
      const double z = (x - s.mean[f]) * s.inv_sd[f];
      lo = std::min(lo, z), hi = std::max(hi, z);
    }
    s.low[f] = lo, s.high[f] = hi;
  }
  const size_t p = options.squares ? 2 * f_count : f_count;
  std::vector<double> phi(p), phi_mean(p, 0.0);
  double y_mean = 0.0;
  for (size_t r = 0; r < num_rows; ++r) {
    Terms(s, rows + r * f_count, &phi);
    for (size_t k = 0; k < p; ++k) phi_mean[k] += phi[k];
    y_mean += targets[r];
  }
  const double n = static_cast<double>(num_rows);
  for (double& m : phi_mean) m /= n;
  y_mean /= n;
  std::vector<double> a(p * p, 0.0), b(p, 0.0);
  for (size_t r = 0; r < num_rows; ++r) {
    Terms(s, rows + r * f_count, &phi);
    for (size_t k = 0; k < p; ++k) phi[k] -= phi_mean[k];
    const double y = targets[r] - y_mean;
    for (size_t k = 0; k < p; ++k) {
      if (phi[k] == 0.0) continue;
      b[k] += phi[k] * y;
      for (size_t c = k; c < p; ++c) a[k * p + c] += phi[k] * phi[c];
    }
  }
  for (size_t k = 0; k < p; ++k) {
    for (size_t c = k; c < p; ++c) a[k * p + c] /= n, a[c * p + k] = a[k * p + c];
    b[k] /= n;
    a[k * p + k] += options.ridge;
  }
  s.weights = SolveSymmetric(std::move(a), std::move(b), p);
  s.intercept = y_mean;
  for (size_t k = 0; k < p; ++k) s.intercept -= s.weights[k] * phi_mean[k];
  return s;
}

}  // namespace urnforest
