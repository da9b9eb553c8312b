#include "urnforest/predict.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ensemble/forest_access.h"
#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/sequential_vote.h"

using namespace urnforest;

namespace {

Dataset ReadDataset(const std::string& file) {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/" + file, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  Result<Dataset> data = ReadCsv(text.str());
  REQUIRE(data.ok());
  return std::move(data).value();
}

Forest TrainSmall(const Dataset& data, int32_t trees) {
  TrainOptions options;
  options.num_trees = trees;
  options.seed = 11;
  Result<Forest> forest = Train(data, options);
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

// What the wasm bindings computed before PredictHalted: the halted rows, the full vote of the
// queried trees (AccumulateVotes for 0..T-1, a TreeVote loop for a fixed order), its argmax, and
// index.js's meanTrees and disagreement.
struct OldAnswer {
  SequentialVoteResult halted;
  std::vector<uint32_t> full_votes;
  std::vector<int32_t> full_labels;
  double mean_trees = 0.0;
  double disagreement = 0.0;
};

OldAnswer OldComposition(const Forest& forest, const Dataset& data, const HaltingTable& table,
                         const SequentialVoteOptions& options) {
  Result<std::vector<float>> rows = ModelRows(forest, data);
  REQUIRE(rows.ok());
  const size_t n = data.num_rows();
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  const std::vector<uint8_t> flags = RowsWithoutNaN(rows.value().data(), n, m);
  Result<SequentialVoteResult> halted =
      PredictHaltedRows(forest, rows.value().data(), n, table, options, flags.data());
  REQUIRE(halted.ok());
  OldAnswer out;
  out.halted = halted.value();
  out.full_votes.assign(n * k, 0);
  if (options.fixed_order.empty()) {
    AccumulateVotes(forest, rows.value().data(), n, table.num_trees(), out.full_votes.data());
  } else {
    for (size_t r = 0; r < n; ++r) {
      uint32_t* v = out.full_votes.data() + r * k;
      for (int32_t t : options.fixed_order) ++v[forest.TreeVote(t, rows.value().data() + r * m)];
    }
  }
  double used = 0;
  size_t differ = 0;
  for (size_t r = 0; r < n; ++r) {
    const uint32_t* v = out.full_votes.data() + r * k;
    int32_t best = 0;
    for (size_t c = 1; c < k; ++c) {
      if (v[c] > v[best]) best = static_cast<int32_t>(c);
    }
    out.full_labels.push_back(best);
    used += out.halted.trees_used[r];
    differ += out.halted.labels[r] != best ? 1 : 0;
  }
  out.mean_trees = n == 0 ? 0 : used / static_cast<double>(n);
  out.disagreement = n == 0 ? 0 : static_cast<double>(differ) / static_cast<double>(n);
  return out;
}

void CheckSameAsOldComposition(const Forest& forest, const Dataset& data, HaltingRule rule) {
  Result<PreparedRows> rows = PrepareRows(forest, data);
  REQUIRE(rows.ok());
  REQUIRE(rows.value().Fits(forest));
  std::vector<SequentialVoteOptions> orders(3);
  orders[1].order = QueryOrder::kRandomPerRow;
  orders[1].seed = 0x1234567890abcdefull;
  orders[2].order = QueryOrder::kFixed;  // a sub-ensemble: every other tree, last first
  for (int32_t t = forest.num_trees() - 1; t >= 0; t -= 2) orders[2].fixed_order.push_back(t);
  for (const SequentialVoteOptions& o : orders) {
    INFO("order " << static_cast<int>(o.order));
    const int32_t trees =
        o.fixed_order.empty() ? forest.num_trees() : static_cast<int32_t>(o.fixed_order.size());
    Result<HaltingTable> table = BuildForestTable(forest, rule, 0.95, trees);
    REQUIRE(table.ok());
    const OldAnswer old = OldComposition(forest, data, table.value(), o);
    for (bool compare : {true, false}) {
      Result<HaltedPrediction> got = PredictHalted(forest, rows.value(), table.value(), o, compare);
      REQUIRE(got.ok());
      const HaltedPrediction& p = got.value();
      REQUIRE(p.halted.labels == old.halted.labels);
      REQUIRE(p.halted.trees_used == old.halted.trees_used);
      REQUIRE(p.halted.confidence == old.halted.confidence);
      REQUIRE(p.halted.halted_early == old.halted.halted_early);
      REQUIRE(p.mean_trees == old.mean_trees);
      if (compare) {
        REQUIRE(p.full.has_value());
        REQUIRE(p.full->votes == old.full_votes);
        REQUIRE(p.full->labels == old.full_labels);
        REQUIRE(p.disagreement == old.disagreement);
      } else {
        REQUIRE_FALSE(p.full.has_value());
        REQUIRE(std::isnan(p.disagreement));
      }
    }
    const size_t n = rows.value().num_rows;
    SequentialVoteResult into;
    into.labels.assign(n, -7);
    into.trees_used.assign(n, -7);
    into.confidence.assign(n, -7.0);
    into.halted_early.assign(n, 7);
    into.tallies.assign(n * static_cast<size_t>(forest.num_classes()), -7);
    const SequentialVoteSpans spans = {into.labels.data(), into.trees_used.data(), into.confidence.data(),
                                       into.halted_early.data(), into.tallies.data()};
    double mean_trees = -1.0;
    REQUIRE(PredictHaltedInto(forest, rows.value(), table.value(), o, spans, &mean_trees).ok());
    REQUIRE(into.labels == old.halted.labels);
    REQUIRE(into.trees_used == old.halted.trees_used);
    REQUIRE(into.confidence == old.halted.confidence);
    REQUIRE(into.halted_early == old.halted.halted_early);
    REQUIRE(into.tallies == old.halted.tallies);
    REQUIRE(mean_trees == old.mean_trees);
  }
}

}  // namespace

TEST_CASE("PredictHalted and PredictHaltedInto equal the bindings' former composition on the shipped data sets",
          "[predict][datasets]") {
  struct Case {
    const char* file;
    HaltingRule rule;
  };
  const Case cases[] = {{"iris.csv", HaltingRule::kHyper},   {"ionosphere.csv", HaltingRule::kSiba},
                        {"soybean.csv", HaltingRule::kSiba}, {"vehicle.csv", HaltingRule::kNDir},
                        {"wdbc.csv", HaltingRule::kAlpha1},  {"sonar.csv", HaltingRule::kInfinite},
                        {"wine.csv", HaltingRule::kOneDir}};
  for (const Case& c : cases) {
    INFO(c.file << " rule " << RuleName(c.rule));
    const Dataset data = ReadDataset(c.file);
    CheckSameAsOldComposition(TrainSmall(data, 41), data, c.rule);
  }
}

TEST_CASE("PrepareRows converts once for every model of the same layout", "[predict]") {
  const Dataset data = ReadDataset("soybean.csv");
  const Forest a = TrainSmall(data, 5);
  const Forest b = TrainSmall(data, 7);
  Result<PreparedRows> rows = PrepareRows(a, data);
  REQUIRE(rows.ok());
  CHECK(rows.value().num_rows == data.num_rows());
  const std::vector<float> direct = ModelRows(a, data).value();
  REQUIRE(rows.value().values.size() == direct.size());
  CHECK(std::memcmp(rows.value().values.data(), direct.data(), direct.size() * sizeof(float)) == 0);
  CHECK(rows.value().without_nan == RowsWithoutNaN(rows.value().values.data(), data.num_rows(),
                                                   static_cast<size_t>(a.num_features())));
  CHECK(rows.value().Fits(b));
  CHECK_FALSE(rows.value().Fits(Forest()));
  const Dataset iris = ReadDataset("iris.csv");
  CHECK_FALSE(rows.value().Fits(TrainSmall(iris, 3)));
  CHECK(PrepareRows(Forest(), data).status().code == StatusCode::kInvalidArgument);
  CHECK(PrepareRows(a, iris).status().code == StatusCode::kColumnMismatch);
}

TEST_CASE("Rows prepared for a forest stop fitting it when its schema is rewritten, though a copy keeps its layout id", "[predict]") {
  const Dataset iris = ReadDataset("iris.csv");
  const Forest a = TrainSmall(iris, 5);
  Result<PreparedRows> rows = PrepareRows(a, iris);
  REQUIRE(rows.ok());
  CHECK(rows.value().layout_id == a.layout_id());
  CHECK(a.layout_id() != 0);
  Forest copy = a;
  CHECK(copy.layout_id() == a.layout_id());
  CHECK(rows.value().Fits(copy));
  // Renaming a feature through the builders' write access draws a new id: the rows are compared by
  // name again, and no longer fit.
  internal::ForestAccess::schema(copy).features[0].name = "renamed";
  CHECK(copy.layout_id() != a.layout_id());
  CHECK_FALSE(rows.value().Fits(copy));
  CHECK(rows.value().Fits(a));
  // Another forest of the same layout has another id and still fits, by comparison.
  const Forest b = TrainSmall(iris, 7);
  CHECK(b.layout_id() != a.layout_id());
  CHECK(rows.value().Fits(b));
}

TEST_CASE("PredictHalted and PredictHaltedInto reject a table or rows that do not fit the forest", "[predict]") {
  const Dataset iris = ReadDataset("iris.csv");
  const Forest forest = TrainSmall(iris, 9);
  Result<PreparedRows> rows = PrepareRows(forest, iris);
  REQUIRE(rows.ok());
  HaltingTableOptions o;
  o.num_trees = 9;
  o.num_classes = 2;
  Result<HaltingTable> two_classes = BuildHaltingTable(o);
  REQUIRE(two_classes.ok());
  Result<HaltedPrediction> bad = PredictHalted(forest, rows.value(), two_classes.value(), {}, true);
  CHECK(bad.status().code == StatusCode::kShapeMismatch);
  CHECK(bad.status().message == "the halting table does not fit this forest");
  o.num_classes = 3;
  o.num_trees = 10;
  Result<HaltingTable> too_long = BuildHaltingTable(o);
  REQUIRE(too_long.ok());
  CHECK(PredictHalted(forest, rows.value(), too_long.value(), {}, false).status().code ==
        StatusCode::kShapeMismatch);
  o.num_trees = 3;
  Result<HaltingTable> three = BuildHaltingTable(o);
  REQUIRE(three.ok());
  SequentialVoteOptions fixed;
  fixed.order = QueryOrder::kFixed;
  fixed.fixed_order = {4, 2};
  bad = PredictHalted(forest, rows.value(), three.value(), fixed, true);
  CHECK(bad.status().code == StatusCode::kShapeMismatch);
  CHECK(bad.status().message == "the halting table does not fit this forest and order");
  fixed.fixed_order = {4, 2, 9};
  CHECK(PredictHalted(forest, rows.value(), three.value(), fixed, true).status().code ==
        StatusCode::kInvalidArgument);
  const Dataset soybean = ReadDataset("soybean.csv");
  Result<PreparedRows> other = PrepareRows(TrainSmall(soybean, 3), soybean);
  REQUIRE(other.ok());
  CHECK(PredictHalted(forest, other.value(), three.value(), {}, true).status().code ==
        StatusCode::kInvalidArgument);
  const size_t n = rows.value().num_rows;
  std::vector<int32_t> labels(n), used(n), tallies(3 * n);
  std::vector<double> confidence(n);
  std::vector<uint8_t> early(n);
  const SequentialVoteSpans spans = {labels.data(), used.data(), confidence.data(), early.data(),
                                     tallies.data()};
  double mean_trees = 0.0;
  CHECK(PredictHaltedInto(forest, rows.value(), two_classes.value(), {}, spans, &mean_trees).code ==
        StatusCode::kShapeMismatch);
  CHECK(PredictHaltedInto(forest, rows.value(), three.value(), fixed, spans, &mean_trees).code ==
        StatusCode::kInvalidArgument);
  CHECK(PredictHaltedInto(forest, other.value(), three.value(), {}, spans, &mean_trees).code ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("PredictHalted on no rows uses no trees and has no disagreement", "[predict]") {
  const Dataset iris = ReadDataset("iris.csv");
  const Forest forest = TrainSmall(iris, 5);
  Result<PreparedRows> rows = PrepareRows(forest, iris.Subset({}));
  REQUIRE(rows.ok());
  Result<HaltingTable> table = BuildForestTable(forest, HaltingRule::kSiba, 0.99);
  REQUIRE(table.ok());
  Result<HaltedPrediction> got = PredictHalted(forest, rows.value(), table.value(), {}, true);
  REQUIRE(got.ok());
  CHECK(got.value().mean_trees == 0.0);
  CHECK(got.value().disagreement == 0.0);
  CHECK(got.value().full->votes.empty());
}

TEST_CASE("TraceRow stops where PredictHalted stops and counts the full vote of the same trees",
          "[predict]") {
  const Dataset iris = ReadDataset("iris.csv");
  const Forest forest = TrainSmall(iris, 31);
  Result<PreparedRows> rows = PrepareRows(forest, iris);
  REQUIRE(rows.ok());
  Result<HaltingTable> table = BuildForestTable(forest, HaltingRule::kHyper, 0.99);
  REQUIRE(table.ok());
  for (QueryOrder order : {QueryOrder::kGeneration, QueryOrder::kRandomPerRow}) {
    SequentialVoteOptions options;
    options.order = order;
    options.seed = 5;
    Result<HaltedPrediction> all = PredictHalted(forest, rows.value(), table.value(), options, true);
    REQUIRE(all.ok());
    for (size_t r : {size_t{0}, size_t{60}, size_t{149}}) {
      Result<RowTrace> got = TraceRow(forest, iris, r, table.value(), options);
      REQUIRE(got.ok());
      CHECK(got.value().trace.trees_used == all.value().halted.trees_used[r]);
      CHECK(got.value().trace.label == all.value().halted.labels[r]);
      CHECK(got.value().trace.full_label == all.value().full->labels[r]);
      const uint32_t* full = all.value().full->votes.data() + r * 3;
      CHECK(got.value().full_votes == std::vector<uint32_t>(full, full + 3));
    }
  }
  CHECK(TraceRow(forest, iris, 150, table.value(), {}).status().code ==
        StatusCode::kInvalidArgument);
  HaltingTableOptions o;
  o.num_trees = 31;
  o.num_classes = 2;
  Result<HaltingTable> two_classes = BuildHaltingTable(o);
  REQUIRE(two_classes.ok());
  Result<RowTrace> bad = TraceRow(forest, iris, 0, two_classes.value(), {});
  CHECK(bad.status().code == StatusCode::kShapeMismatch);
  CHECK(bad.status().message == "the halting table does not fit this forest");
}
