// Parsing of the learner CLI options into the core's TrainRequest (see voteboost_args.h).
#include "voteboost_args.h"

#include <string>

namespace urnforest::cli {
namespace {

// The ensemble kind, its size and the tree shape.
Status ParseShape(const Args& args, TrainOptions* options) {
  Result<EnsembleKind> ensemble = ParseOption(args, "ensemble", options->ensemble, ParseEnsembleKind);
  if (!ensemble.ok()) return ensemble.status();
  options->ensemble = ensemble.value();
  Result<int64_t> trees = args.Int("trees", options->num_trees, 1, TrainOptions::kMaxTrees);
  if (!trees.ok()) return trees.status();
  options->num_trees = static_cast<int32_t>(trees.value());
  Result<int64_t> mtry = args.Int("mtry", options->mtry, 0, DatasetLimits::kMaxFeatures);
  if (!mtry.ok()) return mtry.status();
  options->mtry = static_cast<int32_t>(mtry.value());
  Result<int64_t> depth = args.Int("max-depth", options->max_depth, 0, TrainOptions::kMaxDepth);
  if (!depth.ok()) return depth.status();
  options->max_depth = static_cast<int32_t>(depth.value());
  using Pruning = TreePruningOptions;
  Result<TreePruning> pruning =
      ParseOption(args, "tree-pruning", options->pruning.mode, ParseTreePruning);
  if (!pruning.ok()) return pruning.status();
  options->pruning.mode = pruning.value();
  Result<int64_t> folds =
      args.Int("tree-folds", options->pruning.cv_folds, Pruning::kMinCvFolds, Pruning::kMaxCvFolds);
  if (!folds.ok()) return folds.status();
  options->pruning.cv_folds = static_cast<int32_t>(folds.value());
  Result<double> se = args.Real("tree-se", options->pruning.se_rule, 0.0, Pruning::kMaxSeRule);
  if (!se.ok()) return se.status();
  options->pruning.se_rule = se.value();
  return Status::Ok();
}

// AdaBoost's boosting variant and vote-boosting's emphasis.
Status ParseBoosting(const Args& args, TrainRequest* request) {
  TrainOptions& options = request->options;
  if (args.Has("boosting")) request->named.Add(TrainOptionKey::kBoosting);
  Result<BoostingVariant> boosting = ParseOption(args, "boosting", options.boosting, ParseBoostingVariant);
  if (!boosting.ok()) return boosting.status();
  options.boosting = boosting.value();
  constexpr double kMin = VoteBoostOptions::kMinEmphasis, kMax = VoteBoostOptions::kMaxEmphasis;
  if (args.Has("emphasis")) {
    request->named.Add(TrainOptionKey::kVoteBoost);
    if (args.Get("emphasis", "") == "cv") {
      request->select_emphasis = true;
    } else {
      Result<double> a = args.Real("emphasis", options.voteboost.a, kMin, kMax);
      if (!a.ok()) return a.status();
      options.voteboost.a = a.value();
    }
  }
  if (args.Has("emphasis-b")) {
    request->named.Add(TrainOptionKey::kVoteBoost);
    request->named.Add(TrainOptionKey::kEmphasisB);
    Result<double> b = args.Real("emphasis-b", options.voteboost.b, kMin, kMax);
    if (!b.ok()) return b.status();
    options.voteboost.b = b.value();
  }
  if (args.Has("cv-trees")) request->named.Add(TrainOptionKey::kCvTrees);
  Result<int64_t> cv_trees = args.Int("cv-trees", request->cv_trees, 0, TrainOptions::kMaxTrees);
  if (!cv_trees.ok()) return cv_trees.status();
  request->cv_trees = static_cast<int32_t>(cv_trees.value());
  return Status::Ok();
}

}  // namespace

Status ParseLearnerArgs(const Args& args, TrainRequest* request) {
  Status status = ParseShape(args, &request->options);
  if (status.ok()) status = ParseBoosting(args, request);
  if (!status.ok() || !args.Has("base")) return status;
  Result<BaseLearner> base = ParseBaseLearner(request->options.ensemble, args.Get("base", ""));
  if (!base.ok()) return OptionError("base", base.status());
  Status applied = ApplyBaseLearner(base.value(), &request->options);
  if (!applied.ok()) return OptionError("base", applied);
  return Status::Ok();
}

}  // namespace urnforest::cli
