#pragma once
// Private to the CSV reader: the RFC 4180 tokenizer and the cell-level rules (numbers, missing
// values) that ReadCsv builds on. UTF-8 checks and quoting for messages are in base/utf8.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/utf8.h"  // FirstInvalidUtf8, QuoteForMessage
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// One field of a record. `value` is trimmed (unquoted) or unescaped (quoted); it may point into
/// the tokenizer's scratch buffer and is valid only until the next call to CsvTokenizer::Next.
struct CsvField {
  std::string_view value;
  bool quoted = false;
  int64_t line = 0;    ///< 1-based physical line where the field starts.
  int64_t column = 0;  ///< 1-based field index within the record.
};

/// True for the missing-value markers: an empty cell (quoted or not), unquoted `?` or `NA`.
inline bool IsMissingCell(const CsvField& field) {
  if (field.value.empty()) return true;
  return !field.quoted && (field.value == "?" || field.value == "NA");
}

/// How an unquoted, trimmed cell reads as a number.
enum class NumberKind {
  kNumber,     ///< A finite float (numbers too small for float read as a signed zero).
  kNonFinite,  ///< `inf`, `infinity` (any case, optional sign) or beyond the float range.
  kText,       ///< Anything else, `nan` included.
};

/// Parses the whole of `cell` as a float: optional sign, decimal or exponent form, correctly
/// rounded, locale independent. `decimal` is the decimal mark, '.' or ','; with ',' a cell holding
/// '.' is text. Writes `*out` only for kNumber.
NumberKind ParseCsvNumber(std::string_view cell, float* out, char decimal = '.');

/// The field separator of the first non-blank line of `text` (the header): ';' or '\t' when that
/// line holds more of it (outside quotes) than of ',' and of the other, else ','.
char DetectDelimiter(std::string_view text);

/// Splits CSV text into records and fields (RFC 4180 plus: LF, CRLF or lone CR line ends, blank
/// lines skipped, spaces and tabs around fields ignored; tabs are kept when they separate fields).
/// The field separator is `delimiter`: ',', ';' or '\t' (anything else reads as ','). Validates UTF-8 field by field. Never
/// reads outside `text`, and every call consumes input or reports the end, so no input makes it
/// loop. `text` is not owned and must outlive the tokenizer.
class CsvTokenizer {
 public:
  explicit CsvTokenizer(std::string_view text, char delimiter = ',');

  /// Skips blank (empty or whitespace-only) lines and starts a record. False at the end of input.
  bool StartRecord();
  /// Reads the next field of the current record; `*last` is set when the record ends. Fails with
  /// kCsvBadQuote, kCsvUnterminatedQuote or kCsvInvalidUtf8 at the field's line and column.
  Status Next(CsvField* field, bool* last);

  /// Current 1-based physical line.
  int64_t line() const { return line_; }
  /// Line where the current record starts.
  int64_t record_line() const { return record_line_; }
  /// Byte offset of the next unread character.
  size_t pos() const { return pos_; }
  /// Continues from a position previously read with pos() and line().
  void Seek(size_t pos, int64_t line) {
    pos_ = pos;
    line_ = line;
  }

 private:
  bool IsBlank(char c) const { return c == ' ' || (c == '\t' && delimiter_ != '\t'); }
  size_t SkipLineEnd(size_t p);
  void Finish(size_t p, bool* last);
  Status InvalidUtf8(int64_t line, size_t offset) const;
  Status Quoted(size_t open, CsvField* field, bool* last);

  std::string_view text_;
  char delimiter_ = ',';
  const uint8_t* bytes_ = nullptr;  // Byte class per byte value for this delimiter.
  size_t pos_ = 0;
  int64_t line_ = 1;
  int64_t record_line_ = 1;
  int64_t column_ = 0;
  std::string scratch_;  // Unescaped text of the last quoted field that held `""`.
};

}  // namespace internal
}  // namespace urnforest
