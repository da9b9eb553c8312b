#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "ensemble/forest_access.h"
#include "fixtures.h"
#include "model/imported_scores.h"
#include "model/soft_exact.h"
#include "urnforest/calibrate.h"
#include "urnforest/margin_rule.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"

namespace urnforest {
namespace {

using test::MustOk;

using test::ImportFixture;

// Rows around every threshold of the forest: each split's threshold, one float either side, NaN,
// on a base of values drawn between the thresholds.
std::vector<float> RowsAroundThresholds(const Forest& forest, size_t count) {
  const size_t width = static_cast<size_t>(forest.num_features());
  std::vector<std::vector<float>> cuts(width);
  for (const TreeNode& n : forest.node_table().nodes) {
    if (n.feature >= 0) cuts[n.feature].push_back(n.threshold);
  }
  std::vector<float> rows(count * width);
  uint32_t state = 2024;
  auto next = [&state]() { state = state * 1664525u + 1013904223u; return state >> 8; };
  for (size_t r = 0; r < count; ++r) {
    for (size_t f = 0; f < width; ++f) {
      float v = 0.0f;
      if (!cuts[f].empty()) {
        v = cuts[f][next() % cuts[f].size()];
        switch (next() % 5) {
          case 0: v = std::nextafter(v, -INFINITY); break;
          case 1: v = std::nextafter(v, INFINITY); break;
          case 2: v = std::numeric_limits<float>::quiet_NaN(); break;
          default: break;
        }
      }
      rows[r * width + f] = v;
    }
  }
  return rows;
}

TEST_CASE("The exact early exit answers the full soft prediction on every row and never queries more trees than there are",
          "[onnx_import]") {
  const char* fixture = GENERATE("sk_rf_iris_nozipmap", "sk_rf_wdbc_binary_zipmap", "sk_rf_soybean_19class",
                                 "xgb_wdbc_binary_missing", "xgb_vehicle_softprob_missing", "tiny_all_modes");
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const std::vector<float> rows = RowsAroundThresholds(forest, 2000);
  const ScorePrediction full = MustOk(PredictScoresRows(forest, rows.data(), 2000, VoteKind::kSoft));
  const ExactHaltResult exact = MustOk(PredictSoftExact(forest, rows.data(), 2000));
  CHECK(exact.labels == full.labels);
  for (int32_t used : exact.trees_used) {
    REQUIRE(used >= 1);
    REQUIRE(used <= forest.num_trees());
  }
}

TEST_CASE("The exact early exit stops at the first tree where the bounds settle, though it checks them rarely",
          "[onnx_import]") {
  const char* fixture = GENERATE("sk_rf_soybean_19class", "sk_rf_wdbc_binary_zipmap", "xgb_vehicle_softprob_missing",
                                 "xgb_wdbc_binary_missing");
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const ImportedModel& m = *forest.imported();
  const std::vector<float> rows = RowsAroundThresholds(forest, 500);
  const ExactHaltResult exact =
      MustOk(internal::PredictSoftExactWalk(forest, rows.data(), 500, internal::ExactWalk::kAlwaysHalt));
  const internal::RemainingBounds bounds(forest);
  const double threshold = internal::SingleScoreThreshold(m);
  const size_t width = static_cast<size_t>(forest.num_features());
  std::vector<double> sum(m.outputs);
  for (size_t r = 0; r < 500; ++r) {
    internal::StartScores(m, sum.data());
    int32_t used = 0;
    for (;;) {
      const double* v = internal::LeafValuesOf(forest, used, rows.data() + r * width);
      for (int32_t c = 0; c < m.outputs; ++c) sum[c] += v[c];
      ++used;
      if (used == forest.num_trees() ||
          bounds.Settled(sum.data(), used, internal::ClassOf(m, sum.data(), threshold), threshold)) {
        break;
      }
    }
    REQUIRE(exact.trees_used[r] == used);
  }
}

TEST_CASE("Soft scores are the same bits whether rows come alone, in threes or in blocks", "[onnx_import]") {
  const char* fixture = GENERATE("sk_rf_soybean_19class", "xgb_vehicle_softprob_missing", "tiny_all_modes");
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const size_t width = static_cast<size_t>(forest.num_features());
  const std::vector<float> rows = RowsAroundThresholds(forest, 600);
  const ScorePrediction batch = MustOk(PredictScoresRows(forest, rows.data(), 600, VoteKind::kSoft));
  for (size_t r = 0; r < 600; r += 3) {
    const size_t n = std::min<size_t>(r % 2 == 0 ? 1 : 3, 600 - r);
    const ScorePrediction few = MustOk(PredictScoresRows(forest, rows.data() + r * width, n, VoteKind::kSoft));
    for (size_t i = 0; i < n; ++i) {
      REQUIRE(few.labels[i] == batch.labels[r + i]);
      for (int32_t c = 0; c < forest.num_classes(); ++c) {
        REQUIRE(few.scores[i * forest.num_classes() + c] == batch.scores[(r + i) * forest.num_classes() + c]);
      }
    }
  }
}

TEST_CASE("The margin rule's calibration counts the same errors as predicting with each threshold",
          "[onnx_import]") {
  const char* fixture = GENERATE("sk_rf_soybean_19class", "sk_rf_wdbc_binary_zipmap");
  INFO(fixture);
  Forest forest = ImportFixture(fixture);
  const std::vector<float> rows = RowsAroundThresholds(forest, 600);
  REQUIRE(CalibrateForest(&forest, rows.data(), 600).ok());
  const MarginCalibration measured = forest.imported()->margin;
  REQUIRE(measured.rows == 600);
  const ScorePrediction full = MustOk(PredictScoresRows(forest, rows.data(), 600, VoteKind::kSoft));
  for (size_t g = 0; g < measured.lambdas.size(); g += 6) {
    // A calibration whose only threshold is lambda_g, certified at any alpha below 1/2.
    MarginCalibration only;
    only.rows = 1000;
    only.scale = measured.scale;
    only.lambdas = {measured.lambdas[g]};
    only.wrong = {0};
    only.mean_trees = {0.0};
    internal::ForestAccess::imported(forest)[0].margin = only;
    double lambda = -1;
    const ExactHaltResult halted = MustOk(PredictSoftMargin(forest, rows.data(), 600, 0.5, &lambda));
    REQUIRE(lambda == measured.lambdas[g]);
    uint32_t wrong = 0;
    double trees = 0;
    for (size_t r = 0; r < 600; ++r) {
      wrong += halted.labels[r] != full.labels[r];
      trees += halted.trees_used[r];
    }
    CHECK(wrong == measured.wrong[g]);
    CHECK(trees / 600 == Approx(measured.mean_trees[g]));
  }
}

TEST_CASE("The margin rule uses the smallest threshold below which every larger one was accurate enough",
          "[onnx_import]") {
  MarginCalibration c;
  c.rows = 998;  // (wrong + 1) / 1000 <= 1 - alpha
  c.lambdas = {0.0, 1.0, 2.0, 3.0};
  c.wrong = {30, 4, 12, 3};
  c.mean_trees = {1, 2, 3, 4};
  CHECK(MarginThreshold(c, 0.99) == 3.0);   // 2.0 fails (13 / 1000), so 1.0 is not reached
  CHECK(MarginThreshold(c, 0.98) == 1.0);
  CHECK(MarginThreshold(c, 0.95) == 0.0);
  CHECK(std::isinf(MarginThreshold(c, 0.999)));
}

TEST_CASE("An imported, calibrated model keeps its import record through its bytes", "[onnx_import]") {
  Forest forest = ImportFixture("sk_rf_iris_nozipmap");
  const std::vector<float> rows = RowsAroundThresholds(forest, 300);
  REQUIRE(CalibrateForest(&forest, rows.data(), 300).ok());
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  const Forest back = MustOk(DeserializeForest(bytes.data(), bytes.size()));
  REQUIRE(back.imported() != nullptr);
  CHECK(back.imported()->calibrated);
  CHECK(back.imported()->margin.wrong == forest.imported()->margin.wrong);
  CHECK(back.oob_votes() == forest.oob_votes());
  CHECK(std::isnan(back.oob_error()));
  CHECK(SerializeForest(back) == bytes);
  const ScorePrediction a = MustOk(PredictScoresRows(forest, rows.data(), 300, VoteKind::kSoft));
  const ScorePrediction b = MustOk(PredictScoresRows(back, rows.data(), 300, VoteKind::kSoft));
  CHECK(a.labels == b.labels);
  CHECK(a.scores == b.scores);
}

TEST_CASE("Calibration is refused for additive models and for a forest without trees", "[onnx_import]") {
  Forest additive = ImportFixture("xgb_wdbc_binary_missing");
  const std::vector<float> rows = RowsAroundThresholds(additive, 10);
  CHECK(CalibrateForest(&additive, rows.data(), 10).code == StatusCode::kInvalidArgument);
  Forest empty;
  CHECK(CalibrateForest(&empty, rows.data(), 10).code == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace urnforest
