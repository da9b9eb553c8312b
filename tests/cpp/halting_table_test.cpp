#include "urnforest/halting_table.h"

#include <catch2/catch.hpp>

#include <vector>

using urnforest::BuildHaltingTable;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;

namespace {

HaltingTable Siba(int32_t trees, double alpha, int32_t classes = 2) {
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = trees;
  o.alpha = alpha;
  o.num_classes = classes;
  auto r = BuildHaltingTable(o);
  REQUIRE(r.ok());
  return r.value();
}

std::vector<int32_t> Head(std::vector<int32_t> v, size_t n) {
  v.resize(n);
  return v;
}

}  // namespace

TEST_CASE("SIBA table for T = 101 at alpha = 0.99 matches the thesis vector", "[halting][anchor]") {
  std::vector<int32_t> want = {6,  8,  10, 12, 13, 15, 16, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28,
                               29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 40, 41, 42, 43, 44,
                               44, 45, 46, 46, 47, 48, 48, 49, 49, 50, 50, 51, 51, 51, 51, 51, 51};
  HaltingTable t = Siba(101, 0.99);
  REQUIRE(t.BinaryThresholds(0) == want);
  REQUIRE(t.BinaryThresholds(1) == want);
}

TEST_CASE("SIBA tables for T = 51 and T = 21 at alpha = 0.99 match the thesis vectors",
          "[halting][anchor]") {
  REQUIRE(Siba(51, 0.99).BinaryThresholds(0) ==
          std::vector<int32_t>{6,  8,  9,  11, 12, 14, 15, 16, 17, 18, 19, 20, 21,
                               21, 22, 23, 23, 24, 25, 25, 26, 26, 26, 26, 26, 26});
  REQUIRE(Siba(21, 0.99).BinaryThresholds(0) ==
          std::vector<int32_t>{5, 7, 8, 9, 10, 10, 11, 11, 11, 11, 11});
}

TEST_CASE("SIBA tables for T = 101 at alpha = 0.90, 0.95, 0.999 match the thesis heads",
          "[halting][anchor]") {
  REQUIRE(Head(Siba(101, 0.90).BinaryThresholds(0), 12) ==
          std::vector<int32_t>{3, 5, 6, 8, 9, 10, 11, 13, 14, 15, 16, 17});
  REQUIRE(Head(Siba(101, 0.95).BinaryThresholds(0), 12) ==
          std::vector<int32_t>{4, 6, 7, 9, 10, 12, 13, 14, 16, 17, 18, 19});
  REQUIRE(Head(Siba(101, 0.999).BinaryThresholds(0), 12) ==
          std::vector<int32_t>{9, 11, 13, 15, 17, 18, 20, 21, 23, 24, 25, 26});
}

TEST_CASE("SIBA P* of unanimous tallies matches the thesis digits", "[halting][anchor]") {
  HaltingTable t101 = Siba(101, 0.99);
  int32_t a[2] = {5, 0}, b[2] = {6, 0}, c[2] = {0, 6};
  REQUIRE(t101.Confidence(a) == Approx(0.986625).margin(5e-7));
  REQUIRE(t101.Confidence(b) == Approx(0.993731).margin(5e-7));
  REQUIRE(t101.Confidence(c) == Approx(0.993731).margin(5e-7));
  REQUIRE_FALSE(t101.Halts(a));
  REQUIRE(t101.Halts(b));
  HaltingTable t21 = Siba(21, 0.99);
  int32_t d[2] = {4, 0}, e[2] = {5, 0};
  REQUIRE(t21.Confidence(d) == Approx(0.98246).margin(5e-6));
  REQUIRE(t21.Confidence(e) == Approx(0.99381).margin(5e-6));
}

