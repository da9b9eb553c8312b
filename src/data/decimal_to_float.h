#pragma once
// Exact decimal-to-float conversion without the C library for the common case of CSV numbers
// (up to 19 significant digits, small exponents): one IEEE operation on exact operands.
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

}  // namespace internal
}  // namespace urnforest
