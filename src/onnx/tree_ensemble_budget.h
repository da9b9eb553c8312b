#pragma once
// Internal to the ONNX importer: the memory an import will take, estimated from the canonical
// attributes before anything proportional to it is allocated, and the budget it must fit.
// The file's size does not bound the forest: a leaf names its classes sparsely, the forest stores
// every class of every leaf and tree, so 8,192 one-leaf trees over 4,096 classes (a 216 KB file)
// would take over 800 MB. The importer refuses such files instead of allocating.
#include <cstddef>
#include <cstdint>
#include <string>

#include "onnx/tree_ensemble_attributes.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// What an import builds, counted from the attributes (no allocation proportional to it yet).
struct ImportEstimate {
  size_t trees = 0;
  size_t leaves = 0;       ///< LEAF nodes.
  size_t nodes = 0;        ///< Nodes of the forest's node table (splits expand; see tree_ensemble_trees.h).
  size_t outputs = 0;      ///< Values per leaf (ImportedModel::outputs).
  size_t bytes = 0;        ///< Leaf table, hard votes, per-tree bounds (kept and rebuilt for the
                           ///< exact exit), node table: what the model holds while it predicts.
};

/// The estimate for `a` (read and checked by ReadTreeEnsembleAttributes) with `trees` distinct
/// tree ids and `outputs` values per leaf. Saturates at SIZE_MAX instead of overflowing.
ImportEstimate EstimateImport(const TreeEnsembleAttributes& a, size_t trees, size_t outputs);

/// The budget in bytes for a file of `file_bytes`: `requested` when non-zero, else the larger of
/// 64 MiB and 64 bytes per byte of the file (OnnxImportOptions::max_memory_bytes).
size_t ImportBudget(size_t file_bytes, size_t requested);

/// kLimitExceeded when `e.bytes` exceeds `budget`; the message names the estimate (with the
/// trees, leaves, nodes and values per leaf it comes from) and the budget, both in MiB.
Status CheckImportBudget(const ImportEstimate& e, size_t budget);

}  // namespace internal
}  // namespace urnforest
