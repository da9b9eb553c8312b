// The streaming JSON writer's number and string output (urnforest/json_writer.h).
#include "urnforest/json_writer.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/utf8.h"

namespace urnforest {

JsonWriter& JsonWriter::Double(double value) {
  Prefix();
  if (!std::isfinite(value)) {
    out_ += "null";
    return *this;
  }
  // Shortest %g representation that round-trips (std::to_chars for double is missing from the
  // libc++ of emscripten 3.1.6).
  char buffer[32];
  if (value == std::trunc(value) && std::fabs(value) < 1e17) {
    std::snprintf(buffer, sizeof(buffer), "%.0f", value);  // integral: no exponent, no ".0"
    out_ += buffer;
    return *this;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  out_ += buffer;
  return *this;
}

void JsonWriter::WriteString(std::string_view s) {
  out_ += '"';
  // Defensive: a byte that breaks UTF-8 is written as U+FFFD, so the output is always valid JSON
  // (loaders refuse such names, but no caller has to be trusted for it).
  for (size_t bad = internal::FirstInvalidUtf8(s); bad != s.size(); bad = internal::FirstInvalidUtf8(s)) {
    WriteValidUtf8(s.substr(0, bad));
    out_ += "\xEF\xBF\xBD";
    s.remove_prefix(bad + 1);
  }
  WriteValidUtf8(s);
  out_ += '"';
}

void JsonWriter::WriteValidUtf8(std::string_view s) {
  for (unsigned char c : s) {
    switch (c) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '\t': out_ += "\\t"; break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          out_ += escaped;
        } else {
          out_ += static_cast<char>(c);
        }
    }
  }
}

}  // namespace urnforest
