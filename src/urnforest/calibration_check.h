#pragma once
// Calibration hygiene: what the rows given to CalibrateForest can support, and what about them
// looks wrong. The core decides here; the CLI and JS only print or return the report.
//
// How many rows a certificate needs. A halting strategy's disagreement with the full vote is
// certified at most epsilon = 1 - alpha, with probability at least 1 - delta over the draw of the
// calibration rows, by an upper confidence bound on its mean loss over those rows
// (urnforest/risk_certificate.h). Even a strategy with zero loss on every one of n rows cannot be
// certified below RiskUpperBound(0, n, delta) = 1 - delta^(1/n) (the Hoeffding term (1 - epsilon)^n
// <= delta decides at zero loss). So n rows certify at most alpha = delta^(1/n): 0.05 with one row,
// 0.99 needs 299 rows and 0.999 needs 2,995 (delta = 0.05).
//
// The refusal. An alpha below 1/2 promises nothing a halting rule can use (agreeing with the full
// vote on fewer than half of the rows). delta^(1/n) > 1/2 at delta = 0.05 needs n >= 5, so fewer
// than kMinCalibrationRows rows are refused with kTooFewCalibrationRows: no alpha worth asking for
// can be certified from them, and one row makes every prior a point mass.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// Fewer calibration rows than this are refused (kTooFewCalibrationRows; see the file comment).
inline constexpr size_t kMinCalibrationRows = 5;

/// The confidence level 1 - delta at which a calibration report states what its rows certify.
inline constexpr double kCalibrationReportDelta = 0.05;

/// A tally is contested when its leading class holds fewer than this share of the trees' votes.
inline constexpr double kContestedLeaderShare = 0.6;

/// The test for training rows (on the distinct rows: copies add no evidence) applies from this
/// many distinct rows on; it fires when fewer than kTrainingLikeContestedShare of them are contested. Measured with scikit-learn
/// RandomForestClassifier(101) (fully grown, bootstrap) on 8 data sets, 3 splits each
/// (docs/import.md): contested share 0.0-0.3 % on the forest's training rows, 2.7-36 % on
/// held-out rows.
inline constexpr size_t kTrainingLikeMinRows = 100;
inline constexpr double kTrainingLikeContestedShare = 0.01;

/// From this many distinct rows on, rows whose tallies are all unanimous are warned as training rows too
/// (trees grown on all rows without bootstrap, e.g. ExtraTrees, are unanimous on their training
/// rows; the most unanimous held-out rows measured, iris, were 56 % unanimous: 0.56^20 < 1e-5).
inline constexpr size_t kAllUnanimousMinRows = 20;

/// Stable warning codes of a calibration report. Their names (CalibrationWarningName) are the
/// `code` strings seen by JS and the CLI: never rename one; append new codes at the end.
enum class CalibrationWarningCode : int32_t {
  /// More than half of the rows are copies of other rows (the message says how many are distinct).
  kDuplicateRows = 0,
  /// The tallies look like the model's own training rows: far fewer contested tallies than
  /// held-out rows give (see kTrainingLikeMinRows), or every tally unanimous.
  kTrainingLikeRows,
  /// The rows cannot certify the alpha asked at delta = kCalibrationReportDelta, even for a
  /// strategy that never disagrees on them (the message gives the largest alpha and rows needed).
  kTooFewRowsForAlpha,
};

/// The stable string name of a warning code, e.g. "DuplicateRows". Never null.
const char* CalibrationWarningName(CalibrationWarningCode code);

/// One warning of a calibration report.
struct CalibrationWarning {
  CalibrationWarningCode code = CalibrationWarningCode::kDuplicateRows;
  std::string message;  ///< Says what was counted, e.g. "300 rows, 1 distinct".
};

/// What calibration rows can support, and what about them looks wrong.
struct CalibrationReport {
  size_t rows = 0;            ///< Rows given.
  size_t distinct_rows = 0;   ///< Rows that differ in some value (NaN equals NaN; -0 equals 0).
  size_t unanimous_rows = 0;  ///< Rows (copies included) on which every tree votes one class.
  size_t contested_rows = 0;  ///< Rows (copies included) whose leading class has under
                              ///< kContestedLeaderShare of the votes.
  double alpha = 0.0;         ///< The alpha asked.
  /// The largest alpha rule auto can certify from these rows at delta =
  /// kCalibrationReportDelta (MaxCertifiableAlpha(rows, kCalibrationReportDelta)).
  double max_certifiable_alpha = 0.0;
  /// Rows the alpha asked needs at that delta (CalibrationRowsNeeded); 0 when alpha is 1 (no
  /// finite number of rows certifies a disagreement of exactly zero).
  size_t rows_needed = 0;
  std::vector<CalibrationWarning> warnings;  ///< In the order of CalibrationWarningCode.
};

/// The largest alpha rule auto can certify at level 1 - delta from `rows` calibration rows
/// (AutoMaxCertifiableAlpha: a quarter fit, the rest certify, reached only when no certify row
/// disagrees); 0 for fewer than two rows. delta in (0, 1).
double MaxCertifiableAlpha(size_t rows, double delta);

/// The fewest rows with which rule auto can certify alpha at delta (AutoRowsNeeded: with fewer it
/// answers with the exact exit whatever the rows); 0 for alpha >= 1 (none suffices). alpha in
/// (0, 1], delta in (0, 1).
size_t CalibrationRowsNeeded(double alpha, double delta);

/// Rows (row-major, `num_columns` floats each; borrowed) that differ in some value, counted with
/// every NaN equal to every NaN and -0 equal to 0.
size_t CountDistinctRows(const float* rows, size_t num_rows, size_t num_columns);

/// The report on `num_rows` calibration rows (row-major, `num_columns` floats; borrowed) whose full
/// tallies are `votes` (num_rows x num_classes, row-major, as FullVote::votes), for `alpha`.
/// kInvalidArgument for alpha outside (0, 1]; then kTooFewCalibrationRows for fewer than
/// kMinCalibrationRows rows (votes unread); then kInvalidArgument for num_classes < 1 or votes of
/// another size.
Result<CalibrationReport> CheckCalibrationRows(const float* rows, size_t num_rows,
                                               size_t num_columns,
                                               const std::vector<uint32_t>& votes,
                                               int32_t num_classes, double alpha);

}  // namespace urnforest
