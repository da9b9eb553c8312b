#include "urnforest/csv_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

namespace urnforest {
namespace {

constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();

// Byte classes for the unquoted-field scanner: everything the tokenizer must stop at.
enum ByteClass : uint8_t { kPlain = 0, kStop = 1, kQuoteByte = 2, kHighByte = 3 };

struct ByteTable {
  uint8_t cls[256];
  constexpr ByteTable() : cls() {
    for (int i = 0; i < 256; ++i) cls[i] = i >= 0x80 ? kHighByte : kPlain;
    cls[static_cast<uint8_t>(',')] = kStop;
    cls[static_cast<uint8_t>('\n')] = kStop;
    cls[static_cast<uint8_t>('\r')] = kStop;
    cls[static_cast<uint8_t>('"')] = kQuoteByte;
  }
};
constexpr ByteTable kBytes;

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Offset of the first byte that breaks UTF-8 (overlong forms, surrogates and code points above
// U+10FFFF are invalid), or s.size() when s is valid.
size_t FirstInvalidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    uint8_t lo = 0x80, hi = 0xBF;  // Allowed range of the second byte.
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + 1 >= n || p[i + 1] < lo || p[i + 1] > hi) return i;
    for (size_t k = 2; k < len; ++k) {
      if (i + k >= n || (p[i + k] & 0xC0) != 0x80) return i;
    }
    i += len;
  }
  return n;
}

// Line breaks (LF, CRLF or a lone CR, each counted once) in s.
int64_t CountLineBreaks(std::string_view s) {
  int64_t count = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n'))) ++count;
  }
  return count;
}

// Shortens long cell text for error messages (whole UTF-8 sequences only).
std::string Quote(std::string_view s) {
  constexpr size_t kMax = 40;
  if (s.size() <= kMax) return "'" + std::string(s) + "'";
  size_t cut = kMax;
  while (cut > 0 && (static_cast<uint8_t>(s[cut]) & 0xC0) == 0x80) --cut;
  return "'" + std::string(s.substr(0, cut)) + "...'";
}

enum class NumberKind { kNumber, kNonFinite, kText };

// Decimal order of magnitude of a syntactically valid decimal float ("1e400" -> >= 0,
// "1e-400" -> < 0); used only to tell overflow from underflow.
bool MagnitudeIsLarge(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  int64_t int_digits = 0, leading_frac_zeros = 0;
  bool seen_nonzero = false, in_frac = false;
  int64_t first_nonzero_pos = 0;  // Digits before the point counted from the first nonzero one.
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.') {
      in_frac = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    if (!in_frac) {
      if (seen_nonzero || c != '0') {
        seen_nonzero = true;
        ++int_digits;
      }
    } else if (!seen_nonzero) {
      if (c == '0') {
        ++leading_frac_zeros;
      } else {
        seen_nonzero = true;
        first_nonzero_pos = -(leading_frac_zeros + 1);
      }
    }
  }
  int64_t exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (exponent < 1000000000) exponent = exponent * 10 + (s[i] - '0');
    }
    if (negative) exponent = -exponent;
  }
  const int64_t magnitude = (int_digits > 0 ? int_digits - 1 : first_nonzero_pos) + exponent;
  return magnitude >= 0;
}

// Parses a whole unquoted, trimmed cell as a float (correctly rounded, locale independent).
NumberKind ParseNumber(std::string_view s, float* out) {
  const char* begin = s.data();
  const char* end = begin + s.size();
  if (begin < end && *begin == '+') {
    ++begin;
    if (begin == end || *begin == '+' || *begin == '-') return NumberKind::kText;
  }
  float value = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, value, std::chars_format::general);
  if (ptr != end || ec == std::errc::invalid_argument) return NumberKind::kText;
  if (ec == std::errc::result_out_of_range) {
    if (MagnitudeIsLarge(std::string_view(begin, end - begin))) return NumberKind::kNonFinite;
    *out = *begin == '-' ? -0.0f : 0.0f;  // Underflow rounds to zero.
    return NumberKind::kNumber;
  }
  if (std::isnan(value)) return NumberKind::kText;  // "nan" is text, not a missing marker.
  if (std::isinf(value)) return NumberKind::kNonFinite;
  *out = value;
  return NumberKind::kNumber;
}

