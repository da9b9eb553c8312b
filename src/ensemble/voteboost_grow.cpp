// Vote-boosting tree growing ([SMS18] Algorithm 1): each tree trains on a draw weighted by the
// emphasis.
#include "ensemble/voteboost_grow.h"

#include <algorithm>
#include <cstdint>

#include "base/random.h"
#include "ensemble/bootstrap.h"
#include "ensemble/forest_access.h"
#include "ensemble/tree_grower_params.h"
#include "urnforest/voteboost.h"

namespace urnforest {
namespace internal {

Status GrowVoteBoost(const TrainingData& data, const std::vector<float>& row_major,
                     const TrainOptions& options, const ProgressFn& progress, Forest* forest) {
  const size_t n = data.rows;
  const size_t classes = static_cast<size_t>(data.classes);
  const size_t features = static_cast<size_t>(data.features);
  const VoteBoostOptions& vb = options.voteboost;
  const double a = vb.a;
  const double b = vb.ResolvedB();

  CartParams params;
  TreePruningOptions pruning = options.pruning;
  params.max_depth = options.max_depth;
  params.min_leaf = options.min_leaf;
  switch (vb.base) {
    case VoteBoostBase::kRandomTree: {
      params.sample_features = true;
      params.mtry = ResolveMtry(options, data.features);
      break;
    }
    case VoteBoostBase::kUnprunedCart:
      params.sample_features = false;
      params.mtry = data.features;
      break;
    case VoteBoostBase::kPrunedCart:
      params.sample_features = false;
      params.mtry = data.features;
      pruning.mode = TreePruning::kCostComplexityCV;
      break;
    case VoteBoostBase::kStump:
      params.sample_features = false;
      params.mtry = data.features;
      params.max_depth = 1;
      break;
  }
  TreeGrower builder(data, row_major.data(), params, CostComplexityOf(pruning));

  std::vector<uint32_t> votes(n * classes, 0);  // every tree's votes on every training row
  std::vector<double> w(n, 1.0 / static_cast<double>(n));
  bool uniform = true;
  std::vector<uint32_t> counts(n);
  const uint32_t rows = static_cast<uint32_t>(n);
  for (int32_t t = 0; t < options.num_trees; ++t) {
    Rng rng = Rng::ForStream(options.seed, static_cast<uint64_t>(t));
    // Equal weights: the uniform bootstrap itself (same draws as a random forest), so that a = b = 1
    // reproduces the random forest exactly, not merely in distribution.
    if (uniform) {
      DrawBootstrap(&rng, rows, counts.data());
    } else {
      DrawWeighted(w, &rng, &counts);
    }
    uint32_t root = 0;
    Status status = builder.Grow(counts.data(), &rng, &ForestAccess::table(*forest), &root);
    if (!status.ok()) return status;
    ForestAccess::tree_roots(*forest).push_back(root);
    for (size_t r = 0; r < n; ++r) {
      const int32_t vote = forest->TreeVote(t, row_major.data() + r * features);
      ++votes[r * classes + vote];
      if (counts[r] == 0) ++ForestAccess::oob_votes(*forest)[r * classes + vote];
    }
    if (t + 1 < options.num_trees) {
      Result<std::vector<double>> next =
          VoteBoostWeights(votes, data.classes, t + 1, a, b);
      if (!next.ok()) return next.status();
      w = std::move(next.value());
      uniform = std::all_of(w.begin(), w.end(), [&](double x) { return x == w[0]; });
    }
    if (progress && !progress(t + 1, options.num_trees)) {
      return Status::Error(StatusCode::kInvalidArgument, "cancelled");
    }
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
