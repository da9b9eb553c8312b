// urnforest/predict: the inference-only entry (dist/predict.js with dist/urnforest_predict.mjs and
// dist/urnforest_predict.wasm). A page that ships a model loads it and predicts, without the
// training, tables API, experiments, pruning and CSV of the full package. Its Forest is the full
// package's for prediction: the same loaders (fromBytes, fromONNX, fromXGBoost), the same
// predict()/predictProba() options and results, the same error codes; the core decides every value
// and every refusal (bindings/wasm/predict_only.h). Types: bindings/predict.d.ts.
import { UrnforestError, errorFromObject } from './errors.js';
import { checkWasmSource, instantiateHook } from './wasm_source.js';
import { describe, isPlainObject, optionsObject, rejectUnknown, seedHalves, stringArray, treeIds } from './validate.js';
import { categoryIndex, modelRows } from './predict_entry_rows.js';
import { copyAnswer, resultOf } from './predict_entry_answer.js';
import createUrnforestPredictModule from './urnforest_predict.mjs';

export { UrnforestError };

/** The URL of this entry's wasm, dist/urnforest_predict.wasm next to dist/predict.js (bundlers copy it). */
export function wasmUrl() {
  return new URL('./urnforest_predict.wasm', import.meta.url);
}

/** The URL of the import build's wasm (also ONNX and XGBoost JSON), dist/urnforest_predict_import.wasm. */
export function importWasmUrl() {
  return new URL('./urnforest_predict_import.wasm', import.meta.url);
}

let module = null;
let loading = null;
let loadedImports = false;

/**
 * Loads the inference-only wasm once: urnforest's model bytes only, or with `imports: true` the
 * import build (also Forest.fromONNX / fromXGBoost). `wasm` as the full package's init({wasm}), for
 * the build asked. Later calls resolve to the same API; asking imports after a call without them
 * loads the import build in its place (forests loaded before keep working).
 */
export function init(options) {
  let source;
  let imports;
  try {
    const o = optionsObject(options, 'init');
    rejectUnknown(o, ['wasm', 'imports'], 'init');
    if (o.imports !== undefined && typeof o.imports !== 'boolean') throw new TypeError(`init: option 'imports' must be a boolean, got ${describe(o.imports)}`);
    imports = o.imports === true;
    source = o.wasm !== undefined ? checkWasmSource(o.wasm) : imports ? importWasmUrl() : wasmUrl();
  } catch (e) {
    return Promise.reject(e);
  }
  if (loading === null || (imports && !loadedImports)) {
    const { overrides, failed } = instantiateHook(source);
    // The import build's glue (its own: emscripten names each build's imports differently) is
    // fetched only when asked for.
    const create = imports ? import('./urnforest_predict_import.mjs').then((g) => g.default(overrides))
      : createUrnforestPredictModule(overrides);
    loading = Promise.race([create, failed]).then((m) => {
      module = m;
      loadedImports = imports;
      return api;
    }, (e) => {
      loading = null;
      throw e;
    });
  }
  return loading;
}

function requireModule() {
  if (module === null) {
    if (loading !== null) throw new UrnforestError('ModuleReset', 'ModuleReset: the wasm module aborted; `await init()` before the next call');
    throw new Error('urnforest/predict: call `await init()` first');
  }
  return module;
}

// Runs `fn`, a call into instance `m`. A trap (the module aborted: out of memory, as the module is
// built without exceptions, or a bug) drops the instance, so that the next init() makes a fresh
// one, and throws UrnforestError OutOfMemory or Internal.
function guarded(m, fn) {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof WebAssembly.RuntimeError) && !(e instanceof RangeError && /stack/i.test(e.message))) throw e;
    const oom = m._urnforest_only_out_of_memory() === 1;
    if (module === m) {
      module = null;
      loading = null;
    }
    dropped.add(m);
    const code = oom ? 'OutOfMemory' : 'Internal';
    throw new UrnforestError(code, `${code}: the wasm module aborted (${e.message}); \`await init()\` and load the model again`);
  }
}
const dropped = new WeakSet();

