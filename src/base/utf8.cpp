// UTF-8 validation and quoting for messages (base/utf8.h).
#include "base/utf8.h"

#include <cstdint>

namespace urnforest {
namespace internal {

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

std::string QuoteForMessage(std::string_view s) {
  constexpr size_t kMax = 40;
  if (s.size() <= kMax) return "'" + std::string(s) + "'";
  size_t cut = kMax;
  while (cut > 0 && (static_cast<uint8_t>(s[cut]) & 0xC0) == 0x80) --cut;
  return "'" + std::string(s.substr(0, cut)) + "...'";
}

}  // namespace internal
}  // namespace urnforest