// One field of a record. `value` is trimmed (unquoted) or unescaped (quoted); it may point into
// the tokenizer's scratch buffer and is valid only until the next call to Next().
struct Field {
  std::string_view value;
  bool quoted = false;
  int64_t line = 0;
  int64_t column = 0;
};

bool IsMissing(const Field& f) {
  if (f.value.empty()) return true;
  return !f.quoted && (f.value == "?" || f.value == "NA");
}

// RFC 4180 tokenizer over the whole text; never reads past the end, always advances.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : text_(text) {}

  // Skips blank (empty or whitespace-only) lines. False at the end of the input.
  bool StartRecord() {
    const size_t n = text_.size();
    while (pos_ < n) {
      size_t p = pos_;
      while (p < n && IsBlank(text_[p])) ++p;
      if (p == n) {
        pos_ = n;
        return false;
      }
      if (text_[p] == '\n' || text_[p] == '\r') {
        pos_ = SkipLineEnd(p);
        continue;
      }
      break;
    }
    column_ = 0;
    record_line_ = line_;
    return pos_ < n;
  }

  // Reads the next field of the current record; `*last` is set when the record ends.
  Status Next(Field* field, bool* last) {
    const size_t n = text_.size();
    const char* data = text_.data();
    ++column_;
    size_t p = pos_;
    while (p < n && IsBlank(data[p])) ++p;
    field->line = line_;
    field->column = column_;
    if (p < n && data[p] == '"') return Quoted(p, field, last);
    const size_t begin = p;
    bool high = false;
    for (; p < n; ++p) {
      const uint8_t cls = kBytes.cls[static_cast<uint8_t>(data[p])];
      if (cls == kPlain) continue;
      if (cls == kHighByte) {
        high = true;
        continue;
      }
      if (cls == kQuoteByte) {
        return Status::Error(StatusCode::kCsvBadQuote,
                             "a quote inside an unquoted field; quote the whole field and double "
                             "the quotes inside it",
                             line_, column_);
      }
      break;
    }
    size_t stop = p;
    while (stop > begin && IsBlank(data[stop - 1])) --stop;
    field->value = text_.substr(begin, stop - begin);
    field->quoted = false;
    if (high) {
      const size_t bad = FirstInvalidUtf8(field->value);
      if (bad != field->value.size()) return InvalidUtf8(line_, begin + bad);
    }
    Finish(p, last);
    return Status::Ok();
  }

  int64_t line() const { return line_; }
  int64_t record_line() const { return record_line_; }
  size_t pos() const { return pos_; }
  void Seek(size_t pos, int64_t line) {
    pos_ = pos;
    line_ = line;
  }

 private:
  size_t SkipLineEnd(size_t p) {
    if (text_[p] == '\r' && p + 1 < text_.size() && text_[p + 1] == '\n') ++p;
    ++line_;
    return p + 1;
  }

  void Finish(size_t p, bool* last) {
    if (p >= text_.size()) {
      pos_ = text_.size();
      *last = true;
    } else if (text_[p] == ',') {
      pos_ = p + 1;
      *last = false;
    } else {
      pos_ = SkipLineEnd(p);
      *last = true;
    }
  }

  Status InvalidUtf8(int64_t line, size_t offset) {
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02X", static_cast<unsigned>(
                                                  static_cast<uint8_t>(text_[offset])));
    return Status::Error(StatusCode::kCsvInvalidUtf8,
                         std::string("invalid UTF-8 (byte ") + hex + "); save the file as UTF-8",
                         line, column_);
  }

  Status Quoted(size_t open, Field* field, bool* last) {
    const size_t n = text_.size();
    const char* data = text_.data();
    const int64_t open_line = line_;
    bool escaped = false;
    bool high = false;
    size_t p = open + 1;
    size_t close = n;
    while (p < n) {
      const char* q = static_cast<const char*>(std::memchr(data + p, '"', n - p));
      const size_t stop = q == nullptr ? n : static_cast<size_t>(q - data);
      for (size_t i = p; i < stop; ++i) {
        const char c = data[i];
        if (static_cast<uint8_t>(c) >= 0x80) {
          high = true;
        } else if (c == '\n' || (c == '\r' && (i + 1 == n || data[i + 1] != '\n'))) {
          ++line_;
        }
      }
      if (stop == n) break;
      if (stop + 1 < n && data[stop + 1] == '"') {
        escaped = true;
        p = stop + 2;
        continue;
      }
      close = stop;
      break;
    }
    if (close == n) {
      line_ = open_line;
      return Status::Error(StatusCode::kCsvUnterminatedQuote,
                           "the quote opened here is never closed", open_line, column_);
    }
    const std::string_view raw = text_.substr(open + 1, close - open - 1);
    if (high) {
      const size_t bad = FirstInvalidUtf8(raw);
      if (bad != raw.size()) {
        return InvalidUtf8(open_line + CountLineBreaks(raw.substr(0, bad)), open + 1 + bad);
      }
    }
    if (escaped) {
      scratch_.clear();
      for (size_t i = 0; i < raw.size(); ++i) {
        scratch_.push_back(raw[i]);
        if (raw[i] == '"') ++i;  // Keep one quote of each doubled pair.
      }
      field->value = scratch_;
    } else {
      field->value = raw;
    }
    field->quoted = true;
    field->line = open_line;
    p = close + 1;
    while (p < n && IsBlank(data[p])) ++p;
    if (p < n && data[p] != ',' && data[p] != '\n' && data[p] != '\r') {
      return Status::Error(StatusCode::kCsvBadQuote,
                           "unexpected text after a closing quote (a quote inside a quoted field "
                           "must be doubled)",
                           line_, column_);
    }
    Finish(p, last);
    return Status::Ok();
  }

  std::string_view text_;
  size_t pos_ = 0;
  int64_t line_ = 1;
  int64_t record_line_ = 1;
  int64_t column_ = 0;
  std::string scratch_;
};

