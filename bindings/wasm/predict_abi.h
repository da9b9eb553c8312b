// Prediction across the boundary: the packed answer (one block, one copy out of wasm) and its
// layout, defined once here; and the one plain C entry point, urnforest_predict, that serves every
// path of the core's Predict (full, weighted, soft, table rule, exact exit, margin).
//
// Packed answer for n rows and k classes: an AnswerHeader, then the sections of kAnswerSections
// that its `present` mask names, in that order, each n (or n * k, row-major) elements.
// bindings/js/halted_answer.js reads it with offsets computed from the same table, which it asks
// from wasm (_haltedAnswerLayout).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <emscripten/val.h>

#include "urnforest/predict_request.h"

namespace urnforest::wasm {

using emscripten::val;

class DatasetHandle;
class ForestHandle;
class HaltingTableHandle;
class PredictRequestHandle;

/// The first bytes of a packed answer.
struct AnswerHeader {
  uint32_t num_rows;     ///< n
  uint32_t num_classes;  ///< k
  uint32_t present;      ///< bit i set: section i of kAnswerSections follows
  uint32_t size_bytes;   ///< the whole answer, header included
  double mean_trees;     ///< Prediction::mean_trees
  double disagreement;   ///< Prediction::disagreement (NaN without compare)
  double lambda;         ///< Prediction::lambda (NaN but for the margin rule)
  uint32_t path;         ///< PredictPath
  uint32_t reserved;     ///< 0
};
static_assert(sizeof(AnswerHeader) == 48, "the JS side reads a 48-byte header");
static_assert(offsetof(AnswerHeader, num_rows) == 0, "header layout");
static_assert(offsetof(AnswerHeader, num_classes) == 4, "header layout");
static_assert(offsetof(AnswerHeader, present) == 8, "header layout");
static_assert(offsetof(AnswerHeader, size_bytes) == 12, "header layout");
static_assert(offsetof(AnswerHeader, mean_trees) == 16, "header layout");
static_assert(offsetof(AnswerHeader, disagreement) == 24, "header layout");
static_assert(offsetof(AnswerHeader, lambda) == 32, "header layout");
static_assert(offsetof(AnswerHeader, path) == 40, "header layout");

/// One array of the packed answer.
struct AnswerSection {
  const char* name;        ///< its predict() field, e.g. "classIndex"
  const char* type;        ///< element type: "f64", "i32", "u32" or "u8"
  uint32_t element_bytes;  ///< bytes per element
  bool per_class;          ///< n * k elements (row-major) instead of n
};

/// Positions in kAnswerSections.
enum AnswerPart : size_t {
  kProbabilities, kScores, kConfidence, kTallies, kClassIndex, kTreesUsed, kFullClassIndex,
  kFullVotes, kVotes, kHaltedEarly, kNumParts
};

/// The sections in their order in the block. Element sizes never grow along the table, so every
/// section is aligned for its type (the header's size is a multiple of 8).
inline constexpr AnswerSection kAnswerSections[kNumParts] = {
    {"probabilities", "f64", 8, true}, {"scores", "f64", 8, true},
    {"confidence", "f64", 8, false},   {"tallies", "i32", 4, true},
    {"classIndex", "i32", 4, false},   {"treesUsed", "i32", 4, false},
    {"fullClassIndex", "i32", 4, false}, {"fullVotes", "u32", 4, true},
    {"votes", "u32", 4, true},         {"haltedEarly", "u8", 1, false},
};

constexpr bool SectionsStayAligned() {
  if (sizeof(AnswerHeader) % kAnswerSections[0].element_bytes != 0) return false;
  for (size_t i = 1; i < kNumParts; ++i) {
    if (kAnswerSections[i].element_bytes > kAnswerSections[i - 1].element_bytes) return false;
  }
  return true;
}
static_assert(SectionsStayAligned(), "every section must start aligned for its element type");

/// The sections of a halted answer written in place (PredictPlan::InPlace).
inline constexpr uint32_t kInPlaceSections = (1u << kConfidence) | (1u << kTallies) |
                                             (1u << kClassIndex) | (1u << kTreesUsed) |
                                             (1u << kHaltedEarly);

/// Byte offsets of the sections (absent ones: 0) and the answer's size, for n rows, k classes and
/// the sections of mask `present`.
struct AnswerLayout {
  size_t offset[kNumParts];
  size_t size_bytes;
};
AnswerLayout LayoutOf(size_t n, size_t k, uint32_t present);

/// Writes an AnswerHeader at `block`.
void WriteAnswerHeader(uint8_t* block, size_t n, size_t k, uint32_t present, size_t size_bytes,
                       double mean_trees, double disagreement, double lambda, PredictPath path);

/// Prediction `p` (k classes) packed into a new malloc'd block that the caller frees: every array
/// of the expected size (n, or n * k) is present. Null when the allocation fails.
uint8_t* PackPrediction(const Prediction& p, size_t k);

/// {headerBytes, header: {numRows, numClasses, present, sizeBytes, meanTrees, disagreement, lambda,
/// path} (byte offsets), sections: [{name, type, elementBytes, perClass}], paths: PredictPathName
/// of each PredictPath value} for the JS decoder.
val HaltedAnswerLayoutObject();

}  // namespace urnforest::wasm

extern "C" {

/// The core's Predict of every row of `data` by `forest` for `request` (parsed for this forest:
/// PredictRequestHandle::Parse) on the rows the dataset handle keeps prepared. `table` (may be
/// null): the halting table of a table rule, which the JS side caches per forest (its prior gives
/// the probabilities); null lets the core read a stored table or build one. A request whose plan
/// is InPlace has the core write the rows' outcomes straight into the answer's sections
/// (PredictHaltedInto): nothing is allocated per row. Returns the malloc'd packed answer, which
/// the caller frees with _free, or null with the error kept for _takeLastError. Handles come as
/// their _address(). Never throws except for out of memory (OnAllocationFailure).
///
/// Why a plain C entry point: predict is called for every batch, often of one row; embind's
/// invoker (built without new Function, DYNAMIC_EXECUTION=0), its argument conversions and a
/// result object of emval handles cost microseconds per call there, more than a small prediction.
uint8_t* urnforest_predict(const urnforest::wasm::ForestHandle* forest,
                           const urnforest::wasm::DatasetHandle* data,
                           const urnforest::wasm::PredictRequestHandle* request,
                           const urnforest::wasm::HaltingTableHandle* table);

}  // extern "C"
