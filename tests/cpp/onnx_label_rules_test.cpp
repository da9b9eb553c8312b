// The label rules decided against ONNX Runtime (docs/import.md, "Cases decided against ONNX
// Runtime"): each crafted file answers the labels and scores ONNX Runtime 1.30 gives (checked
// against it by tests/js/onnx_oracle.test.mjs), or is refused where ONNX Runtime's answer is
// ill-defined; the exact early exit and a save/load round trip keep every rule.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onnx_crafted_cases.h"
#include "urnforest/calibrate.h"
#include "urnforest/forest.h"
#include "urnforest/margin_rule.h"
#include "urnforest/onnx_export.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"

namespace {

using urnforest::Forest;
using urnforest::ImportOnnx;
using urnforest::StatusCode;
using urnforest_test::Crafted;
using urnforest_test::CraftedStumpV5;
using urnforest_test::Encode;
using urnforest_test::EncodeV5;
using urnforest_test::StumpOf;

std::vector<uint8_t> EncodeSparse(int64_t trees, uint64_t seed, bool voting = false) {
  return Encode(urnforest_test::SparseForest(trees, seed, voting));
}

Forest Import(const std::vector<uint8_t>& bytes) {
  auto forest = ImportOnnx(bytes.data(), bytes.size());
  INFO(forest.status().ToString());
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

// The labels and scores of rows x = 0 and x = 1, after checking that the exact early exit and
// the model saved and loaded again answer the same labels.
urnforest::ScorePrediction PredictBoth(const Forest& forest) {
  const std::vector<float> rows = {0.0f, 1.0f};
  auto full = urnforest::PredictScoresRows(forest, rows.data(), 2, urnforest::VoteKind::kSoft);
  REQUIRE(full.ok());
  auto halted = urnforest::PredictSoftExact(forest, rows.data(), 2);
  REQUIRE(halted.ok());
  CHECK(halted.value().labels == full.value().labels);
  const std::vector<uint8_t> bytes = urnforest::SerializeForest(forest);
  auto loaded = urnforest::DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(loaded.ok());
  auto again = urnforest::PredictScoresRows(loaded.value(), rows.data(), 2, urnforest::VoteKind::kSoft);
  REQUIRE(again.ok());
  CHECK(again.value().labels == full.value().labels);
  CHECK(again.value().scores == full.value().scores);
  CHECK(urnforest::SerializeForest(loaded.value()) == bytes);
  return std::move(full).value();
}

}  // namespace

TEST_CASE("Two labels with every weight on class id 1 answer the second class only above 0.5, scores [0, s]",
          "[onnx_semantics]") {
  const Forest forest = Import(Encode(StumpOf(2, {{1, 1, 0.15f}, {2, 1, 0.7f}})));
  const auto p = PredictBoth(forest);
  CHECK(p.labels == std::vector<int32_t>{0, 1});
  CHECK(p.scores[0] == 0.0);
  CHECK(p.scores[1] == Approx(0.15));
  CHECK(p.scores[2] == 0.0);
  CHECK(p.scores[3] == Approx(0.7));
}

TEST_CASE("Two labels with every weight on class id 1 and signed weights answer the second class above 0",
          "[onnx_semantics]") {
  const Forest forest = Import(Encode(StumpOf(2, {{1, 1, -0.15f}, {2, 1, 0.2f}})));
  CHECK(PredictBoth(forest).labels == std::vector<int32_t>{0, 1});
}

TEST_CASE("Two labels with every weight on class id 1 and base values are refused (ONNX Runtime drops the sum)",
          "[onnx_semantics]") {
  Crafted m = StumpOf(2, {{1, 1, 0.15f}, {2, 1, 0.7f}});
  m.extra = [](urnforest_test::ProtoWriter* node) { urnforest_test::Floats(node, "base_values", {0.0f, 0.0f}); };
  const std::vector<uint8_t> bytes = Encode(m);
  auto forest = ImportOnnx(bytes.data(), bytes.size());
  REQUIRE_FALSE(forest.ok());
  CHECK(forest.status().code == StatusCode::kUnsupportedModel);
  CHECK(forest.status().message.find("class id 1") != std::string::npos);
}

TEST_CASE("One stored non-negative score with LOGISTIC answers the larger probability (a deliberate difference)",
          "[onnx_semantics]") {
  // ONNX Runtime answers 0 for the raw score 0.3 (against 0.5) while reporting 0.574 for class 1.
  const Forest forest = Import(Encode(StumpOf(2, {{1, 0, 0.3f}, {2, 0, 0.7f}}, "LOGISTIC")));
  const auto p = PredictBoth(forest);
  CHECK(p.labels == std::vector<int32_t>{1, 1});
  CHECK(p.scores[1] == Approx(1.0 / (1.0 + std::exp(-0.3))).epsilon(1e-6));
  CHECK(p.scores[3] == Approx(1.0 / (1.0 + std::exp(-0.7))).epsilon(1e-6));
}

TEST_CASE("One stored score with SOFTMAX or SOFTMAX_ZERO is refused: ONNX Runtime ignores the transform there",
          "[onnx_semantics]") {
  for (const char* transform : {"SOFTMAX", "SOFTMAX_ZERO"}) {
    for (float sign : {1.0f, -1.0f}) {
      INFO(transform << " sign " << sign);
      const std::vector<uint8_t> bytes = Encode(StumpOf(2, {{1, 0, 0.3f * sign}, {2, 0, 0.7f}}, transform));
      auto forest = ImportOnnx(bytes.data(), bytes.size());
      REQUIRE_FALSE(forest.ok());
      CHECK(forest.status().code == StatusCode::kUnsupportedModel);
      CHECK(forest.status().message.find(transform) != std::string::npos);
    }
  }
}

TEST_CASE("Three classes: a class no reached leaf names is skipped by that row's label", "[onnx_semantics]") {
  // Row 0 reaches a leaf naming class 1 only (scores [0, -0.5, 0]), row 1 class 2 only ([0, 0, -0.2]).
  const Forest forest = Import(Encode(StumpOf(3, {{1, 1, -0.5f}, {2, 2, -0.2f}})));
  const auto p = PredictBoth(forest);
  CHECK(p.labels == std::vector<int32_t>{1, 2});
  CHECK(p.scores == std::vector<double>{0.0, -0.5, 0.0, 0.0, 0.0, static_cast<double>(-0.2f)});
}

TEST_CASE("Three classes: a class named with weight 0 takes part in the label", "[onnx_semantics]") {
  const Forest forest = Import(Encode(StumpOf(3, {{1, 1, 0.0f}, {2, 2, 0.0f}})));
  CHECK(PredictBoth(forest).labels == std::vector<int32_t>{1, 2});
}

TEST_CASE("Three classes whose float32 sums tie answer the first of them", "[onnx_semantics]") {
  // Class 0 gets 0.1f + 0.2f (0.30000000447 in double, 0.3f in float32), class 1 gets 0.3f.
  const Forest forest = Import(Encode(StumpOf(3, {{1, 0, 0.1f}, {1, 0, 0.2f}, {1, 1, 0.3f}, {1, 2, 0.0f},
                                                  {2, 0, 0.1f}, {2, 0, 0.2f}, {2, 1, 0.3f}, {2, 2, 0.0f}})));
  CHECK(PredictBoth(forest).labels == std::vector<int32_t>{0, 0});
}

TEST_CASE("An opset-5 TreeEnsemble with SOFTMAX_ZERO then ArgMax takes the label from the transformed scores",
          "[onnx_semantics]") {
  CraftedStumpV5 c;
  c.low_target = 1;  // row 0: raw [0, -1] -> [0, 1]
  c.low_weight = -1.0f;
  c.high_target = 0;  // row 1: raw [0.5, 0] -> [1, 0]
  c.high_weight = 0.5f;
  c.post_transform = 3;
  const auto p = PredictBoth(Import(EncodeV5(c)));
  CHECK(p.labels == std::vector<int32_t>{1, 0});
  CHECK(p.scores == std::vector<double>{0.0, 1.0, 1.0, 0.0});
}

TEST_CASE("An opset-5 TreeEnsemble with two targets and every leaf on target 0 is read as ArgMax reads it",
          "[onnx_semantics]") {
  CraftedStumpV5 c;
  c.low_weight = 0.3f;    // row 0: [0.3, 0] -> 0
  c.high_weight = -0.2f;  // row 1: [-0.2, 0] -> 1
  const auto p = PredictBoth(Import(EncodeV5(c)));
  CHECK(p.labels == std::vector<int32_t>{0, 1});
  CHECK(p.scores[0] == Approx(0.3));
  CHECK(p.scores[1] == 0.0);
}

TEST_CASE("An opset-5 TreeEnsemble with post_transform 1 or 2 is refused: ONNX Runtime swaps them", "[onnx_semantics]") {
  for (int64_t transform : {1, 2}) {
    CraftedStumpV5 c;
    c.targets = 3;
    c.low_target = 2;
    c.low_weight = 0.4f;
    c.post_transform = transform;
    const std::vector<uint8_t> bytes = EncodeV5(c);
    auto forest = ImportOnnx(bytes.data(), bytes.size());
    INFO("post_transform " << transform);
    REQUIRE_FALSE(forest.ok());
    CHECK(forest.status().code == StatusCode::kUnsupportedModel);
    CHECK(forest.status().message.find("ambiguous") != std::string::npos);
  }
}

TEST_CASE("Models that need no label rule keep their exact bytes", "[onnx_semantics]") {
  // Every leaf names every class: no table of named classes is written.
  const Forest dense = Import(Encode(StumpOf(3, {{1, 0, 0.5f}, {1, 1, 0.3f}, {1, 2, 0.2f},
                                                 {2, 0, 0.1f}, {2, 1, 0.1f}, {2, 2, 0.8f}})));
  CHECK(dense.imported()->named.empty());
  CHECK_FALSE(dense.imported()->second_class_threshold);
  CHECK_FALSE(dense.imported()->label_from_scores);
  const Forest sparse = Import(Encode(StumpOf(3, {{1, 1, -0.5f}, {2, 2, -0.2f}})));
  CHECK(urnforest::SerializeForest(sparse).size() > urnforest::SerializeForest(dense).size());
}


TEST_CASE("The exact early exit answers the full prediction on forests whose leaves name few classes",
          "[onnx_semantics]") {
  std::vector<float> rows;
  for (int x = -1; x <= 21; ++x) rows.push_back(static_cast<float>(x));
  size_t stopped_early = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Forest forest = Import(EncodeSparse(1 + static_cast<int64_t>(seed % 12), seed));
    auto full = urnforest::PredictScoresRows(forest, rows.data(), rows.size(), urnforest::VoteKind::kSoft);
    auto halted = urnforest::PredictSoftExact(forest, rows.data(), rows.size());
    REQUIRE(full.ok());
    REQUIRE(halted.ok());
    INFO("seed " << seed);
    CHECK(halted.value().labels == full.value().labels);
    for (int32_t used : halted.value().trees_used) stopped_early += used < forest.num_trees();
  }
  CHECK(stopped_early > 0);
}

