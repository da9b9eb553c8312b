#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "base/crc32.h"
#include "fixtures.h"
#include "urnforest/calibrate.h"
#include "urnforest/forest_stratified.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"
#include "urnforest/predict_request.h"
#include "urnforest/serialize.h"
#include "urnforest/train.h"

namespace urnforest {
namespace {

using test::MustOk;

struct Calibrated {
  Forest forest;
  Dataset test;
};

Calibrated TwonormForest() {
  const Dataset train = MustOk(Twonorm(600, 1));
  TrainOptions options;
  options.num_trees = 31;
  options.seed = 3;
  Forest forest = MustOk(Train(train, options));
  REQUIRE(CalibrateForest(&forest, MustOk(Twonorm(400, 2))).ok());
  return {std::move(forest), MustOk(Twonorm(300, 3))};
}

TEST_CASE("Rule stratified stops each row where its bucket's strategy stops, and its mean trees match the exact outcomes",
          "[stratified]") {
  const Calibrated c = TwonormForest();
  const std::shared_ptr<const StratifiedModel> model = MustOk(ForestStratified(c.forest, 0.99));
  REQUIRE(model->strategy.buckets.size() > 1);
  const PreparedRows rows = MustOk(PrepareRows(c.forest, c.test));
  const auto exact = MustOk(ExactStratifiedOutcomes(model->strategy));
  PredictRequest request;
  request.rule = "stratified";
  request.alpha = 0.99;
  request.compare = true;
  double sampled = 0.0, expected = 0.0;
  const int seeds = 30;
  const size_t n = rows.num_rows;
  const size_t f = static_cast<size_t>(c.forest.num_features());
  for (int seed = 1; seed <= seeds; ++seed) {
    request.seed = static_cast<uint64_t>(seed);
    const Prediction p = MustOk(Predict(c.forest, rows, request));
    REQUIRE(p.path == PredictPath::kStratified);
    for (size_t r = 0; r < n; ++r) {
      const BinaryStoppingStrategy& s = model->strategy.buckets[model->BucketOfRow(rows.values.data() + r * f)];
      const int64_t state = BinaryStoppingSet::Rank(p.trees_used[r], p.tallies[2 * r + 1]);
      CHECK((s.first.stop[state] == 1 || s.second.stop[state] == 1));
      CHECK((p.labels[r] == s.first.answer[state] || p.labels[r] == s.second.answer[state]));
      sampled += p.trees_used[r];
      if (seed == 1) {
        const BinaryOutcome& o = exact[model->BucketOfRow(rows.values.data() + r * f)][p.full_votes[2 * r + 1]];
        expected += o.trees;
      }
    }
  }
  sampled /= static_cast<double>(seeds) * n;
  expected /= static_cast<double>(n);
  CHECK(sampled == Approx(expected).margin(0.15));
  CHECK(expected < 31.0);
}

TEST_CASE("Rule stratified is refused without calibration or on more than two classes, and answers the same after a round trip through bytes",
          "[stratified]") {
  PredictRequest request;
  request.rule = "stratified";
  request.alpha = 0.99;
  TrainOptions options;
  options.num_trees = 11;
  const Forest plain = MustOk(Train(MustOk(Twonorm(200, 4)), options));
  CHECK(CheckPredictRequest(plain, request).code == StatusCode::kInvalidArgument);
  const Forest three = MustOk(Train(MustOk(Waveform(200, 4)), options));
  CHECK(CheckPredictRequest(three, request).code == StatusCode::kInvalidArgument);
  const Calibrated c = TwonormForest();
  CHECK(CheckPredictRequest(c.forest, request).ok());
  const std::vector<uint8_t> bytes = SerializeForest(c.forest);
  const Forest loaded = MustOk(DeserializeForest(bytes.data(), bytes.size()));
  REQUIRE(CheckPredictRequest(loaded, request).ok());
  const Prediction before = MustOk(Predict(c.forest, MustOk(PrepareRows(c.forest, c.test)), request));
  const Prediction after = MustOk(Predict(loaded, MustOk(PrepareRows(loaded, c.test)), request));
  CHECK(after.labels == before.labels);
  CHECK(after.trees_used == before.trees_used);
  CHECK(SerializeForest(loaded) == bytes);
  request.delta = 0.05;
  CHECK(CheckPredictRequest(c.forest, request).code == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace urnforest

namespace urnforest {
namespace {

TEST_CASE("A damaged stratified section is refused as CorruptModel", "[stratified]") {
  const Dataset train = test::MustOk(Twonorm(300, 1));
  TrainOptions options;
  options.num_trees = 11;
  Forest forest = test::MustOk(Train(train, options));
  REQUIRE(CalibrateForest(&forest, test::MustOk(Twonorm(200, 2))).ok());
  std::vector<uint8_t> bytes = SerializeForest(forest);
  const uint8_t tag[4] = {'S', 'T', 'R', 'S'};
  size_t at = 0;
  for (size_t i = 0; i + 4 <= bytes.size(); ++i) {
    if (std::equal(tag, tag + 4, bytes.begin() + i)) at = i;
  }
  REQUIRE(at > 0);
  // The section body starts after the tag (4) and the length (8); byte 1..4 of the body is N.
  bytes[at + 12 + 1] ^= 0x01;
  const uint32_t crc = internal::Crc32(bytes.data() + 20, bytes.size() - 20);
  for (int k = 0; k < 4; ++k) bytes[16 + k] = static_cast<uint8_t>(crc >> (8 * k));
  const Result<Forest> loaded = DeserializeForest(bytes.data(), bytes.size());
  CHECK(loaded.status().code == StatusCode::kCorruptModel);
  CHECK(loaded.status().message.find("stratified section") != std::string::npos);
}

}  // namespace
}  // namespace urnforest
