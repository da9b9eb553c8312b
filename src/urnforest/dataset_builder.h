#pragma once
// DatasetBuilder: cells of any input format -> Dataset. It alone decides column types, category and
// class order, missing values, the numeric-target rule and the dataset limits; an input format (the
// CSV reader, the JS array and row shapes) only says what each cell holds.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

/// Order of class indices.
enum class ClassOrder : uint8_t {
  kSorted = 0,     ///< Byte-wise sorted class names (default; stable across folds and files).
  kFirstSeen = 1,  ///< Order of first appearance in the data.
};

/// What one cell of the input holds.
enum class CellKind : uint8_t {
  kMissing = 0,  ///< No value.
  kNumber = 1,   ///< A typed number (a JS number): `number`. As a label, its name is `text`.
  kText = 2,     ///< A typed string (a JS string): a category or class name, never read as a number.
  kField = 3,    ///< Untyped text of a text format (a CSV field): a number when it reads as one.
};

/// One cell handed to a DatasetBuilder. `text` is only read during the call that takes the cell.
struct Cell {
  CellKind kind = CellKind::kMissing;
  double number = 0;
  std::string_view text;
  /// Where the cell is in its source, for error positions: 1-based line and field (0 = unknown;
  /// then messages name the cell with DatasetBuilderOptions' namers, or by row and column).
  int64_t line = 0;
  int64_t column = 0;
};

/// One field of a text format's record (a CSV field), for DatasetBuilder::SetFieldRow: a kField
/// cell, or kMissing when `missing`. `text` is only read during the call that takes it.
struct FieldRef {
  std::string_view text;
  int64_t line = 0;      ///< 1-based line where the field starts (0 = unknown).
  bool missing = false;  ///< The format's own missing-value marker (a CSV's empty, ? or NA).
};

/// Where SetFieldRow puts a record's field: a feature index (>= 0), or one of these.
constexpr int32_t kFieldIsLabel = -2;   ///< The row's label.
constexpr int32_t kFieldIgnored = -1;  ///< Nowhere (a column that is not used).

/// How a feature column's type is decided.
enum class ColumnRule : uint8_t {
  /// Training data: numeric iff every non-missing cell is a number (a kNumber cell, or a kField
  /// that reads as a number), else categorical. kNumber and kText cells in one column are
  /// kInvalidArgument (typed values say their type).
  kInfer = 0,
  kNumeric = 1,      ///< Declared numeric (a model's): text is kColumnMismatch.
  kCategorical = 2,  ///< Declared categorical (a model's): every value is a category.
};

/// One feature column.
struct ColumnSpec {
  std::string name;
  ColumnRule rule = ColumnRule::kInfer;
  /// kCategorical only: when true, `categories` are fixed (a model's): a cell maps to its index and
  /// an unseen value is missing. False: categories are the values in first-seen order.
  bool fixed_categories = false;
  std::vector<std::string> categories;
};

/// Where class names come from.
enum class ClassSource : uint8_t {
  kDiscovered = 0,  ///< The labels' distinct names, in DatasetBuilderOptions::class_order.
  kGiven = 1,       ///< class_names, as given; a label outside them is kUnknownClass.
  kModel = 2,       ///< A trained model's class_names: as kGiven, and the numeric-target rule is off.
};

/// Options of a DatasetBuilder.
struct DatasetBuilderOptions {
  /// True: the data has a target column (each row gets a label; labels() has one per row).
  bool has_labels = false;
  /// The target column's name (Schema::target_name; may be set without labels, as a model's).
  std::string target_name;
  ClassSource class_source = ClassSource::kDiscovered;
  /// Class index -> name for kGiven and kModel (distinct). Ignored for kDiscovered.
  std::vector<std::string> class_names;
  /// Order of discovered class names: byte-wise (default) or first seen. Labels given as numbers
  /// are named by their text ("1", "10", "2" in byte order), exactly as a CSV file's.
  ClassOrder class_order = ClassOrder::kSorted;
  /// True: a missing label is "unknown" (-1). False: it fails with kMissingLabel.
  bool missing_label_is_unknown = false;
  /// True: labels are classes whatever they look like. False: labels given as numbers or as fields
  /// that all read as numbers fail NumericTargetRule with kNumericTarget (not for kModel classes,
  /// nor for labels given as typed text or as class indices).
  bool target_categorical = false;
  /// Decimal mark of kField numbers: '.' or ','.
  char decimal = '.';
  /// Names a feature cell (row 0-based, feature index) in messages when the cell has no line, e.g.
  /// "rows[3].colour". Default: "row 3, column 'colour'".
  std::function<std::string(size_t row, size_t feature)> feature_cell_name;
  /// Names a row's label in messages when the cell has no line, e.g. "labels[3]". Default: "row 3's
  /// label".
  std::function<std::string(size_t row)> label_cell_name;
};

