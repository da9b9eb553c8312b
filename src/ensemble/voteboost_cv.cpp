// Cross-validated choice of the vote-boosting emphasis a = b ([SMS18] §4.2).
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include "base/random.h"
#include "urnforest/full_vote.h"
#include "urnforest/protocol.h"
#include "urnforest/voteboost.h"

namespace urnforest {

int64_t EmphasisCvTrees(const TrainOptions& options, const EmphasisCvOptions& cv) {
  const int64_t trees = cv.num_trees > 0 ? cv.num_trees : options.num_trees;
  return static_cast<int64_t>(cv.folds) * static_cast<int64_t>(cv.grid.size()) * trees;
}

Result<EmphasisSelection> SelectEmphasisByCV(const Dataset& data, const TrainOptions& options,
                                             const EmphasisCvOptions& cv, const ProgressFn& progress) {
  if (options.ensemble != EnsembleKind::kVoteBoost) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "emphasis selection needs ensemble = vote-boosting");
  }
  if (cv.grid.empty()) {
    return Status::Error(StatusCode::kInvalidArgument, "the emphasis grid is empty");
  }
  for (double a : cv.grid) {
    if (!(a > 0.0) || !std::isfinite(a)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "emphasis grid values must be positive, got " + std::to_string(a));
    }
  }
  if (cv.num_trees < 0 || cv.num_trees > TrainOptions::kMaxTrees) {
    return Status::Error(StatusCode::kInvalidArgument, "CV num_trees out of range");
  }
  if (data.num_rows() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the training data is empty (0 rows)");
  }
  if (!data.has_labels()) {
    return Status::Error(StatusCode::kMissingLabel, "the training data has no target column");
  }
  KFoldOptions folds;
  folds.folds = cv.folds;
  folds.repeats = 1;
  folds.stratified = true;
  folds.seed = cv.seed;
  Result<std::vector<Partition>> parts =
      RepeatedKFold(data.labels(), static_cast<int32_t>(data.num_classes()), folds);
  if (!parts.ok()) return parts.status();

  EmphasisSelection selection;
  selection.grid = cv.grid;
  // Progress in trees over the whole search, clamped to int32 for ProgressFn.
  const int64_t total = EmphasisCvTrees(options, cv);
  const int32_t total32 = static_cast<int32_t>(std::min<int64_t>(total, INT32_MAX));
  int64_t done = 0;
  const auto scaled = [&](int64_t units) {
    return total <= INT32_MAX ? static_cast<int32_t>(units)
                              : static_cast<int32_t>(static_cast<double>(units) / total * INT32_MAX);
  };
  std::vector<size_t> errors(cv.grid.size(), 0);
  for (size_t p = 0; p < parts.value().size(); ++p) {
    const Partition& part = parts.value()[p];
    const Dataset train = data.Subset(part.train);
    const Dataset test = data.Subset(part.test);
    uint64_t state = cv.seed ^ (0xA0761D6478BD642FULL * (p + 1));
    const uint64_t fold_seed = internal::SplitMix64(state);
    for (size_t g = 0; g < cv.grid.size(); ++g) {
      TrainOptions o = options;
      o.voteboost.a = cv.grid[g];
      o.voteboost.b = 0.0;
      o.seed = fold_seed;
      if (cv.num_trees > 0) o.num_trees = cv.num_trees;
      ProgressFn per_tree;
      if (progress) {
        per_tree = [&](int32_t trees_done, int32_t) { return progress(scaled(done + trees_done), total32); };
      }
      Result<Forest> forest = Train(train, o, per_tree);
      if (!forest.ok()) return forest.status();
      done += o.num_trees;
      Result<FullVote> vote = PredictFull(forest.value(), test);
      if (!vote.ok()) return vote.status();
      for (size_t r = 0; r < part.test.size(); ++r) {
        if (vote.value().labels[r] != test.labels()[r]) ++errors[g];
      }
    }
  }
  size_t best = 0;
  for (size_t g = 1; g < cv.grid.size(); ++g) {
    const double d = std::fabs(std::log(cv.grid[g]));
    const double d_best = std::fabs(std::log(cv.grid[best]));
    if (errors[g] < errors[best] ||
        (errors[g] == errors[best] &&
         (d < d_best || (d == d_best && cv.grid[g] < cv.grid[best])))) {
      best = g;
    }
  }
  selection.chosen = cv.grid[best];
  selection.cv_error.resize(cv.grid.size());
  for (size_t g = 0; g < cv.grid.size(); ++g) {
    selection.cv_error[g] = 100.0 * static_cast<double>(errors[g]) /
                            static_cast<double>(data.num_rows());
  }
  return selection;
}

}  // namespace urnforest
