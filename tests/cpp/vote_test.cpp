#include "urnforest/vote.h"

#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

using urnforest::Plurality;
using urnforest::StrictLeader;

TEST_CASE("Plurality is the index of the largest count", "[vote]") {
  REQUIRE(Plurality(std::vector<uint32_t>{1, 7, 3}) == 1);
  REQUIRE(Plurality(std::vector<int32_t>{0, 0, 4}) == 2);
  REQUIRE(Plurality(std::vector<double>{0.25, 1.5, 1.25}) == 1);
  REQUIRE(Plurality(std::vector<int64_t>{9}) == 0);
}

TEST_CASE("Plurality breaks ties towards the lowest index", "[vote]") {
  REQUIRE(Plurality(std::vector<uint32_t>{2, 5, 5}) == 1);
  REQUIRE(Plurality(std::vector<int32_t>{3, 3, 3}) == 0);
  REQUIRE(Plurality(std::vector<double>{0.0, 0.0}) == 0);
}

TEST_CASE("Plurality reads only the first k counts of a pointer", "[vote]") {
  const uint64_t counts[] = {1, 2, 9};
  REQUIRE(Plurality(counts, 2) == 1);
  REQUIRE(Plurality(counts, 3) == 2);
  REQUIRE(Plurality(counts, 0) == 0);
}

TEST_CASE("StrictLeader is the index of a unique maximum", "[vote]") {
  REQUIRE(StrictLeader(std::vector<int32_t>{1, 7, 3}) == 1);
  REQUIRE(StrictLeader(std::vector<int32_t>{5, 3, 3}) == 0);
  REQUIRE(StrictLeader(std::vector<int32_t>{3, 3, 5}) == 2);
  REQUIRE(StrictLeader(std::vector<int32_t>{4}) == 0);
}

TEST_CASE("StrictLeader is -1 when the maximum is shared or there is no class", "[vote]") {
  REQUIRE(StrictLeader(std::vector<int32_t>{2, 5, 5}) == -1);
  REQUIRE(StrictLeader(std::vector<int32_t>{0, 0}) == -1);
  REQUIRE(StrictLeader(std::vector<int32_t>{5, 1, 5, 2}) == -1);
  REQUIRE(StrictLeader(std::vector<int32_t>{}) == -1);
}

TEST_CASE("StrictLeader and Plurality agree whenever a leader exists", "[vote]") {
  const std::vector<std::vector<int32_t>> tallies = {
      {0, 0, 0}, {1, 0, 0}, {0, 2, 1}, {3, 3, 1}, {1, 4, 4}, {2, 1, 2}, {0, 0, 6}};
  for (const std::vector<int32_t>& t : tallies) {
    const int32_t leader = StrictLeader(t);
    if (leader >= 0) REQUIRE(leader == Plurality(t));
  }
}
