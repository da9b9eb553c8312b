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

TEST_CASE("The one-pass plain path answers exactly as DecimalToFloatFast for every plain decimal of up to 19 digits", "[csv][number]") {
  internal::Rng rng(20261128);
  int plain = 0;
  for (int i = 0; i < 1000000; ++i) {
    std::string s = RandomDecimal(&rng);
    if (rng.Below(8) == 0) s.insert(s[0] == '-' ? 1 : 0, std::string(rng.Below(4), '0'));  // leading zeros
    if (rng.Below(16) == 0) s.insert(s[0] == '-' ? 1 : 0, ".");   // ".5", or "..5" (text)
    if (rng.Below(16) == 0) s += '.';                             // "2." or "1.5." (text)
    float fast = 1.0f, got = 2.0f;
    const bool fast_ok = internal::DecimalToFloatFast(s, &fast);
    const bool got_ok = internal::PlainDecimalToFloat(s, &got);
    size_t digits = 0, points = 0;
    for (char c : s) digits += c >= '0' && c <= '9', points += c == '.';
    const bool is_plain = s.find_first_of("eE") == std::string::npos && points <= 1 && digits <= 19;
    INFO(s);
    if (got_ok) {
      ++plain;
      REQUIRE(fast_ok);
      REQUIRE(Bits(got) == Bits(fast));
    } else {
      REQUIRE(Bits(got) == Bits(2.0f));  // nothing written
      REQUIRE_FALSE((is_plain && fast_ok));
    }
  }
  REQUIRE(plain > 400000);
}

TEST_CASE("The one-pass plain path declines all but [+-]digits[.digits] with a digit", "[csv][number]") {
  for (const char* text : {"", "-", "+", ".", "-.", "1e3", "1E3", "1.2.3", " 1", "1 ", "nan", "inf", "0x10",
                           "1,5", "--1", "1-", "\t1", "12345678901234567890", "0000000000000000000.1"}) {
    float out = 7.0f;
    INFO(text);
    REQUIRE_FALSE(internal::PlainDecimalToFloat(text, &out));
    REQUIRE(out == 7.0f);
  }
  float out = 0.0f;
  REQUIRE(internal::PlainDecimalToFloat("-0", &out));
  REQUIRE(Bits(out) == Bits(-0.0f));
  REQUIRE(internal::PlainDecimalToFloat("2.", &out));
  REQUIRE(out == 2.0f);
  REQUIRE(internal::PlainDecimalToFloat("+.5", &out));
  REQUIRE(out == 0.5f);
  REQUIRE(internal::PlainDecimalToFloat("000000000000000001.5", &out));  // 19 digits
  REQUIRE(out == 1.5f);
  REQUIRE_FALSE(internal::PlainDecimalToFloat("16777217", &out));  // a float midpoint: strtof decides
}

}  // namespace
}  // namespace urnforest
