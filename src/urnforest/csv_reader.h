#pragma once
// CSV text -> Dataset (RFC 4180 quoting, header row, typed columns, missing values).
#include <string>
#include <string_view>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

/// Order of class indices.
enum class ClassOrder : uint8_t {
  kSorted = 0,     ///< Byte-wise sorted class names (default; stable across folds and files).
  kFirstSeen = 1,  ///< Order of first appearance in the file.
};

/// Options for ReadCsv.
struct CsvOptions {
  /// Name of the target column; empty = the last column.
  std::string target;
  /// False: the file has no target column (all columns are features; labels() is empty).
  bool has_target = true;
  ClassOrder class_order = ClassOrder::kSorted;
  /// When set, the file is read against a trained model's schema: feature columns are matched by
  /// name (any order, extra columns ignored, a missing one is kColumnMismatch), numeric columns must
  /// hold numbers, categorical values map to the schema's indices (unseen value -> missing), and the
  /// target column, if present, maps to the schema's class names (unseen label -> kUnknownClass).
  /// The target column is optional in this mode. Not owned; must outlive the call.
  const Schema* schema = nullptr;
};

/// Parses CSV text. Cells that are empty, `?` or `NA` (unquoted) are missing values.
/// A column is numeric when every non-missing cell is an unquoted finite number; otherwise it is
/// categorical (quoted numbers, as R writes factors, are categorical). Accepts LF and CRLF line
/// ends and a UTF-8 BOM. Every failure has a stable code and the 1-based line and column.
Result<Dataset> ReadCsv(std::string_view text, const CsvOptions& options = {});

}  // namespace urnforest
