#pragma once
// Internal to the ONNX importer: the tree-ensemble node's attributes in one canonical form, the
// TreeEnsembleClassifier layout (ai.onnx.ml opsets 1 and 3), whichever op version the file holds.
// One reader per op version reads and validates its attributes into it (as ONNX Runtime
// normalises every version to one form); tree_ensemble_import.cpp builds the forest from it.
#include <cstdint>
#include <string>
#include <vector>

#include "onnx/onnx_model.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// The attributes of a TreeEnsembleClassifier, numbers widened to double. Node i of the nodes_*
/// arrays is node node_ids[i] of tree tree_ids[i]; weight entry k adds class_weights[k] to class
/// class_ids[k] of leaf (class_tree_ids[k], class_node_ids[k]). After a reader succeeds the nodes_*
/// arrays have one length (missing_true may be empty), the class_* arrays another, class_names at
/// least one entry and member_sets one entry per node. Ids are not yet checked against each other.
struct TreeEnsembleAttributes {
  std::vector<int64_t> tree_ids, node_ids, feature_ids, true_ids, false_ids, missing_true;
  std::vector<std::string> modes;  ///< "BRANCH_LEQ", ..., "BRANCH_MEMBER", "LEAF", as in the file.
  std::vector<double> values;      ///< Thresholds.
  std::vector<int64_t> class_tree_ids, class_node_ids, class_ids;
  std::vector<double> class_weights;
  std::vector<std::string> class_names;  ///< Labels as in the file (integers as decimal text).
  std::vector<double> base_values;
  std::string post_transform = "NONE";
  /// BRANCH_MEMBER nodes (opset-5 TreeEnsemble): the set of each node, by node index; empty sets
  /// for every other node.
  std::vector<std::vector<double>> member_sets;
};

/// Reads `node` (a TreeEnsembleClassifier of opsets 1 and 3, float or `*_as_tensor` double
/// attributes, or an opset-5 TreeEnsemble, whose trees are rewritten into the classifier layout:
/// node ids are node indices for interior nodes and node count + leaf index for leaves, tree ids
/// the positions in tree_roots, classes "0", "1", ...). Fails with kCorruptModel for attributes
/// that are missing, of different lengths or out of range (naming the node), kUnsupportedModel for
/// an opset-5 ensemble with one target or MIN/MAX aggregation, kLimitExceeded beyond 2^28 nodes.
Result<TreeEnsembleAttributes> ReadTreeEnsembleAttributes(const OnnxNode& node);
/// The same, moving the classifier's lists out of *node instead of copying them (they are left
/// empty; the node's other attributes, name and type stay): for a node the caller is done with.
Result<TreeEnsembleAttributes> ReadTreeEnsembleAttributes(OnnxNode* node);

/// mode == "LEAF", comparing the length first (most nodes are branches).
inline bool IsLeafMode(const std::string& mode) {
  return mode.size() == 4 && mode[0] == 'L' && mode[1] == 'E' && mode[2] == 'A' && mode[3] == 'F';
}

/// A string from the file quoted for a message: "(text that is not UTF-8)" when it is not UTF-8.
std::string OnnxQuoted(const std::string& s);
/// kUnsupportedModel with `what`.
Status OnnxUnsupported(const std::string& what);
/// kCorruptModel: "<node described>: <what>".
Status OnnxCorrupt(const OnnxNode& node, const std::string& what);

}  // namespace internal
}  // namespace urnforest
