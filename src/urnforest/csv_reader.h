#pragma once
// CSV text -> Dataset (RFC 4180 quoting, header row, typed columns, missing values). The reader
// tokenizes and chooses columns; a DatasetBuilder (dataset_builder.h) decides what the values are.
#include <string>
#include <string_view>

#include "urnforest/dataset.h"
#include "urnforest/dataset_builder.h"
#include "urnforest/status.h"

namespace urnforest {

/// Options for ReadCsv.
struct CsvOptions {
  /// Name of the target column; empty = the last column (schema mode: the schema's target_name).
  /// A name that is not in the header fails with kTargetNotFound, and so does a default (last)
  /// target column whose header cell is empty (its position: header line, that column).
  std::string target;
  /// False: the file has no target column (all columns are features; labels() is empty).
  bool has_target = true;
  /// Order of Schema::class_names (ignored in schema mode, which uses the schema's classes).
  ClassOrder class_order = ClassOrder::kSorted;
  /// When set, the file is read against a trained model's schema: feature columns are matched by
  /// name (any order, extra columns ignored, a missing one is kColumnMismatch), numeric columns
  /// must hold numbers, categorical values map to the schema's indices (unseen value -> missing),
  /// and the target column, if present, maps to the schema's class names (unseen label ->
  /// kUnknownClass). The target column is optional in this mode (absent: labels() is empty; a
  /// missing cell: -1). The result's schema is a copy of this one. Not owned; must outlive the
  /// call.
  const Schema* schema = nullptr;
  /// Field separator: ',' (default), ';', '\t', or 0 to detect it from the header line (';' or
  /// tab when the header holds more of it than of ','). Anything else is kInvalidArgument.
  char delimiter = ',';
  /// Decimal mark of numbers: '.' (default) or ',' (then a cell holding '.' is text). ',' needs a
  /// delimiter other than ','; kInvalidArgument otherwise.
  char decimal = '.';
  /// True: the target's labels are classes whatever they look like. False (default): a target
  /// that looks like a regression target (NumericTargetRule) fails with kNumericTarget. Training
  /// mode only.
  bool target_categorical = false;
};

/// Parses CSV text into a Dataset. The text is only read during the call (not retained).
///
/// Syntax (RFC 4180): fields are separated by `,` (or options.delimiter); a field may be quoted
/// with `"`, inside which `""` is one quote and separators and line breaks are data. Lines end with LF, CRLF or a lone CR.
/// A leading UTF-8 byte-order mark is skipped. The whole text must be valid UTF-8.
/// - The first non-blank line is the header row (required); its names must be distinct.
/// - Blank lines (empty or only spaces/tabs), anywhere in the file, are skipped; they still count
///   for line numbers. A one-column file must therefore write a missing value as `NA` or `?`.
/// - Spaces and tabs around an unquoted field are trimmed; around a quoted field (between the
///   separator and the quotes) they are ignored; inside quotes they are kept as text (a category or
///   class name), but never decide a type: `" 1"` reads as the number 1 and `"  "` is missing, as
///   unquoted ` 1` and `  ` are.
///
/// Cells and types (training mode, no schema), decided by DatasetBuilder (dataset_builder.h) as
/// for every input format:
/// - Missing values: an empty cell (quoted `""` included), or unquoted `?` or `NA`. Stored as NaN.
/// - A feature column is numeric iff every non-missing cell is a number read whole (decimal or
///   exponent form, optional sign, options.decimal as the decimal mark, correctly rounded to
///   float), quoted or not: a column's type comes from its values, not its quoting (a file
///   written with every cell quoted, `"5.1","3.5","setosa"`, has numeric columns).
/// - `inf`, `infinity` or a number beyond the float range (e.g. `1e39`) in a column that is
///   otherwise numeric fails with kNonFiniteValue (never coerced); `nan` is text. Numbers too
///   small for float become 0.
/// - Any other column is categorical: categories are the cell texts (unquoted ones trimmed) in
///   first-seen order, stored as float indices.
/// - The target column's values (compared as text; unquoted `1` and quoted "1" are the same
///   class) become `Schema::class_names` ordered by `options.class_order`. A missing label fails
///   with kMissingLabel. A single class is accepted here (training rejects it). A target that
///   looks like a regression target (NumericTargetRule) fails with kNumericTarget unless
///   options.target_categorical.
///
/// Schema mode (`options.schema` set): see CsvOptions::schema. Numeric schema columns accept only
/// numbers (quoted or not) or missing cells (other text: kColumnMismatch at the cell;
/// non-finite: kNonFiniteValue); categorical cells are matched by text; a missing label is -1.
///
/// Errors: every failure has a stable code. `Status::line` is the 1-based physical line of the
/// input (counting the header and blank lines; a quoted field spanning lines is reported at the
/// line where it starts, invalid UTF-8 at the line of the bad byte). `Status::column` is the
/// 1-based *field index* within the record, not a character offset. Per code:
/// - kCsvEmpty: no header row (empty, BOM only, or blank lines only). No position.
/// - kCsvNoRows: a header but no data rows. No position.
/// - kCsvRaggedRow: at the line where the record starts; column = first field past the header's
///   width (too many) or first absent field (too few). "row has 5 fields, header has 4".
/// - kCsvUnterminatedQuote: line and column where the quote opened.
/// - kCsvBadQuote: a quote inside an unquoted field, or text after a closing quote.
/// - kCsvInvalidUtf8: line of the bad byte, field index.
/// - kCsvDuplicateColumn: header line, column of the second occurrence.
/// - kTargetNotFound, kColumnMismatch for a missing column: header line, column 0; the message
///   names the column and lists the first few available ones.
/// - kNonFiniteValue, kMissingLabel, kUnknownClass, kColumnMismatch for a cell: that cell.
/// - kLimitExceeded: DatasetLimits (rows, cells, features, classes, categories per column).
/// Memory use is linear in the input size; no input makes it crash or loop.
Result<Dataset> ReadCsv(std::string_view text, const CsvOptions& options = {});

}  // namespace urnforest
