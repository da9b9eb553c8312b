#include "base/utf8.h"

#include <string>

#include <catch2/catch.hpp>

using urnforest::internal::FirstInvalidUtf8;
using urnforest::internal::QuoteForMessage;

TEST_CASE("FirstInvalidUtf8 accepts every well-formed sequence up to U+10FFFF", "[utf8]") {
  CHECK(FirstInvalidUtf8("") == 0);
  CHECK(FirstInvalidUtf8("plain ascii") == 11);
  const std::string mixed = "a\xC3\xA9" "b\xE2\x82\xAC" "c\xF0\x9F\x8C\xB2" "d\xF4\x8F\xBF\xBF";
  CHECK(FirstInvalidUtf8(mixed) == mixed.size());
}

TEST_CASE("FirstInvalidUtf8 names the offset of the first byte that breaks UTF-8", "[utf8]") {
  SECTION("a lone continuation byte") { CHECK(FirstInvalidUtf8("ab\x80") == 2); }
  SECTION("an overlong two-byte form") { CHECK(FirstInvalidUtf8("a\xC0\xAF") == 1); }
  SECTION("an overlong three-byte form") { CHECK(FirstInvalidUtf8("a\xE0\x80\xAF") == 1); }
  SECTION("a UTF-16 surrogate") { CHECK(FirstInvalidUtf8("ab\xED\xA0\x80") == 2); }
  SECTION("a code point above U+10FFFF") { CHECK(FirstInvalidUtf8("\xF4\x90\x80\x80") == 0); }
  SECTION("a sequence cut off before its last byte") { CHECK(FirstInvalidUtf8("ok\xE2\x82") == 2); }
  SECTION("a byte that never occurs in UTF-8") { CHECK(FirstInvalidUtf8("\xC3\xA9\xFF") == 2); }
  SECTION("NUL is valid") { CHECK(FirstInvalidUtf8(std::string("a\0b", 3)) == 3); }
}

TEST_CASE("QuoteForMessage quotes short text whole and cuts long text at a character boundary",
          "[utf8]") {
  CHECK(QuoteForMessage("petal") == "'petal'");
  CHECK(QuoteForMessage(std::string(40, 'x')) == "'" + std::string(40, 'x') + "'");
  CHECK(QuoteForMessage(std::string(41, 'x')) == "'" + std::string(40, 'x') + "...'");
  const std::string straddling = std::string(39, 'x') + "\xC3\xA9" + "tail";
  CHECK(QuoteForMessage(straddling) == "'" + std::string(39, 'x') + "...'");
}
