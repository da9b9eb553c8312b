#include "urnforest/pstar.h"

#include <catch2/catch.hpp>

#include <vector>

#include "urnforest/halting_table.h"

using urnforest::BuildHaltingTable;
using urnforest::HaltingRule;
using urnforest::HaltingTableOptions;
using urnforest::InfiniteExactProbability;
using urnforest::InfiniteLowerBound;
using urnforest::InfinitePairProbability;
using urnforest::InfiniteTStar;
using urnforest::Prior;
using urnforest::PStarBySum;

TEST_CASE("SIBA P* by direct sum over final tallies gives 0.986625 and 0.993731",
          "[pstar][anchor]") {
  Prior u = Prior::Uniform(2).value();
  REQUIRE(PStarBySum(u, 101, {5, 0}).value() == Approx(0.986625).margin(5e-7));
  REQUIRE(PStarBySum(u, 101, {6, 0}).value() == Approx(0.993731).margin(5e-7));
  REQUIRE(PStarBySum(u, 101, {3, 3}).value() == 0.0);
}

TEST_CASE("Infinite rule: 6-0 halts at 127/128, 5-0 and 8-1 do not, 9-1 does", "[pstar][anchor]") {
  REQUIRE(InfinitePairProbability(6, 0) == 127.0 / 128.0);
  REQUIRE(InfinitePairProbability(5, 0) == 63.0 / 64.0);
  REQUIRE(InfinitePairProbability(8, 1) == 0.9892578125);
  REQUIRE(InfinitePairProbability(9, 1) == 0.994140625);
  HaltingTableOptions o;
  o.rule = HaltingRule::kInfinite;
  o.num_trees = 101;
  o.alpha = 0.99;
  auto t = BuildHaltingTable(o);
  REQUIRE(t.ok());
  int32_t a[2] = {6, 0}, b[2] = {5, 0}, c[2] = {8, 1}, d[2] = {9, 1};
  REQUIRE(t.value().Halts(a));
  REQUIRE_FALSE(t.value().Halts(b));
  REQUIRE_FALSE(t.value().Halts(c));
  REQUIRE(t.value().Halts(d));
  REQUIRE(t.value().Confidence(a) == 127.0 / 128.0);
}

TEST_CASE("Infinite rule t* list for pi = 0.99 and t = 1..101 matches the binary table of [HMS11] §2.2",
          "[pstar][anchor]") {
  std::vector<int32_t> want = {
      0,  0,  0,  0,  0,  6,  7,  8,  9,  9,  10, 11, 11, 12, 13, 13, 14, 14, 15, 16, 16,
      17, 18, 18, 19, 19, 20, 21, 21, 22, 23, 23, 24, 24, 25, 26, 26, 27, 27, 28, 28, 29,
      30, 30, 31, 31, 32, 33, 33, 34, 34, 35, 35, 36, 37, 37, 38, 38, 39, 40, 40, 41, 41,
      42, 42, 43, 44, 44, 45, 45, 46, 46, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 53, 53,
      54, 54, 55, 55, 56, 57, 57, 58, 58, 59, 59, 60, 60, 61, 62, 62, 63};
  REQUIRE(InfiniteTStar(101, 0.99) == want);
  auto t90 = InfiniteTStar(101, 0.90), t95 = InfiniteTStar(101, 0.95), t999 = InfiniteTStar(101, 0.999);
  REQUIRE(std::vector<int32_t>{t90[2], t90[3], t90[4], t90[5], t90[8], t90[9], t90[10], t90[19],
                               t90[49], t90[100]} ==
          std::vector<int32_t>{3, 4, 5, 5, 7, 8, 8, 13, 30, 57});
  REQUIRE(std::vector<int32_t>{t95[2], t95[3], t95[4], t95[5], t95[8], t95[9], t95[10], t95[19],
                               t95[49], t95[100]} ==
          std::vector<int32_t>{0, 4, 5, 6, 8, 8, 9, 14, 31, 59});
  REQUIRE(std::vector<int32_t>{t999[7], t999[8], t999[9], t999[10], t999[19], t999[49], t999[100]} ==
          std::vector<int32_t>{0, 9, 10, 11, 17, 36, 66});
}

TEST_CASE("Infinite rule with l = 5 and others {5,3,2,1}: exact and bound match Fig. 2",
          "[pstar][anchor]") {
  struct Row { int32_t ti; double exact, bound; };
  std::vector<Row> rows = {{0, 0.005951, 0.0000305}, {5, 0.409923, 0.299184},
                           {8, 0.738825, 0.699012},  {10, 0.870362, 0.856780},
                           {12, 0.941266, 0.937414}, {14, 0.975177, 0.974215},
                           {15, 0.984197, 0.983734}, {16, 0.990058, 0.989840},
                           {17, 0.993812, 0.993710}, {18, 0.996185, 0.996138},
                           {20, 0.998585, 0.998576}, {25, 0.999895, 0.999895},
                           {30, 0.999993, 0.999993}};
  for (const Row& r : rows) {
    std::vector<int32_t> t = {r.ti, 5, 3, 2, 1};
    CAPTURE(r.ti);
    REQUIRE(InfiniteExactProbability(t, 0) == Approx(r.exact).margin(5e-7));
    REQUIRE(InfiniteLowerBound(t, 0) == Approx(r.bound).margin(5e-7));
  }
  HaltingTableOptions o;
  o.rule = HaltingRule::kInfinite;
  o.num_classes = 5;
  auto t = BuildHaltingTable(o);
  REQUIRE(t.ok());
  int32_t s16[5] = {16, 5, 3, 2, 1}, s17[5] = {17, 5, 3, 2, 1};
  REQUIRE_FALSE(t.value().Halts(s16));
  REQUIRE(t.value().Halts(s17));
}

TEST_CASE("Infinite exact probability equals the pair formula for two classes", "[pstar]") {
  REQUIRE(InfiniteExactProbability({8, 1}, 0) == Approx(0.9892578125).margin(1e-9));
  REQUIRE(InfiniteExactProbability({30, 22}, 1) ==
          Approx(1.0 - InfinitePairProbability(30, 22)).margin(1e-9));
}
