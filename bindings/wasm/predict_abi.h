// Halted prediction across the boundary: the packed answer (one block, one copy out of wasm) and
// its layout, defined once here; and the plain C entry point urnforest_predict_halted, the one
// path of every query order (generation, random, fixed).
//
// Packed answer for n rows and k classes: a HaltedAnswerHeader, then the sections of
// kHaltedAnswerSections in that order, each n (or n * k, row-major) elements; the full vote's
// sections only when has_full. bindings/js/halted_answer.js reads it with offsets computed from the
// same table, which it asks from wasm (_haltedAnswerLayout).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <emscripten/val.h>

#include "urnforest/predict.h"

namespace urnforest::wasm {

using emscripten::val;

class DatasetHandle;
class ForestHandle;
class HaltingTableHandle;

/// The first bytes of a packed answer.
struct HaltedAnswerHeader {
  uint32_t num_rows;     ///< n
  uint32_t num_classes;  ///< k
  uint32_t has_full;     ///< 1 when the full vote's sections follow, else 0
  uint32_t size_bytes;   ///< the whole answer, header included
  double mean_trees;     ///< HaltedPrediction::mean_trees
  double disagreement;   ///< HaltedPrediction::disagreement (NaN without the full vote)
};
static_assert(sizeof(HaltedAnswerHeader) == 32, "the JS side reads a 32-byte header");
static_assert(offsetof(HaltedAnswerHeader, num_rows) == 0, "header layout");
static_assert(offsetof(HaltedAnswerHeader, num_classes) == 4, "header layout");
static_assert(offsetof(HaltedAnswerHeader, has_full) == 8, "header layout");
static_assert(offsetof(HaltedAnswerHeader, size_bytes) == 12, "header layout");
static_assert(offsetof(HaltedAnswerHeader, mean_trees) == 16, "header layout");
static_assert(offsetof(HaltedAnswerHeader, disagreement) == 24, "header layout");

/// One array of the packed answer.
struct HaltedAnswerSection {
  const char* name;        ///< its predict() field, e.g. "classIndex"
  const char* type;        ///< element type: "f64", "i32", "u32" or "u8"
  uint32_t element_bytes;  ///< bytes per element
  bool per_class;          ///< n * k elements (row-major) instead of n
  bool full_only;          ///< present only with the full vote (has_full)
};

/// Positions in kHaltedAnswerSections.
enum HaltedAnswerPart : size_t {
  kConfidence, kTallies, kClassIndex, kTreesUsed, kFullClassIndex, kFullVotes, kHaltedEarly, kNumParts
};

/// The sections in their order in the block. Element sizes never grow along the table, so every
/// section is aligned for its type (the header's size is a multiple of 8).
inline constexpr HaltedAnswerSection kHaltedAnswerSections[kNumParts] = {
    {"confidence", "f64", 8, false, false},   {"tallies", "i32", 4, true, false},
    {"classIndex", "i32", 4, false, false},
    {"treesUsed", "i32", 4, false, false},    {"fullClassIndex", "i32", 4, false, true},
    {"fullVotes", "u32", 4, true, true},      {"haltedEarly", "u8", 1, false, false},
};

constexpr bool SectionsStayAligned() {
  if (sizeof(HaltedAnswerHeader) % kHaltedAnswerSections[0].element_bytes != 0) return false;
  for (size_t i = 1; i < kNumParts; ++i) {
    if (kHaltedAnswerSections[i].element_bytes > kHaltedAnswerSections[i - 1].element_bytes) {
      return false;
    }
  }
  return true;
}
static_assert(SectionsStayAligned(), "every section must start aligned for its element type");

/// Byte offsets of the sections (absent ones: 0) and the answer's size, for n rows, k classes.
struct HaltedAnswerLayout {
  size_t offset[kNumParts];
  size_t size_bytes;
};
HaltedAnswerLayout LayoutOf(size_t n, size_t k, bool has_full);

/// {headerBytes, header: {numRows, numClasses, hasFull, sizeBytes, meanTrees, disagreement} (byte
/// offsets), sections: [{name, type, elementBytes, perClass, fullOnly}]} for the JS decoder.
val HaltedAnswerLayoutObject();

/// Writes prediction `p` for k classes at `out` (LayoutOf(n, k, p.full.has_value()).size_bytes
/// bytes): copies only; every figure comes from the core.
void PackHaltedAnswer(const HaltedPrediction& p, size_t k, uint8_t* out);

}  // namespace urnforest::wasm

extern "C" {

/// Halted prediction of every row of `data` by `forest` with `table` (the core's PredictHalted on
/// the rows the dataset handle keeps prepared). `order` is a position in QueryOrderNames() (the
/// JS side's names.queryOrders): generation, fixed or random (with the seed's halves); a fixed
/// order queries the `fixed_length` tree ids at wasm address `fixed_order` (an Int32Array the
/// caller mallocs, fills and frees; null for the other orders) and its length must equal the
/// table's T. `compare` 0 or 1: with 1 the answer holds the full vote of the queried trees too,
/// with 0 no full vote is computed at all and the core writes the rows' outcomes straight into the
/// answer's sections (PredictHaltedInto). Returns the malloc'd packed answer, which the caller
/// frees with _free, or null with the error kept for _takeLastError. Handles come as their
/// _address(). Never throws except for out of memory (OnAllocationFailure).
///
/// Why a plain C entry point: predict's halted path is called for every batch, often of one row;
/// embind's invoker (built without new Function, DYNAMIC_EXECUTION=0), its argument conversions and
/// a result object of emval handles cost microseconds per call there, more than a small
/// prediction itself.
uint8_t* urnforest_predict_halted(const urnforest::wasm::ForestHandle* forest,
                                  const urnforest::wasm::DatasetHandle* data,
                                  const urnforest::wasm::HaltingTableHandle* table, int32_t order,
                                  double seed_hi, double seed_lo, int32_t compare,
                                  const int32_t* fixed_order, int32_t fixed_length);

}  // extern "C"
