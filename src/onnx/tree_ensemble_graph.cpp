// The tree-ensemble node of an ONNX graph and the checks that the rest of the graph is harmless
// post-processing (tree_ensemble_graph.h).
#include "onnx/tree_ensemble_graph.h"

#include <algorithm>
#include <string>
#include <vector>

#include "onnx/tree_ensemble_attributes.h"

namespace urnforest {
namespace internal {

Result<const OnnxNode*> FindTreeNode(const OnnxModel& model, std::string* input_name,
                                     int64_t* width) {
  const OnnxNode* tree = nullptr;
  for (const OnnxNode& node : model.nodes) {
    const bool ml = node.domain == "ai.onnx.ml";
    if (ml && (node.op_type == "TreeEnsembleClassifier" || node.op_type == "TreeEnsemble")) {
      if (tree != nullptr) return OnnxUnsupported(node.Describe() + ": the graph holds two tree ensembles");
      tree = &node;
    } else if (ml && node.op_type == "TreeEnsembleRegressor") {
      return OnnxUnsupported(node.Describe() + ": a regressor; urnforest imports classifiers");
    }
  }
  if (tree == nullptr) {
    for (const OnnxNode& node : model.nodes) {
      const bool post = node.op_type == "ZipMap" || node.op_type == "Cast" || node.op_type == "Identity";
      if (!post) return OnnxUnsupported(node.Describe() + ": not a tree-ensemble classifier");
    }
    return OnnxUnsupported("the graph has no TreeEnsembleClassifier node");
  }
  if (tree->inputs.empty()) return OnnxCorrupt(*tree, "has no input");
  *input_name = tree->inputs[0];
  // Every other node must come after the trees: ZipMap, Cast or Identity fed by the tree node's
  // outputs (or by another such node).
  std::vector<std::string> downstream = tree->outputs;
  for (const OnnxNode& node : model.nodes) {
    if (&node == tree) continue;
    const bool v5 = tree->op_type == "TreeEnsemble";
    const bool plain = node.domain.empty() || node.domain == "ai.onnx";
    const bool post = (node.domain == "ai.onnx.ml" && node.op_type == "ZipMap") ||
                      (plain && (node.op_type == "Cast" || node.op_type == "Identity")) ||
                      (plain && v5 && node.op_type == "ArgMax");
    if (!post) {
      return OnnxUnsupported(node.Describe() + ": urnforest runs the tree ensemble alone; this op "
                         "(preprocessing or other computation) is not supported");
    }
  }
  for (const OnnxNode& node : model.nodes) {
    if (&node == tree) continue;
    bool fed = !node.inputs.empty();
    for (const std::string& in : node.inputs) {
      fed = fed && std::find(downstream.begin(), downstream.end(), in) != downstream.end();
    }
    if (!fed) {
      return OnnxUnsupported(node.Describe() + ": transforms the input before the tree ensemble; "
                         "urnforest runs the trees on the raw columns only");
    }
    downstream.insert(downstream.end(), node.outputs.begin(), node.outputs.end());
  }
  if (tree->op_type == "TreeEnsemble") {
    // The opset-5 op is also a regressor: it classifies when an ArgMax over its scores follows.
    const OnnxNode* argmax = nullptr;
    for (const OnnxNode& node : model.nodes) {
      if (node.op_type == "ArgMax" && !node.inputs.empty() && !tree->outputs.empty() &&
          node.inputs[0] == tree->outputs[0]) {
        argmax = &node;
      }
    }
    if (argmax == nullptr) {
      return OnnxUnsupported(tree->Describe() + ": no ArgMax follows it, so it is a regressor; urnforest imports classifiers");
    }
    const OnnxAttribute* axis = argmax->Find("axis");
    const OnnxAttribute* last = argmax->Find("select_last_index");
    if ((axis != nullptr && axis->i != 1 && axis->i != -1) || axis == nullptr || (last != nullptr && last->i != 0)) {
      return OnnxUnsupported(argmax->Describe() + ": only ArgMax over the classes (axis 1) with ties to the first is supported");
    }
  }
  const OnnxValueInfo* input = nullptr;
  for (const OnnxValueInfo& v : model.inputs) {
    if (v.name == *input_name) input = &v;
  }
  if (input == nullptr) {
    return OnnxUnsupported(tree->Describe() + ": its input '" + *input_name + "' is not a graph input");
  }
  if (!input->is_tensor || (input->elem_type != kOnnxFloat &&
                            input->elem_type != kOnnxDouble)) {
    return OnnxUnsupported("graph input '" + *input_name + "' is not a float or double tensor");
  }
  *width = input->dims.size() == 2 ? input->dims[1] : -1;
  return tree;
}

}  // namespace internal
}  // namespace urnforest
