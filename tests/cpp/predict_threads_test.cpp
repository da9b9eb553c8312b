// Large batches spread over threads (PredictExecution): the same answers as one thread.
#include <cmath>
#include <string>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "base/threads.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"

using namespace urnforest;

namespace {

Forest TwonormForest(int32_t trees) {
  Result<Dataset> train = Twonorm(300, 21);
  REQUIRE(train.ok());
  TrainOptions o;
  o.num_trees = trees;
  Result<Forest> forest = Train(train.value(), o);
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

// 1,003 test rows of twonorm, every 29th value missing, prepared for `forest`.
PreparedRows TestRows(const Forest& forest) {
  Result<Dataset> test = Twonorm(1003, 22);
  REQUIRE(test.ok());
  Result<PreparedRows> rows = PrepareRows(forest, test.value());
  REQUIRE(rows.ok());
  PreparedRows prepared = std::move(rows).value();
  for (size_t i = 0; i < prepared.values.size(); i += 29) prepared.values[i] = NAN;
  prepared.without_nan = RowsWithoutNaN(prepared.values.data(), prepared.num_rows,
                                        static_cast<size_t>(forest.num_features()));
  return prepared;
}

PredictExecution Threads(int32_t threads) {
  PredictExecution e;
  e.threads = threads;
  e.min_rows_per_thread = 10;  // small parts, so that 1,003 rows split for every thread count
  return e;
}

void RequireSame(const HaltedPrediction& a, const HaltedPrediction& b) {
  REQUIRE(a.halted.labels == b.halted.labels);
  REQUIRE(a.halted.trees_used == b.halted.trees_used);
  REQUIRE(a.halted.confidence == b.halted.confidence);
  REQUIRE(a.halted.halted_early == b.halted.halted_early);
  REQUIRE(a.halted.tallies == b.halted.tallies);
  REQUIRE(a.mean_trees == b.mean_trees);
  REQUIRE(a.full.has_value() == b.full.has_value());
  if (a.full.has_value()) {
    REQUIRE(a.full->votes == b.full->votes);
    REQUIRE(a.full->labels == b.full->labels);
    REQUIRE(a.disagreement == b.disagreement);
  }
}

}  // namespace

TEST_CASE("A full vote split over 2, 3 and 8 threads gives the votes of one thread", "[predict][threads]") {
  const Forest forest = TwonormForest(41);
  const PreparedRows rows = TestRows(forest);
  Result<FullVote> one = PredictFullRows(forest, rows.values.data(), rows.num_rows);
  REQUIRE(one.ok());
  for (int32_t threads : {1, 2, 3, 8, 0}) {
    INFO("threads " << threads);
    Result<FullVote> many = PredictFullRows(forest, rows.values.data(), rows.num_rows, Threads(threads));
    REQUIRE(many.ok());
    REQUIRE(many.value().votes == one.value().votes);
    REQUIRE(many.value().labels == one.value().labels);
  }
}

TEST_CASE("A halted prediction split over threads gives the answer of one thread in every query order",
          "[predict][threads]") {
  const Forest forest = TwonormForest(41);
  const PreparedRows rows = TestRows(forest);
  std::vector<SequentialVoteOptions> orders(3);
  orders[1].order = QueryOrder::kRandomPerRow;  // each row's order comes from its index in the batch
  orders[1].seed = 9;
  orders[2].order = QueryOrder::kFixed;
  for (int32_t t = forest.num_trees() - 1; t >= 0; --t) orders[2].fixed_order.push_back(t);
  for (HaltingRule rule : {HaltingRule::kHyper, HaltingRule::kSiba, HaltingRule::kInfinite}) {
    Result<HaltingTable> table = BuildForestTable(forest, rule, 0.99);
    REQUIRE(table.ok());
    for (const SequentialVoteOptions& order : orders) {
      for (bool compare : {false, true}) {
        INFO("rule " << RuleName(rule) << ", order " << static_cast<int>(order.order) << ", compare " << compare);
        Result<HaltedPrediction> one = PredictHalted(forest, rows, table.value(), order, compare);
        REQUIRE(one.ok());
        for (int32_t threads : {2, 3, 8}) {
          INFO("threads " << threads);
          Result<HaltedPrediction> many =
              PredictHalted(forest, rows, table.value(), order, compare, Threads(threads));
          REQUIRE(many.ok());
          RequireSame(many.value(), one.value());
        }
      }
    }
  }
}

TEST_CASE("A batch below min_rows_per_thread rows a thread stays on the calling thread", "[predict][threads]") {
  const Forest forest = TwonormForest(11);
  const PreparedRows rows = TestRows(forest);
  PredictExecution e;
  e.threads = 8;  // 1,003 rows < 2 x 16,384: one part, the same answer
  Result<HaltingTable> table = BuildForestTable(forest, HaltingRule::kHyper, 0.99);
  REQUIRE(table.ok());
  Result<HaltedPrediction> one = PredictHalted(forest, rows, table.value(), SequentialVoteOptions(), true);
  Result<HaltedPrediction> many = PredictHalted(forest, rows, table.value(), SequentialVoteOptions(), true, e);
  REQUIRE(one.ok());
  REQUIRE(many.ok());
  RequireSame(many.value(), one.value());
}

TEST_CASE("A halted prediction split over threads fails as one thread does when the table does not fit",
          "[predict][threads]") {
  const Forest forest = TwonormForest(11);
  const PreparedRows rows = TestRows(forest);
  HaltingTableOptions o;
  o.rule = HaltingRule::kAlpha1;
  o.num_trees = 11;
  o.num_classes = 3;  // the forest has 2
  Result<HaltingTable> table = BuildHaltingTable(o, nullptr);
  REQUIRE(table.ok());
  Result<HaltedPrediction> many = PredictHalted(forest, rows, table.value(), SequentialVoteOptions(), false, Threads(4));
  REQUIRE_FALSE(many.ok());
  REQUIRE(many.status().code == StatusCode::kShapeMismatch);
}

TEST_CASE("Row parts cover every row once and report the first failing part in row order", "[predict][threads]") {
  for (int32_t parts : {1, 2, 3, 7}) {
    INFO("parts " << parts);
    std::vector<int> seen(100, 0);
    Status ok = internal::RunRowParts(100, parts, [&](size_t begin, size_t end) {
      for (size_t r = begin; r < end; ++r) ++seen[r];
      return Status::Ok();
    });
    REQUIRE(ok.ok());
    REQUIRE(seen == std::vector<int>(100, 1));
    // Every part from row 40 on fails with a message naming its first row: the first of them wins.
    Status failed = internal::RunRowParts(100, parts, [&](size_t begin, size_t end) {
      if (end <= 40) return Status::Ok();
      return Status::Error(StatusCode::kInvalidArgument, "part from row " + std::to_string(begin));
    });
    REQUIRE_FALSE(failed.ok());
    const size_t first_failing = parts == 1 ? 0 : (40 * static_cast<size_t>(parts) / 100) * 100 / static_cast<size_t>(parts);
    REQUIRE(failed.message == "part from row " + std::to_string(first_failing));
  }
}
