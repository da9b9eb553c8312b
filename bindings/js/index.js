// urnforest: the public JavaScript API (a hand-written ESM wrapper over the embind module) and the
// package's entry. Every public name is exported here; the embind names (`_DatasetHandle`,
// `_train`, ...) are internal. One module per concept (see each file's first comment):
//   module.js   the wasm module's lifecycle      errors.js   UrnforestError, callChecked
//   handles.js  ownership of embind handles      validate.js argument checks
//   dataset.js  Dataset                          forest.js   Forest, orderings
//   learner.js  learner options                  train.js    trainForest
//   halting.js  rules, ruleInfo, HaltingTable, pstar   halted_answer.js the packed answer of predict
//   predict_request.js predict's requests (parsed by the core)   pruning.js static pruning
//   experiment.js runExperiment, generators    options.js  the core's option names, defaults, limits
//   emphasis.js emphasisWeights, emphasisGrid   metrics.js  confusionMatrix
//   table.js    input shapes (arrays, objects) for Dataset
//   wasm_source.js init({wasm}): the separate wasm asset (URL, Response, bytes, WebAssembly.Module)
//   default_wasm.js init()'s default wasm: the asset (default_wasm_embedded.js in dist/single-file.js)
//   xgboost_import.js Forest.fromXGBoost (XGBoost's JSON model, installed on Forest below)
// Keep in sync with bindings/wasm/*.cpp and bindings/types/*.d.ts (concatenated into dist/index.d.ts).
import { UrnforestError } from './errors.js';
import { Dataset } from './dataset.js';
import { Forest, orderings } from './forest.js';
import { installFromXGBoost } from './xgboost_import.js';
import { HaltingTable, haltingTable, pstar, ruleInfo, rules } from './halting.js';
import { generators, runExperiment } from './experiment.js';
import { emphasisGridOf, emphasisWeights } from './emphasis.js';
import { loadModule, requireModule } from './module.js';
import { checkWasmSource, wasmUrl } from './wasm_source.js';
import { optionsObject, rejectUnknown } from './validate.js';
import { confusionMatrix } from './metrics.js';
import { trainForest, trainForestPart } from './train.js';
import { defaultKeep } from './options.js';

installFromXGBoost();

export {
  UrnforestError, Dataset, Forest, orderings, trainForest, trainForestPart, rules, ruleInfo, HaltingTable, haltingTable, pstar,
  generators, runExperiment, emphasisWeights, confusionMatrix, wasmUrl, defaultKeep,
};

/** Heap statistics of the wasm module: {heapBytes: size of wasm memory, inUse: bytes allocated}. */
export function memoryStats() {
  const m = requireModule();
  return { heapBytes: m.HEAPU8.length, inUse: m._heapInUse() };
}

/** The paper's grid of vote-boosting emphasis values a = b, frozen; needs init() (09_emphasis.d.ts). */
export function emphasisGrid() {
  return emphasisGridOf(requireModule());
}

/** Loads the WebAssembly module and resolves to the API (08_module.d.ts InitOptions, WasmSource). */
export function init(options) {
  let wasm;
  try {
    const opts = optionsObject(options, 'init');
    rejectUnknown(opts, ['wasm'], 'init');
    wasm = opts.wasm === undefined ? undefined : checkWasmSource(opts.wasm);
  } catch (e) {
    return Promise.reject(e);
  }
  return loadModule(api, wasm);
}

const api = Object.freeze({
  Dataset, Forest, HaltingTable, trainForest, trainForestPart, haltingTable, pstar, rules, ruleInfo, UrnforestError, memoryStats,
  init, orderings, runExperiment, generators, emphasisWeights, emphasisGrid, confusionMatrix, wasmUrl, defaultKeep,
});
