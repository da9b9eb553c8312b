#pragma once
// Test-only: crafted ONNX TreeEnsembleClassifier files, written attribute by attribute with the
// project's protocol-buffers writer (input X float [N, 1], int64 labels 0 .. classes - 1).
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "onnx/protobuf_writer.h"

namespace urnforest_test {

using urnforest::internal::ProtoWriter;

// The nodes_* and class_* attributes of a crafted TreeEnsembleClassifier.
struct Crafted {
  std::vector<int64_t> tree_ids, node_ids, feature_ids, true_ids, false_ids;
  std::vector<std::string> modes;
  std::vector<float> values;
  std::vector<int64_t> class_tree_ids, class_node_ids, class_ids;
  std::vector<float> class_weights;
  int64_t classes = 2;
  std::string post_transform;                    ///< Written when not empty.
  std::function<void(ProtoWriter*)> extra;       ///< Writes further attributes when set.
};

inline void Ints(ProtoWriter* node, const char* name, const std::vector<int64_t>& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  a.PackedVarints(8, v);
  a.Varint(20, 7);
  node->Message(5, a);
}
inline void Floats(ProtoWriter* node, const char* name, const std::vector<float>& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  a.PackedFloats(7, v);
  a.Varint(20, 6);
  node->Message(5, a);
}
inline void Strings(ProtoWriter* node, const char* name, const std::vector<std::string>& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  for (const std::string& s : v) a.Bytes(9, s);
  a.Varint(20, 8);
  node->Message(5, a);
}

// The graph around crafted nodes and the model around it.
struct CraftedGraph {
  const char* name;         ///< The graph's name.
  const char* scores_name;  ///< The float [N, columns] output's name (the other output is `label`).
  int64_t columns;          ///< Columns of the scores output.
  int ir_version;           ///< The model's IR version.
  int default_opset;        ///< The default domain's opset.
  int ml_opset;             ///< The ai.onnx.ml opset.
};

// A model whose graph holds `nodes` in order, with input X float [N, 1] and outputs label int64
// [N] and g.scores_name float [N, g.columns].
inline std::vector<uint8_t> WrapGraph(const std::vector<const ProtoWriter*>& nodes, const CraftedGraph& g) {
  ProtoWriter dim_n, dim_1, shape, tensor, type, input;
  dim_n.Bytes(2, "N");
  dim_1.Varint(1, 1);
  shape.Message(1, dim_n);
  shape.Message(1, dim_1);
  tensor.Varint(1, 1);  // float
  tensor.Message(2, shape);
  type.Message(1, tensor);
  input.Bytes(1, "X");
  input.Message(2, type);
  ProtoWriter label_shape, label_tensor, label_type, label;
  label_shape.Message(1, dim_n);
  label_tensor.Varint(1, 7);  // int64
  label_tensor.Message(2, label_shape);
  label_type.Message(1, label_tensor);
  label.Bytes(1, "label");
  label.Message(2, label_type);
  ProtoWriter dim_c, scores_shape, scores_tensor, scores_type, scores;
  dim_c.Varint(1, static_cast<uint64_t>(g.columns));
  scores_shape.Message(1, dim_n);
  scores_shape.Message(1, dim_c);
  scores_tensor.Varint(1, 1);
  scores_tensor.Message(2, scores_shape);
  scores_type.Message(1, scores_tensor);
  scores.Bytes(1, g.scores_name);
  scores.Message(2, scores_type);
  ProtoWriter graph;
  for (const ProtoWriter* node : nodes) graph.Message(1, *node);
  graph.Bytes(2, g.name);
  graph.Message(11, input);
  graph.Message(12, label);
  graph.Message(12, scores);
  ProtoWriter model;
  model.Varint(1, static_cast<uint64_t>(g.ir_version));
  model.Message(7, graph);
  for (const auto& [domain, version] : {std::pair<const char*, int>{"", g.default_opset}, {"ai.onnx.ml", g.ml_opset}}) {
    ProtoWriter opset;
    opset.Bytes(1, domain);
    opset.Varint(2, static_cast<uint64_t>(version));
    model.Message(8, opset);
  }
  return model.Release();
}

// The ONNX file: input X float [N, 1], the classifier (labels 0 .. classes - 1), outputs label
// int64 [N] and probabilities float [N, classes].
inline std::vector<uint8_t> Encode(const Crafted& c) {
  ProtoWriter node;
  node.Bytes(1, "X");
  node.Bytes(2, "label");
  node.Bytes(2, "probabilities");
  node.Bytes(4, "TreeEnsembleClassifier");
  std::vector<int64_t> labels;
  for (int64_t k = 0; k < c.classes; ++k) labels.push_back(k);
  Ints(&node, "classlabels_int64s", labels);
  Ints(&node, "nodes_treeids", c.tree_ids);
  Ints(&node, "nodes_nodeids", c.node_ids);
  Ints(&node, "nodes_featureids", c.feature_ids);
  Strings(&node, "nodes_modes", c.modes);
  Floats(&node, "nodes_values", c.values);
  Ints(&node, "nodes_truenodeids", c.true_ids);
  Ints(&node, "nodes_falsenodeids", c.false_ids);
  Ints(&node, "class_treeids", c.class_tree_ids);
  Ints(&node, "class_nodeids", c.class_node_ids);
  Ints(&node, "class_ids", c.class_ids);
  Floats(&node, "class_weights", c.class_weights);
  if (!c.post_transform.empty()) {
    ProtoWriter a;
    a.Bytes(1, "post_transform");
    a.Bytes(4, c.post_transform);
    a.Varint(20, 3);
    node.Message(5, a);
  }
  if (c.extra) c.extra(&node);
  node.Bytes(7, "ai.onnx.ml");
  return WrapGraph({&node}, {"crafted", "probabilities", c.classes, 8, 15, 3});
}

}  // namespace urnforest_test
