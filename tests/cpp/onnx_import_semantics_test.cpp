// ONNX semantics decided case by case against ONNX Runtime (docs/import.md, "Cases decided"):
// crafted TreeEnsembleClassifier files whose meaning is ambiguous are refused, the others answer
// what ONNX Runtime answers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "onnx_crafted.h"
#include "urnforest/forest.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_scores.h"
#include "urnforest/status.h"

namespace {

using urnforest::ImportOnnx;
using urnforest::StatusCode;
using urnforest_test::Crafted;
using urnforest_test::Encode;
using urnforest_test::ProtoWriter;

// One stump: x <= 0.5 goes to leaf 1, else leaf 2; leaf 1 gives `low` to class `c`, leaf 2 `high`.
Crafted Stump(int64_t classes, int64_t c, float low, float high) {
  Crafted m;
  m.classes = classes;
  m.tree_ids = {0, 0, 0};
  m.node_ids = {0, 1, 2};
  m.feature_ids = {0, 0, 0};
  m.true_ids = {1, 0, 0};
  m.false_ids = {2, 0, 0};
  m.modes = {"BRANCH_LEQ", "LEAF", "LEAF"};
  m.values = {0.5f, 0.0f, 0.0f};
  m.class_tree_ids = {0, 0};
  m.class_node_ids = {1, 2};
  m.class_ids = {c, c};
  m.class_weights = {low, high};
  return m;
}

// A double tensor attribute `name` (TensorProto: dims 1, data_type 2 = 11, double_data 10).
void DoubleTensorAttr(ProtoWriter* node, const char* name, const std::vector<double>& values) {
  ProtoWriter t;
  t.Varint(1, values.size());
  t.Varint(2, 11);
  for (double v : values) t.Double(10, v);
  ProtoWriter a;
  a.Bytes(1, name);
  a.Message(5, t);
  a.Varint(20, 4);
  node->Message(5, a);
}

}  // namespace

TEST_CASE("A file with both nodes_values and nodes_values_as_tensor is refused as ambiguous", "[onnx_semantics]") {
  Crafted m = Stump(2, 0, 0.25f, 0.75f);
  const std::vector<uint8_t> plain = Encode(m);
  REQUIRE(ImportOnnx(plain.data(), plain.size()).ok());
  m.extra = [](ProtoWriter* node) { DoubleTensorAttr(node, "nodes_values_as_tensor", {0.25, 0.0, 0.0}); };
  const std::vector<uint8_t> both = Encode(m);
  auto forest = ImportOnnx(both.data(), both.size());
  REQUIRE_FALSE(forest.ok());
  CHECK(forest.status().code == StatusCode::kCorruptModel);
  CHECK(forest.status().message.find("both nodes_values and nodes_values_as_tensor") != std::string::npos);
}

TEST_CASE("A file with class weights in both forms is refused as ambiguous", "[onnx_semantics]") {
  Crafted m = Stump(2, 0, 0.25f, 0.75f);
  m.extra = [](ProtoWriter* node) { DoubleTensorAttr(node, "class_weights_as_tensor", {0.25, 0.75}); };
  const std::vector<uint8_t> both = Encode(m);
  auto forest = ImportOnnx(both.data(), both.size());
  REQUIRE_FALSE(forest.ok());
  CHECK(forest.status().message.find("both class_weights and class_weights_as_tensor") != std::string::npos);
}

namespace {

// T stumps in the binary layout skl2onnx writes for a forest of pure leaves: tree t sends
// x <= t + 0.5 to a leaf holding float32(1 / T) for the second class, else to a leaf holding 0.
// A row x = k gets T - k votes for the second class.
std::vector<uint8_t> BinaryVotingForest(int64_t trees) {
  Crafted m;
  m.classes = 2;
  const float share = static_cast<float>(1.0 / static_cast<double>(trees));
  for (int64_t t = 0; t < trees; ++t) {
    for (int64_t n = 0; n < 3; ++n) {
      m.tree_ids.push_back(t);
      m.node_ids.push_back(n);
      m.feature_ids.push_back(0);
      m.true_ids.push_back(n == 0 ? 1 : 0);
      m.false_ids.push_back(n == 0 ? 2 : 0);
      m.modes.push_back(n == 0 ? "BRANCH_LEQ" : "LEAF");
      m.values.push_back(n == 0 ? static_cast<float>(t) + 0.5f : 0.0f);
    }
    for (int64_t n : {1, 2}) {
      m.class_tree_ids.push_back(t);
      m.class_node_ids.push_back(n);
      m.class_ids.push_back(0);
      m.class_weights.push_back(n == 1 ? share : 0.0f);
    }
  }
  return Encode(m);
}

}  // namespace

TEST_CASE("An exact binary vote tie of an even forest answers the first class for every T from 2 to 1,000",
          "[onnx_semantics]") {
  size_t rounded_up = 0;  // forests whose float32(1/T) exceeds 1/T: the cases that used to answer 1
  for (int64_t trees = 2; trees <= 1000; ++trees) {
    const std::vector<uint8_t> bytes = BinaryVotingForest(trees);
    auto imported = ImportOnnx(bytes.data(), bytes.size());
    REQUIRE(imported.ok());
    const urnforest::Forest& forest = imported.value();
    rounded_up += static_cast<double>(static_cast<float>(1.0 / static_cast<double>(trees))) > 1.0 / static_cast<double>(trees);
    // Rows with T - k votes for the second class: k = T / 2 - 1 (a majority), T / 2 (a tie when T
    // is even), T / 2 + 1 (a minority).
    const int64_t half = trees / 2;
    const std::vector<float> rows = {static_cast<float>(half - 1), static_cast<float>(half),
                                     static_cast<float>(half + 1)};
    auto predicted = urnforest::PredictScoresRows(forest, rows.data(), 3, urnforest::VoteKind::kSoft);
    auto halted = urnforest::PredictSoftExact(forest, rows.data(), 3);
    REQUIRE(predicted.ok());
    REQUIRE(halted.ok());
    const std::vector<int32_t>& labels = predicted.value().labels;
    INFO("T = " << trees);
    CHECK(labels[0] == 1);
    CHECK(labels[1] == (trees % 2 == 0 ? 0 : 1));
    CHECK(labels[2] == 0);
    CHECK(halted.value().labels == labels);  // the exact exit inherits the rule
  }
  CHECK(rounded_up > 100);  // the rounding that made ties lean to the second class is common
}
