#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"
#include "urnforest/sequential_vote.h"

using namespace urnforest;

namespace {

// Three classes; two numeric columns with missing values, two categorical columns (one with 40
// categories) with missing values.
Dataset MixedData(size_t rows, uint32_t seed) {
  Schema schema;
  for (int f = 0; f < 4; ++f) {
    FeatureInfo info;
    info.name = "f" + std::to_string(f);
    if (f >= 2) {
      info.type = FeatureType::kCategorical;
      const int n = f == 2 ? 5 : 40;
      for (int c = 0; c < n; ++c) info.categories.push_back("c" + std::to_string(c));
    }
    schema.features.push_back(info);
  }
  schema.target_name = "y";
  schema.class_names = {"a", "b", "c"};
  std::vector<float> values(rows * 4);
  std::vector<int32_t> labels(rows);
  uint32_t s = seed;
  auto next = [&s]() {
    s = s * 1664525u + 1013904223u;
    return s >> 8;
  };
  for (size_t r = 0; r < rows; ++r) {
    const float x0 = static_cast<float>(next() % 1000) / 100.0f;
    const float x1 = static_cast<float>(next() % 1000) / 100.0f;
    const uint32_t c2 = next() % 5;
    const uint32_t c3 = next() % 40;
    labels[r] = static_cast<int32_t>((static_cast<uint32_t>(x0 + x1) + c2 + c3 / 7 + next() % 2) % 3);
    values[0 * rows + r] = next() % 9 == 0 ? NAN : x0;
    values[1 * rows + r] = next() % 11 == 0 ? NAN : x1;
    values[2 * rows + r] = next() % 13 == 0 ? NAN : static_cast<float>(c2);
    values[3 * rows + r] = next() % 7 == 0 ? NAN : static_cast<float>(c3);
  }
  Result<Dataset> d = Dataset::Create(schema, rows, values, labels);
  REQUIRE(d.ok());
  return std::move(d).value();
}

std::vector<int32_t> TreeVotes(const Forest& forest, const std::vector<float>& rows, size_t n) {
  const size_t m = static_cast<size_t>(forest.num_features());
  std::vector<int32_t> votes(n * static_cast<size_t>(forest.num_trees()));
  for (size_t r = 0; r < n; ++r) {
    for (int32_t t = 0; t < forest.num_trees(); ++t) {
      votes[r * forest.num_trees() + t] = forest.TreeVote(t, rows.data() + r * m);
    }
  }
  return votes;
}

void CheckBatchMatchesTreeVote(const Forest& forest, std::vector<float> rows, size_t n) {
  const std::vector<int32_t> one = TreeVotes(forest, rows, n);
  const size_t k = static_cast<size_t>(forest.num_classes());
  std::vector<uint32_t> batch(n * k, 0);
  AccumulateVotes(forest, rows.data(), n, forest.num_trees(), batch.data());
  for (size_t r = 0; r < n; ++r) {
    std::vector<uint32_t> expect(k, 0);
    for (int32_t t = 0; t < forest.num_trees(); ++t) ++expect[one[r * forest.num_trees() + t]];
    for (size_t c = 0; c < k; ++c) REQUIRE(batch[r * k + c] == expect[c]);
  }
  const std::vector<HaltingRule> rules = {
      HaltingRule::kAlpha1, HaltingRule::kSiba,     HaltingRule::kHyper,  HaltingRule::kOneDir,
      HaltingRule::kNDir,   HaltingRule::kInfinite, HaltingRule::kOptimal};
  for (HaltingRule rule : rules) {
    INFO("rule " << RuleName(rule));
    Result<HaltingTable> table = BuildForestTable(forest, rule, 0.99);
    REQUIRE(table.ok());
    std::vector<SequentialVoteOptions> orders(3);
    orders[1].order = QueryOrder::kRandomPerRow;
    orders[1].seed = 5;
    orders[2].order = QueryOrder::kFixed;
    for (int32_t t = forest.num_trees() - 1; t >= 0; --t) orders[2].fixed_order.push_back(t);
    for (const SequentialVoteOptions& o : orders) {
      INFO("order " << static_cast<int>(o.order));
      Result<SequentialVoteResult> slow = PredictSequential(
          table.value(), n,
          [&](int32_t tree, size_t row) { return one[row * forest.num_trees() + tree]; }, o);
      Result<SequentialVoteResult> fast = PredictHaltedRows(forest, rows.data(), n, table.value(), o);
      // The same with the rows' missing-value flags computed beforehand (kept across calls).
      const std::vector<uint8_t> flags =
          RowsWithoutNaN(rows.data(), n, static_cast<size_t>(forest.num_features()));
      Result<SequentialVoteResult> kept =
          PredictHaltedRows(forest, rows.data(), n, table.value(), o, flags.data());
      REQUIRE(slow.ok());
      REQUIRE(fast.ok());
      REQUIRE(kept.ok());
      for (const SequentialVoteResult* got : {&fast.value(), &kept.value()}) {
        REQUIRE(got->labels == slow.value().labels);
        REQUIRE(got->trees_used == slow.value().trees_used);
        REQUIRE(got->confidence == slow.value().confidence);
        REQUIRE(got->halted_early == slow.value().halted_early);
      }
    }
  }
}

}  // namespace

