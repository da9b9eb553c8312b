#pragma once
// Private to src/data: DatasetBuilder's state (the column inference, the rows so far, the label
// column), shared by its files: dataset_builder.cpp (cell by cell) and dataset_builder_fields.cpp
// (a text format's whole record per call).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/utf8.h"
#include "data/csv_tokenizer.h"
#include "data/label_column.h"
#include "data/text_dictionary.h"
#include "urnforest/dataset_builder.h"

namespace urnforest {
namespace internal {

constexpr float kMissingValue = std::numeric_limits<float>::quiet_NaN();
constexpr int32_t kLabelNotSet = -2;

inline bool IsBlank(char c) { return c == ' ' || c == '\t'; }

inline std::string_view TrimBlanksSlow(std::string_view s) {
  size_t begin = 0, end = s.size();
  while (begin < end && IsBlank(s[begin])) ++begin;
  while (end > begin && IsBlank(s[end - 1])) --end;
  return s.substr(begin, end - begin);
}

// Inline: almost every field has no blank at either end (the CSV tokenizer trims unquoted ones).
inline std::string_view TrimBlanks(std::string_view s) {
  if (!s.empty() && !IsBlank(s.front()) && !IsBlank(s.back())) return s;
  return TrimBlanksSlow(s);
}

// A field of only blanks is missing, quoted or not (an unquoted one is empty once trimmed).
inline bool IsBlankField(const Cell& cell) {
  return cell.kind == CellKind::kField && TrimBlanks(cell.text).empty();
}

inline NumberKind ReadField(std::string_view text, float* out, char decimal) {
  return ParseCsvNumber(TrimBlanks(text), out, decimal);
}

// Inference state of one feature column.
struct ColumnState {
  bool numeric = true;      // kInfer: no text so far.
  bool had_number = false;  // Some number was read (so turning categorical needs a replay).
  size_t switch_row = 0;    // First row read as text; rows before it may hold numbers.
  int64_t typed_number_row = -1;
  int64_t typed_text_row = -1;
  std::string typed_text;  // The first typed text, for the mixing message.
  TextDictionary categories;
  std::unordered_map<std::string_view, int32_t> fixed;  // Fixed categories -> index.
  // First non-finite number, reported only if the column stays numeric.
  bool nonfinite = false;
  int64_t nonfinite_line = 0, nonfinite_column = 0;
  size_t nonfinite_row = 0;
  std::string nonfinite_text;
};

}  // namespace internal

struct DatasetBuilder::Impl {
  using ColumnState = internal::ColumnState;
  using TextDictionary = internal::TextDictionary;

  DatasetBuilderOptions options;
  std::vector<ColumnSpec> specs;
  std::vector<ColumnState> columns;
  size_t rows = 0;
  int64_t row_line = 0;
  std::vector<float> row_major;  // rows x features.
  std::vector<int32_t> labels;
  int32_t label = internal::kLabelNotSet;  // The current row's.
  internal::LabelColumn classes{ClassSource::kDiscovered, {}, ClassOrder::kSorted};
  bool replaying = false;
  std::vector<TextDictionary> prefix;  // Replayed categories of switched columns.

  size_t row() const { return rows - 1; }
  float* cell(size_t feature) { return row_major.data() + row() * specs.size() + feature; }

  std::string FeatureWhere(size_t r, size_t f) const {
    if (options.feature_cell_name) return options.feature_cell_name(r, f);
    return "row " + std::to_string(r) + ", column " + internal::QuoteForMessage(specs[f].name);
  }
  std::string LabelWhere(size_t r) const {
    if (options.label_cell_name) return options.label_cell_name(r);
    return "row " + std::to_string(r) + "'s label";
  }
  // `message` at the cell's position, or prefixed with `where` when the cell has none.
  static Status At(StatusCode code, const std::string& message, const Cell& c,
                   const std::string& where) {
    if (c.line > 0) return Status::Error(code, message, c.line, c.column);
    return Status::Error(code, where + ": " + message);
  }
  Status FeatureError(StatusCode code, const std::string& message, size_t f, const Cell& c) const {
    return At(code, message, c, c.line > 0 ? std::string() : FeatureWhere(row(), f));
  }
  Status LabelError(StatusCode code, const std::string& message, const Cell& c) const {
    return At(code, message, c, c.line > 0 ? std::string() : LabelWhere(row()));
  }

  Status EndRow();
  Status NumericCell(size_t f, const Cell& c);
  Status CategoryCell(size_t f, std::string_view text, const Cell& c);
  Status InferredCell(size_t f, const Cell& c);
  Status MixError(size_t f, const Cell& c) const;
  Status TypedNumber(size_t f, const Cell& c);
  Status FirstNonFinite() const;
  Status MergePrefixes();
};

}  // namespace urnforest
