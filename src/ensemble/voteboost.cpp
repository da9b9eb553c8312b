// Vote-boosting emphasis weights ([SMS18] §3, Eqs. 5-9) and the paper's CV grid.
#include "urnforest/voteboost.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace urnforest {

double LogEmphasis(double p, double a, double b) {
  // The (a - 1) == 0 guard keeps a = b = 1 exactly uniform (0 * ln p would still be 0, but this
  // documents that no rounding can enter).
  double log_g = 0.0;
  if (a != 1.0) log_g += (a - 1.0) * std::log(p);
  if (b != 1.0) log_g += (b - 1.0) * std::log1p(-p);
  return log_g;
}

Result<std::vector<double>> VoteBoostShares(const std::vector<uint32_t>& votes,
                                            int32_t num_classes, int32_t t) {
  if (num_classes < 2) {
    return Status::Error(StatusCode::kInvalidArgument, "vote-boosting needs at least 2 classes");
  }
  const size_t l = static_cast<size_t>(num_classes);
  if (votes.empty() || votes.size() % l != 0) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "vote counts must be rows x classes with at least one row");
  }
  const size_t rows = votes.size() / l;
  std::vector<double> share(rows);
  const double denominator = static_cast<double>(t) + static_cast<double>(l);
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t* v = votes.data() + r * l;
    uint64_t total = 0;
    uint32_t top = 0;
    for (size_t c = 0; c < l; ++c) {
      total += v[c];
      top = std::max(top, v[c]);
    }
    if (total != static_cast<uint64_t>(t)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "vote counts of row " + std::to_string(r) + " sum to " +
                               std::to_string(total) + ", not t = " + std::to_string(t));
    }
    const uint32_t k = l == 2 ? v[1] : top;
    share[r] = (static_cast<double>(k) + 1.0) / denominator;
  }
  return share;
}

Result<std::vector<double>> VoteBoostWeights(const std::vector<uint32_t>& votes,
                                             int32_t num_classes, int32_t t, double a, double b) {
  if (num_classes < 2) {
    return Status::Error(StatusCode::kInvalidArgument, "vote-boosting needs at least 2 classes");
  }
  if (!(a > 0.0) || !(b > 0.0) || !std::isfinite(a) || !std::isfinite(b)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "vote-boosting emphasis a and b must be positive and finite");
  }
  if (num_classes > 2 && a != b) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "asymmetric vote-boosting emphasis (a != b) needs exactly 2 classes");
  }
  Result<std::vector<double>> shares = VoteBoostShares(votes, num_classes, t);
  if (!shares.ok()) return shares.status();
  std::vector<double> w = std::move(shares).value();
  double max_log = -INFINITY;
  for (double& x : w) {
    x = LogEmphasis(x, a, b);
    max_log = std::max(max_log, x);
  }
  double sum = 0.0;
  for (double& x : w) sum += (x = std::exp(x - max_log));
  for (double& x : w) x /= sum;
  return w;
}

const std::vector<double>& EmphasisGrid() {
  static const std::vector<double> kGrid = {0.25, 0.5, 0.75, 1.0, 1.25, 1.5,
                                            2.5,  5.0, 10.0, 20.0, 40.0};
  return kGrid;
}

}  // namespace urnforest
