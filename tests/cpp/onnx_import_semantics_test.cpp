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
