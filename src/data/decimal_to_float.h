#pragma once
// Exact decimal-to-float conversion without the C library for the common case of CSV numbers
// (up to 19 significant digits, small exponents): one IEEE operation on exact operands.
#include <cstdint>
#include <cstring>
#include <string_view>

namespace urnforest {
namespace internal {

/// Converts `s`, which must already match the decimal syntax `[+-]digits[.digits][(e|E)[+-]digits]`,
/// to the float nearest to its value (ties to even), exactly as a correctly rounded strtof would,
/// and returns true; returns false (nothing written) when the fast path cannot guarantee that
/// result: more than 2^53 in the significant digits, a decimal exponent beyond +-22 after moving
/// the point, or a value whose double is exactly halfway between two floats. Callers then use
/// strtof. Zero keeps its sign.
bool DecimalToFloatFast(std::string_view s, float* out);

/// 10^0 .. 10^22, each an exact double.
inline constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// The last step of DecimalToFloatFast: the float nearest to (-1 if `negative`) * `significand` *
/// 10^`exponent`, or false (nothing written) when one IEEE operation cannot guarantee it
/// (significand above 2^53, |exponent| > 22, or a double halfway between two floats).
inline bool ScaleToFloat(uint64_t significand, int64_t exponent, bool negative, float* out) {
  constexpr uint64_t kMaxExactSignificand = uint64_t{1} << 53;
  if (significand == 0) {
    *out = negative ? -0.0f : 0.0f;
    return true;
  }
  if (significand > kMaxExactSignificand || exponent < -22 || exponent > 22) return false;
  const double m = static_cast<double>(significand);
  const double d = exponent < 0 ? m / kPowersOfTen[-exponent] : m * kPowersOfTen[exponent];
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  // A float has 24 significant bits, a double 53: d is halfway between two floats when its low 29
  // bits are exactly 1 followed by 28 zeros.
  constexpr uint64_t kLow29 = (uint64_t{1} << 29) - 1;
  if ((bits & kLow29) == (uint64_t{1} << 28)) return false;
  const float f = static_cast<float>(d);
  *out = negative ? -f : f;
  return true;
}

/// One pass for the most common CSV number, `[+-]digits[.digits]` with 1 to 19 digits (no
/// exponent, no blanks), with '.' as the decimal mark: true and `*out` exactly as ParseCsvNumber
/// would set it (the same significand and exponent as DecimalToFloatFast: leading zeros add
/// nothing to the significand, and 19 digits stay below 2^64); false, nothing written, for any
/// other text or when the fast arithmetic declines (then ParseCsvNumber decides, the full way).
inline bool PlainDecimalToFloat(std::string_view s, float* out) {
  const char* p = s.data();
  const char* const end = p + s.size();
  bool negative = false;
  if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  uint64_t significand = 0;  // wraps beyond 19 digits, which are then declined
  const char* const integer_begin = p;
  for (unsigned d; p < end && (d = static_cast<unsigned char>(*p) - unsigned{'0'}) <= 9; ++p) {
    significand = significand * 10 + d;
  }
  const int64_t integer_digits = p - integer_begin;
  int64_t fraction_digits = 0;
  if (p < end && *p == '.') {
    const char* const fraction_begin = ++p;
    for (unsigned d; p < end && (d = static_cast<unsigned char>(*p) - unsigned{'0'}) <= 9; ++p) {
      significand = significand * 10 + d;
    }
    fraction_digits = p - fraction_begin;
  }
  const int64_t digits = integer_digits + fraction_digits;
  if (p != end || digits == 0 || digits > 19) return false;
  return ScaleToFloat(significand, -fraction_digits, negative, out);
}

}  // namespace internal
}  // namespace urnforest
