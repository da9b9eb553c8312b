#include "urnforest/status.h"

#include <catch2/catch.hpp>

using urnforest::CodeName;
using urnforest::Result;
using urnforest::Status;
using urnforest::StatusCode;

TEST_CASE("Status names are stable strings", "[status]") {
  REQUIRE(std::string(CodeName(StatusCode::kCsvRaggedRow)) == "CsvRaggedRow");
  REQUIRE(std::string(CodeName(StatusCode::kCorruptModel)) == "CorruptModel");
  REQUIRE(std::string(CodeName(StatusCode::kOk)) == "Ok");
}

TEST_CASE("Status renders code, position and message", "[status]") {
  Status s = Status::Error(StatusCode::kCsvRaggedRow, "row has 5 fields, header has 4", 4, 7);
  REQUIRE(s.ToString() == "CsvRaggedRow: line 4, column 7: row has 5 fields, header has 4");
  REQUIRE_FALSE(s.ok());
}

TEST_CASE("Result holds either a value or a status", "[status]") {
  Result<int> good = 42;
  REQUIRE(good.ok());
  REQUIRE(good.value() == 42);
  Result<int> bad = Status::Error(StatusCode::kInvalidArgument, "trees must be odd");
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.status().code == StatusCode::kInvalidArgument);
}
