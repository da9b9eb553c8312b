#pragma once
// Error reporting for the urnforest core: no exception ever crosses the public API.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace urnforest {

/// Stable error codes. Their names (CodeName) are the `.code` strings seen by JS and the CLI:
/// never rename one; append new codes at the end.
enum class StatusCode : int32_t {
  kOk = 0,
  kInvalidArgument,      ///< An option or argument is out of range or of the wrong kind.
  kCsvEmpty,             ///< The CSV text has no header row.
  kCsvNoRows,            ///< The CSV has a header but no data rows.
  kCsvRaggedRow,         ///< A row has more or fewer fields than the header.
  kCsvUnterminatedQuote, ///< A quoted field runs to the end of the input.
  kCsvBadQuote,          ///< A quote appears inside an unquoted field or after a closing quote.
  kCsvInvalidUtf8,       ///< The text is not valid UTF-8.
  kCsvDuplicateColumn,   ///< Two header cells have the same name.
  kTargetNotFound,       ///< The requested target column does not exist.
  kMissingLabel,         ///< A training row has no class label.
  kNonFiniteValue,       ///< Inf, or a number too large for float, in a numeric cell or array.
  kShapeMismatch,        ///< Array lengths, row counts or column sets disagree.
  kTooFewClasses,        ///< Training needs at least two classes with rows.
  kLimitExceeded,        ///< A documented size limit (rows, features, classes, trees, ...) is exceeded.
  kCorruptModel,         ///< Model bytes fail a structural check (magic, length, checksum, indices).
  kUnsupportedVersion,   ///< Model bytes come from an unknown format version.
  kUnknownClass,         ///< A label is not one of the model's classes.
  kColumnMismatch,       ///< Prediction data lacks a column the model needs, or types differ.
  kOutOfMemory,          ///< An allocation failed.
  kInternal,             ///< A bug: an invariant of the library does not hold.
  kIoError,              ///< A file could not be read or written (CLI only).
  /// An imported model (ONNX) is well formed but uses an operator, graph or layout urnforest does
  /// not run (a regressor, a preprocessing node, an unknown split mode); the message names the node.
  kUnsupportedModel,
  /// The target column holds numbers with many distinct values (a regression target): urnforest
  /// classifies; declare the target categorical to train on it anyway.
  kNumericTarget,
  /// Calibration rows too few to certify any alpha of 1/2 or more (urnforest/calibration_check.h):
  /// fewer than kMinCalibrationRows.
  kTooFewCalibrationRows,
};

/// The stable string name of a code, e.g. "CsvRaggedRow". Never null.
const char* CodeName(StatusCode code);

/// Outcome of a fallible operation. `line`/`column` are 1-based positions in CSV input (0 = n/a).
struct Status {
  StatusCode code = StatusCode::kOk;
  std::string message;
  int64_t line = 0;
  int64_t column = 0;

  bool ok() const { return code == StatusCode::kOk; }
  static Status Ok() { return Status{}; }
  static Status Error(StatusCode code, std::string message, int64_t line = 0, int64_t column = 0) {
    return Status{code, std::move(message), line, column};
  }
  /// "CsvRaggedRow: line 4, column 7: row has 5 fields, header has 4".
  std::string ToString() const;
};

/// A value or the Status explaining why there is none (a minimal StatusOr).
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}        // NOLINT(runtime/explicit)
  Result(Status status) : status_(std::move(status)) {}  // NOLINT(runtime/explicit)
  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  /// Precondition: ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace urnforest
