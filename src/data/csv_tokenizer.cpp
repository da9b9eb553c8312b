// The RFC 4180 tokenizer and the cell-level rules (numbers, missing values, UTF-8) of the CSV
// reader.
#include "data/csv_tokenizer.h"

#include "data/decimal_to_float.h"

#include <cstdlib>
#include <string>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace urnforest {
namespace internal {
namespace {

// Byte classes for the unquoted-field scanner: everything the tokenizer must stop at.
enum ByteClass : uint8_t { kPlain = 0, kStop = 1, kQuoteByte = 2, kHighByte = 3 };

struct ByteTable {
  uint8_t cls[256];
  explicit constexpr ByteTable(char delimiter) : cls() {
    for (int i = 0; i < 256; ++i) cls[i] = i >= 0x80 ? kHighByte : kPlain;
    cls[static_cast<uint8_t>(delimiter)] = kStop;
    cls[static_cast<uint8_t>('\n')] = kStop;
    cls[static_cast<uint8_t>('\r')] = kStop;
    cls[static_cast<uint8_t>('"')] = kQuoteByte;
  }
};
constexpr ByteTable kCommaBytes(',');
constexpr ByteTable kSemicolonBytes(';');
constexpr ByteTable kTabBytes('\t');

// Line breaks (LF, CRLF or a lone CR, each counted once) in s.
int64_t CountLineBreaks(std::string_view s) {
  int64_t count = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' || (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] != '\n'))) ++count;
  }
  return count;
}

// Decimal order of magnitude of a syntactically valid decimal float ("1e400" -> >= 0,
// "1e-400" -> < 0); used only to tell overflow from underflow.
bool MagnitudeIsLarge(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  int64_t int_digits = 0, leading_frac_zeros = 0;
  bool seen_nonzero = false, in_frac = false;
  int64_t first_nonzero_pos = 0;  // Decimal exponent of the first nonzero fraction digit.
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

// True when s (after an optional sign) is a case-insensitive spelling of `word`.
bool EqualsIgnoreCase(std::string_view s, const char* word) {
  const size_t n = std::strlen(word);
  if (s.size() != n) return false;
  for (size_t i = 0; i < n; ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[i]) return false;
  }
  return true;
}

// Strict decimal syntax: [-+] (digits [. digits*] | . digits) [(e|E) [-+] digits]. No hex, no
// spaces, no "inf"/"nan" (handled separately).
bool IsDecimalSyntax(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t mantissa_digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    size_t exponent_digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == s.size();
}

}  // namespace

// One code path on every platform (Emscripten 3.1.6's libc++ has no floating-point from_chars):
// strict syntax check, then strtof, which is correctly rounded in both glibc and musl, on a
// NUL-terminated copy. errno is not consulted (glibc and musl differ on ERANGE for subnormals):
// overflow is recognised by an infinite result; subnormal results are kept (correctly rounded).
NumberKind ParseCsvNumber(std::string_view s, float* out, char decimal) {
  if (decimal == '.' && PlainDecimalToFloat(s, out)) return NumberKind::kNumber;
  std::string comma_copy;
  if (decimal == ',') {
    if (s.find('.') != std::string_view::npos) return NumberKind::kText;
    const size_t comma = s.find(',');
    if (comma != std::string_view::npos) {
      comma_copy.assign(s.data(), s.size());
      comma_copy[comma] = '.';
      s = comma_copy;
    }
  }
  std::string_view body = s;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
  if (EqualsIgnoreCase(body, "inf") || EqualsIgnoreCase(body, "infinity")) {
    return NumberKind::kNonFinite;
  }
  if (!IsDecimalSyntax(s)) return NumberKind::kText;  // Includes "nan": text, not missing.
  // The common case exactly, without strtof (locale-aware and slow in WebAssembly's C library).
  if (internal::DecimalToFloatFast(s, out)) return NumberKind::kNumber;
  char stack_buffer[64];
  std::string heap_buffer;
  const char* text = nullptr;
  if (s.size() < sizeof(stack_buffer)) {
    std::memcpy(stack_buffer, s.data(), s.size());
    stack_buffer[s.size()] = '\0';
    text = stack_buffer;
  } else {
    heap_buffer.assign(s.data(), s.size());
    text = heap_buffer.c_str();
  }
  const float value = std::strtof(text, nullptr);
  if (std::isinf(value)) {
    return MagnitudeIsLarge(s) ? NumberKind::kNonFinite : NumberKind::kText;
  }
  if (value == 0.0f) {
    *out = s[0] == '-' ? -0.0f : 0.0f;  // Underflow below the subnormals rounds to a signed zero.
    return NumberKind::kNumber;
  }
  *out = value;
  return NumberKind::kNumber;
}