// Distinct strings in first-seen order. Each distinct string is stored once; lookups of
// existing strings do not allocate.
class Dictionary {
 public:
  static constexpr int64_t kFull = -1;

  Dictionary() = default;
  Dictionary(const Dictionary&) = delete;  // Keys point into names_: moves only.
  Dictionary& operator=(const Dictionary&) = delete;
  Dictionary(Dictionary&&) = default;
  Dictionary& operator=(Dictionary&&) = default;

  // The index of `s`, inserting it if new; kFull if inserting would exceed `limit` entries.
  int64_t Intern(std::string_view s, size_t limit) {
    const auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    if (names_.size() >= limit) return kFull;
    names_.emplace_back(s);
    const uint32_t id = static_cast<uint32_t>(names_.size() - 1);
    index_.emplace(names_.back(), id);
    return id;
  }
  int64_t Find(std::string_view s) const {
    const auto it = index_.find(s);
    return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
  }
  size_t size() const { return names_.size(); }
  const std::string& name(size_t i) const { return names_[i]; }
  std::vector<std::string> Names() const { return {names_.begin(), names_.end()}; }

 private:
  std::deque<std::string> names_;  // A deque never moves its elements, so the keys stay valid.
  std::unordered_map<std::string_view, uint32_t> index_;
};

// Inference state of one feature column (training mode).
struct ColumnState {
  bool numeric = true;
  // First data row (0-based) whose cell was text; rows before it were read as numbers.
  size_t switch_row = 0;
  Dictionary categories;
  // First non-finite number, reported only if the column ends up numeric.
  int64_t nonfinite_line = 0;
  int64_t nonfinite_column = 0;
  std::string nonfinite_text;
};

constexpr int32_t kIgnoredSlot = -1;
constexpr int32_t kTargetSlot = -2;

std::string ListColumns(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) {
    if (i > 0) out += ", ";
    out += Quote(names[i]);
  }
  if (names.size() > kShown) out += ", ... (" + std::to_string(names.size()) + " columns)";
  return out;
}

Status LimitError(const char* what, size_t limit, const Field& f) {
  return Status::Error(StatusCode::kLimitExceeded,
                       std::string("more than ") + std::to_string(limit) + " " + what, f.line,
                       f.column);
}

