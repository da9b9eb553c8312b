#pragma once
// Test-only: crafted ai.onnx.ml opset-5 TreeEnsemble files followed by ArgMax (input X float
// [N, 1], outputs label int64 [N] from ArgMax and Y float [N, targets]), written with the
// project's protocol-buffers writer. One stump: x <= 0.5 reaches leaf 0, else leaf 1; each leaf
// adds its one weight to its one target (the opset-5 layout).
#include <cstdint>
#include <vector>

#include "onnx_crafted.h"

namespace urnforest_test {

struct CraftedStumpV5 {
  int64_t targets = 2;
  int64_t low_target = 0, high_target = 0;
  float low_weight = 0.0f, high_weight = 0.0f;
  int64_t post_transform = 0;  ///< 0 NONE, 1 SOFTMAX, 2 LOGISTIC, 3 SOFTMAX_ZERO
};

// A tensor attribute: data_type 1 (float, float_data) or 2 (uint8, int32_data).
inline void TensorAttr(ProtoWriter* node, const char* name, int32_t data_type, const std::vector<float>& v) {
  ProtoWriter t;
  t.Varint(1, v.size());
  t.Varint(2, static_cast<uint64_t>(data_type));
  if (data_type == 1) {
    t.PackedFloats(4, v);
  } else {
    std::vector<int64_t> ints(v.begin(), v.end());
    t.PackedVarints(5, ints);
  }
  ProtoWriter a;
  a.Bytes(1, name);
  a.Message(5, t);
  a.Varint(20, 4);
  node->Message(5, a);
}
inline void IntAttr(ProtoWriter* node, const char* name, int64_t v) {
  ProtoWriter a;
  a.Bytes(1, name);
  a.Varint(3, static_cast<uint64_t>(v));
  a.Varint(20, 2);
  node->Message(5, a);
}

inline std::vector<uint8_t> EncodeV5(const CraftedStumpV5& c) {
  ProtoWriter node;
  node.Bytes(1, "X");
  node.Bytes(2, "Y");
  node.Bytes(4, "TreeEnsemble");
  Ints(&node, "tree_roots", {0});
  Ints(&node, "nodes_featureids", {0});
  TensorAttr(&node, "nodes_splits", 1, {0.5f});
  TensorAttr(&node, "nodes_modes", 2, {0.0f});
  Ints(&node, "nodes_truenodeids", {0});
  Ints(&node, "nodes_trueleafs", {1});
  Ints(&node, "nodes_falsenodeids", {1});
  Ints(&node, "nodes_falseleafs", {1});
  Ints(&node, "leaf_targetids", {c.low_target, c.high_target});
  TensorAttr(&node, "leaf_weights", 1, {c.low_weight, c.high_weight});
  IntAttr(&node, "n_targets", c.targets);
  IntAttr(&node, "aggregate_function", 1);
  IntAttr(&node, "post_transform", c.post_transform);
  node.Bytes(7, "ai.onnx.ml");
  ProtoWriter argmax;
  argmax.Bytes(1, "Y");
  argmax.Bytes(2, "label");
  argmax.Bytes(4, "ArgMax");
  IntAttr(&argmax, "axis", 1);
  IntAttr(&argmax, "keepdims", 0);
  return WrapGraph({&node, &argmax}, {"crafted_v5", "Y", c.targets, 10, 18, 5});
}

}  // namespace urnforest_test
