// The embind registry of the wasm module: one call per concept, in dependency order. The names
// registered are internal (`_`-prefixed); keep them in sync with bindings/js/*.js.
#include <emscripten/bind.h>

#include "registry.h"

EMSCRIPTEN_BINDINGS(urnforest) {
  using namespace urnforest::wasm;
  RegisterMemory();
  RegisterOptions();
  RegisterDataset();
  RegisterForest();
  RegisterHalting();
  RegisterPredictRequest();
  RegisterExperiment();
}