class CsvReader {
 public:
  CsvReader(std::string_view text, const CsvOptions& options)
      : text_(text), options_(options), tok_(text) {}

  Result<Dataset> Read();

 private:
  Status ReadHeader();
  Status PlanTraining();
  Status PlanSchema();
  Status ReadRows();
  Status FeatureCell(const Field& f, int32_t slot, float* out);
  Status SchemaFeatureCell(const Field& f, int32_t slot, float* out);
  Status LabelCell(const Field& f, int32_t* out);
  Status Finalize();
  Status ReplayPrefixes();

  std::string_view text_;
  const CsvOptions& options_;
  Tokenizer tok_;
  int64_t header_line_ = 1;
  std::vector<std::string> header_;
  std::vector<int32_t> slots_;  // Header column -> feature index, kTargetSlot or kIgnoredSlot.
  std::string target_name_;
  Schema schema_;
  size_t data_pos_ = 0;
  int64_t data_line_ = 1;
  size_t rows_ = 0;
  std::vector<float> row_major_;  // rows_ x features, row-major while reading.
  std::vector<int32_t> labels_;
  bool has_labels_ = false;
  // Training mode.
  std::vector<ColumnState> columns_;
  Dictionary classes_;
  // Schema mode: category -> index per schema feature, class name -> index.
  std::vector<std::unordered_map<std::string_view, int32_t>> schema_categories_;
  std::unordered_map<std::string_view, int32_t> schema_classes_;
};

Result<Dataset> CsvReader::Read() {
  Status s = ReadHeader();
  if (!s.ok()) return s;
  s = options_.schema != nullptr ? PlanSchema() : PlanTraining();
  if (!s.ok()) return s;
  s = ReadRows();
  if (!s.ok()) return s;
  if (options_.schema == nullptr) {
    s = Finalize();
    if (!s.ok()) return s;
  }
  const size_t features = schema_.features.size();
  std::vector<float> column_major(rows_ * features);
  for (size_t r = 0; r < rows_; ++r) {
    const float* src = row_major_.data() + r * features;
    for (size_t f = 0; f < features; ++f) column_major[f * rows_ + r] = src[f];
  }
  std::vector<float>().swap(row_major_);
  return Dataset::Create(std::move(schema_), rows_, std::move(column_major),
                         has_labels_ ? std::move(labels_) : std::vector<int32_t>());
}

Status CsvReader::ReadHeader() {
  if (!tok_.StartRecord()) {
    return Status::Error(StatusCode::kCsvEmpty, "the CSV text is empty; it needs a header row");
  }
  header_line_ = tok_.record_line();
  Field f;
  bool last = false;
  std::unordered_map<std::string_view, int64_t> seen;
  while (!last) {
    Status s = tok_.Next(&f, &last);
    if (!s.ok()) return s;
    header_.emplace_back(f.value);
  }
  seen.reserve(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) {
    const auto [it, inserted] = seen.emplace(header_[c], static_cast<int64_t>(c) + 1);
    if (!inserted) {
      return Status::Error(StatusCode::kCsvDuplicateColumn,
                           "column name " + Quote(header_[c]) + " appears in columns " +
                               std::to_string(it->second) + " and " + std::to_string(c + 1),
                           header_line_, static_cast<int64_t>(c) + 1);
    }
  }
  slots_.assign(header_.size(), kIgnoredSlot);
  return Status::Ok();
}

