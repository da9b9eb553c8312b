// The hyper prior as a finite mixture over final tallies (point masses plus the uniform prior), for
// any number of classes and trees; its box smoothing for l <= 4 puts on every tally exactly the mass
// HistogramPriorFromOob's dense histogram gives it.
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "halting/box_neighbours.h"
#include "urnforest/prior.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

}  // namespace

Result<Prior> Prior::TallyMixture(int32_t num_classes, int32_t num_trees, std::vector<int32_t> tallies,
                                  std::vector<double> weights, double uniform_weight) {
  const int32_t l = num_classes;
  if (l < 2) return Invalid("num_classes must be >= 2");
  if (num_trees < 1) return Invalid("num_trees must be >= 1");
  if (tallies.size() != weights.size() * static_cast<size_t>(l))
    return Status::Error(StatusCode::kShapeMismatch,
                         "tally mixture has " + std::to_string(tallies.size()) + " counts for " +
                             std::to_string(weights.size()) + " weights of " + std::to_string(l) +
                             " classes");
  if (!(uniform_weight >= 0.0) || !std::isfinite(uniform_weight))
    return Invalid("uniform_weight must be finite and >= 0");
  double total = uniform_weight;
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!(weights[i] >= 0.0) || !std::isfinite(weights[i]))
      return Invalid("tally mixture weights must be finite and >= 0");
    int64_t sum = 0;
    for (int32_t c = 0; c < l; ++c) {
      if (tallies[i * l + c] < 0) return Invalid("tally mixture has a negative count");
      sum += tallies[i * l + c];
    }
    if (sum != num_trees)
      return Status::Error(StatusCode::kShapeMismatch,
                           "a tally of the mixture sums to " + std::to_string(sum) + ", not T = " +
                               std::to_string(num_trees));
    total += weights[i];
  }
  if (!(total > 0.0)) return Invalid("tally mixture has no mass");
  for (double& w : weights) w /= total;
  Prior p;
  p.kind_ = PriorKind::kTallyMixture;
  p.num_classes_ = l;
  p.num_trees_ = num_trees;
  p.support_ = std::move(tallies);
  p.support_weights_ = std::move(weights);
  p.uniform_weight_ = uniform_weight / total;
  return p;
}

Result<Prior> TallyMixturePriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                       int32_t num_trees, const PriorFitOptions& options) {
  if (options.smoothing_window < 1 || options.smoothing_window % 2 == 0)
    return Invalid("smoothing_window must be odd and >= 1");
  if (!(options.uniform_mix >= 0.0 && options.uniform_mix <= 1.0))
    return Invalid("uniform_mix must be in [0, 1]");
  Result<std::vector<int32_t>> rescaled = RescaledOobTallies(oob_votes, num_classes, num_trees);
  if (!rescaled.ok()) return rescaled.status();
  const int32_t l = num_classes;
  const std::vector<int32_t>& all = rescaled.value();
  std::map<std::vector<int32_t>, double> rows;  // distinct tally -> number of rows
  for (size_t i = 0; i < all.size(); i += l)
    rows[std::vector<int32_t>(all.begin() + i, all.begin() + i + l)] += 1.0;
  const int32_t h = options.smoothing_window / 2;
  std::map<std::vector<int32_t>, double> mass;
  if (h == 0 || l > 4) {
    mass = std::move(rows);
  } else {
    // Dense smoothing: smooth[t] = sum_{nb in box(t)} hist[nb] / |box(t)|. The ball is symmetric,
    // so every row's tally N gives count / |box(t)| to each t of box(N).
    std::map<std::vector<int32_t>, int32_t> box_size;
    internal::BoxNeighbours around_row(l, h), around_cell(l, h);
    for (const auto& row : rows) {
      around_row.ForEach(row.first.data(), [&](const std::vector<int32_t>& t) {
        auto it = box_size.find(t);
        if (it == box_size.end()) {
          int32_t count = 0;
          around_cell.ForEach(t.data(), [&](const std::vector<int32_t>&) { ++count; });
          it = box_size.emplace(t, count).first;
        }
        mass[t] += row.second / it->second;
      });
    }
  }
  double total = 0.0;
  for (const auto& cell : mass) total += cell.second;
  std::vector<int32_t> tallies;
  std::vector<double> weights;
  tallies.reserve(mass.size() * l);
  weights.reserve(mass.size());
  for (const auto& cell : mass) {
    tallies.insert(tallies.end(), cell.first.begin(), cell.first.end());
    weights.push_back((1.0 - options.uniform_mix) * cell.second / total);
  }
  return Prior::TallyMixture(l, num_trees, std::move(tallies), std::move(weights), options.uniform_mix);
}

}  // namespace urnforest