// The kept error of the last failed call as an exception: RangeError / TypeError for a refused
// request's value / misplaced option (as the full package), else UrnforestError with the code.
function lastError(m, what) {
  const address = m._urnforest_only_error();
  const e = address === 0 ? { code: 'Internal', message: 'no error was kept', fault: '' } : JSON.parse(text(m, address));
  if (e.fault === 'range') return new RangeError(`${what}: ${e.message}`);
  if (e.fault === 'misplaced') return new TypeError(`${what}: ${e.message}`);
  return errorFromObject({ code: e.code, message: e.message, line: 0, column: 0 });
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function text(m, address) {
  return decoder.decode(m.HEAPU8.subarray(address, m.HEAPU8.indexOf(0, address)));
}

// Copies of JS values in wasm memory, freed together by free().
class Arena {
  #m;
  #blocks = [];
  constructor(m) { this.#m = m; }
  bytes(array) {
    const address = this.#m._malloc(Math.max(array.byteLength, 1));
    if (address === 0) throw new UrnforestError('OutOfMemory', 'OutOfMemory: out of wasm memory');
    this.#blocks.push(address);
    this.#m.HEAPU8.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), address);
    return address;
  }
  /** A NUL-terminated string (undefined: 0). */
  string(s) { return s === undefined ? 0 : this.bytes(encoder.encode(`${s}\0`)); }
  /** Names each followed by a NUL byte (undefined: 0). */
  names(list) { return list === undefined ? 0 : this.string(list.join('\0')); }
  free() {
    if (!dropped.has(this.#m)) for (const a of this.#blocks) this.#m._free(a);
    this.#blocks.length = 0;
  }
}

const PREDICT_OPTIONS = ['rule', 'alpha', 'delta', 'objective', 'order', 'seed', 'trees', 'compare', 'vote', 'fixedOrder', 'firstRow'];

function typed(value, type, name) {
  if (value !== undefined && typeof value !== type) throw new TypeError(`option '${name}' must be a ${type}, got ${describe(value)}`);
  return value;
}

// predict()'s options type-checked (predict_request.js predictSpec); the core checks the values.
function predictSpec(options, numTrees) {
  if (!isPlainObject(options)) throw new TypeError(`predict: options must be an object with a 'rule', got ${describe(options)}`);
  rejectUnknown(options, PREDICT_OPTIONS, 'predict');
  // Halting asked for without a rule (an alpha or a delta alone) gets rule 'auto': the core decides.
  if (options.rule === undefined && options.alpha === undefined && options.delta === undefined) {
    throw new TypeError("predict: option 'rule' (or 'alpha' for the certified rule 'auto') is required");
  }
  if (options.trees !== undefined && !Number.isInteger(options.trees)) throw new TypeError(`trees must be an integer, got ${describe(options.trees)}`);
  const first = options.firstRow;
  if (first !== undefined && (typeof first !== 'number' || !Number.isInteger(first))) throw new TypeError(`firstRow must be an integer, got ${describe(first)}`);
  if (first !== undefined && (first < 0 || first > Number.MAX_SAFE_INTEGER)) throw new RangeError(`firstRow must be in [0, 2^53 - 1], got ${first}`);
  return {
    rule: options.rule === undefined ? '' : typed(options.rule, 'string', 'rule'), alpha: typed(options.alpha, 'number', 'alpha'),
    objective: typed(options.objective, 'string', 'objective'), firstRow: first,
    delta: typed(options.delta, 'number', 'delta'), order: typed(options.order, 'string', 'order'),
    seed: options.seed === undefined ? undefined : seedHalves(options.seed), trees: options.trees,
    compare: typed(options.compare, 'boolean', 'compare'), vote: typed(options.vote, 'string', 'vote'),
    fixedOrder: options.fixedOrder === undefined ? undefined : treeIds(options.fixedOrder, 'fixedOrder', numTrees),
  };
}

const FORMATS = { bytes: 0, onnx: 1, xgboost: 2 };

function load(format, bytes, options, what) {
  const m = requireModule();
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what}: bytes must be a Uint8Array, got ${describe(bytes)}`);
  let names = [undefined, undefined, undefined];
  if (format !== FORMATS.bytes) {
    const o = optionsObject(options, what);
    rejectUnknown(o, ['featureNames', 'classNames', 'target'], what);
    if (o.target !== undefined && typeof o.target !== 'string') throw new TypeError(`${what}: option 'target' must be a string, got ${describe(o.target)}`);
    names = [stringArray(o.featureNames, `${what}: option 'featureNames'`), stringArray(o.classNames, `${what}: option 'classNames'`), o.target];
  }
  const arena = new Arena(m);
  try {
    const [features, classes, target] = names;
    const address = guarded(m, () => m._urnforest_only_load(format, arena.bytes(bytes), bytes.length, arena.names(features),
      features?.length ?? -1, arena.names(classes), classes?.length ?? -1, arena.string(target)));
    if (address === 0) throw lastError(m, what);
    return new Forest(TOKEN, m, address);
  } finally {
    arena.free();
  }
}

const TOKEN = Symbol('urnforest/predict');
const registry = new FinalizationRegistry(({ m, address }) => { if (!dropped.has(m)) m._urnforest_only_free(address); });

/** A model loaded for prediction (bindings/predict.d.ts). */
export class Forest {
  #m;
  #address;
  #info;
  #names;
  #categories;

  constructor(token, m, address) {
    if (token !== TOKEN) throw new TypeError('use Forest.fromBytes(), Forest.fromONNX() or Forest.fromXGBoost()');
    this.#m = m;
    this.#address = address;
    this.#info = JSON.parse(text(m, m._urnforest_only_describe(address)));
    this.#names = Object.freeze(this.#info.classes.slice());
    this.#categories = categoryIndex(this.#info.features);
    registry.register(this, { m, address }, this);
  }

  /** Loads a model written by the full package's toBytes() or the CLI's `train --out`. */
  static fromBytes(bytes) { return load(FORMATS.bytes, bytes, undefined, 'Forest.fromBytes'); }
  /** Imports an ONNX TreeEnsembleClassifier ({featureNames, classNames, target} as the full package). */
  static fromONNX(bytes, options) { return load(FORMATS.onnx, bytes, options, 'Forest.fromONNX'); }
  /** Imports XGBoost's JSON model (a Uint8Array or the JSON text). */
  static fromXGBoost(model, options) {
    if (typeof model === 'string') model = encoder.encode(model);
    else if (!(model instanceof Uint8Array)) throw new TypeError(`Forest.fromXGBoost: model must be a Uint8Array or a string (the JSON text), got ${describe(model)}`);
    return load(FORMATS.xgboost, model, options, 'Forest.fromXGBoost');
  }

  /** The full prediction, or with options ({rule, alpha, ...}) the halted one; the core picks the path. */
  predict(rows, options) {
    // Without options, the full prediction with its probabilities (as the full package's predict).
    const spec = options === undefined ? { rule: undefined } : predictSpec(options, this.numTrees);
    const result = this.#predict(rows, spec, options === undefined ? 2 : 0, 'predict');
    if (options !== undefined && this.#info.imported !== null) result.vote = this.#info.votes[this.#m.HEAPU32[(this.#m._urnforest_only_plan() >>> 2) + 3]];
    return result;
  }

  /** Class probabilities of the full prediction ({vote} of an imported model). */
  predictProba(rows, options) {
    const o = optionsObject(options, 'predictProba');
    rejectUnknown(o, ['vote'], 'predictProba');
    const spec = { rule: undefined, vote: typed(o.vote, 'string', 'vote') };
    const { labels, classIndex, probabilities, classNames } = this.#predict(rows, spec, 2, 'predictProba');
    return { labels, classIndex, probabilities, classNames, vote: this.#info.votes[this.#m.HEAPU32[(this.#m._urnforest_only_plan() >>> 2) + 3]] };
  }

  // The core's answer to `spec` on `rows`, decoded; `flags` bit 1 asks for probabilities.
  #predict(rows, spec, flags, what) {
    const m = this.#live();
    const { values, rows: n } = modelRows(rows, this.#info.features, this.#categories);
    const ask = (f) => {
      const arena = new Arena(m);
      try {
        const fixed = spec.fixedOrder;
        const address = guarded(m, () => m._urnforest_only_predict(this.#address, arena.bytes(values), n, arena.string(spec.rule),
          spec.alpha ?? NaN, spec.delta ?? NaN, arena.string(spec.order), spec.seed?.[0] ?? NaN, spec.seed?.[1] ?? 0,
          spec.trees ?? 0, spec.trees === undefined ? 0 : 1, arena.string(spec.vote), fixed === undefined ? 0 : arena.bytes(fixed),
          fixed?.length ?? -1, (spec.compare ? 1 : 0) | f, arena.string(spec.objective), spec.firstRow ?? NaN));
        if (address === 0) throw lastError(m, what);
        try {
          return copyAnswer(m, this.#info.layout, address);
        } finally {
          m._free(address);
        }
      } finally {
        arena.free();
      }
    };
    const answer = ask(flags);
    const p = m._urnforest_only_plan() >>> 2;
    // OnlyPlan (predict_only.h): alpha f64 at 0, trees at 8, vote at 12, compare at 16.
    const plan = { rule: spec.rule, alpha: m.HEAPF64[p >>> 1], trees: m.HEAPU32[p + 2] | 0, compare: m.HEAPU32[p + 4] === 1 };
    return resultOf(this.#info.layout, answer, this.#names, plan, () => {
      const again = ask(flags | 2);
      return resultOf(this.#info.layout, again, this.#names, plan, null).probabilities;
    });
  }

  #live() {
    if (this.#address === 0) throw new Error('Forest: used after dispose()');
    if (dropped.has(this.#m)) throw new UrnforestError('ModuleReset', 'ModuleReset: this Forest belonged to a wasm module instance that aborted; load it again');
    return this.#m;
  }

  /** Number of trees T. */
  get numTrees() { this.#live(); return this.#info.trees; }
  /** Number of classes. */
  get numClasses() { this.#live(); return this.#names.length; }
  /** Number of feature columns the model reads. */
  get numFeatures() { this.#live(); return this.#info.features.length; }
  /** Class index -> class name. */
  get classNames() { this.#live(); return this.#names.slice(); }
  /** Feature column names the model reads, in model order. */
  get featureNames() { this.#live(); return this.#info.features.map((f) => f.name); }
  /** 'numeric' or 'categorical' per feature. */
  get featureTypes() { this.#live(); return this.#info.features.map((f) => f.type); }
  /** The import record {kind, vote, source, calibrated, calibrationRows} of an imported model, else null. */
  get imported() { this.#live(); return this.#info.imported === null ? null : { ...this.#info.imported }; }
  /** The halting tables stored with the model: [{rule, alpha, trees}], in storage order. */
  storedTables() { this.#live(); return this.#info.storedTables.map((t) => ({ ...t })); }
  /** True once dispose() has been called. */
  get disposed() { return this.#address === 0; }

  /** Frees the wasm memory (with the tables built on demand). Idempotent; any later use throws. */
  dispose() {
    if (this.#address === 0) return;
    registry.unregister(this);
    if (!dropped.has(this.#m)) this.#m._urnforest_only_free(this.#address);
    this.#address = 0;
  }
}

const api = Object.freeze({ Forest, UrnforestError, init, wasmUrl, importWasmUrl });