Status CsvReader::PlanTraining() {
  int64_t target = -1;
  if (options_.has_target) {
    if (options_.target.empty()) {
      target = static_cast<int64_t>(header_.size()) - 1;
    } else {
      for (size_t c = 0; c < header_.size(); ++c) {
        if (header_[c] == options_.target) target = static_cast<int64_t>(c);
      }
      if (target < 0) {
        return Status::Error(StatusCode::kTargetNotFound,
                             "no column named " + Quote(options_.target) +
                                 "; the columns are " + ListColumns(header_),
                             header_line_);
      }
    }
  }
  const size_t features = header_.size() - (target >= 0 ? 1 : 0);
  if (features > DatasetLimits::kMaxFeatures) {
    return Status::Error(StatusCode::kLimitExceeded,
                         std::to_string(features) + " feature columns exceed the limit of " +
                             std::to_string(DatasetLimits::kMaxFeatures),
                         header_line_);
  }
  schema_.features.reserve(features);
  for (size_t c = 0; c < header_.size(); ++c) {
    if (static_cast<int64_t>(c) == target) {
      slots_[c] = kTargetSlot;
      target_name_ = header_[c];
      continue;
    }
    slots_[c] = static_cast<int32_t>(schema_.features.size());
    FeatureInfo info;
    info.name = header_[c];
    schema_.features.push_back(std::move(info));
  }
  schema_.target_name = target_name_;
  columns_.resize(features);
  has_labels_ = target >= 0;
  return Status::Ok();
}

Status CsvReader::PlanSchema() {
  const Schema& model = *options_.schema;
  std::unordered_map<std::string_view, size_t> by_name;
  by_name.reserve(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) by_name.emplace(header_[c], c);
  for (size_t f = 0; f < model.features.size(); ++f) {
    const auto it = by_name.find(model.features[f].name);
    if (it == by_name.end()) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "the model needs column " + Quote(model.features[f].name) +
                               ", which the CSV lacks; the columns are " + ListColumns(header_),
                           header_line_);
    }
    slots_[it->second] = static_cast<int32_t>(f);
  }
  if (options_.has_target) {
    const std::string& name = options_.target.empty() ? model.target_name : options_.target;
    const auto it = name.empty() ? by_name.end() : by_name.find(name);
    if (it != by_name.end() && slots_[it->second] == kIgnoredSlot) {
      slots_[it->second] = kTargetSlot;
      has_labels_ = true;
    } else if (!options_.target.empty() && it == by_name.end()) {
      return Status::Error(StatusCode::kTargetNotFound,
                           "no column named " + Quote(options_.target) + "; the columns are " +
                               ListColumns(header_),
                           header_line_);
    }
  }
  schema_ = model;
  schema_categories_.resize(model.features.size());
  for (size_t f = 0; f < model.features.size(); ++f) {
    const std::vector<std::string>& cats = schema_.features[f].categories;
    for (size_t k = 0; k < cats.size(); ++k) {
      schema_categories_[f].emplace(cats[k], static_cast<int32_t>(k));
    }
  }
  for (size_t k = 0; k < schema_.class_names.size(); ++k) {
    schema_classes_.emplace(schema_.class_names[k], static_cast<int32_t>(k));
  }
  return Status::Ok();
}

Status CsvReader::ReadRows() {
  data_pos_ = tok_.pos();
  data_line_ = tok_.line();
  const size_t features = schema_.features.size();
  const size_t width = header_.size();
  const bool schema_mode = options_.schema != nullptr;
  Field f;
  while (tok_.StartRecord()) {
    if (rows_ + 1 > DatasetLimits::kMaxRows ||
        (features != 0 && rows_ + 1 > DatasetLimits::kMaxCells / features)) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "the data exceeds " + std::to_string(DatasetLimits::kMaxRows) +
                               " rows or " + std::to_string(DatasetLimits::kMaxCells) + " cells",
                           tok_.record_line());
    }
    const int64_t record_line = tok_.record_line();
    row_major_.resize(row_major_.size() + features, kMissing);
    float* row = row_major_.data() + rows_ * features;
    int32_t label = -1;
    size_t count = 0;
    bool last = false;
    while (!last) {
      Status s = tok_.Next(&f, &last);
      if (!s.ok()) return s;
      if (count < width) {
        const int32_t slot = slots_[count];
        if (slot >= 0) {
          s = schema_mode ? SchemaFeatureCell(f, slot, row + slot) : FeatureCell(f, slot, row + slot);
        } else if (slot == kTargetSlot) {
          s = LabelCell(f, &label);
        }
        if (!s.ok()) return s;
      }
      ++count;
    }
    if (count != width) {
      return Status::Error(StatusCode::kCsvRaggedRow,
                           "row has " + std::to_string(count) + " field" +
                               (count == 1 ? "" : "s") + ", header has " + std::to_string(width),
                           record_line, static_cast<int64_t>(std::min(count, width)) + 1);
    }
    if (has_labels_) labels_.push_back(label);
    ++rows_;
  }
  if (rows_ == 0) {
    return Status::Error(StatusCode::kCsvNoRows, "the CSV has a header row but no data rows");
  }
  return Status::Ok();
}

