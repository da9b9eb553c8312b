#pragma once
// Internal to the XGBoost importer: a JSON document read into memory with bounds. XGBoost's JSON
// model (Booster.save_model("m.json")) is one object of objects and arrays; ParseJson reads any
// JSON text (RFC 8259) into JsonValue, refusing, without crashing or allocating beyond a budget,
// anything malformed, nested too deeply or too large.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// One JSON value. Which members hold it follows `kind`: `boolean` for kBool; `number` (the
/// nearest double) and `number32` (the nearest float32 to the literal, not to the double) for
/// kNumber; `text` (decoded, valid UTF-8) for kString; for kArray either `numbers` and `numbers32`
/// (an array of numbers only, stored compactly: 12 bytes per element) or `items` (any other
/// array); `keys` and `items` (the values, in file order, keys possibly repeated) for kObject.
struct JsonValue {
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  float number32 = 0.0f;
  double number = 0.0;
  std::string text;
  std::vector<JsonValue> items;
  std::vector<std::string> keys;
  std::vector<double> numbers;
  std::vector<float> numbers32;

  /// The value of the first member named `key` of an object; null when absent or not an object.
  const JsonValue* Find(std::string_view key) const;
  /// The number of elements of an array (0 for other kinds).
  size_t size() const { return kind == Kind::kArray ? numbers.size() + items.size() : 0; }
  /// Element `i` (< size()) of an array as a number: true and *number, *number32 set when it is
  /// one; false otherwise.
  bool NumberAt(size_t i, double* number, float* number32) const;
};

/// Limits of ParseJson.
struct JsonLimits {
  /// Arrays and objects nested deeper than this are refused (XGBoost's model nests 6 deep).
  int max_depth = 64;
  /// The most memory, in bytes, the parsed document may take (counted as it is built: each value,
  /// its text and keys); beyond it ParseJson stops with kLimitExceeded.
  size_t max_bytes = size_t{1} << 30;
};

/// Parses the `size` bytes at `data` (borrowed for the call) as one JSON value, surrounded by
/// optional whitespace. Beyond RFC 8259, the number tokens NaN, Infinity and -Infinity (which
/// XGBoost writes for non-finite floats) are read as numbers. Fails with kCorruptModel, naming the
/// byte offset and what was expected, for text that is not JSON (including invalid UTF-8, control
/// characters in strings, lone surrogate escapes, numbers out of double range, nesting beyond
/// `limits.max_depth`), and with kLimitExceeded when the document would take more than
/// `limits.max_bytes`. `what` starts every message (e.g. "XGBoost JSON"). Recursion depth is
/// bounded by max_depth; never throws.
Result<JsonValue> ParseJson(const uint8_t* data, size_t size, const JsonLimits& limits,
                            const std::string& what);

}  // namespace internal
}  // namespace urnforest
