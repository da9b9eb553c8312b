#include "urnforest/halting_table.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "fixtures.h"
#include "halting/binary_table_view.h"

using urnforest::BuildHaltingTable;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;
using urnforest::internal::BinaryTableView;

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

TEST_CASE("Prior rules without a prior fail with codes, asymmetric priors beyond four classes decide on demand",
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
  auto asymmetric = BuildHaltingTable(o, &q.value());
  REQUIRE(asymmetric.ok());
  CHECK(asymmetric.value().layout() == urnforest::TableLayout::kOnDemand);
  auto symmetric = BuildHaltingTable(o, &p.value());
  REQUIRE(symmetric.ok());
  CHECK(symmetric.value().layout() == urnforest::TableLayout::kPairwiseBound);
}

TEST_CASE("BinaryTableView::PStar holds Confidence of every two-class state at a + n (n + 1) / 2",
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
    const float* pstar = BinaryTableView(t.value()).PStar();
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
  REQUIRE(BinaryTableView(BuildHaltingTable(o).value()).PStar() == nullptr);
  REQUIRE(BinaryTableView(Siba(41, 0.95, 3)).PStar() == nullptr);
}

namespace {

// Every two-class tally (a, b), a + b <= T: Halts must say what the bounds say, and no tally of
// fewer than MinVotesToHalt votes halts while one of exactly that many does (when any halts).
void CheckBoundsMatchHalts(const HaltingTable& t) {
  const int32_t T = t.num_trees();
  const BinaryTableView view(t);
  const int32_t* zero_wins_up_to = view.ZeroWinsUpTo();
  const int32_t* one_wins_from = view.OneWinsFrom();
  REQUIRE(zero_wins_up_to != nullptr);
  REQUIRE(one_wins_from != nullptr);
  int32_t fewest = T + 1;
  int32_t halting = 0;
  for (int32_t m = 0; m <= T; ++m) {
    for (int32_t b = 0; b <= m; ++b) {
      const int32_t tally[2] = {m - b, b};
      const bool by_bounds = b <= zero_wins_up_to[m] || b >= one_wins_from[m];
      INFO("tally " << m - b << ", " << b);
      REQUIRE(t.Halts(tally) == by_bounds);
      if (by_bounds) REQUIRE(t.Leader(tally) == (b <= zero_wins_up_to[m] ? 0 : 1));
      if (by_bounds) {
        fewest = std::min(fewest, m);
        ++halting;
      }
    }
  }
  REQUIRE(halting > T);  // not a table that never halts: the comparison means something
  REQUIRE(view.MinVotesToHalt() == fewest);
}

// Table bytes with one threshold replaced (and the checksum redone): thresholds start at byte 52,
// row c entry k at 52 + 2 (c (T + 1) + k).
std::vector<uint8_t> WithThreshold(std::vector<uint8_t> bytes, int32_t T, int32_t c, int32_t k,
                                   uint16_t value) {
  const size_t at = 52 + 2 * (static_cast<size_t>(c) * (T + 1) + k);
  bytes[at] = static_cast<uint8_t>(value);
  bytes[at + 1] = static_cast<uint8_t>(value >> 8);
  return urnforest::test::ResealTable(std::move(bytes));
}

}  // namespace