Status CsvReader::FeatureCell(const Field& f, int32_t slot, float* out) {
  if (IsMissing(f)) return Status::Ok();
  ColumnState& col = columns_[slot];
  if (col.numeric) {
    if (!f.quoted) {
      const NumberKind kind = ParseNumber(f.value, out);
      if (kind == NumberKind::kNumber) return Status::Ok();
      if (kind == NumberKind::kNonFinite) {
        if (col.nonfinite_line == 0) {
          col.nonfinite_line = f.line;
          col.nonfinite_column = f.column;
          col.nonfinite_text = std::string(f.value);
        }
        return Status::Ok();
      }
    }
    col.numeric = false;
    col.switch_row = rows_;
  }
  const int64_t id = col.categories.Intern(f.value, DatasetLimits::kMaxCategories);
  if (id == Dictionary::kFull) return LimitError("distinct values in a column", DatasetLimits::kMaxCategories, f);
  *out = static_cast<float>(id);
  return Status::Ok();
}

Status CsvReader::SchemaFeatureCell(const Field& f, int32_t slot, float* out) {
  if (IsMissing(f)) return Status::Ok();
  const FeatureInfo& info = schema_.features[slot];
  if (info.type == FeatureType::kCategorical) {
    const auto it = schema_categories_[slot].find(f.value);
    if (it != schema_categories_[slot].end()) *out = static_cast<float>(it->second);
    return Status::Ok();
  }
  const NumberKind kind = f.quoted ? NumberKind::kText : ParseNumber(f.value, out);
  if (kind == NumberKind::kNonFinite) {
    return Status::Error(StatusCode::kNonFiniteValue,
                         Quote(f.value) + " in column " + Quote(info.name) +
                             " is not a finite float; write missing values as empty, ? or NA",
                         f.line, f.column);
  }
  if (kind == NumberKind::kText) {
    return Status::Error(StatusCode::kColumnMismatch,
                         "column " + Quote(info.name) + " is numeric in the model, but this cell " +
                             (f.quoted ? "is quoted text " : "holds text ") + Quote(f.value),
                         f.line, f.column);
  }
  return Status::Ok();
}

Status CsvReader::LabelCell(const Field& f, int32_t* out) {
  if (IsMissing(f)) {
    if (options_.schema != nullptr) return Status::Ok();  // Label unknown (-1).
    return Status::Error(StatusCode::kMissingLabel,
                         "the row has no class label in target column " + Quote(target_name_),
                         f.line, f.column);
  }
  if (options_.schema != nullptr) {
    const auto it = schema_classes_.find(f.value);
    if (it == schema_classes_.end()) {
      return Status::Error(StatusCode::kUnknownClass,
                           "label " + Quote(f.value) + " is not one of the model's " +
                               std::to_string(schema_.class_names.size()) + " classes",
                           f.line, f.column);
    }
    *out = it->second;
    return Status::Ok();
  }
  const int64_t id = classes_.Intern(f.value, DatasetLimits::kMaxClasses);
  if (id == Dictionary::kFull) return LimitError("distinct class labels", DatasetLimits::kMaxClasses, f);
  *out = static_cast<int32_t>(id);
  return Status::Ok();
}

