// Error reporting: the stable names of the status codes and Status::ToString.
#include "urnforest/status.h"

namespace urnforest {

const char* CodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "Ok";
    case StatusCode::kInvalidArgument: return "InvalidArgument";
    case StatusCode::kCsvEmpty: return "CsvEmpty";
    case StatusCode::kCsvNoRows: return "CsvNoRows";
    case StatusCode::kCsvRaggedRow: return "CsvRaggedRow";
    case StatusCode::kCsvUnterminatedQuote: return "CsvUnterminatedQuote";
    case StatusCode::kCsvBadQuote: return "CsvBadQuote";
    case StatusCode::kCsvInvalidUtf8: return "CsvInvalidUtf8";
    case StatusCode::kCsvDuplicateColumn: return "CsvDuplicateColumn";
    case StatusCode::kTargetNotFound: return "TargetNotFound";
    case StatusCode::kMissingLabel: return "MissingLabel";
    case StatusCode::kNonFiniteValue: return "NonFiniteValue";
    case StatusCode::kShapeMismatch: return "ShapeMismatch";
    case StatusCode::kTooFewClasses: return "TooFewClasses";
    case StatusCode::kLimitExceeded: return "LimitExceeded";
    case StatusCode::kCorruptModel: return "CorruptModel";
    case StatusCode::kUnsupportedVersion: return "UnsupportedVersion";
    case StatusCode::kUnknownClass: return "UnknownClass";
    case StatusCode::kColumnMismatch: return "ColumnMismatch";
    case StatusCode::kOutOfMemory: return "OutOfMemory";
    case StatusCode::kInternal: return "Internal";
    case StatusCode::kIoError: return "IoError";
    case StatusCode::kUnsupportedModel: return "UnsupportedModel";
    case StatusCode::kNumericTarget: return "NumericTarget";
    case StatusCode::kTooFewCalibrationRows: return "TooFewCalibrationRows";
  }
  return "Internal";
}

std::string Status::ToString() const {
  std::string out = CodeName(code);
  if (line > 0) {
    out += ": line " + std::to_string(line);
    if (column > 0) out += ", column " + std::to_string(column);
  }
  if (!message.empty()) out += ": " + message;
  return out;
}

}  // namespace urnforest
