// Calibration hygiene: the report on calibration rows (see urnforest/calibration_check.h).
#include "urnforest/calibration_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>

#include "urnforest/certified_halting.h"

namespace urnforest {
namespace {

// One row's bytes with every NaN made the same NaN and -0 made 0, so that equal rows compare equal.
std::string RowKey(const float* row, size_t num_columns) {
  std::string key(num_columns * sizeof(float), '\0');
  for (size_t c = 0; c < num_columns; ++c) {
    float v = row[c];
    if (std::isnan(v)) v = std::nanf("");
    if (v == 0.0f) v = 0.0f;
    std::memcpy(&key[c * sizeof(float)], &v, sizeof(float));
  }
  return key;
}

// Per row, whether it is the first of its copies.
std::vector<bool> FirstCopies(const float* rows, size_t num_rows, size_t num_columns) {
  std::unordered_set<std::string> seen;
  seen.reserve(num_rows);
  std::vector<bool> first(num_rows);
  for (size_t r = 0; r < num_rows; ++r) {
    first[r] = seen.insert(RowKey(rows + r * num_columns, num_columns)).second;
  }
  return first;
}

std::string Fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// The alpha asked, as short as it was written (0.999, 0.9995).
std::string AlphaText(double alpha) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", alpha);
  return text;
}

void Warn(CalibrationReport& report, CalibrationWarningCode code, std::string message) {
  report.warnings.push_back(CalibrationWarning{code, std::move(message)});
}

// The kTrainingLikeRows test on the distinct rows (copies add no evidence): every tally unanimous
// from kAllUnanimousMinRows rows on, or fewer than kTrainingLikeContestedShare contested from
// kTrainingLikeMinRows on. Empty when neither holds.
std::string TrainingLikeMessage(size_t distinct, size_t unanimous, size_t contested) {
  const std::string counted = std::to_string(distinct) + " distinct rows";
  if (distinct >= kAllUnanimousMinRows && unanimous == distinct) {
    return "every one of the " + counted +
           " has a unanimous tally, as trees have on the rows they were trained on; calibrate on "
           "unlabeled held-out rows, never the training rows";
  }
  const double share = static_cast<double>(contested) / static_cast<double>(distinct);
  if (distinct >= kTrainingLikeMinRows && share < kTrainingLikeContestedShare) {
    return std::to_string(contested) + " of " + counted + " (" + Fixed(100 * share, 1) +
           " %) have a contested tally (leading class under 60 % of the votes); held-out rows of "
           "scikit-learn forests had 2.7 % or more, their training rows 0.3 % or less. These look "
           "like training rows: calibrate on unlabeled held-out rows";
  }
  return std::string();
}

}  // namespace

const char* CalibrationWarningName(CalibrationWarningCode code) {
  switch (code) {
    case CalibrationWarningCode::kDuplicateRows: return "DuplicateRows";
    case CalibrationWarningCode::kTrainingLikeRows: return "TrainingLikeRows";
    case CalibrationWarningCode::kTooFewRowsForAlpha: return "TooFewRowsForAlpha";
  }
  return "DuplicateRows";
}

double MaxCertifiableAlpha(size_t rows, double delta) {
  return AutoMaxCertifiableAlpha(static_cast<int64_t>(rows), delta);
}

size_t CalibrationRowsNeeded(double alpha, double delta) {
  return static_cast<size_t>(AutoRowsNeeded(alpha, delta));
}

size_t CountDistinctRows(const float* rows, size_t num_rows, size_t num_columns) {
  const std::vector<bool> first = FirstCopies(rows, num_rows, num_columns);
  return static_cast<size_t>(std::count(first.begin(), first.end(), true));
}

Result<CalibrationReport> CheckCalibrationRows(const float* rows, size_t num_rows,
                                               size_t num_columns,
                                               const std::vector<uint32_t>& votes,
                                               int32_t num_classes, double alpha) {
  if (!(alpha > 0.0 && alpha <= 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "alpha must be in (0, 1]");
  }
  if (num_rows < kMinCalibrationRows) {
    return Status::Error(
        StatusCode::kTooFewCalibrationRows,
        "calibration needs at least " + std::to_string(kMinCalibrationRows) + " rows, got " +
            std::to_string(num_rows) + ": they certify at most alpha " +
            Fixed(MaxCertifiableAlpha(num_rows, kCalibrationReportDelta), 3) +
            " at delta 0.05 (below 1/2); use unlabeled held-out rows, " +
            std::to_string(CalibrationRowsNeeded(0.99, kCalibrationReportDelta)) +
            " or more for alpha 0.99");
  }
  if (num_classes < 1 || votes.size() != num_rows * static_cast<size_t>(num_classes)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "calibration check: votes must be rows x classes");
  }
  CalibrationReport report;
  report.rows = num_rows;
  report.alpha = alpha;
  report.max_certifiable_alpha = MaxCertifiableAlpha(num_rows, kCalibrationReportDelta);
  report.rows_needed = CalibrationRowsNeeded(alpha, kCalibrationReportDelta);
  const std::vector<bool> first = FirstCopies(rows, num_rows, num_columns);
  const size_t k = static_cast<size_t>(num_classes);
  size_t distinct_unanimous = 0, distinct_contested = 0;
  for (size_t r = 0; r < num_rows; ++r) {
    const uint32_t* tally = votes.data() + r * k;
    uint64_t total = 0;
    uint32_t lead = 0;
    for (size_t c = 0; c < k; ++c) total += tally[c], lead = std::max(lead, tally[c]);
    const bool unanimous = total > 0 && lead == total;
    const bool contested = static_cast<double>(lead) < kContestedLeaderShare * static_cast<double>(total);
    report.unanimous_rows += unanimous;
    report.contested_rows += contested;
    if (first[r]) {
      ++report.distinct_rows;
      distinct_unanimous += unanimous;
      distinct_contested += contested;
    }
  }

  if (2 * report.distinct_rows < num_rows) {
    Warn(report, CalibrationWarningCode::kDuplicateRows,
         std::to_string(num_rows) + " rows, " + std::to_string(report.distinct_rows) +
             " distinct: more than half are copies of other rows, so the rows say less than their "
             "count suggests; calibrate on distinct held-out rows");
  }
  std::string training = TrainingLikeMessage(report.distinct_rows, distinct_unanimous, distinct_contested);
  if (!training.empty()) Warn(report, CalibrationWarningCode::kTrainingLikeRows, std::move(training));
  if (report.max_certifiable_alpha < alpha) {
    Warn(report, CalibrationWarningCode::kTooFewRowsForAlpha,
         std::to_string(num_rows) + " rows certify at most alpha " +
             Fixed(report.max_certifiable_alpha, 4) + " at delta 0.05; alpha " + AlphaText(alpha) +
             (report.rows_needed > 0
                  ? " needs " + std::to_string(report.rows_needed) + " rows"
                  : " (a disagreement of exactly 0) is certified by no number of rows; the exact "
                    "rule alpha1 gives it"));
  }
  return report;
}

}  // namespace urnforest