TEST_CASE("Batch and blocked halted prediction equal TreeVote on numeric data", "[predict][batch]") {
  Result<Dataset> data = Twonorm(700, 3);
  REQUIRE(data.ok());
  TrainOptions o;
  o.num_trees = 31;
  Result<Forest> forest = Train(data.value(), o);
  REQUIRE(forest.ok());
  std::vector<float> rows = data.value().RowMajor();
  for (size_t i = 0; i < rows.size(); i += 17) rows[i] = NAN;
  CheckBatchMatchesTreeVote(forest.value(), rows, data.value().num_rows());
}

TEST_CASE("Batch and blocked halted prediction equal TreeVote with categories and missing values", "[predict][batch]") {
  Dataset train = MixedData(900, 11);
  TrainOptions o;
  o.num_trees = 25;
  o.mtry = 2;
  Result<Forest> forest = Train(train, o);
  REQUIRE(forest.ok());
  Dataset test = MixedData(601, 12);
  Result<std::vector<float>> rows = ModelRows(forest.value(), test);
  REQUIRE(rows.ok());
  std::vector<float> x = rows.value();
  // Out-of-range and non-integral categories (treated as missing) only reach the model rows.
  const float odd[] = {-1.0f, 40.0f, 2.5f, 1e9f, NAN};
  for (size_t r = 0; r < test.num_rows(); r += 5) x[r * 4 + 3] = odd[(r / 5) % 5];
  CheckBatchMatchesTreeVote(forest.value(), x, test.num_rows());
}

TEST_CASE("Blocked halted prediction equals sequential voting on real data", "[predict][batch]") {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/wdbc.csv", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  Result<Dataset> data = ReadCsv(text.str());
  REQUIRE(data.ok());
  TrainOptions o;
  o.num_trees = 51;
  Result<Forest> forest = Train(data.value(), o);
  REQUIRE(forest.ok());
  CheckBatchMatchesTreeVote(forest.value(), data.value().RowMajor(), data.value().num_rows());
}

TEST_CASE("Blocked halted prediction equals sequential voting across blocks of 4,096 rows",
          "[predict][batch]") {
  Result<Dataset> train = Twonorm(400, 5);
  Result<Dataset> test = Twonorm(4500, 6);
  REQUIRE(train.ok());
  REQUIRE(test.ok());
  TrainOptions o;
  o.num_trees = 15;
  Result<Forest> forest = Train(train.value(), o);
  REQUIRE(forest.ok());
  std::vector<float> rows = test.value().RowMajor();
  for (size_t i = 0; i < rows.size(); i += 23) rows[i] = NAN;
  CheckBatchMatchesTreeVote(forest.value(), rows, test.value().num_rows());
}

namespace {

// Votes 0 except for one (tree, row), which gets `bad`.
class OneBadVote final : public BlockVoter {
 public:
  OneBadVote(int32_t tree, size_t row, int32_t bad) : tree_(tree), row_(row), bad_(bad) {}
  void Vote(int32_t tree, const size_t* rows, size_t count, int32_t* out) const override {
    for (size_t i = 0; i < count; ++i) out[i] = tree == tree_ && rows[i] == row_ ? bad_ : 0;
  }

 private:
  int32_t tree_;
  size_t row_;
  int32_t bad_;
};

}  // namespace

TEST_CASE("Blocked halted prediction rejects an out-of-range vote before the first possible stop",
          "[predict][batch]") {
  HaltingTableOptions options;
  options.rule = HaltingRule::kSiba;
  options.num_trees = 101;
  options.num_classes = 2;
  options.alpha = 0.99;
  Result<HaltingTable> table = BuildHaltingTable(options);
  REQUIRE(table.ok());
  // SIBA at alpha 0.99 never stops before 6 unanimous votes, so tree 2 is voted without a check.
  for (int32_t bad : {-1, 2}) {
    Result<SequentialVoteResult> r =
        PredictSequentialBlocked(table.value(), 300, OneBadVote(2, 257, bad));
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code == StatusCode::kInvalidArgument);
    CHECK(r.status().message.find("tree 2 voted " + std::to_string(bad) + " for row 257") !=
          std::string::npos);
  }
  Result<SequentialVoteResult> good = PredictSequentialBlocked(table.value(), 300, OneBadVote(2, 257, 0));
  REQUIRE(good.ok());
  CHECK(good.value().trees_used[0] == 6);
}