TEST_CASE("SIBA with three classes and T = 101 needs the thesis's leading votes",
          "[halting][anchor]") {
  HaltingTable t = Siba(101, 0.99, 3);
  auto need = [&](int32_t x, int32_t y) {
    int32_t o[2] = {x, y};
    return t.MinLeaderVotes(0, o);
  };
  REQUIRE(need(0, 0) == 7);
  REQUIRE(need(1, 0) == 8);
  REQUIRE(need(1, 1) == 9);
  REQUIRE(need(2, 0) == 10);
  REQUIRE(need(5, 0) == 15);
  REQUIRE(need(5, 5) == 16);
  REQUIRE(need(10, 0) == 21);
  REQUIRE(need(10, 10) == 22);
  REQUIRE(need(20, 0) == 32);
  REQUIRE(need(30, 30) == 36);
  int32_t o[2] = {5, 5};
  REQUIRE(t.MinLeaderVotes(2, o) == 16);
  REQUIRE(t.monotone());
}

TEST_CASE("alpha1 table needs a majority of 51 of 101 whatever the minority",
          "[halting][anchor]") {
  HaltingTableOptions o;
  o.rule = HaltingRule::kAlpha1;
  auto t = BuildHaltingTable(o);
  REQUIRE(t.ok());
  REQUIRE(t.value().BinaryThresholds(0) == std::vector<int32_t>(51, 51));
}

TEST_CASE("Prior rules without a prior, or hyper beyond four classes, fail with codes",
          "[halting][errors]") {
  HaltingTableOptions o;
  o.rule = HaltingRule::kHyper;
  REQUIRE(BuildHaltingTable(o).status().code == urnforest::StatusCode::kInvalidArgument);
  o.rule = HaltingRule::kSiba;
  o.alpha = 1.5;
  REQUIRE(BuildHaltingTable(o).status().code == urnforest::StatusCode::kInvalidArgument);
  auto p = urnforest::Prior::Dirichlet(std::vector<double>(6, 0.5));
  REQUIRE(p.ok());
  auto q = urnforest::Prior::Dirichlet({0.5, 0.6, 0.5, 0.5, 0.5, 0.5});
  o.alpha = 0.99;
  o.rule = HaltingRule::kOneDir;
  o.num_classes = 6;
  REQUIRE(BuildHaltingTable(o, &q.value()).status().code == urnforest::StatusCode::kLimitExceeded);
  REQUIRE(BuildHaltingTable(o, &p.value()).ok());
}

TEST_CASE("BinaryPStar holds Confidence of every two-class state at a + n (n + 1) / 2",
          "[halting][fastpath]") {
  // One-dir (Dirichlet prior) and SIBA thresholds tables; the infinite and lead-rule layouts and
  // three-class tables have no such array.
  auto dir = urnforest::Prior::Dirichlet({0.7, 1.3});
  REQUIRE(dir.ok());
  for (HaltingRule rule : {HaltingRule::kSiba, HaltingRule::kOneDir, HaltingRule::kOptimal}) {
    HaltingTableOptions o;
    o.rule = rule;
    o.num_trees = 41;
    o.alpha = 0.95;
    auto t = BuildHaltingTable(o, &dir.value());
    REQUIRE(t.ok());
    const float* pstar = t.value().BinaryPStar();
    REQUIRE(pstar != nullptr);
    int32_t decided = 0;
    for (int32_t a = 0; a <= 41; ++a) {
      for (int32_t b = 0; a + b <= 41; ++b) {
        const int32_t tally[2] = {a, b};
        const int32_t n = a + b;
        const double fast = a == b ? 0.0 : static_cast<double>(pstar[a + n * (n + 1) / 2]);
        INFO("rule " << static_cast<int>(rule) << " state " << a << ", " << b);
        REQUIRE(fast == t.value().Confidence(tally));
        if (fast > 0.5) ++decided;
      }
    }
    REQUIRE(decided > 100);  // the states are not all 0: the check compares real values
  }
  HaltingTableOptions o;
  o.rule = HaltingRule::kInfinite;
  o.num_trees = 41;
  REQUIRE(BuildHaltingTable(o).value().BinaryPStar() == nullptr);
  REQUIRE(Siba(41, 0.95, 3).BinaryPStar() == nullptr);
}
