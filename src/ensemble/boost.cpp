// AdaBoost tree growing: M1 for two classes, SAMME beyond, by resampling or reweighting ([FS97],
// [ZZRH09]).
#include "ensemble/boost.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/random.h"
#include "ensemble/bootstrap.h"
#include "ensemble/forest_access.h"
#include "ensemble/tree_grower_params.h"

namespace urnforest {
namespace internal {
namespace {

constexpr double kMinEpsilon = 1e-10;     // alpha of a perfect tree is computed at this error
constexpr int32_t kMaxDiscards = 10;      // consecutive discarded trees before giving up
constexpr double kReweightTotal = 16777216.0;  // 2^24: total of the quantised reweighting weights

}  // namespace

Status GrowAdaBoost(const TrainingData& data, const std::vector<float>& row_major,
                    const TrainOptions& options, const ProgressFn& progress, Forest* forest) {
  const size_t n = data.rows;
  const int32_t classes = data.classes;
  const size_t features = static_cast<size_t>(data.features);
  const bool resample = options.boosting == BoostingVariant::kResample;
  CartParams params;
  params.sample_features = false;
  params.mtry = data.features;
  params.max_depth = options.max_depth;
  params.min_leaf = options.min_leaf;
  if (!resample) {
    // min_leaf counts rows of mean weight: scale it to the quantised weight units.
    const double unit = std::max(1.0, std::floor(kReweightTotal / static_cast<double>(n)));
    params.min_leaf = static_cast<int32_t>(
        std::min<double>(static_cast<double>(options.min_leaf) * unit, 2147483647.0));
  }
  TreeGrower builder(data, row_major.data(), params, CostComplexityOf(options.pruning));
  const double threshold = classes == 2 ? 0.5 : 1.0 - 1.0 / classes;
  std::vector<double> w(n, 1.0 / static_cast<double>(n));
  bool uniform = true;
  std::vector<uint32_t> counts(n);
  std::vector<int32_t> predicted(n);
  int32_t discards = 0;
  uint64_t attempt = 0;
  NodeTable& table = ForestAccess::table(*forest);
  ForestAccess::tree_weights(*forest).clear();
  while (forest->num_trees() < options.num_trees) {
    Rng rng = Rng::ForStream(options.seed, attempt++);
    if (resample) {
      DrawWeighted(w, &rng, &counts);
    } else {
      for (size_t i = 0; i < n; ++i) {
        const double q = std::round(w[i] * kReweightTotal);
        counts[i] = q < 1.0 ? 1u : static_cast<uint32_t>(std::min(q, 4294967295.0));
      }
    }
    const size_t nodes_before = table.nodes.size();
    const size_t bits_before = table.category_bits.size();
    uint32_t root = 0;
    Status status = builder.Grow(counts.data(), &rng, &table, &root);
    if (!status.ok()) return status;
    ForestAccess::tree_roots(*forest).push_back(root);
    const int32_t t = forest->num_trees() - 1;
    double wrong = 0.0, total = 0.0;
    for (size_t r = 0; r < n; ++r) {
      predicted[r] = forest->TreeVote(t, row_major.data() + r * features);
      total += w[r];
      if (predicted[r] != static_cast<int32_t>(data.labels[r])) wrong += w[r];
    }
    const double eps = wrong / total;
    if (eps >= threshold) {
      // Worse than chance under these weights: drop the tree and restart from uniform weights.
      ForestAccess::tree_roots(*forest).pop_back();
      table.nodes.resize(nodes_before);
      table.category_bits.resize(bits_before);
      if (uniform && ++discards >= kMaxDiscards) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "adaboost: the tree learner's weighted error stays >= " +
                                 std::to_string(threshold) + " on uniform weights");
      }
      std::fill(w.begin(), w.end(), 1.0 / static_cast<double>(n));
      uniform = true;
      continue;
    }
    discards = 0;
    const double e = std::max(eps, kMinEpsilon);
    const double odds = (1.0 - e) / e;
    const double alpha = classes == 2 ? 0.5 * std::log(odds)
                                      : std::log(odds) + std::log(static_cast<double>(classes - 1));
    ForestAccess::tree_weights(*forest).push_back(alpha);
    if (resample) {
      for (size_t r = 0; r < n; ++r) {
        if (counts[r] == 0) ++ForestAccess::oob_votes(*forest)[r * classes + predicted[r]];
      }
    }
    if (wrong == 0.0) {
      std::fill(w.begin(), w.end(), 1.0 / static_cast<double>(n));
      uniform = true;
    } else {
      // SAMME: w *= exp(alpha) on wrong rows, exp(alpha) = (l - 1)(1 - eps)/eps; for l = 2 this is
      // M1's exp(2 alpha) = (1 - eps)/eps, i.e. Eq. 2.11 after normalisation.
      const double gain = odds * static_cast<double>(classes - 1);
      double sum = 0.0;
      for (size_t r = 0; r < n; ++r) {
        if (predicted[r] != static_cast<int32_t>(data.labels[r])) w[r] *= gain;
        sum += w[r];
      }
      for (double& x : w) x /= sum;
      uniform = false;
    }
    if (progress && !progress(forest->num_trees(), options.num_trees)) {
      return Status::Error(StatusCode::kInvalidArgument, "cancelled");
    }
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
