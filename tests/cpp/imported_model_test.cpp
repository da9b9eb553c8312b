#include "urnforest/imported_model.h"

#include <string>

#include <catch2/catch.hpp>

using namespace urnforest;

TEST_CASE("ImportedKindName and ParseImportedKind spell the model kinds voting and additive",
          "[imported][names]") {
  CHECK(std::string(ImportedKindName(ImportedKind::kVoting)) == "voting");
  CHECK(std::string(ImportedKindName(ImportedKind::kAdditive)) == "additive");
  CHECK(ImportedKindNames() == std::vector<std::string>{"voting", "additive"});
  for (const std::string& name : ImportedKindNames()) {
    Result<ImportedKind> kind = ParseImportedKind(name);
    REQUIRE(kind.ok());
    CHECK(ImportedKindName(kind.value()) == name);
  }
  CHECK(std::string(ImportedKindName(static_cast<ImportedKind>(7))) == "unknown");
}

TEST_CASE("ParseImportedKind refuses any other spelling with kInvalidArgument naming the choices",
          "[imported][names]") {
  for (const char* bad : {"Voting", "vote", "", "additive "}) {
    Result<ImportedKind> kind = ParseImportedKind(bad);
    REQUIRE_FALSE(kind.ok());
    CHECK(kind.status().code == StatusCode::kInvalidArgument);
    CHECK(kind.status().message ==
          "unknown model kind '" + std::string(bad) + "' (expected voting or additive)");
  }
}

TEST_CASE("VoteKindName and ParseVoteKind spell the vote kinds hard and soft", "[imported][names]") {
  CHECK(std::string(VoteKindName(VoteKind::kHard)) == "hard");
  CHECK(std::string(VoteKindName(VoteKind::kSoft)) == "soft");
  REQUIRE(ParseVoteKind("soft").ok());
  CHECK(ParseVoteKind("soft").value() == VoteKind::kSoft);
  REQUIRE(ParseVoteKind("hard").ok());
  CHECK(ParseVoteKind("hard").value() == VoteKind::kHard);
  Result<VoteKind> bad = ParseVoteKind("SOFT");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code == StatusCode::kInvalidArgument);
  CHECK(bad.status().message == "unknown vote kind 'SOFT' (expected hard or soft)");
}
