// Training over threads and in parts: the same model bytes as one thread.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/csv_reader.h"
#include "urnforest/serialize.h"
#include "urnforest/train.h"

namespace urnforest {
namespace {

using test::MustOk;

Dataset Soybean() {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/soybean.csv", std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return MustOk(ReadCsv(text.str()));
}

std::vector<uint8_t> BytesWithThreads(const Dataset& data, const TrainOptions& options, int32_t threads) {
  TrainExecution execution;
  execution.threads = threads;
  return SerializeForest(MustOk(Train(data, options, {}, execution)));
}

TEST_CASE("A random forest's bytes are the same for 1, 2, 3 and 8 threads", "[train][threads]") {
  const Dataset data = test::MustTwonorm(400, 3);
  TrainOptions options;
  options.num_trees = 23;
  options.seed = 9;
  const std::vector<uint8_t> one = BytesWithThreads(data, options, 1);
  for (int32_t threads : {2, 3, 8, 0}) REQUIRE(BytesWithThreads(data, options, threads) == one);
}

TEST_CASE("Bagging of cost-complexity-pruned trees on categorical data is the same over threads",
          "[train][threads]") {
  const Dataset data = Soybean();
  TrainOptions options;
  options.ensemble = EnsembleKind::kBagging;
  options.num_trees = 9;
  options.pruning.mode = TreePruning::kCostComplexityCV;
  REQUIRE(BytesWithThreads(data, options, 3) == BytesWithThreads(data, options, 1));
}

TEST_CASE("Progress over threads is called once per kept tree, in order, on the calling thread",
          "[train][threads][progress]") {
  const Dataset data = test::MustTwonorm(200, 5);
  TrainOptions options;
  options.num_trees = 17;
  std::vector<int32_t> seen;
  TrainExecution execution;
  execution.threads = 4;
  MustOk(Train(data, options, [&](int32_t done, int32_t total) {
    REQUIRE(total == 17);
    seen.push_back(done);
    return true;
  }, execution));
  REQUIRE(seen.size() == 17);
  for (size_t i = 0; i < seen.size(); ++i) REQUIRE(seen[i] == static_cast<int32_t>(i + 1));
}

TEST_CASE("Cancelling over threads stops the run with 'cancelled'", "[train][threads][progress]") {
  const Dataset data = test::MustTwonorm(200, 5);
  TrainOptions options;
  options.num_trees = 40;
  TrainExecution execution;
  execution.threads = 3;
  Result<Forest> f = Train(data, options, [](int32_t done, int32_t) { return done < 5; }, execution);
  REQUIRE(f.status().code == StatusCode::kInvalidArgument);
  REQUIRE(f.status().message == "cancelled");
}

TEST_CASE("Parts of a forest merge into the forest Train grows, byte for byte, also from their bytes",
          "[train][parts]") {
  const Dataset data = Soybean();
  TrainOptions options;
  options.num_trees = 13;
  options.seed = 4;
  const std::vector<uint8_t> whole = SerializeForest(MustOk(Train(data, options)));
  Forest a = MustOk(TrainForestPart(data, options, 0, 5));
  Forest b = MustOk(TrainForestPart(data, options, 5, 1));
  Forest c = MustOk(TrainForestPart(data, options, 6, 7));
  REQUIRE(a.num_trees() == 5);
  REQUIRE(c.SourceTree(0) == 6);
  const std::vector<uint8_t> bytes_c = SerializeForest(c);
  Forest c_again = MustOk(DeserializeForest(bytes_c.data(), bytes_c.size()));
  REQUIRE(SerializeForest(MustOk(MergeForestParts({&a, &b, &c_again}))) == whole);
  REQUIRE(SerializeForest(MustOk(MergeForestParts({&a}))) ==
          SerializeForest(MustOk(Train(data, [&] { TrainOptions o = options; o.num_trees = 5; return o; }()))));
}

TEST_CASE("Parts out of order, overlapping or from another run are refused, naming the part",
          "[train][parts]") {
  const Dataset data = test::MustTwonorm(150, 2);
  TrainOptions options;
  options.num_trees = 6;
  Forest a = MustOk(TrainForestPart(data, options, 0, 3));
  Forest b = MustOk(TrainForestPart(data, options, 3, 3));
  TrainOptions other = options;
  other.seed = 2;
  Forest foreign = MustOk(TrainForestPart(data, other, 3, 3));
  Result<Forest> swapped = MergeForestParts({&b, &a});
  REQUIRE(swapped.status().code == StatusCode::kInvalidArgument);
  REQUIRE(swapped.status().message.find("part 0") != std::string::npos);
  REQUIRE(MergeForestParts({&a, &a}).status().code == StatusCode::kInvalidArgument);
  REQUIRE(MergeForestParts({&a, &foreign}).status().message.find("other options") != std::string::npos);
  REQUIRE(MergeForestParts({}).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("A part of a boosted run or outside the forest's trees is refused", "[train][parts]") {
  const Dataset data = test::MustTwonorm(150, 2);
  TrainOptions options;
  options.num_trees = 6;
  REQUIRE(TrainForestPart(data, options, 4, 3).status().code == StatusCode::kInvalidArgument);
  REQUIRE(TrainForestPart(data, options, -1, 2).status().code == StatusCode::kInvalidArgument);
  REQUIRE(TrainForestPart(data, options, 0, 0).status().code == StatusCode::kInvalidArgument);
  options.ensemble = EnsembleKind::kAdaBoost;
  REQUIRE(TrainForestPart(data, options, 0, 3).status().code == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace urnforest
