// The memory an ONNX import will take, estimated before building (tree_ensemble_budget.h).
#include "onnx/tree_ensemble_budget.h"

#include <limits>
#include <string_view>
#include <vector>

#include "urnforest/node_table.h"

namespace urnforest {
namespace internal {
namespace {

constexpr size_t kSaturated = std::numeric_limits<size_t>::max();
constexpr size_t kMiB = size_t{1} << 20;

size_t Mul(size_t a, size_t b) { return a != 0 && b > kSaturated / a ? kSaturated : a * b; }
size_t Add(size_t a, size_t b) { return b > kSaturated - a ? kSaturated : a + b; }

// Slots a source node takes in the node table beyond its own (TreeWriter's expansions): two
// children for a comparison, three for an equality, two per boundary of a member set (2 per value).
size_t ExtraSlots(const std::string& mode, size_t member_values) {
  if (IsLeafMode(mode)) return 0;
  const std::string_view m(mode);  // compares lengths first
  if (m == "BRANCH_EQ" || m == "BRANCH_NEQ") return 3;
  if (m == "BRANCH_MEMBER") return Mul(4, member_values);
  return 2;
}

std::string MiB(size_t bytes) {
  if (bytes == kSaturated) return "more than " + std::to_string(kSaturated / kMiB) + " MiB";
  return std::to_string((bytes + kMiB - 1) / kMiB) + " MiB";
}

}  // namespace

ImportEstimate EstimateImport(const TreeEnsembleAttributes& a, size_t trees, size_t outputs) {
  ImportEstimate e;
  e.trees = trees;
  e.outputs = outputs;
  e.nodes = trees;  // each tree's root slot
  for (size_t i = 0; i < a.modes.size(); ++i) {
    if (IsLeafMode(a.modes[i])) ++e.leaves;
    const size_t members = i < a.member_sets.size() ? a.member_sets[i].size() : 0;
    e.nodes = Add(e.nodes, ExtraSlots(a.modes[i], members));
  }
  const size_t leaf_values = Mul(e.leaves, outputs);
  // Per tree and value: low and high bounds in the record, and the exact exit's three suffix
  // tables built from them when it predicts.
  const size_t bound_values = Mul(Add(trees, 1), Mul(outputs, 5));
  size_t bytes = Mul(Add(leaf_values, bound_values), sizeof(double));
  bytes = Add(bytes, Mul(e.leaves, sizeof(uint32_t)));                 // hard votes
  if (outputs >= 3) bytes = Add(bytes, leaf_values);                   // classes each leaf names
  bytes = Add(bytes, Mul(e.nodes, sizeof(TreeNode) + sizeof(uint8_t)));  // node table + set marks
  e.bytes = bytes;
  return e;
}

size_t ImportBudget(size_t file_bytes, size_t requested) {
  if (requested != 0) return requested;
  const size_t floor = 64 * kMiB;
  const size_t scaled = Mul(file_bytes, 64);
  return scaled > floor ? scaled : floor;
}

Status CheckImportBudget(const ImportEstimate& e, size_t budget) {
  if (e.bytes <= budget) return Status::Ok();
  return Status::Error(
      StatusCode::kLimitExceeded,
      "the imported model would take about " + MiB(e.bytes) + " (" + std::to_string(e.trees) + " trees, " +
          std::to_string(e.leaves) + " leaves of " + std::to_string(e.outputs) + " values, " +
          std::to_string(e.nodes) + " nodes), over the limit of " + MiB(budget) +
          " for this file (raise OnnxImportOptions::max_memory_bytes to allow it)");
}

}  // namespace internal
}  // namespace urnforest
