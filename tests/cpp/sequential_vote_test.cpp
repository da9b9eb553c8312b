#include "urnforest/sequential_vote.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "base/random.h"
#include "fixtures.h"
#include "halting/binary_table_view.h"
#include "urnforest/expected_cost.h"
#include "urnforest/predict.h"

using urnforest::BuildHaltingTable;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;
using urnforest::PredictSequential;
using urnforest::PredictSequentialFromMatrix;
using urnforest::QueryOrder;
using urnforest::SequentialVoteOptions;

namespace {

HaltingTable Table(HaltingRule rule, int32_t T = 101, int32_t l = 2) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_trees = T;
  o.num_classes = l;
  auto t = BuildHaltingTable(o);
  REQUIRE(t.ok());
  return t.value();
}

// rows x T votes; row r votes class 0 with probability p_r.
std::vector<int32_t> RandomVotes(size_t rows, int32_t T, int32_t l, uint64_t seed) {
  urnforest::internal::DetRng rng(seed);
  std::vector<int32_t> v(rows * T);
  for (size_t r = 0; r < rows; ++r) {
    double p = rng.Uniform();
    for (int32_t t = 0; t < T; ++t)
      v[r * T + t] = rng.Uniform() < p ? 0 : 1 + static_cast<int32_t>(rng.Below(l - 1));
  }
  return v;
}

int32_t FullVote(const std::vector<int32_t>& v, size_t r, int32_t T, int32_t l) {
  std::vector<int32_t> c(l, 0);
  for (int32_t t = 0; t < T; ++t) ++c[v[r * T + t]];
  int32_t best = 0;
  for (int32_t j = 1; j < l; ++j)
    if (c[j] > c[best]) best = j;
  return best;
}

}  // namespace

TEST_CASE("A halted prediction under alpha1 always equals the full vote", "[sequential][property]") {
  for (int32_t l : {2, 3, 5}) {
    HaltingTable t = Table(HaltingRule::kAlpha1, 101, l);
    std::vector<int32_t> votes = RandomVotes(500, 101, l, 40 + l);
    for (QueryOrder order : {QueryOrder::kGeneration, QueryOrder::kRandomPerRow}) {
      SequentialVoteOptions o;
      o.order = order;
      auto res = PredictSequentialFromMatrix(t, votes, 500, 101, o);
      REQUIRE(res.ok());
      int32_t early = 0;
      for (size_t r = 0; r < 500; ++r) {
        REQUIRE(res.value().labels[r] == FullVote(votes, r, 101, l));
        early += res.value().halted_early[r];
      }
      REQUIRE(early > 300);
      REQUIRE(res.value().MeanTrees() < 101.0);
    }
  }
}

TEST_CASE("SIBA sequential voting stops after 6 unanimous votes and reports P*", "[sequential]") {
  HaltingTable t = Table(HaltingRule::kSiba);
  auto res = PredictSequential(t, 3, [](int32_t, size_t row) { return static_cast<int32_t>(row % 2); });
  REQUIRE(res.ok());
  REQUIRE(res.value().trees_used == std::vector<int32_t>{6, 6, 6});
  REQUIRE(res.value().labels == std::vector<int32_t>{0, 1, 0});
  REQUIRE(res.value().confidence[0] == Approx(0.993731).margin(5e-7));
  REQUIRE(res.value().halted_early[0] == 1);
}

TEST_CASE("Sequential SIBA disagreement on random-order votes matches the exact prediction",
          "[sequential]") {
  HaltingTable t = Table(HaltingRule::kSiba);
  // Every row has the final tally (60, 41); random permutations per row.
  const size_t rows = 20000;
  std::vector<int32_t> one(101);
  for (int32_t i = 0; i < 101; ++i) one[i] = i < 60 ? 0 : 1;
  SequentialVoteOptions o;
  o.order = QueryOrder::kRandomPerRow;
  o.seed = 99;
  auto res = PredictSequential(t, rows, [&](int32_t tree, size_t) { return one[tree]; }, o);
  REQUIRE(res.ok());
  double dis = 0.0;
  for (int32_t lab : res.value().labels) dis += lab != 0;
  auto exact = urnforest::ExactCostForFinalTally(t, {60, 41}).value();
  REQUIRE(res.value().MeanTrees() == Approx(exact.expected_trees).epsilon(0.02));
  REQUIRE(dis / rows == Approx(exact.disagreement).margin(0.003));
}

