// CalibrateForest: the votes of an imported forest's trees on unlabeled rows become its prior data.
#include "urnforest/calibrate.h"

#include <utility>
#include <vector>

#include "ensemble/forest_access.h"
#include "urnforest/forest_stratified.h"
#include "urnforest/margin_rule.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"

namespace urnforest {

namespace {

// The steps every calibration shares: alpha checked, too few rows refused before any tree runs,
// the full vote of all trees on the rows (into `votes`) and the hygiene report on its tallies.
Result<CalibrationReport> VoteAndCheck(const Forest& forest, const float* rows, size_t num_rows, double alpha,
                                       FullVote* votes) {
  if (Status a = CheckAlpha(alpha); !a.ok()) return a;
  if (num_rows < kMinCalibrationRows) {  // refused before any tree runs
    return CheckCalibrationRows(rows, num_rows, 0, {}, forest.num_classes(), alpha).status();
  }
  Result<FullVote> full = PredictFullRows(forest, rows, num_rows);
  if (!full.ok()) return full.status();
  *votes = std::move(full).value();
  return CheckCalibrationRows(rows, num_rows, static_cast<size_t>(forest.num_features()), votes->votes,
                              forest.num_classes(), alpha);
}

// A forest trained here: the tallies of all T trees and their plurality (the model's own hard
// prediction) are stored beside the out-of-bag votes, which stay the priors of every table rule,
// so stored tables are kept.
Result<CalibrationReport> CalibrateTrained(Forest* forest, const float* rows, size_t num_rows, double alpha) {
  if (!forest->tree_weights().empty()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "an AdaBoost model's own prediction is its weighted vote, while halting counts "
                         "trees unweighted: no certificate against it is made (calibration is for "
                         "random forests, bagging and vote-boosting)");
  }
  FullVote votes;
  Result<CalibrationReport> report = VoteAndCheck(*forest, rows, num_rows, alpha, &votes);
  if (!report.ok()) return report.status();
  using internal::ForestAccess;
  ForestAccess::stratified(*forest) = FitForestStratified(*forest, rows, num_rows, votes.votes);
  ForestAccess::calibration_votes(*forest) = std::move(votes.votes);
  ForestAccess::calibration_labels(*forest) = std::move(votes.labels);
  return report;
}

}  // namespace

Result<CalibrationReport> CalibrateForestReport(Forest* forest, const float* rows, size_t num_rows,
                                                double alpha) {
  const ImportedModel* m = forest->imported();
  if (m == nullptr) return CalibrateTrained(forest, rows, num_rows, alpha);
  if (m->kind == ImportedKind::kAdditive) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "an additive model (boosted trees) does not vote; its exact early exit "
                         "(rule alpha1) needs no calibration");
  }
  FullVote votes;
  Result<CalibrationReport> report = VoteAndCheck(*forest, rows, num_rows, alpha, &votes);
  if (!report.ok()) return report.status();
  Result<ScorePrediction> own = PredictScoresRows(*forest, rows, num_rows, m->default_vote);
  if (!own.ok()) return own.status();
  using internal::ForestAccess;
  Result<MarginCalibration> margin = CalibrateMargin(*forest, rows, num_rows);
  if (!margin.ok()) return margin.status();
  ForestAccess::stratified(*forest) = FitForestStratified(*forest, rows, num_rows, votes.votes);
  ForestAccess::oob_votes(*forest) = std::move(votes.votes);
  ForestAccess::imported(*forest)[0].margin = std::move(margin).value();
  ForestAccess::train_labels(*forest) = std::move(own.value().labels);
  ForestAccess::imported(*forest)[0].calibrated = true;
  forest->ClearStoredTables();
  return report;
}

Status CalibrateForest(Forest* forest, const float* rows, size_t num_rows) {
  return CalibrateForestReport(forest, rows, num_rows).status();
}

Status CalibrateForest(Forest* forest, const Dataset& data) {
  Result<std::vector<float>> rows = ModelRows(*forest, data);
  if (!rows.ok()) return rows.status();
  return CalibrateForest(forest, rows.value().data(), data.num_rows());
}

}  // namespace urnforest
