// TrainRequest: the rules between training options, and training with the emphasis chosen by
// cross-validation first.
#include "urnforest/train_request.h"

#include <climits>
#include <cmath>
#include <string>
#include <utility>

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

// `report` for one step of a longer run, in trees: the step's own (done, total) covers trees
// `before` .. `before + step` of `all`, scaled into int32 when `all` exceeds it.
ProgressFn ProgressWithin(const ProgressFn& report, int64_t before, int64_t step, int64_t all) {
  if (!report) return {};
  return [report, before, step, all](int32_t done, int32_t total) {
    const int64_t units =
        before + (total <= 0 ? 0 : std::llround(static_cast<double>(done) / total * step));
    const double scale =
        all <= INT32_MAX ? 1.0 : static_cast<double>(INT32_MAX) / static_cast<double>(all);
    return report(static_cast<int32_t>(static_cast<double>(units) * scale),
                  static_cast<int32_t>(static_cast<double>(all) * scale));
  };
}

}  // namespace

Status CheckTrainRequest(const TrainRequest& request, size_t num_features) {
  const TrainOptions& o = request.options;
  Status status = CheckTrainOptions(o, num_features);
  if (!status.ok()) return status;
  const std::string ensemble = EnsembleKindName(o.ensemble);
  const TrainOptionKeys& named = request.named;
  if (named.Has(TrainOptionKey::kBoosting) && o.ensemble != EnsembleKind::kAdaBoost) {
    return Invalid("option boosting needs ensemble adaboost, not " + ensemble);
  }
  if (named.Has(TrainOptionKey::kAdaBoost) && o.ensemble != EnsembleKind::kAdaBoost) {
    return Invalid("the adaboost options need ensemble adaboost, not " + ensemble);
  }
  if ((named.Has(TrainOptionKey::kVoteBoost) || request.select_emphasis) &&
      o.ensemble != EnsembleKind::kVoteBoost) {
    return Invalid("the voteboost options (emphasis a, b) need ensemble voteboost, not " + ensemble);
  }
  if (named.Has(TrainOptionKey::kEmphasisB) && request.select_emphasis) {
    return Invalid("option voteboost.b cannot be combined with voteboost.a = cv (a = b)");
  }
  if (request.cv_trees < 0 || request.cv_trees > TrainOptions::kMaxTrees) {
    return Invalid("option voteboost.cv_trees must be in 0.." +
                   std::to_string(TrainOptions::kMaxTrees) + ", got " +
                   std::to_string(request.cv_trees));
  }
  if (named.Has(TrainOptionKey::kCvTrees) && !request.select_emphasis) {
    return Invalid("option voteboost.cv_trees needs voteboost.a = cv");
  }
  return Status::Ok();
}

Result<TrainedForest> TrainWithEmphasisSelection(const Dataset& data, const TrainRequest& request,
                                                 const ProgressFn& progress,
                                                 const TrainExecution& execution) {
  Status status = CheckTrainRequest(request, data.num_features());
  if (!status.ok()) return status;
  TrainedForest out;
  TrainOptions options = request.options;
  int64_t cv_trees = 0;
  if (request.select_emphasis) {
    EmphasisCvOptions cv;
    cv.seed = options.seed;
    cv.num_trees = request.cv_trees;
    cv_trees = EmphasisCvTrees(options, cv);
    const int64_t all = cv_trees + options.num_trees;
    Result<EmphasisSelection> chosen =
        SelectEmphasisByCV(data, options, cv, ProgressWithin(progress, 0, cv_trees, all));
    if (!chosen.ok()) return chosen.status();
    out.emphasis_selected = true;
    out.emphasis = std::move(chosen).value();
    options.voteboost.a = out.emphasis.chosen;
    options.voteboost.b = 0.0;
  }
  const ProgressFn report =
      cv_trees == 0 ? progress
                    : ProgressWithin(progress, cv_trees, options.num_trees,
                                     cv_trees + options.num_trees);
  Result<Forest> forest = Train(data, options, report, execution);
  if (!forest.ok()) return forest.status();
  out.forest = std::move(forest).value();
  return out;
}

}  // namespace urnforest
