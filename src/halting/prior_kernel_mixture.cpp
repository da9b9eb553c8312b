// hyper for five classes or more: the out-of-bag vote rates of the training rows, grouped by k-means
// and smoothed by a Dirichlet kernel around each centre (see KernelMixturePriorFromOob).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "urnforest/prior.h"

namespace urnforest {
namespace {

constexpr int32_t kLloydSteps = 25;

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

double SquaredDistance(const double* a, const double* b, int32_t l) {
  double d = 0.0;
  for (int32_t j = 0; j < l; ++j) d += (a[j] - b[j]) * (a[j] - b[j]);
  return d;
}

// Weighted k-means of the `rates` (n points of l coordinates) into at most k centres: the first
// centre is the heaviest point, each next one the point farthest from the centres so far (ties:
// lowest index), then kLloydSteps Lloyd steps. Returns the centres (row-major) and their weights.
std::pair<std::vector<double>, std::vector<double>> KMeans(const std::vector<double>& rates,
                                                           const std::vector<double>& weights,
                                                           int32_t l, size_t k) {
  const size_t n = weights.size();
  k = std::min(k, n);
  std::vector<double> centres;
  std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
  size_t next = static_cast<size_t>(std::max_element(weights.begin(), weights.end()) - weights.begin());
  for (size_t c = 0; c < k; ++c) {
    centres.insert(centres.end(), rates.begin() + next * l, rates.begin() + (next + 1) * l);
    double far = -1.0;
    for (size_t i = 0; i < n; ++i) {
      nearest[i] = std::min(nearest[i], SquaredDistance(&rates[i * l], &centres[c * l], l));
      if (nearest[i] > far) {
        far = nearest[i];
        next = i;
      }
    }
    if (far <= 0.0) {  // every point sits on a centre already
      k = c + 1;
      break;
    }
  }
  std::vector<size_t> assign(n, 0);
  std::vector<double> mass(k, 0.0);
  for (int32_t step = 0; step <= kLloydSteps; ++step) {
    for (size_t i = 0; i < n; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (size_t c = 0; c < k; ++c) {
        const double d = SquaredDistance(&rates[i * l], &centres[c * l], l);
        if (d < best) {
          best = d;
          assign[i] = c;
        }
      }
    }
    std::vector<double> sum(k * l, 0.0);
    std::fill(mass.begin(), mass.end(), 0.0);
    for (size_t i = 0; i < n; ++i) {
      mass[assign[i]] += weights[i];
      for (int32_t j = 0; j < l; ++j) sum[assign[i] * l + j] += weights[i] * rates[i * l + j];
    }
    if (step == kLloydSteps) break;
    for (size_t c = 0; c < k; ++c)
      if (mass[c] > 0.0)
        for (int32_t j = 0; j < l; ++j) centres[c * l + j] = sum[c * l + j] / mass[c];
  }
  return {std::move(centres), std::move(mass)};
}

}  // namespace

Result<Prior> KernelMixturePriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                        const PriorFitOptions& options) {
  const int32_t l = num_classes;
  if (l < 2) return Invalid("num_classes must be >= 2");
  if (oob_votes.size() % static_cast<size_t>(l) != 0)
    return Status::Error(StatusCode::kShapeMismatch,
                         "oob_votes has " + std::to_string(oob_votes.size()) +
                             " entries, not a multiple of num_classes " + std::to_string(l));
  const double pc = options.fraction_pseudocount;
  if (!(pc > 0.0) || !std::isfinite(pc)) return Invalid("fraction_pseudocount must be finite and > 0");
  if (!(options.uniform_mix >= 0.0 && options.uniform_mix < 1.0))
    return Invalid("uniform_mix must be in [0, 1) for a kernel mixture");
  if (!(options.kernel_concentration > 0.0) || !std::isfinite(options.kernel_concentration))
    return Invalid("kernel_concentration must be finite and > 0");
  if (options.max_kernels < 1) return Invalid("max_kernels must be >= 1");
  // Distinct OOB vote vectors, with their row counts (deterministic order).
  std::map<std::vector<uint32_t>, double> rows;
  for (size_t i = 0; i < oob_votes.size(); i += l) {
    std::vector<uint32_t> v(oob_votes.begin() + i, oob_votes.begin() + i + l);
    uint64_t total = 0;
    for (uint32_t x : v) total += x;
    if (total > 0) rows[std::move(v)] += 1.0;
  }
  if (rows.empty()) return Invalid("no training row has out-of-bag votes");
  std::vector<double> rates, weights;
  rates.reserve(rows.size() * l);
  for (const auto& row : rows) {
    double total = 0.0;
    for (uint32_t x : row.first) total += x;
    for (uint32_t x : row.first) rates.push_back((x + pc) / (total + pc * l));
    weights.push_back(row.second);
  }
  auto [centres, mass] = KMeans(rates, weights, l, static_cast<size_t>(options.max_kernels));
  double rows_total = 0.0;
  for (double w : weights) rows_total += w;
  std::vector<DirichletComponent> kernels;
  for (size_t c = 0; c < mass.size(); ++c) {
    if (mass[c] <= 0.0) continue;
    DirichletComponent kernel;
    kernel.weight = (1.0 - options.uniform_mix) * mass[c] / rows_total;
    for (int32_t j = 0; j < l; ++j) kernel.beta.push_back(options.kernel_concentration * centres[c * l + j]);
    kernels.push_back(std::move(kernel));
  }
  if (options.uniform_mix > 0.0) kernels.push_back({options.uniform_mix, std::vector<double>(l, 1.0)});
  return Prior::Mixture(std::move(kernels));
}

}  // namespace urnforest
