// ParseJson (json_value.h): a recursive-descent JSON reader whose depth, memory and input are
// bounded, so that hostile model files are refused with a message instead of crashing.
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "base/utf8.h"
#include "data/decimal_to_float.h"
#include "xgboost/json_value.h"

namespace urnforest {
namespace internal {

const JsonValue* JsonValue::Find(std::string_view key) const {
  if (kind != Kind::kObject) return nullptr;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == key) return &items[i];
  }
  return nullptr;
}

bool JsonValue::NumberAt(size_t i, double* out, float* out32) const {
  if (i < numbers.size()) {
    *out = numbers[i];
    *out32 = numbers32[i];
    return true;
  }
  if (i >= items.size() || items[i].kind != Kind::kNumber) return false;
  *out = items[i].number;
  *out32 = items[i].number32;
  return true;
}

namespace {

class JsonParser {
 public:
  JsonParser(const uint8_t* data, size_t size, const JsonLimits& limits, const std::string& what)
      : p_(data), begin_(data), end_(data + size), limits_(limits), what_(what) {}

  Result<JsonValue> ParseDocument() {
    JsonValue root;
    SkipSpace();
    if (Status s = ParseValue(&root, 0); !s.ok()) return s;
    SkipSpace();
    if (p_ != end_) return Error("unexpected text after the JSON value");
    return root;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Error(StatusCode::kCorruptModel,
                         what_ + ": at byte " + std::to_string(p_ - begin_) + ": " + what);
  }

  // Counts `bytes` against the budget (every value, key and text as it is stored).
  Status Charge(size_t bytes) {
    used_ += bytes;
    if (used_ > limits_.max_bytes) {
      return Status::Error(StatusCode::kLimitExceeded,
                           what_ + ": the document would take more than " +
                               std::to_string(limits_.max_bytes >> 20) + " MiB in memory");
    }
    return Status::Ok();
  }

  void SkipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }

  bool Literal(const char* word) {
    const char* w = word;
    const uint8_t* q = p_;
    for (; *w != '\0'; ++w, ++q) {
      if (q == end_ || *q != static_cast<uint8_t>(*w)) return false;
    }
    p_ = q;
    return true;
  }

