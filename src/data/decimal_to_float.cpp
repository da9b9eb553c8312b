// Exact decimal-to-float conversion for the common case (Clinger's fast path, in double, with the
// one case where rounding twice could differ from rounding once sent back to strtof).
//
// Why it is exact: the significand m (< 2^53) and 10^k (k <= 22) are exact doubles, so d = m * 10^k
// or m / 10^k is the correctly rounded double of the decimal's value x (one IEEE operation). Every
// midpoint between two adjacent floats is a double (25 significant bits). If d is not such a
// midpoint, no midpoint lies between x and d (it would be a double nearer to x than d), so rounding
// d to float gives the float nearest to x. If d is a midpoint, x may lie on either side of it: we
// decline. The values reached (1e-22 .. 2^53 * 1e22) are all normal floats.
#include "data/decimal_to_float.h"

namespace urnforest {
namespace internal {

bool DecimalToFloatFast(std::string_view s, float* out) {
  size_t i = 0;
  const size_t n = s.size();
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  uint64_t significand = 0;
  int digits = 0;       // significant digits taken into `significand` (leading zeros skipped)
  int64_t exponent = 0;  // decimal exponent of `significand`'s last digit
  bool seen_point = false;
  for (; i < n; ++i) {
    const char c = s[i];
    if (c == '.') {
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    if (significand == 0 && c == '0') {
      if (seen_point) --exponent;
      continue;
    }
    if (digits == 19) return false;  // would not fit in 64 bits
    significand = significand * 10 + static_cast<uint64_t>(c - '0');
    ++digits;
    if (seen_point) --exponent;
  }
  if (i < n) {  // 'e' or 'E', then [+-]digits (the syntax was checked)
    ++i;
    bool negative_exponent = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) negative_exponent = s[i++] == '-';
    int64_t e = 0;
    for (; i < n; ++i) {
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    exponent += negative_exponent ? -e : e;
  }
  return ScaleToFloat(significand, exponent, negative, out);
}

}  // namespace internal
}  // namespace urnforest
