// Halted prediction across the boundary: packing the core's HaltedPrediction and the plain C entry
// point of every query order (see predict_abi.h).
#include "predict_abi.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include <emscripten/emscripten.h>

#include "convert.h"
#include "dataset_handle.h"
#include "forest_handle.h"
#include "halting_handle.h"
#include "memory.h"
#include "urnforest/forest.h"

namespace urnforest::wasm {
namespace {

/// Sets `options` to query order `order` (a position in QueryOrderNames()) with the seed's halves
/// and, for a fixed order, its `fixed_length` tree ids at `fixed_order`.
Status VoteOptionsOf(int32_t order, double seed_hi, double seed_lo, const int32_t* fixed_order,
                     int32_t fixed_length, SequentialVoteOptions* options) {
  // QueryOrderNames() parsed once: the position of each name is its order's code here.
  static const std::vector<QueryOrder> kOrders = [] {
    std::vector<QueryOrder> orders;
    for (const std::string& name : QueryOrderNames()) orders.push_back(ParseQueryOrder(name).value());
    return orders;
  }();
  if (order < 0 || static_cast<size_t>(order) >= kOrders.size()) {
    return Status::Error(StatusCode::kInvalidArgument, "unknown query order");
  }
  options->order = kOrders[static_cast<size_t>(order)];
  options->seed = Seed64(seed_hi, seed_lo);
  if (fixed_order != nullptr && fixed_length > 0) {
    options->fixed_order.assign(fixed_order, fixed_order + fixed_length);
  }
  return Status::Ok();
}

/// Halted prediction of every row of `data` by `forest` with `table` as a packed answer in a new
/// malloc'd block that the caller frees (*answer; null on failure).
Status PredictHaltedAnswer(const Forest& forest, const DatasetHandle& data,
                           const HaltingTable& table,
                           const SequentialVoteOptions& options, bool compare, uint8_t** answer) {
  *answer = nullptr;
  // The kept rows are tried first: the core checks that they fit this forest (PreparedRows::Fits)
  // and predicts; only when it failed because they do not are the rows prepared again.
  // (std::optional: no placeholder Status, whose message would be allocated on every call.)
  const PreparedRows* rows = data.KeptRows();
  std::optional<Result<HaltedPrediction>> predicted;
  if (rows != nullptr) predicted.emplace(PredictHalted(forest, *rows, table, options, compare));
  PreparedRows scratch;
  if (rows == nullptr || (!predicted->ok() && !rows->Fits(forest))) {
    Status prepared = data.PreparedFor(forest, &scratch, &rows);
    if (!prepared.ok()) return prepared;
    predicted.emplace(PredictHalted(forest, *rows, table, options, compare));
  }
  const Result<HaltedPrediction>& result = *predicted;
  if (!result.ok()) return result.status();
  const size_t k = static_cast<size_t>(forest.num_classes());
  const size_t bytes = LayoutOf(rows->num_rows, k, compare).size_bytes;
  uint8_t* block = static_cast<uint8_t*>(std::malloc(bytes));
  if (block == nullptr) OnAllocationFailure();
  PackHaltedAnswer(result.value(), k, block);
  *answer = block;
  return Status::Ok();
}

// PredictHaltedAnswer without the full vote: the core writes every row's outcome straight into the
// sections of the new block (PredictHaltedInto), so nothing is allocated per row and nothing copied.
Status PredictHaltedAnswerInPlace(const Forest& forest, const DatasetHandle& data,
                                  const HaltingTable& table, const SequentialVoteOptions& options,
                                  uint8_t** answer) {
  *answer = nullptr;
  const size_t n = data.data().num_rows();
  const size_t k = static_cast<size_t>(forest.num_classes());
  const HaltedAnswerLayout layout = LayoutOf(n, k, false);
  uint8_t* block = static_cast<uint8_t*>(std::malloc(layout.size_bytes));
  if (block == nullptr) OnAllocationFailure();
  const SequentialVoteSpans spans = {
      reinterpret_cast<int32_t*>(block + layout.offset[kClassIndex]),
      reinterpret_cast<int32_t*>(block + layout.offset[kTreesUsed]),
      reinterpret_cast<double*>(block + layout.offset[kConfidence]),
      block + layout.offset[kHaltedEarly],
      reinterpret_cast<int32_t*>(block + layout.offset[kTallies])};
  double mean_trees = 0.0;
  // The kept rows first, prepared again only when they do not fit (as PredictHaltedAnswer).
  const PreparedRows* rows = data.KeptRows();
  Status status = Status::Ok();
  if (rows != nullptr) status = PredictHaltedInto(forest, *rows, table, options, spans, &mean_trees);
  PreparedRows scratch;
  if (rows == nullptr || (!status.ok() && !rows->Fits(forest))) {
    status = data.PreparedFor(forest, &scratch, &rows);
    if (status.ok()) status = PredictHaltedInto(forest, *rows, table, options, spans, &mean_trees);
  }
  if (!status.ok()) {
    std::free(block);
    return status;
  }
  const HaltedAnswerHeader header = {static_cast<uint32_t>(n), static_cast<uint32_t>(k), 0u,
                                     static_cast<uint32_t>(layout.size_bytes), mean_trees,
                                     std::numeric_limits<double>::quiet_NaN()};
  std::memcpy(block, &header, sizeof(header));
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
  header.set("meanTrees", offsetof(HaltedAnswerHeader, mean_trees));
  header.set("disagreement", offsetof(HaltedAnswerHeader, disagreement));
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

void PackHaltedAnswer(const HaltedPrediction& p, size_t k, uint8_t* out) {
  const SequentialVoteResult& s = p.halted;
  const size_t n = s.labels.size();
  const bool has_full = p.full.has_value();
  const HaltedAnswerLayout layout = LayoutOf(n, k, has_full);
  const HaltedAnswerHeader header = {static_cast<uint32_t>(n), static_cast<uint32_t>(k),
                                     has_full ? 1u : 0u, static_cast<uint32_t>(layout.size_bytes),
                                     p.mean_trees, p.disagreement};
  std::memcpy(out, &header, sizeof(header));
  std::memcpy(out + layout.offset[kConfidence], s.confidence.data(), 8 * n);
  std::memcpy(out + layout.offset[kTallies], s.tallies.data(), 4 * n * k);
  std::memcpy(out + layout.offset[kClassIndex], s.labels.data(), 4 * n);
  std::memcpy(out + layout.offset[kTreesUsed], s.trees_used.data(), 4 * n);
  if (has_full) {
    std::memcpy(out + layout.offset[kFullClassIndex], p.full->labels.data(), 4 * n);
    std::memcpy(out + layout.offset[kFullVotes], p.full->votes.data(), 4 * n * k);
  }
  std::memcpy(out + layout.offset[kHaltedEarly], s.halted_early.data(), n);
}

}  // namespace urnforest::wasm

extern "C" {

EMSCRIPTEN_KEEPALIVE uint8_t* urnforest_predict_halted(
    const urnforest::wasm::ForestHandle* forest, const urnforest::wasm::DatasetHandle* data,
    const urnforest::wasm::HaltingTableHandle* table, int32_t order, double seed_hi,
    double seed_lo, int32_t compare, const int32_t* fixed_order, int32_t fixed_length) {
  uint8_t* answer = nullptr;
  urnforest::SequentialVoteOptions options;
  urnforest::Status status = urnforest::wasm::VoteOptionsOf(order, seed_hi, seed_lo, fixed_order,
                                                            fixed_length, &options);
  if (status.ok() && compare == 0) {
    status = urnforest::wasm::PredictHaltedAnswerInPlace(forest->forest(), *data, table->table(),
                                                         options, &answer);
  } else if (status.ok()) {
    status = urnforest::wasm::PredictHaltedAnswer(forest->forest(), *data, table->table(), options,
                                                  true, &answer);
  }
  if (!status.ok()) urnforest::wasm::SetLastError(status);
  return answer;
}

}  // extern "C"
