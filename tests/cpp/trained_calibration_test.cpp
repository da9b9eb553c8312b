// Calibration of a forest trained here as a specification: the rows of all its trees are stored
// beside its out-of-bag votes, rule 'auto' certifies from them, and the model bytes gain one
// optional section.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/calibrate.h"
#include "urnforest/certified_halting.h"
#include "urnforest/forest_halting.h"
#include "urnforest/full_vote.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"
#include "urnforest/predict_request.h"
#include "urnforest/serialize.h"
#include "urnforest/train.h"

namespace urnforest {
namespace {

using test::MustOk;
using test::MustTwonorm;
using test::PutU32;
using test::PutU64;
using test::ResealModel;

// 101 trees on 1,000 twonorm rows (fixed seeds).
Forest TrainedTwonorm() {
  TrainOptions options;
  options.num_trees = 101;
  options.seed = 7;
  return MustOk(Train(MustTwonorm(1000, 1), options));
}

void Calibrate(Forest* forest, const Dataset& rows) {
  const PreparedRows prepared = MustOk(PrepareRows(*forest, rows));
  REQUIRE(CalibrateForest(forest, prepared.values.data(), prepared.num_rows).ok());
}

Prediction Auto(const Forest& forest, const Dataset& data, double alpha) {
  PredictRequest request;
  request.rule = "auto";
  request.alpha = alpha;
  request.compare = true;
  request.seed = 11;
  return MustOk(Predict(forest, MustOk(PrepareRows(forest, data)), request));
}

// The model bytes with the payload's last section (tag, u64 length, body) cut off.
std::vector<uint8_t> WithoutLastSection(const std::vector<uint8_t>& bytes, uint32_t tag) {
  size_t at = 20, last = 0;
  uint32_t last_tag = 0;
  while (at + 12 <= bytes.size()) {
    uint32_t t = 0;
    uint64_t length = 0;
    for (int i = 0; i < 4; ++i) t |= static_cast<uint32_t>(bytes[at + i]) << (8 * i);
    for (int i = 0; i < 8; ++i) length |= static_cast<uint64_t>(bytes[at + 4 + i]) << (8 * i);
    last = at;
    last_tag = t;
    at += 12 + static_cast<size_t>(length);
  }
  REQUIRE(last_tag == tag);
  return ResealModel(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(last)));
}

constexpr uint32_t kCalv = 0x564C4143u;  // "CALV"
constexpr uint32_t kStrs = 0x53525453u;  // "STRS": rule stratified's calibration, after CALV on two classes

TEST_CASE("A forest trained here, calibrated on held-out unlabeled rows, certifies alpha 0.99 and halts within it on new rows",
          "[trained_calibration]") {
  Forest forest = TrainedTwonorm();
  Calibrate(&forest, MustTwonorm(4000, 2));
  const Dataset test_rows = MustTwonorm(3000, 3);
  const Prediction answer = Auto(forest, test_rows, 0.99);
  CHECK(answer.path == PredictPath::kCertified);
  REQUIRE(answer.certificate.has_value());
  const Certificate& c = *answer.certificate;
  INFO(c.reason);
  CHECK(c.certified);
  CHECK(c.strategy != "exact");
  CHECK(c.bound <= 0.01);
  CHECK(c.fit_rows + c.certify_rows == 4000);
  CHECK(answer.mean_trees < forest.num_trees());
  CHECK(answer.disagreement <= 0.01);  // realised, against the full vote of all 101 trees
}

TEST_CASE("Without calibration rule auto on a forest trained here answers with the exact exit and its reason says to calibrate",
          "[trained_calibration]") {
  const Forest forest = TrainedTwonorm();
  const Prediction answer = Auto(forest, MustTwonorm(500, 3), 0.99);
  REQUIRE(answer.certificate.has_value());
  CHECK_FALSE(answer.certificate->certified);
  CHECK(answer.certificate->strategy == "exact");
  CHECK(answer.certificate->reason.find("calibrate it on held-out unlabeled rows") != std::string::npos);
  CHECK(answer.labels == answer.full_labels);
}

TEST_CASE("Calibrating a forest trained here keeps its out-of-bag votes, its stored tables and every table rule's answers",
          "[trained_calibration]") {
  Forest forest = TrainedTwonorm();
  REQUIRE(forest.StoreTable(MustOk(BuildForestTable(forest, HaltingRule::kHyper, 0.99))).ok());
  const Forest before = forest;
  Calibrate(&forest, MustTwonorm(400, 2));
  CHECK(forest.oob_votes() == before.oob_votes());
  CHECK(forest.train_labels() == before.train_labels());
  CHECK(forest.stored_tables().size() == 1);
  REQUIRE(forest.calibration_labels().size() == 400);
  CHECK(forest.calibration_votes().size() == 800);
  for (size_t r = 0; r < 400; ++r) {
    CHECK(forest.calibration_votes()[2 * r] + forest.calibration_votes()[2 * r + 1] == 101u);
  }
  const Dataset rows = MustTwonorm(300, 5);
  for (const char* rule : {"hyper", "siba", "optimal", "1dir"}) {
    PredictRequest request;
    request.rule = rule;
    request.alpha = 0.99;
    request.seed = 3;
    const Prediction a = MustOk(Predict(before, MustOk(PrepareRows(before, rows)), request));
    const Prediction b = MustOk(Predict(forest, MustOk(PrepareRows(forest, rows)), request));
    INFO(rule);
    CHECK(a.labels == b.labels);
    CHECK(a.trees_used == b.trees_used);
  }
}

TEST_CASE("Calibrating a forest trained here on its own training rows warns that they look like training rows",
          "[trained_calibration]") {
  Forest forest = TrainedTwonorm();
  const Dataset training = MustTwonorm(1000, 1);
  const PreparedRows prepared = MustOk(PrepareRows(forest, training));
  const CalibrationReport report = MustOk(CalibrateForestReport(&forest, prepared.values.data(), prepared.num_rows));
  bool training_like = false;
  for (const CalibrationWarning& w : report.warnings) training_like |= w.code == CalibrationWarningCode::kTrainingLikeRows;
  CHECK(training_like);
}

TEST_CASE("Bagging and vote-boosting forests calibrate too, their reference labels being the full vote of all trees",
          "[trained_calibration]") {
  for (EnsembleKind kind : {EnsembleKind::kBagging, EnsembleKind::kVoteBoost}) {
    TrainOptions options;
    options.ensemble = kind;
    options.num_trees = 15;
    Forest forest = MustOk(Train(MustTwonorm(300, 1), options));
    const PreparedRows prepared = MustOk(PrepareRows(forest, MustTwonorm(100, 2)));
    REQUIRE(CalibrateForest(&forest, prepared.values.data(), prepared.num_rows).ok());
    const FullVote full = MustOk(PredictFullRows(forest, prepared.values.data(), prepared.num_rows));
    CHECK(forest.calibration_votes() == full.votes);
    CHECK(forest.calibration_labels() == full.labels);
  }
}

TEST_CASE("An AdaBoost forest is refused with InvalidArgument and left uncalibrated", "[trained_calibration]") {
  TrainOptions options;
  options.ensemble = EnsembleKind::kAdaBoost;
  options.num_trees = 11;
  Forest forest = MustOk(Train(MustTwonorm(300, 1), options));
  const PreparedRows prepared = MustOk(PrepareRows(forest, MustTwonorm(100, 2)));
  const Status s = CalibrateForest(&forest, prepared.values.data(), prepared.num_rows);
  CHECK(s.code == StatusCode::kInvalidArgument);
  CHECK(s.message.find("weighted vote") != std::string::npos);
  CHECK(forest.calibration_votes().empty());
}

TEST_CASE("Model bytes without calibration rows are unchanged, calibration adds one trailing section that round-trips",
          "[trained_calibration][serialize]") {
  Forest forest = TrainedTwonorm();
  const std::vector<uint8_t> plain = SerializeForest(forest);
  Calibrate(&forest, MustTwonorm(200, 2));
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  CHECK(WithoutLastSection(WithoutLastSection(bytes, kStrs), kCalv) == plain);
  const Forest back = MustOk(DeserializeForest(bytes.data(), bytes.size()));
  CHECK(back.calibration_votes() == forest.calibration_votes());
  CHECK(back.calibration_labels() == forest.calibration_labels());
  CHECK(SerializeForest(back) == bytes);
  const Dataset rows = MustTwonorm(300, 4);
  CHECK(Auto(back, rows, 0.9).labels == Auto(forest, rows, 0.9).labels);
}

TEST_CASE("A corrupt calibration-rows section is CorruptModel, never a huge allocation", "[trained_calibration][serialize][corrupt]") {
  Forest forest = TrainedTwonorm();
  const std::vector<uint8_t> plain = SerializeForest(forest);
  Calibrate(&forest, MustTwonorm(50, 2));
  const std::vector<uint8_t> bytes = WithoutLastSection(SerializeForest(forest), kStrs);
  const size_t body = plain.size() + 12;  // the CALV body: u8 version, u64 rows, u32 classes, ...
  const auto load = [](std::vector<uint8_t> b) {
    b = ResealModel(std::move(b));
    return DeserializeForest(b.data(), b.size()).status().code;
  };
  std::vector<uint8_t> huge = bytes;
  for (int i = 0; i < 8; ++i) huge[body + 1 + i] = 0xFF;  // 2^64 - 1 rows
  CHECK(load(huge) == StatusCode::kCorruptModel);
  std::vector<uint8_t> classes = bytes;
  classes[body + 9] = 3;
  CHECK(load(classes) == StatusCode::kCorruptModel);
  std::vector<uint8_t> sum = bytes;
  sum[body + 13] ^= 1;  // row 0's first count: the row no longer sums to the trees
  CHECK(load(sum) == StatusCode::kCorruptModel);
  std::vector<uint8_t> label = bytes;
  label[bytes.size() - 4] ^= 1;  // the last row's label is no longer its plurality
  CHECK(load(label) == StatusCode::kCorruptModel);
  std::vector<uint8_t> version = bytes;
  version[body] = 2;
  CHECK(load(version) == StatusCode::kUnsupportedVersion);
  std::vector<uint8_t> twice = bytes;
  twice.insert(twice.end(), bytes.begin() + static_cast<std::ptrdiff_t>(plain.size()), bytes.end());
  CHECK(load(twice) == StatusCode::kCorruptModel);
}

}  // namespace
}  // namespace urnforest
