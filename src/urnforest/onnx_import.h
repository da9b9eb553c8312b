#pragma once
// ONNX import: a tree-ensemble classifier trained elsewhere (scikit-learn, Spark MLlib, XGBoost,
// LightGBM, exported to ONNX) becomes a Forest that predicts exactly as its source and halts with
// urnforest's rules. docs/import.md says how to export from each library.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Options of ImportOnnx.
struct OnnxImportOptions {
  /// Names of the model's input columns, in the order of its input tensor. ONNX tree models take
  /// one tensor and carry no column names; empty = "f0", "f1", ... (XGBoost's default names).
  /// Otherwise exactly one distinct, non-empty name per input column (kInvalidArgument).
  std::vector<std::string> feature_names;
  /// Names for the model's classes, in the order of its labels (e.g. the names a scikit-learn
  /// LabelEncoder mapped to 0, 1, 2). Empty = the labels as the file stores them (integers as
  /// decimal text). Otherwise one distinct, non-empty UTF-8 name per class (kInvalidArgument).
  std::vector<std::string> class_names;
  /// Name recorded for the target column (the data a calibration or prediction reads need not
  /// have it).
  std::string target_name = "class";
  /// The most memory, in bytes, the imported model may take (its leaf table with every class of
  /// every leaf, per-tree bounds and node table, estimated from the file before anything is
  /// built). 0 = the larger of 64 MiB and 64 bytes per byte of the file, so that a small file
  /// cannot ask for gigabytes; a larger estimate is refused with kLimitExceeded naming both.
  size_t max_memory_bytes = 0;
};

/// Imports the `ai.onnx.ml` `TreeEnsembleClassifier` (opsets 1 and 3, float or `*_as_tensor`
/// double attributes), or the opset-5 `TreeEnsemble` followed by `ArgMax` over its targets (axis
/// 1; classes named "0", "1", ...; SUM or AVERAGE aggregation), in an ONNX file of `size` bytes at
/// `data` (borrowed for the call). The graph may hold that node plus `ZipMap`, `Cast` or
/// `Identity` nodes after it; its one input is a float or double tensor of the model's columns.
///
/// Every split mode is kept exactly: BRANCH_LEQ/LT/GTE/GT become `x <= t` splits on float32
/// thresholds (t rounded so that every float32 input goes the same way as in ONNX Runtime),
/// BRANCH_EQ/NEQ two such splits, BRANCH_MEMBER a chain of them over the sorted set (its answers
/// share their subtrees); NaN follows nodes_missing_value_tracks_true as in ONNX Runtime.
/// Children are found by (tree id, node id) in any order; a leaf may hold several class entries.
/// Non-negative weights without a post-transform make a voting model (ImportedKind::kVoting; each
/// tree's hard vote is its leaf's top class), unless most trees give weight to one class only
/// (one tree per class); anything else is an additive model.
///
/// Fails with kCorruptModel for a file that is not valid ONNX or whose trees are inconsistent
/// (attribute lengths disagree, a child id that does not exist, a node reached twice, a leaf
/// weight on an inner node); kUnsupportedModel, naming the node and its op, for a regressor, an
/// op other than those above, a node that transforms the input before the trees, a PROBIT
/// transform, a `TreeEnsemble` without `ArgMax` (a regressor) or with MIN/MAX aggregation;
/// kInvalidArgument for feature names that do not fit;
/// kLimitExceeded beyond 100,000 trees, 4,096 classes or 2^31 nodes, or when the model would take
/// more memory than OnnxImportOptions::max_memory_bytes allows (checked before building).
///
/// The forest is written through ForestBuilder (urnforest/forest_builder.h): the attributes of
/// each op version are read into one canonical form (src/onnx/tree_ensemble_attributes.h), then
/// written out as schema, import record, leaf table and trees.
Result<Forest> ImportOnnx(const uint8_t* data, size_t size, const OnnxImportOptions& options = {});

}  // namespace urnforest
