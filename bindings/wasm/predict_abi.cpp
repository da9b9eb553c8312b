// Halted prediction across the boundary: packing the answer, the plain C entry point and the
// fixed-order embind entry point (see predict_abi.h).
#include "predict_abi.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include <emscripten/emscripten.h>

#include "convert.h"
#include "dataset_handle.h"
#include "forest_handle.h"
#include "halting_handle.h"
#include "memory.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/predict.h"

namespace urnforest::wasm {
namespace {

/// Halted prediction of every row of `data` by `forest` with `table` as a packed answer in a new
/// malloc'd block that the caller frees (*answer; null on failure).
Status PredictHaltedAnswer(const Forest& forest, const DatasetHandle& data,
                           const HaltingTable& table, int32_t order, double seed_hi,
                           double seed_lo, bool compare, uint8_t** answer) {
  *answer = nullptr;
  if (table.num_classes() != forest.num_classes() || table.num_trees() > forest.num_trees()) {
    return Status::Error(StatusCode::kShapeMismatch, "the halting table does not fit this forest");
  }
  DatasetHandle::ConvertedRows scratch;
  const DatasetHandle::ConvertedRows* converted_rows = nullptr;
  Status converted = data.ModelRowsFor(forest, &scratch, &converted_rows);
  if (!converted.ok()) return converted;
  const std::vector<float>& rows = converted_rows->values;
  const size_t n = data.data().num_rows();
  Result<SequentialVoteResult> result =
      PredictHaltedRows(forest, rows.data(), n, table, VoteOptions(order, seed_hi, seed_lo),
                        converted_rows->without_nan.data());
  if (!result.ok()) return result.status();
  const size_t k = static_cast<size_t>(forest.num_classes());
  std::vector<uint32_t> full_votes;
  if (compare) {  // the full vote of the T queried trees (0..T-1)
    full_votes.assign(n * k, 0);
    AccumulateVotes(forest, rows.data(), n, table.num_trees(), full_votes.data());
  }
  const size_t bytes = LayoutOf(n, k, compare).size_bytes;
  uint8_t* block = static_cast<uint8_t*>(std::malloc(bytes));
  if (block == nullptr) OnAllocationFailure();
  PackHaltedAnswer(result.value(), k, compare, full_votes, block);
  *answer = block;
  return Status::Ok();
}

}  // namespace

HaltedAnswerLayout LayoutOf(size_t n, size_t k, bool has_full) {
  HaltedAnswerLayout layout{};
  size_t at = sizeof(HaltedAnswerHeader);
  for (size_t i = 0; i < kNumParts; ++i) {
    const HaltedAnswerSection& s = kHaltedAnswerSections[i];
    if (s.full_only && !has_full) continue;
    layout.offset[i] = at;
    at += s.element_bytes * n * (s.per_class ? k : 1);
  }
  layout.size_bytes = at;
  return layout;
}

val HaltedAnswerLayoutObject() {
  val header = val::object();
  header.set("numRows", offsetof(HaltedAnswerHeader, num_rows));
  header.set("numClasses", offsetof(HaltedAnswerHeader, num_classes));
  header.set("hasFull", offsetof(HaltedAnswerHeader, has_full));
  header.set("sizeBytes", offsetof(HaltedAnswerHeader, size_bytes));
  val sections = val::array();
  for (size_t i = 0; i < kNumParts; ++i) {
    const HaltedAnswerSection& s = kHaltedAnswerSections[i];
    val section = val::object();
    section.set("name", std::string(s.name));
    section.set("type", std::string(s.type));
    section.set("elementBytes", s.element_bytes);
    section.set("perClass", s.per_class);
    section.set("fullOnly", s.full_only);
    sections.set(i, section);
  }
  val out = val::object();
  out.set("headerBytes", sizeof(HaltedAnswerHeader));
  out.set("header", header);
  out.set("sections", sections);
  return out;
}

void PackHaltedAnswer(const SequentialVoteResult& s, size_t k, bool has_full,
                      const std::vector<uint32_t>& full_votes, uint8_t* out) {
  const size_t n = s.labels.size();
  const HaltedAnswerLayout layout = LayoutOf(n, k, has_full);
  const HaltedAnswerHeader header = {static_cast<uint32_t>(n), static_cast<uint32_t>(k),
                                     has_full ? 1u : 0u, static_cast<uint32_t>(layout.size_bytes)};
  std::memcpy(out, &header, sizeof(header));
  std::memcpy(out + layout.offset[kConfidence], s.confidence.data(), 8 * n);
  std::memcpy(out + layout.offset[kClassIndex], s.labels.data(), 4 * n);
  std::memcpy(out + layout.offset[kTreesUsed], s.trees_used.data(), 4 * n);
  if (has_full) {
    uint8_t* full_class_index = out + layout.offset[kFullClassIndex];
    for (size_t r = 0; r < n; ++r) {
      const uint32_t* v = full_votes.data() + r * k;
      int32_t best = 0;
      for (size_t c = 1; c < k; ++c) {
        if (v[c] > v[best]) best = static_cast<int32_t>(c);
      }
      std::memcpy(full_class_index + 4 * r, &best, 4);
    }
    std::memcpy(out + layout.offset[kFullVotes], full_votes.data(), 4 * n * k);
  }
  std::memcpy(out + layout.offset[kHaltedEarly], s.halted_early.data(), n);
}

val PredictHaltedFixed(const ForestHandle& forest_handle, const DatasetHandle& data,
                       const HaltingTableHandle& table, const val& fixed_order) {
  const Forest& forest = forest_handle.forest();
  const HaltingTable& h = table.table();
  SequentialVoteOptions options;
  options.order = QueryOrder::kFixed;
  options.fixed_order = IntVector(fixed_order);
  if (h.num_classes() != forest.num_classes() ||
      options.fixed_order.size() != static_cast<size_t>(h.num_trees())) {
    return ErrorObject(Status::Error(StatusCode::kShapeMismatch,
                                     "the halting table does not fit this forest and order"));
  }
  for (int32_t t : options.fixed_order) {
    if (t < 0 || t >= forest.num_trees()) return InvalidArgument("fixedOrder names a missing tree");
  }
  DatasetHandle::ConvertedRows scratch;
  const DatasetHandle::ConvertedRows* converted_rows = nullptr;
  Status converted = data.ModelRowsFor(forest, &scratch, &converted_rows);
  if (!converted.ok()) return ErrorObject(converted);
  const std::vector<float>& rows = converted_rows->values;
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t n = data.data().num_rows();
  Result<SequentialVoteResult> result = PredictHaltedRows(
      forest, rows.data(), n, h, options, converted_rows->without_nan.data());
  if (!result.ok()) return ErrorObject(result.status());
  const size_t k = static_cast<size_t>(forest.num_classes());
  std::vector<uint32_t> votes(n * k, 0);
  for (size_t r = 0; r < n; ++r) {
    uint32_t* v = votes.data() + r * k;
    for (int32_t t : options.fixed_order) ++v[forest.TreeVote(t, rows.data() + r * m)];
  }
  std::vector<uint8_t> packed(LayoutOf(n, k, true).size_bytes);
  PackHaltedAnswer(result.value(), k, true, votes, packed.data());
  return CopyOut(packed);
}

}  // namespace urnforest::wasm

extern "C" {

EMSCRIPTEN_KEEPALIVE uint8_t* urnforest_predict_halted(
    const urnforest::wasm::ForestHandle* forest, const urnforest::wasm::DatasetHandle* data,
    const urnforest::wasm::HaltingTableHandle* table, int32_t order, double seed_hi,
    double seed_lo, int32_t compare) {
  uint8_t* answer = nullptr;
  urnforest::Status status = urnforest::wasm::PredictHaltedAnswer(
      forest->forest(), *data, table->table(), order, seed_hi, seed_lo, compare != 0, &answer);
  if (!status.ok()) urnforest::wasm::SetLastError(status);
  return answer;
}

}  // extern "C"
