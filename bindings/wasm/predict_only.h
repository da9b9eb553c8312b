// The inference-only module (dist/urnforest_predict.mjs + .wasm, the `urnforest/predict` entry):
// plain C exports, no embind. It loads a model (urnforest's bytes, ONNX or XGBoost JSON), describes
// it, and answers the core's Predict on rows already in the model's layout, packed as
// predict_abi.h lays answers out. bindings/js/predict_entry*.js is its only caller.
//
// Why plain C: embind's registry references every class it registers (training, tables,
// experiments), so the linker could drop none of them, and its JS glue is tens of KB; the entry
// needs five calls, each taking numbers and addresses.
//
// Errors: a call that fails returns 0 (null) and keeps the error, which urnforest_only_error
// returns as JSON {code, message, fault} (code: CodeName; fault: "range", "misplaced" or "model"
// for a refused request, else "") and clears. The module is built without exceptions (smaller): a
// failed allocation aborts it after setting the flag urnforest_only_out_of_memory reads; the JS
// side then reports OutOfMemory and makes a fresh instance.
//
// Two builds from this file, each with its glue: urnforest_predict reads urnforest's model bytes
// only; urnforest_predict_import (URNFOREST_ONLY_IMPORTS=1) also ONNX and XGBoost JSON.
#pragma once

#include <cstddef>
#include <cstdint>

namespace urnforest::wasm {
/// One loaded model and its halting tables built on demand (defined in predict_only.cpp).
struct OnlyModel;

/// The plan of the last successful urnforest_only_predict (PredictPlan's resolved values).
struct OnlyPlan {
  double alpha;      ///< PredictPlan::alpha
  int32_t trees;     ///< PredictPlan::trees (T)
  uint32_t vote;     ///< PredictPlan::vote (VoteKind; its name: VoteKindNames()[vote])
  uint32_t compare;  ///< 1 when the answer compares with the full prediction
};
static_assert(sizeof(OnlyPlan) == 24, "the JS side reads a 24-byte plan");
}  // namespace urnforest::wasm

extern "C" {

/// Loads `size` bytes at `bytes` as `format` (0: urnforest's model bytes, DeserializeForest; 1:
/// ONNX, ImportOnnx; 2: XGBoost JSON, ImportXGBoost; 1 and 2 need the import build, else
/// UnsupportedModel). For formats 1 and 2, `feature_names` and
/// `class_names` are `count` names each separated by a NUL byte (count -1: not given) and `target`
/// the target column's name ("" or null: the importer's default); format 0 ignores them. Returns a
/// new model the caller frees with urnforest_only_free, or null (error kept).
urnforest::wasm::OnlyModel* urnforest_only_load(int32_t format, const uint8_t* bytes, size_t size,
                                                const char* feature_names, int32_t feature_count,
                                                const char* class_names, int32_t class_count,
                                                const char* target);

/// Frees a model of urnforest_only_load (null: nothing).
void urnforest_only_free(urnforest::wasm::OnlyModel* model);

/// The model as JSON, a NUL-terminated UTF-8 string owned by the module and valid until the next
/// call: {trees, classes: [names], features: [{name, type ("numeric" | "categorical"), categories:
/// [texts]}], target, imported: null | {kind, vote, source, calibrated,
/// calibrationRows}, storedTables: [{rule,
/// alpha, trees}], votes: [VoteKindNames], layout: {headerBytes, sections: [{name, elementBytes, perClass}], paths: [...]}}.
const char* urnforest_only_describe(const urnforest::wasm::OnlyModel* model);

/// The core's Predict of `num_rows` rows at `rows` (row-major, the model's features in its order,
/// categorical values as category indices, NaN = missing) for the request the arguments spell:
/// `rule` (null or "": the full prediction), `alpha`, `delta` (NaN: unset), `order` (null: unset),
/// the seed's halves (`seed_hi` NaN: unset), `trees` (used when `has_trees`), `vote` (null: unset),
/// `fixed_order` of `fixed_count` tree ids (count -1: unset), `flags` (bit 0: compare, bit 1:
/// probabilities), rule lp's `objective` (null: unset) and `first_row` (NaN: unset; an integer in
/// [0, 2^53)). A table rule's table is the model's stored one or one built from its prior
/// (BuildForestTableWithPrior) and kept with the model for later calls. A value that is not finite
/// and not NaN is NonFiniteValue. Returns the malloc'd packed answer (predict_abi.h), which the
/// caller frees with free, or null (error kept).
uint8_t* urnforest_only_predict(urnforest::wasm::OnlyModel* model, const float* rows,
                                uint32_t num_rows, const char* rule, double alpha, double delta,
                                const char* order, double seed_hi, double seed_lo, int32_t trees,
                                int32_t has_trees, const char* vote, const int32_t* fixed_order,
                                int32_t fixed_count, uint32_t flags, const char* objective,
                                double first_row);

/// The plan of the last successful urnforest_only_predict (owned by the module).
const urnforest::wasm::OnlyPlan* urnforest_only_plan();

/// 1 once an allocation has failed (the module then aborted), else 0.
int32_t urnforest_only_out_of_memory();

/// The error of the last failed call as JSON {code, message, fault}, then cleared; null when none.
/// Valid until the next call.
const char* urnforest_only_error();

}  // extern "C"
