#pragma once
// Test-only: every crafted file of docs/import.md's "Cases decided against ONNX Runtime", by name,
// with the rows it is run on (one column). tests/cpp/onnx_label_rules_test.cpp and
// onnx_import_semantics_test.cpp check urnforest's answers on them; tools/write_crafted_onnx.cpp
// writes them to tests/fixtures/onnx/crafted/, where tests/js/onnx_oracle.test.mjs runs each through
// onnxruntime-web and Forest.fromONNX.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "onnx_crafted.h"
#include "onnx_crafted_v5.h"

namespace urnforest_test {

/// One class entry of a crafted stump: `weight` for class `cls` on leaf `leaf` (1: x <= 0.5, 2: else).
struct Entry {
  int64_t leaf, cls;
  float weight;
};

/// One stump (x <= 0.5 reaches leaf 1, else leaf 2) over `classes` classes with the given entries.
inline Crafted StumpOf(int64_t classes, const std::vector<Entry>& entries, const std::string& transform = "") {
  Crafted m;
  m.classes = classes;
  m.tree_ids = {0, 0, 0};
  m.node_ids = {0, 1, 2};
  m.feature_ids = {0, 0, 0};
  m.true_ids = {1, 0, 0};
  m.false_ids = {2, 0, 0};
  m.modes = {"BRANCH_LEQ", "LEAF", "LEAF"};
  m.values = {0.5f, 0.0f, 0.0f};
  for (const Entry& e : entries) {
    m.class_tree_ids.push_back(0);
    m.class_node_ids.push_back(e.leaf);
    m.class_ids.push_back(e.cls);
    m.class_weights.push_back(e.weight);
  }
  m.post_transform = transform;
  return m;
}

/// A double tensor attribute `name` (TensorProto: dims 1, data_type 2 = 11, double_data 10).
inline void DoubleTensorAttr(ProtoWriter* node, const char* name, const std::vector<double>& values) {
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

/// T stumps in the binary layout skl2onnx writes for a forest of pure leaves: tree t sends
/// x <= t + 0.5 to a leaf holding float32(1 / T) for the second class, else to a leaf holding 0.
/// A row x = k gets T - k votes for the second class.
inline Crafted BinaryVotingForest(int64_t trees) {
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
  return m;
}

/// T stumps over three classes, each leaf naming one or two of them (seeded), for the exact exit;
/// `voting`: non-negative weights, so that the model is a voting one (for the margin rule).
inline Crafted SparseForest(int64_t trees, uint64_t seed, bool voting = false) {
  std::mt19937_64 rng(seed);
  Crafted m;
  m.classes = 3;
  for (int64_t t = 0; t < trees; ++t) {
    for (int64_t n = 0; n < 3; ++n) {
      m.tree_ids.push_back(t);
      m.node_ids.push_back(n);
      m.feature_ids.push_back(0);
      m.true_ids.push_back(n == 0 ? 1 : 0);
      m.false_ids.push_back(n == 0 ? 2 : 0);
      m.modes.push_back(n == 0 ? "BRANCH_LEQ" : "LEAF");
      m.values.push_back(n == 0 ? static_cast<float>(rng() % 20) + 0.5f : 0.0f);
    }
    for (int64_t n : {1, 2}) {
      const int64_t first = static_cast<int64_t>(rng() % 3);
      m.class_tree_ids.push_back(t);
      m.class_node_ids.push_back(n);
      m.class_ids.push_back(first);
      m.class_weights.push_back(static_cast<float>(static_cast<int>(rng() % 9) - (voting ? 0 : 6)) / 8.0f);
      if (voting || rng() % 2 == 0) {
        m.class_tree_ids.push_back(t);
        m.class_node_ids.push_back(n);
        m.class_ids.push_back((first + 1) % 3);
        m.class_weights.push_back(static_cast<float>(static_cast<int>(rng() % 9) - (voting ? 0 : 6)) / 8.0f);
      }
    }
  }
  return m;
}

/// A crafted file, the rows it is run on, and what the table says of it.
struct CraftedCase {
  std::string name;
  std::vector<uint8_t> bytes;
  std::vector<float> rows;
  std::string what;
};

inline std::vector<CraftedCase> CraftedCases() {
  const std::vector<float> stump_rows = {0.0f, 1.0f, 0.5f, -3.0f, 7.0f};
  std::vector<CraftedCase> out;
  auto add = [&](const std::string& name, std::vector<uint8_t> bytes, const std::string& what,
                 std::vector<float> rows = {}) {
    out.push_back({name, std::move(bytes), rows.empty() ? stump_rows : rows, what});
  };
  {
    Crafted m = StumpOf(2, {{1, 0, 0.25f}, {2, 0, 0.75f}});
    m.extra = [](ProtoWriter* node) { DoubleTensorAttr(node, "nodes_values_as_tensor", {0.25, 0.0, 0.0}); };
    add("both_values_forms", Encode(m), "both nodes_values and nodes_values_as_tensor");
    Crafted w = StumpOf(2, {{1, 0, 0.25f}, {2, 0, 0.75f}});
    w.extra = [](ProtoWriter* node) { DoubleTensorAttr(node, "class_weights_as_tensor", {0.25, 0.75}); };
    add("both_weights_forms", Encode(w), "both class_weights and class_weights_as_tensor");
  }
  for (int64_t trees : {10, 20, 300}) {
    const float half = static_cast<float>(trees / 2);
    add("binary_tie_T" + std::to_string(trees), Encode(BinaryVotingForest(trees)),
        "binary forest, even T, exact vote tie, shares stored as float32(1/T)", {half - 1, half, half + 1});
  }
  add("second_class_only", Encode(StumpOf(2, {{1, 1, 0.15f}, {2, 1, 0.7f}})),
      "two labels, every weight on class id 1, non-negative");
  add("second_class_only_signed", Encode(StumpOf(2, {{1, 1, -0.15f}, {2, 1, 0.2f}})),
      "two labels, every weight on class id 1, signed");
  {
    Crafted m = StumpOf(2, {{1, 1, 0.15f}, {2, 1, 0.7f}});
    m.extra = [](ProtoWriter* node) { Floats(node, "base_values", {0.0f, 0.0f}); };
    add("second_class_only_base_values", Encode(m), "two labels, every weight on class id 1, base values");
  }
  add("single_score_logistic_nonnegative", Encode(StumpOf(2, {{1, 0, 0.3f}, {2, 0, 0.7f}}, "LOGISTIC")),
      "one stored score, non-negative weights, LOGISTIC");
  add("single_score_softmax_nonnegative", Encode(StumpOf(2, {{1, 0, 0.3f}, {2, 0, 0.7f}}, "SOFTMAX")),
      "one stored score, non-negative weights, SOFTMAX");
  add("single_score_softmax_signed", Encode(StumpOf(2, {{1, 0, -0.3f}, {2, 0, 0.7f}}, "SOFTMAX")),
      "one stored score, signed weights, SOFTMAX");
  add("single_score_logistic_signed", Encode(StumpOf(2, {{1, 0, -0.3f}, {2, 0, 0.7f}}, "LOGISTIC")),
      "one stored score, signed weights, LOGISTIC");
  add("three_classes_unnamed", Encode(StumpOf(3, {{1, 1, -0.5f}, {2, 2, -0.2f}})),
      "three classes, class 0 never weighted, each leaf names one class");
  add("three_classes_named_zero", Encode(StumpOf(3, {{1, 1, 0.0f}, {2, 2, 0.0f}})),
      "three classes, weights 0 on class 1 (row 0) and class 2 (row 1)");
  add("two_classes_float_tie", Encode(StumpOf(2, {{1, 0, 0.1f}, {1, 0, 0.2f}, {1, 1, 0.3f},
                                                  {2, 0, 0.1f}, {2, 0, 0.2f}, {2, 1, 0.3f}})),
      "two classes, 0.1f + 0.2f against 0.3f on one leaf");
  add("two_classes_both_ids", Encode(StumpOf(2, {{1, 0, 0.7f}, {1, 1, 0.3f}, {2, 0, 0.2f}, {2, 1, 0.8f}})),
      "two classes, weights on both class ids, scores [0.7, 0.3] and [0.2, 0.8]");
  add("three_classes_float_tie", Encode(StumpOf(3, {{1, 0, 0.1f}, {1, 0, 0.2f}, {1, 1, 0.3f}, {1, 2, 0.0f},
                                                    {2, 0, 0.1f}, {2, 0, 0.2f}, {2, 1, 0.3f}, {2, 2, 0.0f}})),
      "three classes, [0.1f + 0.2f, 0.3f, 0]");
  {
    CraftedStumpV5 c;
    c.low_target = 1;
    c.low_weight = -1.0f;
    c.high_weight = 0.5f;
    c.post_transform = 3;
    add("opset5_softmax_zero", EncodeV5(c), "opset-5 TreeEnsemble, SOFTMAX_ZERO, then ArgMax");
    CraftedStumpV5 first;
    first.low_weight = 0.3f;
    first.high_weight = -0.2f;
    add("opset5_two_targets_first_only", EncodeV5(first), "opset-5 TreeEnsemble, two targets, every leaf on target 0");
    for (int64_t transform : {1, 2}) {
      CraftedStumpV5 t;
      t.targets = 3;
      t.low_target = 2;
      t.low_weight = 0.4f;
      t.high_target = 1;
      t.high_weight = -0.6f;
      t.post_transform = transform;
      add(transform == 1 ? "opset5_softmax" : "opset5_logistic", EncodeV5(t),
          std::string("opset-5 TreeEnsemble, three targets, ") + (transform == 1 ? "SOFTMAX" : "LOGISTIC"));
    }
  }
  // Cases nobody wrote by hand: seeded forests whose leaves name one or two of three classes, with
  // weights in eighths (exact in float32, so ties are exact ties for both).
  std::vector<float> wide;
  for (int x = -1; x <= 21; ++x) wide.push_back(static_cast<float>(x));
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const bool voting = seed > 4;
    add("random_sparse_" + std::to_string(seed), Encode(SparseForest(3 + static_cast<int64_t>(seed), seed, voting)),
        std::string("seeded stumps over three classes, leaves naming few classes, ") +
            (voting ? "non-negative" : "signed") + " weights",
        wide);
  }
  return out;
}

}  // namespace urnforest_test