TEST_CASE("Random query orders are seeded permutations, fixed orders are followed",
          "[sequential]") {
  HaltingTable t = Table(HaltingRule::kSiba, 21);
  SequentialVoteOptions o;
  o.order = QueryOrder::kRandomPerRow;
  o.seed = 5;
  auto a = urnforest::QueryOrderForRow(t, 3, o).value();
  auto b = urnforest::QueryOrderForRow(t, 3, o).value();
  auto c = urnforest::QueryOrderForRow(t, 4, o).value();
  REQUIRE(a == b);
  REQUIRE(a != c);
  std::vector<int32_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int32_t i = 0; i < 21; ++i) REQUIRE(sorted[i] == i);
  SequentialVoteOptions f;
  f.order = QueryOrder::kFixed;
  for (int32_t i = 0; i < 21; ++i) f.fixed_order.push_back(100 - i * 3);
  auto trace = urnforest::TraceVotes(t, 0, [](int32_t tree, size_t) { return tree % 2; }, f);
  REQUIRE(trace.ok());
  REQUIRE(trace.value().trees == f.fixed_order);
  REQUIRE(trace.value().votes.size() == 21);
  REQUIRE(trace.value().confidence.size() == 21);
  REQUIRE(trace.value().trees_used <= 21);
}

TEST_CASE("A trace's full label is the plurality of all T votes, ties to the lowest class",
          "[sequential]") {
  HaltingTable t = Table(HaltingRule::kSiba, 21);
  // Class 1 leads the first votes (the sequential answer), class 0 wins the 21 votes.
  auto trace = urnforest::TraceVotes(t, 0, [](int32_t tree, size_t) { return tree < 8 ? 1 : 0; });
  REQUIRE(trace.ok());
  CHECK(trace.value().full_label == 0);
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = 4;
  o.num_classes = 3;
  o.alpha = 0.99;
  HaltingTable even = BuildHaltingTable(o).value();
  auto tie = urnforest::TraceVotes(even, 0, [](int32_t tree, size_t) { return 2 - tree / 2; });
  REQUIRE(tie.ok());
  CHECK(tie.value().full_label == 1);
}

TEST_CASE("A trace names the strict leader after every vote, -1 while two classes tie",
          "[sequential]") {
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = 6;
  o.num_classes = 3;
  o.alpha = 0.99;
  HaltingTable table = BuildHaltingTable(o).value();
  const std::vector<int32_t> votes = {2, 0, 0, 2, 1, 2};
  auto trace = urnforest::TraceVotes(
      table, 0, [&](int32_t tree, size_t) { return votes[static_cast<size_t>(tree)]; });
  REQUIRE(trace.ok());
  CHECK(trace.value().leaders == std::vector<int32_t>{2, -1, 0, -1, -1, 2});
  CHECK(trace.value().full_label == 2);
}

TEST_CASE("A random query order is the seeded Fisher-Yates shuffle of the row's own stream",
          "[sequential]") {
  // The permutation is part of the results' determinism: pin it to its definition (shuffle from
  // the first position up, DetRng::ForItem(seed, row), position p swaps with p + Below32(T - p)).
  for (int32_t T : {2, 21, 101}) {
    HaltingTable t = Table(HaltingRule::kSiba, T);
    for (uint64_t seed : {uint64_t{5}, uint64_t{0x123456789ABCDEFULL}}) {
      SequentialVoteOptions o;
      o.order = QueryOrder::kRandomPerRow;
      o.seed = seed;
      for (size_t row : {size_t{0}, size_t{1}, size_t{977}}) {
        std::vector<int32_t> want(T);
        for (int32_t i = 0; i < T; ++i) want[i] = i;
        urnforest::internal::DetRng rng = urnforest::internal::DetRng::ForItem(seed, row);
        for (size_t p = 0; p + 1 < want.size(); ++p) {
          const auto bound = static_cast<uint32_t>(want.size() - p);
          std::swap(want[p], want[p + rng.Below32(urnforest::internal::DetRng::Divisor32(bound))]);
        }
        REQUIRE(urnforest::QueryOrderForRow(t, row, o).value() == want);
      }
    }
  }
  // And the stream itself, for 21 trees, seed 5, row 3 (any change of it changes seeded results).
  HaltingTable t = Table(HaltingRule::kSiba, 21);
  SequentialVoteOptions o;
  o.order = QueryOrder::kRandomPerRow;
  o.seed = 5;
  const std::vector<int32_t> anchor = {16, 15, 13, 10, 19, 2, 1, 20, 17, 18, 0,
                                       12, 3,  5,  9,  14, 8, 11, 6,  4,  7};
  REQUIRE(urnforest::QueryOrderForRow(t, 3, o).value() == anchor);
}