TEST_CASE("An imported model whose leaves name few classes exports them alike and imports back the same",
          "[onnx_semantics]") {
  const Forest forest = Import(Encode(StumpOf(3, {{1, 1, -0.5f}, {2, 2, -0.2f}})));
  auto exported = urnforest::ExportOnnx(forest);
  REQUIRE(exported.ok());
  const Forest again = Import(exported.value());
  CHECK(again.imported()->named == forest.imported()->named);
  CHECK(PredictBoth(again).labels == std::vector<int32_t>{1, 2});
}

TEST_CASE("An imported opset-5 model labelled from its transformed scores is not exported", "[onnx_semantics]") {
  CraftedStumpV5 c;
  c.low_target = 1;
  c.low_weight = -1.0f;
  c.post_transform = 3;
  auto exported = urnforest::ExportOnnx(Import(EncodeV5(c)));
  REQUIRE_FALSE(exported.ok());
  CHECK(exported.status().code == StatusCode::kUnsupportedModel);
}

TEST_CASE("The margin rule without a qualifying threshold answers the full prediction on forests whose leaves name few classes",
          "[onnx_semantics]") {
  std::vector<float> rows;
  for (int x = -1; x <= 21; ++x) rows.push_back(static_cast<float>(x));
  size_t sparse = 0;
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    Forest forest = Import(EncodeSparse(2 + static_cast<int64_t>(seed % 12), seed, true));
    if (forest.imported()->kind != urnforest::ImportedKind::kVoting) continue;
    sparse += !forest.imported()->named.empty();
    // Five calibration rows (the fewest calibrate accepts): no threshold qualifies at alpha 0.99, so
    // only the exact exit stops rows.
    REQUIRE(urnforest::CalibrateForest(&forest, rows.data(), 5).ok());
    auto full = urnforest::PredictScoresRows(forest, rows.data(), rows.size(), urnforest::VoteKind::kSoft);
    auto margin = urnforest::PredictSoftMargin(forest, rows.data(), rows.size(), 0.99);
    REQUIRE(full.ok());
    INFO("seed " << seed << ": " << margin.status().ToString());
    REQUIRE(margin.ok());
    CHECK(margin.value().labels == full.value().labels);
  }
  CHECK(sparse > 5);
}

extern "C" int UrnforestFuzzOnnx(const uint8_t* data, size_t size);

TEST_CASE("Every crafted case replays through the fuzz_onnx oracle (the exact exit answers the soft labels)",
          "[onnx_semantics][fuzz]") {
  for (const auto& c : urnforest_test::CraftedCases()) {
    INFO(c.name);
    REQUIRE(UrnforestFuzzOnnx(c.bytes.data(), c.bytes.size()) == 0);
  }
}
