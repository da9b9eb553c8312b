// The embind registration functions, one per concept; each is defined next to its handle and
// called once by registry.cpp's EMSCRIPTEN_BINDINGS.
#pragma once

namespace urnforest::wasm {

/// The new-handler; _heapInUse, _takeAllocationFailures, _takeLastError, _codeNames (memory.cpp).
void RegisterMemory();
/// _optionTables and _checkBaseLearner (options.cpp).
void RegisterOptions();
/// _DatasetHandle (dataset_handle.cpp).
void RegisterDataset();
/// _ForestHandle, with _haltedAnswerLayout of predict_abi.h, _emphasisWeights and
/// _emphasisGrid (forest_handle.cpp).
void RegisterForest();
/// _HaltingTableHandle, _pstar and _ruleTraits (halting_handle.cpp).
void RegisterHalting();
/// _PredictRequestHandle (predict_request_handle.cpp).
void RegisterPredictRequest();
/// _runExperiment (experiment.cpp).
void RegisterExperiment();

}  // namespace urnforest::wasm