  Status ParseValue(JsonValue* out, int depth) {
    // A value's own slot (twice: vectors grow by doubling).
    if (Status s = Charge(2 * sizeof(JsonValue)); !s.ok()) return s;
    if (p_ == end_) return Error("the text ends where a value was expected");
    switch (*p_) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"':
        out->kind = JsonValue::Kind::kString;
        return ParseString(&out->text);
      case 't':
      case 'f':
      case 'n':
        if (Literal("true") || Literal("false")) {
          out->kind = JsonValue::Kind::kBool;
          out->boolean = p_[-1] == 'e' && p_[-2] == 'u';  // "true" ends in "ue", "false" in "se"
          return Status::Ok();
        }
        if (Literal("null")) return Status::Ok();
        return Error("unknown literal (expected true, false or null)");
      default:
        out->kind = JsonValue::Kind::kNumber;
        return ParseNumber(&out->number, &out->number32);
    }
  }

  bool AtNumber() const {
    return p_ < end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '-' || *p_ == 'N' || *p_ == 'I');
  }

  Status ParseArray(JsonValue* out, int depth) {
    if (depth > limits_.max_depth)
      return Error("nested deeper than " + std::to_string(limits_.max_depth) + " levels");
    out->kind = JsonValue::Kind::kArray;
    ++p_;
    SkipSpace();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return Status::Ok();
    }
    // Numbers go to the compact numbers / numbers32 while every element is one; the first other
    // value moves them into items.
    bool numeric = true;
    while (true) {
      SkipSpace();
      if (numeric && AtNumber()) {
        double number = 0.0;
        float number32 = 0.0f;
        if (Status s = ParseNumber(&number, &number32); !s.ok()) return s;
        if (Status s = Charge(2 * (sizeof(double) + sizeof(float))); !s.ok()) return s;
        out->numbers.push_back(number);
        out->numbers32.push_back(number32);
      } else {
        if (numeric) {
          numeric = false;
          if (Status s = MoveNumbersToItems(out); !s.ok()) return s;
        }
        out->items.emplace_back();
        if (Status s = ParseValue(&out->items.back(), depth); !s.ok()) return s;
      }
      SkipSpace();
      if (p_ == end_) return Error("the text ends inside an array");
      if (*p_ == ']') {
        ++p_;
        return Status::Ok();
      }
      if (*p_ != ',') return Error("expected ',' or ']' in an array");
      ++p_;
    }
  }

  // An array's numbers so far become number items (a value that is not a number follows).
  Status MoveNumbersToItems(JsonValue* array) {
    if (Status s = Charge(2 * sizeof(JsonValue) * array->numbers.size()); !s.ok()) return s;
    array->items.resize(array->numbers.size());
    for (size_t i = 0; i < array->numbers.size(); ++i) {
      array->items[i].kind = JsonValue::Kind::kNumber;
      array->items[i].number = array->numbers[i];
      array->items[i].number32 = array->numbers32[i];
    }
    array->numbers = {};
    array->numbers32 = {};
    return Status::Ok();
  }

  Status ParseObject(JsonValue* out, int depth) {
    if (depth > limits_.max_depth)
      return Error("nested deeper than " + std::to_string(limits_.max_depth) + " levels");
    out->kind = JsonValue::Kind::kObject;
    ++p_;
    SkipSpace();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      if (p_ == end_ || *p_ != '"') return Error("expected a member name in quotes");
      std::string key;
      if (Status s = ParseString(&key); !s.ok()) return s;
      if (Status s = Charge(2 * sizeof(std::string)); !s.ok()) return s;
      out->keys.push_back(std::move(key));
      SkipSpace();
      if (p_ == end_ || *p_ != ':') return Error("expected ':' after a member name");
      ++p_;
      SkipSpace();
      out->items.emplace_back();
      if (Status s = ParseValue(&out->items.back(), depth); !s.ok()) return s;
      SkipSpace();
      if (p_ == end_) return Error("the text ends inside an object");
      if (*p_ == '}') {
        ++p_;
        return Status::Ok();
      }
      if (*p_ != ',') return Error("expected ',' or '}' in an object");
      ++p_;
    }
  }

  // Four hex digits at p_ (after "\u").
  bool Hex4(uint32_t* out) {
    if (end_ - p_ < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i, ++p_) {
      const uint8_t c = *p_;
      const uint32_t d = c >= '0' && c <= '9'   ? c - '0'
                         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                : 16u;
      if (d == 16) return false;
      v = v * 16 + d;
    }
    *out = v;
    return true;
  }

  static void AppendUtf8(uint32_t cp, std::string* s) {
    if (cp < 0x80) {
      s->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // A string at p_ (its opening quote) into *out, decoded; checks UTF-8 and escapes.
  Status ParseString(std::string* out) {
    const uint8_t* const start = p_;
    ++p_;
    while (true) {
      if (p_ == end_) {
        p_ = start;
        return Error("a string is not closed");
      }
      const uint8_t c = *p_;
      if (c == '"') {
        ++p_;
        break;
      }
      if (c < 0x20) return Error("a control character inside a string");
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        ++p_;
        continue;
      }
      ++p_;
      if (p_ == end_) return Error("a string ends in an escape");
      const uint8_t e = *p_++;
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '/':
          out->push_back('/');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t cp = 0;
          if (!Hex4(&cp)) return Error("a \\u escape needs four hex digits");
          if (cp >= 0xDC00 && cp <= 0xDFFF) return Error("a lone low surrogate escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            uint32_t low = 0;
            if (!Literal("\\u") || !Hex4(&low) || low < 0xDC00 || low > 0xDFFF) {
              return Error("a high surrogate escape without its low surrogate");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return Error("an unknown escape in a string");
      }
    }
    if (FirstInvalidUtf8(*out) != out->size()) {
      p_ = start;
      return Error("a string is not valid UTF-8");
    }
    return Charge(out->size());
  }

  // A number per RFC 8259's grammar, or one of the tokens NaN, Infinity, -Infinity that XGBoost
  // writes for non-finite floats, into *number (the nearest double) and *number32 (the nearest
  // float32 to the literal itself, as XGBoost reads its floats).
  Status ParseNumber(double* number, float* number32) {
    const uint8_t* const start = p_;
    for (const char* token : {"NaN", "Infinity", "-Infinity"}) {
      if (Literal(token)) {
        *number = token[0] == 'N' ? std::nan("") : token[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        *number32 = static_cast<float>(*number);
        return Status::Ok();
      }
    }
    auto digits = [this]() {
      const uint8_t* d = p_;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
      return p_ - d;
    };
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ < end_ && *p_ == '0') {
      ++p_;
    } else if (digits() == 0) {
      p_ = start;
      return Error("expected a value");
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (digits() == 0) return Error("a number needs digits after '.'");
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (digits() == 0) return Error("a number needs digits in its exponent");
    }
    literal_.assign(reinterpret_cast<const char*>(start), static_cast<size_t>(p_ - start));
    *number = std::strtod(literal_.c_str(), nullptr);
    if (std::isinf(*number)) {
      p_ = start;
      return Error("a number out of range");
    }
    if (!DecimalToFloatFast(literal_, number32)) *number32 = std::strtof(literal_.c_str(), nullptr);
    return Status::Ok();
  }

  const uint8_t* p_;
  const uint8_t* const begin_;
  const uint8_t* const end_;
  const JsonLimits& limits_;
  const std::string& what_;
  size_t used_ = 0;
  std::string literal_;  // the number being read, NUL-terminated for strtod and strtof
};

}  // namespace

Result<JsonValue> ParseJson(const uint8_t* data, size_t size, const JsonLimits& limits,
                            const std::string& what) {
  if (data == nullptr && size != 0) {
    return Status::Error(StatusCode::kInvalidArgument, what + ": no data");
  }
  static const uint8_t kEmpty = 0;
  JsonParser parser(data == nullptr ? &kEmpty : data, size, limits, what);
  return parser.ParseDocument();
}

}  // namespace internal
}  // namespace urnforest
