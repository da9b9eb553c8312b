#pragma once
// Internal to the ONNX importer: the one tree-ensemble node of a graph.
#include <cstdint>
#include <string>

#include "onnx/onnx_model.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// The single tree-ensemble node of `model` (an ai.onnx.ml TreeEnsembleClassifier, or an opset-5
/// TreeEnsemble followed by an ArgMax over its targets: axis 1, ties to the first), after checking
/// that every other node is ZipMap, Cast or Identity (or that ArgMax) fed by the trees' outputs.
/// Sets *input_name to the trees' input and *width to its second dimension (-1 when unknown).
/// The pointer borrows from `model`. Fails with kUnsupportedModel naming the node for a
/// regressor, two ensembles, none, any other op or one that transforms the input, or an input that
/// is not a float or double graph input; kCorruptModel for a tree node without input.
Result<const OnnxNode*> FindTreeNode(const OnnxModel& model, std::string* input_name,
                                     int64_t* width);

}  // namespace internal
}  // namespace urnforest
