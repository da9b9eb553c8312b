// Train: bootstrap sampling, tree growing and out-of-bag votes.
#include "urnforest/train.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "base/random.h"
#include "ensemble/boost.h"
#include "ensemble/bootstrap.h"
#include "ensemble/forest_access.h"
#include "ensemble/grow_bagged.h"
#include "ensemble/tree_grower_params.h"
#include "ensemble/voteboost_grow.h"
#include "tree/cart.h"
#include "urnforest/forest.h"

namespace urnforest {

using internal::ForestAccess;
namespace {

Status InvalidOption(const std::string& name, const std::string& why) {
  return Status::Error(StatusCode::kInvalidArgument, "option " + name + " " + why);
}

}  // namespace

int32_t ResolveMtry(const TrainOptions& options, int32_t num_features) {
  if (num_features <= 0) return 0;
  const bool random_trees =
      options.ensemble == EnsembleKind::kRandomForest ||
      (options.ensemble == EnsembleKind::kVoteBoost &&
       options.voteboost.base == VoteBoostBase::kRandomTree);
  if (!random_trees) return num_features;
  if (options.mtry > 0) return options.mtry < num_features ? options.mtry : num_features;
  int32_t k = 0;
  switch (options.mtry_rule) {
    case MtryRule::kSqrt:
      while (static_cast<int64_t>(k + 1) * (k + 1) <= num_features) ++k;
      break;
    case MtryRule::kLog2:
    case MtryRule::kLog2Plus1:
      while ((int64_t{1} << (k + 1)) <= num_features) ++k;  // k = floor(log2(M))
      if (options.mtry_rule == MtryRule::kLog2Plus1) ++k;
      break;
  }
  if (k < 1) k = 1;
  return k < num_features ? k : num_features;
}

namespace {

// Train's trees first .. first + count - 1 (all of them unless a part is asked for).
Result<Forest> TrainTrees(const Dataset& data, const TrainOptions& options, int32_t first,
                          int32_t count, const ProgressFn& progress, const TrainExecution& execution) {
  Status status = CheckTrainOptions(options, data.num_features());
  if (!status.ok()) return status;
  if (data.num_rows() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the training data is empty (0 rows)");
  }
  if (!data.has_labels()) {
    return Status::Error(StatusCode::kMissingLabel, "the training data has no target column");
  }
  if (data.num_features() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the training data has no feature columns");
  }
  const size_t rows = data.num_rows();
  if (rows > 0xFFFFFFFEu) {
    return Status::Error(StatusCode::kLimitExceeded, "too many training rows");
  }
  const int32_t num_classes = static_cast<int32_t>(data.num_classes());
  std::vector<size_t> class_rows(num_classes, 0);
  for (size_t r = 0; r < rows; ++r) {
    const int32_t label = data.labels()[r];
    if (label < 0) {
      return Status::Error(StatusCode::kMissingLabel,
                           "training row " + std::to_string(r) + " has no class label");
    }
    ++class_rows[label];
  }
  int32_t classes_present = 0;
  for (size_t count : class_rows) classes_present += count > 0 ? 1 : 0;
  if (classes_present < 2) {
    return Status::Error(StatusCode::kTooFewClasses,
                         "training needs rows of at least 2 classes, found " +
                             std::to_string(classes_present));
  }

  Forest forest;
  ForestAccess::schema(forest) = data.schema();
  ForestAccess::options(forest) = options;
  ForestAccess::RebuildCaches(forest);
  ForestAccess::train_labels(forest) = data.labels();
  ForestAccess::oob_votes(forest).assign(rows * num_classes, 0);
  ForestAccess::tree_roots(forest).reserve(options.num_trees);

  const internal::TrainingData td = internal::TrainingData::From(data);
  const std::vector<float> row_major = data.RowMajor();
  if (options.ensemble == EnsembleKind::kAdaBoost) {
    status = internal::GrowAdaBoost(td, row_major, options, progress, &forest);
    if (!status.ok()) return status;
    return forest;
  }
  if (options.ensemble == EnsembleKind::kVoteBoost) {
    if (num_classes > 2 && options.voteboost.ResolvedB() != options.voteboost.a) {
      return InvalidOption("voteboost.b", "must equal a (symmetric emphasis) with more than 2 classes");
    }
    status = internal::GrowVoteBoost(td, row_major, options, progress, &forest);
    if (!status.ok()) return status;
    return forest;
  }
  internal::CartParams params;
  params.sample_features = options.ensemble == EnsembleKind::kRandomForest;
  params.mtry = ResolveMtry(options, static_cast<int32_t>(data.num_features()));
  params.max_depth = options.max_depth;
  params.min_leaf = options.min_leaf;
  internal::BaggedTreesPlan plan;
  plan.first = first;
  plan.count = count;
  plan.threads = execution.threads;
  if (count != options.num_trees) {
    ForestAccess::options(forest).num_trees = count;
    ForestAccess::source_trees(forest).resize(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) ForestAccess::source_trees(forest)[i] = static_cast<uint32_t>(first + i);
  }
  ForestAccess::tree_roots(forest).reserve(static_cast<size_t>(count));
  status = internal::GrowBaggedTrees(td, row_major.data(), params, options, plan, progress, &forest);
  if (!status.ok()) return status;
  return forest;
}

}  // namespace

Result<Forest> Train(const Dataset& data, const TrainOptions& options, ProgressFn progress,
                     const TrainExecution& execution) {
  return TrainTrees(data, options, 0, options.num_trees, progress, execution);
}

Result<Forest> TrainForestPart(const Dataset& data, const TrainOptions& options, int32_t first,
                               int32_t count, ProgressFn progress, const TrainExecution& execution) {
  if (options.ensemble != EnsembleKind::kRandomForest && options.ensemble != EnsembleKind::kBagging) {
    return InvalidOption("ensemble", "must be rf or bagging to train a part of a forest (boosted "
                                     "trees depend on the trees before them)");
  }
  if (first < 0 || count < 1 || first >= options.num_trees || count > options.num_trees - first) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "a part of a forest of " + std::to_string(options.num_trees) +
                             " trees must lie in trees 0.." + std::to_string(options.num_trees - 1) +
                             ", got " + std::to_string(count) + " trees from tree " + std::to_string(first));
  }
  return TrainTrees(data, options, first, count, progress, execution);
}

}  // namespace urnforest
