#pragma once
// A small streaming JSON writer: the CLI's one document per command, and the experiment report
// shared by the CLI and the JS API (experiment_json.h).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace urnforest {

/// Builds a JSON document into a string. Commas are inserted automatically; keys are written with
/// Key() before a value inside objects. Non-finite doubles are written as null (JSON has no NaN);
/// finite ones in the shortest %g form that round-trips (identical natively and in wasm).
class JsonWriter {
 public:
  JsonWriter& BeginObject() { Prefix(); out_ += '{'; first_.push_back(true); return *this; }
  JsonWriter& EndObject() { out_ += '}'; first_.pop_back(); return *this; }
  JsonWriter& BeginArray() { Prefix(); out_ += '['; first_.push_back(true); return *this; }
  JsonWriter& EndArray() { out_ += ']'; first_.pop_back(); return *this; }
  JsonWriter& Key(std::string_view key) {
    Prefix();
    WriteString(key);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  JsonWriter& String(std::string_view value) { Prefix(); WriteString(value); return *this; }
  JsonWriter& Int(int64_t value) { Prefix(); out_ += std::to_string(value); return *this; }
  JsonWriter& Bool(bool value) { Prefix(); out_ += value ? "true" : "false"; return *this; }
  JsonWriter& Null() { Prefix(); out_ += "null"; return *this; }
  JsonWriter& Double(double value);
  template <typename T>
  JsonWriter& IntArray(const std::vector<T>& values) {
    BeginArray();
    for (const T& v : values) Int(static_cast<int64_t>(v));
    return EndArray();
  }
  JsonWriter& DoubleArray(const std::vector<double>& values) {
    BeginArray();
    for (double v : values) Double(v);
    return EndArray();
  }
  JsonWriter& StringArray(const std::vector<std::string>& values) {
    BeginArray();
    for (const std::string& v : values) String(v);
    return EndArray();
  }
  /// The document so far.
  const std::string& str() const { return out_; }

 private:
  void Prefix() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  /// `s` as a JSON string; a byte that breaks UTF-8 is written as U+FFFD (the output is valid JSON).
  void WriteString(std::string_view s);
  /// The escaped characters of `s` (valid UTF-8), without quotes.
  void WriteValidUtf8(std::string_view s);

  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

}  // namespace urnforest