TEST_CASE("A random-order prediction queries the prefix of the row's full order, drawn lazily",
          "[sequential]") {
  // Rows stop after a few votes, so each row's order is drawn only as far as it is queried; the
  // queried trees must still be the first trees_used entries of QueryOrderForRow (the full
  // shuffle), row after row (each row starts from the base order again).
  const int32_t T = 101;
  HaltingTable t = Table(HaltingRule::kSiba, T);
  SequentialVoteOptions o;
  o.order = QueryOrder::kRandomPerRow;
  o.seed = 0x5EEDULL;
  const size_t rows = 60;
  std::vector<std::vector<int32_t>> queried(rows);
  auto vote = [&](int32_t tree, size_t row) {
    queried[row].push_back(tree);
    return row % 7 == 0 ? tree % 2 : static_cast<int32_t>(row % 2);  // some rows never agree
  };
  auto res = PredictSequential(t, rows, vote, o);
  REQUIRE(res.ok());
  int32_t short_rows = 0;
  for (size_t r = 0; r < rows; ++r) {
    const std::vector<int32_t> full = urnforest::QueryOrderForRow(t, r, o).value();
    const size_t used = static_cast<size_t>(res.value().trees_used[r]);
    REQUIRE(queried[r].size() == used);
    REQUIRE(std::equal(queried[r].begin(), queried[r].end(), full.begin()));
    short_rows += used < static_cast<size_t>(T);
  }
  REQUIRE(short_rows > 40);
  REQUIRE(short_rows < static_cast<int32_t>(rows));
}

TEST_CASE("Sequential voting rejects out-of-range votes and bad orders with codes",
          "[sequential][errors]") {
  HaltingTable t = Table(HaltingRule::kSiba, 21);
  auto bad = PredictSequential(t, 2, [](int32_t, size_t) { return 7; });
  REQUIRE(bad.status().code == urnforest::StatusCode::kInvalidArgument);
  SequentialVoteOptions f;
  f.order = QueryOrder::kFixed;
  REQUIRE(PredictSequential(t, 1, [](int32_t, size_t) { return 0; }, f).status().code ==
          urnforest::StatusCode::kInvalidArgument);
  f.fixed_order = std::vector<int32_t>(21, 1);
  REQUIRE(PredictSequential(t, 1, [](int32_t, size_t) { return 0; }, f).status().code ==
          urnforest::StatusCode::kInvalidArgument);
  REQUIRE(PredictSequentialFromMatrix(t, std::vector<int32_t>(10, 0), 1, 21).status().code ==
          urnforest::StatusCode::kShapeMismatch);
}

