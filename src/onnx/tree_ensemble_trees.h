#pragma once
// Internal to the ONNX importer: the source trees, in the canonical attribute form, written node by
// node through a ForestBuilder as `x <= t` splits on float32 thresholds.
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "onnx/onnx_model.h"
#include "onnx/node_ids.h"
#include "onnx/tree_ensemble_attributes.h"
#include "urnforest/forest_builder.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// One source tree's nodes: node id -> index into the attribute arrays.
struct SourceTree {
  NodeIds by_id;  ///< sealed (NodeIds::Seal) before use
};
/// The source trees by tree id (increasing: the forest's tree order).
using SourceTrees = std::map<int64_t, SourceTree>;

/// Writes every tree of `trees` into `out` (which has its schema, record and leaves; see
/// ForestBuilder), in increasing tree id. A tree's root is the one node no other node of the tree
/// names as a child. Each node becomes `x <= t` splits that send every float32 input where ONNX
/// Runtime sends it (ImportOnnx's doc, urnforest/onnx_import.h); a LEAF node holds leaf-value row
/// `leaf_rows[i]` (i its attribute index). `num_features` bounds the split features. Fails with
/// kCorruptModel naming the node (two roots or none, a node reached twice, a child id that does
/// not exist, a feature out of range, a NaN threshold, an empty or NaN BRANCH_MEMBER set),
/// kUnsupportedModel for an unknown node mode, else as the builder.
Status WriteSourceTrees(const OnnxNode& node, const TreeEnsembleAttributes& a,
                        const SourceTrees& trees, const std::vector<uint32_t>& leaf_rows,
                        int64_t num_features, ForestBuilder* out);

}  // namespace internal
}  // namespace urnforest