CsvTokenizer::CsvTokenizer(std::string_view text, char delimiter)
    : text_(text),
      delimiter_(delimiter),
      bytes_(delimiter == ';'    ? kSemicolonBytes.cls
             : delimiter == '\t' ? kTabBytes.cls
                                 : kCommaBytes.cls) {}

bool CsvTokenizer::StartRecord() {
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

Status CsvTokenizer::Next(CsvField* field, bool* last) {
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
    const uint8_t cls = bytes_[static_cast<uint8_t>(data[p])];
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

size_t CsvTokenizer::SkipLineEnd(size_t p) {
  if (text_[p] == '\r' && p + 1 < text_.size() && text_[p + 1] == '\n') ++p;
  ++line_;
  return p + 1;
}

void CsvTokenizer::Finish(size_t p, bool* last) {
  if (p >= text_.size()) {
    pos_ = text_.size();
    *last = true;
  } else if (text_[p] == delimiter_) {
    pos_ = p + 1;
    *last = false;
  } else {
    pos_ = SkipLineEnd(p);
    *last = true;
  }
}

Status CsvTokenizer::InvalidUtf8(int64_t line, size_t offset) const {
  char hex[8];
  std::snprintf(hex, sizeof(hex), "0x%02X",
                static_cast<unsigned>(static_cast<uint8_t>(text_[offset])));
  return Status::Error(StatusCode::kCsvInvalidUtf8,
                       std::string("invalid UTF-8 (byte ") + hex + "); save the file as UTF-8",
                       line, column_);
}

Status CsvTokenizer::Quoted(size_t open, CsvField* field, bool* last) {
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
    return Status::Error(StatusCode::kCsvUnterminatedQuote, "the quote opened here is never closed",
                         open_line, column_);
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
  if (p < n && data[p] != delimiter_ && data[p] != '\n' && data[p] != '\r') {
    return Status::Error(StatusCode::kCsvBadQuote,
                         "unexpected text after a closing quote (a quote inside a quoted field "
                         "must be doubled)",
                         line_, column_);
  }
  Finish(p, last);
  return Status::Ok();
}

char DetectDelimiter(std::string_view text) {
  size_t p = 0;
  // The first line that is not blank.
  while (p < text.size()) {
    size_t end = p;
    bool blank = true;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') {
      if (text[end] != ' ' && text[end] != '\t') blank = false;
      ++end;
    }
    if (!blank) break;
    p = end < text.size() ? end + 1 : end;
  }
  size_t commas = 0, semicolons = 0, tabs = 0;
  bool quoted = false;
  for (; p < text.size(); ++p) {
    const char c = text[p];
    if (c == '"') quoted = !quoted;  // A doubled quote toggles twice.
    if (quoted) continue;
    if (c == '\n' || c == '\r') break;
    commas += c == ',' ? 1 : 0;
    semicolons += c == ';' ? 1 : 0;
    tabs += c == '\t' ? 1 : 0;
  }
  if (semicolons > commas && semicolons >= tabs) return ';';
  if (tabs > commas && tabs > semicolons) return '\t';
  return ',';
}

}  // namespace internal
}  // namespace urnforest