TEST_CASE("Two-class tables decide by two bounds per vote count exactly as Halts",
          "[halting][fastpath]") {
  auto dir = urnforest::Prior::Dirichlet({0.7, 1.3});
  REQUIRE(dir.ok());
  for (HaltingRule rule : {HaltingRule::kSiba, HaltingRule::kOneDir, HaltingRule::kOptimal}) {
    for (double alpha : {0.9, 0.99}) {
      HaltingTableOptions o;
      o.rule = rule;
      o.num_trees = 41;
      o.alpha = alpha;
      auto t = BuildHaltingTable(o, &dir.value());
      REQUIRE(t.ok());
      INFO("rule " << static_cast<int>(rule) << " alpha " << alpha);
      CheckBoundsMatchHalts(t.value());
      const std::vector<uint8_t> bytes = t.value().ToBytes();
      CheckBoundsMatchHalts(HaltingTable::FromBytes(bytes.data(), bytes.size()).value());
    }
  }
  // SIBA at 0.99 for 101 trees first stops after 6 unanimous votes (the thesis vector's head).
  CHECK(BinaryTableView(Siba(101, 0.99)).MinVotesToHalt() == 6);
  CheckBoundsMatchHalts(Siba(101, 0.99));
  // Tables of more classes have no bounds; their earliest stop is the smallest threshold, below
  // which no tally halts.
  const HaltingTable three = Siba(41, 0.95, 3);
  REQUIRE(BinaryTableView(three).ZeroWinsUpTo() == nullptr);
  const int32_t fewest = BinaryTableView(three).MinVotesToHalt();
  CHECK(fewest > 1);
  bool some_halts_at_fewest = false;
  for (int32_t a = 0; a <= fewest; ++a) {
    for (int32_t b = 0; a + b <= fewest; ++b) {
      for (int32_t c = 0; a + b + c <= fewest; ++c) {
        const int32_t t[3] = {a, b, c};
        if (a + b + c < fewest) CHECK_FALSE(three.Halts(t));
        some_halts_at_fewest = some_halts_at_fewest || (a + b + c == fewest && three.Halts(t));
      }
    }
  }
  CHECK(some_halts_at_fewest);  // unanimous votes halt at the smallest threshold
}

TEST_CASE("A loaded two-class table whose thresholds decrease has no bounds but a true earliest stop",
          "[halting][fastpath]") {
  const int32_t T = 41;
  HaltingTable siba = Siba(T, 0.95);
  // Row 0 entry 3 (class 0's votes needed against 3) lowered below entry 2: the row decreases.
  const uint16_t lowered = 4;
  REQUIRE(BinaryTableView(siba).ThresholdRow(0)[2] > lowered);
  const std::vector<uint8_t> bytes = WithThreshold(siba.ToBytes(), T, 0, 3, lowered);
  auto t = HaltingTable::FromBytes(bytes.data(), bytes.size());
  REQUIRE(t.ok());
  REQUIRE(BinaryTableView(t.value()).ThresholdRow(0)[3] == lowered);
  REQUIRE(BinaryTableView(t.value()).ZeroWinsUpTo() == nullptr);
  REQUIRE(BinaryTableView(t.value()).OneWinsFrom() == nullptr);
  const int32_t now_halts[2] = {4, 3};
  REQUIRE(t.value().Halts(now_halts));
  REQUIRE_FALSE(siba.Halts(now_halts));
  int32_t fewest = T + 1;
  for (int32_t m = 1; m <= T && fewest > T; ++m) {
    for (int32_t b = 0; b <= m; ++b) {
      const int32_t tally[2] = {m - b, b};
      if (t.value().Halts(tally)) fewest = m;
    }
  }
  REQUIRE(BinaryTableView(t.value()).MinVotesToHalt() == fewest);
}

TEST_CASE("A full table's build reports each level of its recursion and stops when progress returns false",
          "[halting][progress]") {
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = 41;
  o.num_classes = 3;
  std::vector<int64_t> done;
  o.progress = [&](int64_t d, int64_t total) {
    REQUIRE(total == 42);
    done.push_back(d);
    return true;
  };
  const HaltingTable table = urnforest::test::MustOk(BuildHaltingTable(o));
  REQUIRE(table.layout() == urnforest::TableLayout::kThresholds);
  REQUIRE(done.size() == 42);
  REQUIRE(done.front() == 1);
  REQUIRE(done.back() == 42);
  o.progress = [](int64_t d, int64_t) { return d < 10; };
  const urnforest::Result<HaltingTable> cancelled = BuildHaltingTable(o);
  REQUIRE(cancelled.status().code == urnforest::StatusCode::kInvalidArgument);
  REQUIRE(cancelled.status().message == "cancelled");
  o.progress = nullptr;
  o.force_pairwise_bound = true;
  int64_t calls = 0;
  o.progress = [&](int64_t, int64_t) { return ++calls < 3; };
  REQUIRE(BuildHaltingTable(o).status().code == urnforest::StatusCode::kInvalidArgument);
  REQUIRE(calls == 3);
}