// Columns that turned categorical after some rows of numbers: read those rows again to give
// their cells category indices, keeping first-seen order over the whole column.
Status CsvReader::ReplayPrefixes() {
  const size_t features = schema_.features.size();
  size_t replay_rows = 0;
  for (const ColumnState& col : columns_) {
    if (!col.numeric) replay_rows = std::max(replay_rows, col.switch_row);
  }
  if (replay_rows == 0) return Status::Ok();
  std::vector<Dictionary> prefix(features);
  Tokenizer tok(text_);
  tok.Seek(data_pos_, data_line_);
  Field f;
  for (size_t r = 0; r < replay_rows && tok.StartRecord(); ++r) {
    bool last = false;
    for (size_t c = 0; !last; ++c) {
      Status s = tok.Next(&f, &last);
      if (!s.ok()) return Status::Error(StatusCode::kInternal, "replay: " + s.ToString());
      const int32_t slot = c < slots_.size() ? slots_[c] : kIgnoredSlot;
      if (slot < 0 || columns_[slot].numeric || r >= columns_[slot].switch_row) continue;
      if (IsMissing(f)) continue;
      const int64_t id = prefix[slot].Intern(f.value, DatasetLimits::kMaxCategories);
      if (id == Dictionary::kFull) return LimitError("distinct values in a column", DatasetLimits::kMaxCategories, f);
      row_major_[r * features + slot] = static_cast<float>(id);
    }
  }
  for (size_t slot = 0; slot < features; ++slot) {
    ColumnState& col = columns_[slot];
    if (col.numeric || col.switch_row == 0) continue;
    Dictionary& merged = prefix[slot];
    std::vector<float> remap(col.categories.size());
    for (size_t k = 0; k < col.categories.size(); ++k) {
      const int64_t id = merged.Intern(col.categories.name(k), DatasetLimits::kMaxCategories);
      if (id == Dictionary::kFull) {
        return Status::Error(StatusCode::kLimitExceeded,
                             "column " + Quote(schema_.features[slot].name) + " has more than " +
                                 std::to_string(DatasetLimits::kMaxCategories) + " distinct values");
      }
      remap[k] = static_cast<float>(id);
    }
    for (size_t r = col.switch_row; r < rows_; ++r) {
      float& v = row_major_[r * features + slot];
      if (!std::isnan(v)) v = remap[static_cast<size_t>(v)];
    }
    col.categories = std::move(merged);
  }
  return Status::Ok();
}

Status CsvReader::Finalize() {
  // The first non-finite number (in file order) among columns that stayed numeric.
  const ColumnState* worst = nullptr;
  size_t worst_slot = 0;
  for (size_t slot = 0; slot < columns_.size(); ++slot) {
    const ColumnState& col = columns_[slot];
    if (!col.numeric || col.nonfinite_line == 0) continue;
    if (worst == nullptr || col.nonfinite_line < worst->nonfinite_line ||
        (col.nonfinite_line == worst->nonfinite_line &&
         col.nonfinite_column < worst->nonfinite_column)) {
      worst = &col;
      worst_slot = slot;
    }
  }
  if (worst != nullptr) {
    return Status::Error(StatusCode::kNonFiniteValue,
                         Quote(worst->nonfinite_text) + " in numeric column " +
                             Quote(schema_.features[worst_slot].name) +
                             " is not a finite float; write missing values as empty, ? or NA",
                         worst->nonfinite_line, worst->nonfinite_column);
  }
  Status s = ReplayPrefixes();
  if (!s.ok()) return s;
  for (size_t slot = 0; slot < columns_.size(); ++slot) {
    FeatureInfo& info = schema_.features[slot];
    if (columns_[slot].numeric) continue;
    info.type = FeatureType::kCategorical;
    info.categories = columns_[slot].categories.Names();
  }
  schema_.class_names = classes_.Names();
  if (options_.class_order == ClassOrder::kSorted && !schema_.class_names.empty()) {
    std::vector<int32_t> order(schema_.class_names.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int32_t>(k);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      return schema_.class_names[a] < schema_.class_names[b];
    });
    std::vector<int32_t> rank(order.size());
    std::vector<std::string> sorted(order.size());
    for (size_t k = 0; k < order.size(); ++k) {
      rank[order[k]] = static_cast<int32_t>(k);
      sorted[k] = std::move(schema_.class_names[order[k]]);
    }
    schema_.class_names = std::move(sorted);
    for (int32_t& label : labels_) label = rank[label];
  }
  return Status::Ok();
}

}  // namespace

Result<Dataset> ReadCsv(std::string_view text, const CsvOptions& options) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  CsvReader reader(text, options);
  return reader.Read();
}

}  // namespace urnforest