TEST_CASE("Halting tables survive ToBytes and FromBytes, corruption is detected", "[halting][bytes]") {
  for (HaltingRule rule : {HaltingRule::kSiba, HaltingRule::kAlpha1, HaltingRule::kInfinite}) {
    for (int32_t l : {2, 3, 6}) {
      HaltingTable t = Table(rule, 51, l);
      std::vector<uint8_t> bytes = t.ToBytes();
      auto back = HaltingTable::FromBytes(bytes.data(), bytes.size());
      REQUIRE(back.ok());
      REQUIRE(back.value().ToBytes() == bytes);
      std::vector<int32_t> s(l, 1);
      s[0] = 9;
      REQUIRE(back.value().Halts(s.data()) == t.Halts(s.data()));
      REQUIRE(back.value().Confidence(s.data()) == t.Confidence(s.data()));
      bytes[bytes.size() / 2] ^= 1;
      REQUIRE(HaltingTable::FromBytes(bytes.data(), bytes.size()).status().code ==
              urnforest::StatusCode::kCorruptModel);
    }
  }
  std::vector<uint8_t> junk = {'U', 'F', 'H', 'T', 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  REQUIRE(HaltingTable::FromBytes(junk.data(), junk.size()).status().code ==
          urnforest::StatusCode::kUnsupportedVersion);
}

namespace {

// Votes from a rows x T matrix, for the blocked predictor.
class MatrixVoter final : public urnforest::BlockVoter {
 public:
  MatrixVoter(const std::vector<int32_t>& votes, int32_t T) : votes_(votes), T_(T) {}
  void Vote(int32_t tree, const size_t* rows, size_t count, int32_t* out) const override {
    for (size_t i = 0; i < count; ++i) out[i] = votes_[rows[i] * T_ + tree];
  }

 private:
  const std::vector<int32_t>& votes_;
  int32_t T_;
};

}  // namespace

TEST_CASE("Blocked voting equals tree-by-tree voting with and without two-class bounds",
          "[sequential][batch]") {
  const int32_t T = 41;
  HaltingTable siba = Table(HaltingRule::kSiba, T);
  // The same table loaded with one threshold lowered so that row 0 decreases: no bounds, the
  // thresholds are read directly (bytes: thresholds from byte 52).
  std::vector<uint8_t> bytes = siba.ToBytes();
  bytes[52 + 2 * 3] = 4;
  bytes[52 + 2 * 3 + 1] = 0;
  bytes = urnforest::test::ResealTable(std::move(bytes));
  auto lowered = HaltingTable::FromBytes(bytes.data(), bytes.size());
  REQUIRE(lowered.ok());
  REQUIRE(urnforest::internal::BinaryTableView(siba).ZeroWinsUpTo() != nullptr);
  REQUIRE(urnforest::internal::BinaryTableView(lowered.value()).ZeroWinsUpTo() == nullptr);
  const size_t rows = 700;
  const std::vector<int32_t> votes = RandomVotes(rows, T, 2, 17);
  for (const HaltingTable* t : {&siba, &lowered.value()}) {
    SequentialVoteOptions o;
    auto slow = PredictSequentialFromMatrix(*t, votes, rows, T, o);
    auto fast = urnforest::PredictSequentialBlocked(*t, rows, MatrixVoter(votes, T), o);
    REQUIRE(slow.ok());
    REQUIRE(fast.ok());
    CHECK(fast.value().labels == slow.value().labels);
    CHECK(fast.value().trees_used == slow.value().trees_used);
    CHECK(fast.value().confidence == slow.value().confidence);
    CHECK(fast.value().halted_early == slow.value().halted_early);
    CHECK(fast.value().tallies == slow.value().tallies);
    for (size_t r = 0; r < rows; ++r) {
      int32_t drawn[2] = {0, 0};
      for (int32_t i = 0; i < slow.value().trees_used[r]; ++i) ++drawn[votes[r * T + i]];
      CHECK(slow.value().tallies[2 * r] == drawn[0]);
      CHECK(slow.value().tallies[2 * r + 1] == drawn[1]);
    }
    int32_t early = 0;
    for (uint8_t e : slow.value().halted_early) early += e;
    CHECK(early > 100);  // both halt often: the stops themselves are compared
  }
}

TEST_CASE("Below32 is Lemire's multiply-shift with rejection below 2^32 mod n",
          "[sequential][rng]") {
  using urnforest::internal::DetRng;
  REQUIRE(DetRng::Divisor32(1).threshold == 0);
  REQUIRE(DetRng::Divisor32(3).threshold == 1);            // 2^32 = 3 * 1431655765 + 1
  REQUIRE(DetRng::Divisor32(0x80000001u).threshold == 0x7FFFFFFFu);
  // Twin streams: each value is the high half of (draw >> 32) * n unless its low half is rejected.
  DetRng a(11), b(11);
  int32_t rejected = 0;
  for (uint32_t n : {1u, 2u, 3u, 101u, 0x80000001u}) {
    const DetRng::Divisor32 d(n);
    for (int i = 0; i < 2000; ++i) {
      const uint32_t got = a.Below32(d);
      for (;;) {
        const uint64_t m = (b.Next() >> 32) * n;
        if (static_cast<uint32_t>(m) >= d.threshold) {
          REQUIRE(got == static_cast<uint32_t>(m >> 32));
          break;
        }
        ++rejected;
      }
      REQUIRE(got < n);
    }
  }
  REQUIRE(rejected > 500);  // about half of the draws for n = 2^31 + 1 are rejected
  // Counts of 0, 1, 2 over 30,000 draws below 3 are each within 3 % of 10,000.
  int32_t counts[3] = {0, 0, 0};
  for (int i = 0; i < 30000; ++i) ++counts[a.Below32(DetRng::Divisor32(3))];
  for (int32_t c : counts) REQUIRE(std::abs(c - 10000) < 300);
}

TEST_CASE("Neighbouring rows draw from unrelated streams, not shifted copies of one stream",
          "[sequential][rng]") {
  // Started one increment apart, row r + 1's k-th draw would be row r's (k + 1)-th, and draws of
  // one bound from them would agree for nearly every row.
  using urnforest::internal::DetRng;
  const DetRng::Divisor32 d(101);
  int32_t same = 0;
  int32_t same_next = 0;
  for (uint64_t r = 0; r < 10000; ++r) {
    DetRng a = DetRng::ForItem(99, r);
    DetRng b = DetRng::ForItem(99, r + 1);
    const uint32_t a_first = a.Below32(d);
    same += a_first == b.Below32(d);
    same_next += a.Below32(d) == DetRng::ForItem(99, r + 1).Below32(d);
  }
  // Independent draws agree about once in 101: 99 expected of 10,000.
  CHECK(same < 200);
  CHECK(same_next < 200);
}

TEST_CASE("Below is the remainder of a draw at or above 2^64 mod n", "[sequential][rng]") {
  using urnforest::internal::DetRng;
  // Twin streams: each value is draw % n unless the draw is below the rejection threshold, also
  // for a bound whose threshold rejects half the draws.
  DetRng a(7), b(7);
  auto expected = [&b](uint64_t n) {
    const uint64_t threshold = (0 - n) % n;
    for (;;) {
      const uint64_t x = b.Next();
      if (x >= threshold) return x % n;
    }
  };
  for (uint64_t n = 1; n < 3000; ++n) REQUIRE(a.Below(n) == expected(n));
  const uint64_t half = 0x8000000000000001ULL;
  REQUIRE((0 - half) % half == 0x7FFFFFFFFFFFFFFFULL);
  for (int i = 0; i < 1000; ++i) REQUIRE(a.Below(half) == expected(half));
}

TEST_CASE("Blocked voting equals tree-by-tree voting for threshold tables of several classes, "
          "whose first votes go unchecked", "[sequential][batch]") {
  const int32_t T = 41;
  for (int32_t l : {3, 4, 6}) {
    for (HaltingRule rule : {HaltingRule::kSiba, HaltingRule::kAlpha1}) {
      INFO("classes " << l << ", rule " << static_cast<int>(rule));
      const HaltingTable table = Table(rule, T, l);
      if (table.layout() != urnforest::TableLayout::kThresholds) continue;
      // No tally of fewer votes than the smallest threshold halts, so none is checked before it.
      REQUIRE(urnforest::internal::BinaryTableView(table).MinVotesToHalt() > 1);
      const size_t rows = 600;
      const std::vector<int32_t> votes = RandomVotes(rows, T, l, 23 + l);
      SequentialVoteOptions o;
      auto slow = PredictSequentialFromMatrix(table, votes, rows, T, o);
      auto fast = urnforest::PredictSequentialBlocked(table, rows, MatrixVoter(votes, T), o);
      REQUIRE(slow.ok());
      REQUIRE(fast.ok());
      CHECK(fast.value().labels == slow.value().labels);
      CHECK(fast.value().trees_used == slow.value().trees_used);
      CHECK(fast.value().confidence == slow.value().confidence);
      CHECK(fast.value().halted_early == slow.value().halted_early);
      CHECK(fast.value().tallies == slow.value().tallies);
      int32_t early = 0;
      for (uint8_t e : slow.value().halted_early) early += e;
      CHECK(early > 50);
      int32_t fewest = T;
      for (int32_t used : slow.value().trees_used) fewest = std::min(fewest, used);
      CHECK(fewest >= urnforest::internal::BinaryTableView(table).MinVotesToHalt());
    }
  }
}
