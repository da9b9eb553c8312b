// The fast decimal-to-float path agrees with a correctly rounded strtof bit for bit.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/random.h"
#include "data/decimal_to_float.h"

namespace urnforest {
namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// A random decimal in the CSV syntax: sign, 1..20 digits with a point somewhere, an optional exponent.
std::string RandomDecimal(internal::Rng* rng) {
  std::string s;
  if (rng->Below(2) == 0) s += '-';
  const uint32_t digits = 1 + rng->Below(20);
  const uint32_t point = rng->Below(digits + 1);
  for (uint32_t i = 0; i < digits; ++i) {
    if (i == point && i > 0) s += '.';
    s += static_cast<char>('0' + rng->Below(10));
  }
  if (rng->Below(4) == 0) {
    s += rng->Below(2) == 0 ? 'e' : 'E';
    if (rng->Below(2) == 0) s += rng->Below(2) == 0 ? '-' : '+';
    s += std::to_string(rng->Below(40));
  }
  return s;
}

TEST_CASE("The fast decimal path equals strtof bit for bit on a million random CSV numbers", "[csv][number]") {
  internal::Rng rng(20261125);
  int fast = 0;
  for (int i = 0; i < 1000000; ++i) {
    const std::string s = RandomDecimal(&rng);
    float got = 0.0f;
    if (!internal::DecimalToFloatFast(s, &got)) continue;
    ++fast;
    const float want = std::strtof(s.c_str(), nullptr);
    INFO(s);
    REQUIRE(Bits(got) == Bits(want));
  }
  REQUIRE(fast > 500000);  // the common case does take the fast path
}

TEST_CASE("The fast decimal path declines exact float midpoints and what it cannot do exactly", "[csv][number]") {
  float out = 0.0f;
  REQUIRE_FALSE(internal::DecimalToFloatFast("16777217", &out));       // halfway between 2^24 and 2^24 + 2
  REQUIRE_FALSE(internal::DecimalToFloatFast("1e23", &out));           // 10^23 is not an exact double
  REQUIRE_FALSE(internal::DecimalToFloatFast("12345678901234567890", &out));  // 20 digits
  REQUIRE(internal::DecimalToFloatFast("16777216", &out));
  REQUIRE(out == 16777216.0f);
  REQUIRE(internal::DecimalToFloatFast("-0.000", &out));
  REQUIRE(Bits(out) == Bits(-0.0f));
  REQUIRE(internal::DecimalToFloatFast("0.1", &out));
  REQUIRE(Bits(out) == Bits(0.1f));
  REQUIRE(internal::DecimalToFloatFast("+1.5E+2", &out));
  REQUIRE(out == 150.0f);
}

}  // namespace
}  // namespace urnforest