/// True when a kField cell `text` reads as a number (surrounding spaces and tabs ignored, whether
/// the field was quoted or not: quoting never decides a type), with `decimal` '.' or ','.
bool FieldReadsAsNumber(std::string_view text, char decimal);

/// Builds a Dataset row by row, cell by cell, from any input format. Use: Create, then per row
/// StartRow and SetFeature / SetLabel (or SetLabelIndex) for its cells (cells not set are missing; a
/// row whose label is not set has a missing label), then Finish. The first failure ends the build:
/// call nothing but the destructor after a non-Ok status.
///
/// Decides (training data): column types (ColumnRule::kInfer), categories in first-seen order over
/// the whole column, non-finite numbers (kNonFiniteValue, reported for the first such cell, in
/// source order, of a column that stays numeric), class names and their order, the numeric-target
/// rule, missing labels, and DatasetLimits (kLimitExceeded).
class DatasetBuilder {
 public:
  /// Fails with kLimitExceeded beyond DatasetLimits::kMaxFeatures columns (at `line`, if given).
  static Result<DatasetBuilder> Create(std::vector<ColumnSpec> features,
                                       DatasetBuilderOptions options, int64_t line = 0);

  DatasetBuilder(DatasetBuilder&&) noexcept;
  DatasetBuilder& operator=(DatasetBuilder&&) noexcept;
  ~DatasetBuilder();

  /// Starts a row (all its cells missing). kLimitExceeded beyond DatasetLimits' rows or cells
  /// (at `line`, if given); the previous row's missing label fails here (kMissingLabel).
  Status StartRow(int64_t line = 0);
  /// Sets a cell of the current row. `feature` < number of columns.
  Status SetFeature(size_t feature, const Cell& cell);
  /// Sets the current row's label: a name (kText, kField, or kNumber's `text`) or missing.
  Status SetLabel(const Cell& cell);
  /// Sets the current row's cells from a whole record of a text format, the fast way for many
  /// cells: field k (`fields[k]`, k < `count`, at 1-based column k + 1 of its line) goes to feature
  /// `slots[k]`, to the label (kFieldIsLabel) or nowhere (kFieldIgnored). The same cells, results
  /// and errors as SetFeature / SetLabel called in field order; stops at the first failure.
  Status SetFieldRow(const FieldRef* fields, const int32_t* slots, size_t count);
  /// Sets the current row's label as a class index (-1 = unknown). With kDiscovered classes the
  /// names are "0", "1", ... up to the largest index; otherwise the index must be below
  /// class_names.size() (kInvalidArgument).
  Status SetLabelIndex(int32_t index);

  /// Rows started so far.
  size_t num_rows() const;

  /// The cells of the first `rows` rows again, for columns that turned categorical after some
  /// numbers (their categories are the cells' text, so the numbers' text is needed). Finish calls
  /// it with rows > 0 only when such a column exists; it must call ReplayCell for (at least) every
  /// cell of those rows in the same order as before, and may be empty when the source can never
  /// need it (typed values only).
  using Replay = std::function<Status(size_t rows)>;
  /// Hands a cell again during Replay (ignored unless it is needed).
  Status ReplayCell(size_t row, size_t feature, const Cell& cell);

  /// The Dataset (schema: the columns with their decided types and categories, target_name, class
  /// names). Errors: kNonFiniteValue, kMissingLabel, kNumericTarget, kLimitExceeded, kInternal
  /// (a needed replay missing), and Dataset::Create's.
  Result<Dataset> Finish(const Replay& replay = nullptr);

 private:
  struct Impl;
  explicit DatasetBuilder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace urnforest
