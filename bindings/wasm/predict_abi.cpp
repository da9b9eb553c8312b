// Prediction across the boundary: packing the core's Prediction and the one plain C entry point of
// every path (see predict_abi.h).
#include "predict_abi.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include <emscripten/emscripten.h>

#include "convert.h"
#include "dataset_handle.h"
#include "forest_handle.h"
#include "halting_handle.h"
#include "memory.h"
#include "predict_request_handle.h"
#include "urnforest/forest.h"

namespace urnforest::wasm {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A new malloc'd block of `bytes` (out of memory: OnAllocationFailure).
uint8_t* NewBlock(size_t bytes) {
  uint8_t* block = static_cast<uint8_t*>(std::malloc(bytes));
  if (block == nullptr) OnAllocationFailure();
  return block;
}

// The halted arrays of an InPlace plan written by the core straight into a new block.
Status AnswerInPlace(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                     const HaltingTable& table, uint8_t** answer) {
  const size_t n = rows.num_rows;
  const size_t k = static_cast<size_t>(forest.num_classes());
  const AnswerLayout layout = LayoutOf(n, k, kInPlaceSections);
  uint8_t* block = NewBlock(layout.size_bytes);
  const SequentialVoteSpans spans = {
      reinterpret_cast<int32_t*>(block + layout.offset[kClassIndex]),
      reinterpret_cast<int32_t*>(block + layout.offset[kTreesUsed]),
      reinterpret_cast<double*>(block + layout.offset[kConfidence]),
      block + layout.offset[kHaltedEarly],
      reinterpret_cast<int32_t*>(block + layout.offset[kTallies])};
  double mean_trees = 0.0;
  Status status = PredictHaltedInto(forest, rows, table, plan.order, spans, &mean_trees);
  if (!status.ok()) {
    std::free(block);
    return status;
  }
  WriteAnswerHeader(block, n, k, kInPlaceSections, layout.size_bytes, mean_trees, kNaN, kNaN, plan.path);
  *answer = block;
  return Status::Ok();
}

Status Answer(const ForestHandle& forest_handle, const DatasetHandle& data,
              const PredictRequestHandle& request, const HaltingTableHandle* table, uint8_t** answer) {
  *answer = nullptr;
  const Forest& forest = forest_handle.forest();
  if (request.forest() != &forest) {
    return Status::Error(StatusCode::kInvalidArgument, "the predict request was made for another forest");
  }
  const PredictPlan& plan = request.plan();
  PreparedRows scratch;
  const PreparedRows* rows = nullptr;
  if (Status prepared = data.PreparedFor(forest, &scratch, &rows); !prepared.ok()) return prepared;
  if (plan.InPlace() && table != nullptr) return AnswerInPlace(forest, *rows, plan, table->table(), answer);
  GivenTable given;
  if (table != nullptr) given = {&table->table(), table->has_prior() ? &table->prior() : nullptr};
  Result<Prediction> p = Predict(forest, *rows, plan, table != nullptr ? &given : nullptr);
  if (!p.ok()) return p.status();
  *answer = PackPrediction(p.value(), static_cast<size_t>(forest.num_classes()));
  if (*answer == nullptr) OnAllocationFailure();
  return Status::Ok();
}

}  // namespace

val HaltedAnswerLayoutObject() {
  val header = val::object();
  header.set("numRows", offsetof(AnswerHeader, num_rows));
  header.set("numClasses", offsetof(AnswerHeader, num_classes));
  header.set("present", offsetof(AnswerHeader, present));
  header.set("sizeBytes", offsetof(AnswerHeader, size_bytes));
  header.set("meanTrees", offsetof(AnswerHeader, mean_trees));
  header.set("disagreement", offsetof(AnswerHeader, disagreement));
  header.set("lambda", offsetof(AnswerHeader, lambda));
  header.set("path", offsetof(AnswerHeader, path));
  val sections = val::array();
  for (size_t i = 0; i < kNumParts; ++i) {
    const AnswerSection& s = kAnswerSections[i];
    val section = val::object();
    section.set("name", std::string(s.name));
    section.set("type", std::string(s.type));
    section.set("elementBytes", s.element_bytes);
    section.set("perClass", s.per_class);
    sections.set(i, section);
  }
  val paths = val::array();
  for (PredictPath path : {PredictPath::kFullVote, PredictPath::kWeightedVote, PredictPath::kSoftScores,
                           PredictPath::kTableRule, PredictPath::kExactExit, PredictPath::kMargin,
                           PredictPath::kLp, PredictPath::kCertified, PredictPath::kStratified}) {
    paths.set(static_cast<size_t>(path), std::string(PredictPathName(path)));
  }
  val out = val::object();
  out.set("headerBytes", sizeof(AnswerHeader));
  out.set("header", header);
  out.set("sections", sections);
  out.set("paths", paths);
  return out;
}

}  // namespace urnforest::wasm

extern "C" {

EMSCRIPTEN_KEEPALIVE uint8_t* urnforest_predict(const urnforest::wasm::ForestHandle* forest,
                                                const urnforest::wasm::DatasetHandle* data,
                                                const urnforest::wasm::PredictRequestHandle* request,
                                                const urnforest::wasm::HaltingTableHandle* table) {
  uint8_t* answer = nullptr;
  urnforest::Status status = urnforest::wasm::Answer(*forest, *data, *request, table, &answer);
  if (!status.ok()) urnforest::wasm::SetLastError(status);
  return answer;
}

}  // extern "C"
