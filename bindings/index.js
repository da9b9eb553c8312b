// urnforest: the public JavaScript API (hand-written ESM wrapper over the embind module).
//
// Everything users see is defined here; the embind names (`_DatasetHandle`, `_train`, ...) are internal.
// Responsibilities of this file (notes/style-anchors.md §7.4-7.5):
// - validate every argument before it crosses into wasm (embind silently coerces bad values) and throw
//   TypeError/RangeError naming the option;
// - turn the error objects returned by bindings.cpp into UrnforestError with a stable string `.code`;
// - own exactly one embind handle per Dataset/Forest, with idempotent dispose() and a
//   FinalizationRegistry as a leak net only.
// Keep in sync with bindings/bindings.cpp and bindings/index.d.ts.
import createUrnforestModule from './urnforest_wasm.mjs';

/** Failure reported by the urnforest core (bad CSV, corrupt model bytes, ...). */
export class UrnforestError extends Error {
  constructor(code, message, { line = 0, column = 0 } = {}) {
    super(message);
    this.name = 'UrnforestError';
    /** Stable code, e.g. 'CsvRaggedRow', 'CorruptModel'. */
    this.code = code;
    /** 1-based CSV line (0 when not applicable). */
    this.line = line;
    /** 1-based CSV column (0 when not applicable). */
    this.column = column;
  }
}

let modulePromise = null;
let M = null; // The instantiated embind module, once init() resolved.
// Module instances dropped after an abort so far; objects remember the generation that made them.
let generation = 0;
let resetting = false; // True from an abort until the fresh instance is ready.

function requireModule() {
  if (M === null) {
    if (resetting) {
      throw new UrnforestError('ModuleReset', 'ModuleReset: the wasm module aborted and is being re-instantiated; `await init()` before the next call');
    }
    throw new Error('urnforest: call `await init()` before using the library');
  }
  return M;
}

// Converts an error object from bindings.cpp (or a raw C++ exception, which is a bug) into a throw.
function check(result) {
  if (result === undefined) return;
  const where = result.line > 0 ? `line ${result.line}${result.column > 0 ? `, column ${result.column}` : ''}: ` : '';
  throw new UrnforestError(result.code, `${result.code}: ${where}${result.message}`,
    { line: result.line, column: result.column });
}

// Calls into wasm. Every embind entry point is already wrapped by guardModule(), so this only
// translates what a wrapper could not (kept as the single place call sites go through).
function call(fn) {
  try {
    return fn();
  } catch (e) {
    throw wasmFailure(e, M);
  }
}

// ---- failures inside wasm (issue 10, docs/reliability.md "Out of memory") -------------------------
//
// - A failed allocation throws the JS Error OOM_MARKER from bindings.cpp's new-handler (the module is
//   built with wasm exceptions): the C++ frames unwind and free what they held, and the call throws
//   UrnforestError 'OutOfMemory'; the module stays usable.
// - A C++ exception reaching JS (a WebAssembly.Exception) is a bug: 'Internal'; the module stays usable.
// - A trap or abort() (WebAssembly.RuntimeError; or the engine's stack overflow inside wasm) leaves
//   the instance in an unknown state: it is dropped, a fresh one is instantiated at once, and the
//   call throws 'OutOfMemory' (if an allocation had failed) or 'Internal'. Objects made by the dropped
//   instance then throw 'ModuleReset'; calls before the fresh instance is ready throw 'ModuleReset'
//   too (`await init()` waits for it).

const OOM_MARKER = 'urnforest: out of wasm memory'; // bindings.cpp: OnAllocationFailure

/** The Error to throw for exception `e` raised by a call into module instance `m`. */
function wasmFailure(e, m) {
  if (typeof e === 'number') {
    return new UrnforestError('Internal', `Internal: a C++ exception (${e}) escaped the urnforest core`);
  }
  if (e instanceof Error && e.message === OOM_MARKER) {
    if (m !== null) m._takeAllocationFailures();
    return new UrnforestError('OutOfMemory', 'OutOfMemory: a wasm allocation failed (the heap is capped at 2 GiB); ' +
      'nothing was created and the library stays usable');
  }
  const wasmException = typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception;
  const aborted = e instanceof WebAssembly.RuntimeError ||
    (e instanceof RangeError && /call stack/i.test(e.message));
  if (!wasmException && !aborted) return e;
  let failures = 0;
  try {
    failures = m === null ? 0 : m._takeAllocationFailures();
  } catch { /* an aborted instance may not answer */ }
  const code = failures > 0 ? 'OutOfMemory' : 'Internal';
  if (wasmException) return new UrnforestError('Internal', 'Internal: a C++ exception escaped the urnforest core');
  dropModule(m);
  return new UrnforestError(code, `${code}: the wasm module aborted (${e.message}); it is being re-instantiated: ` +
    'objects created before are unusable (ModuleReset), and the next call needs `await init()`');
}

// Forgets aborted instance `m` (unless already done) and starts instantiating a fresh one.
function dropModule(m) {
  if (m !== M || m === null) return;
  generation++;
  M = null;
  modulePromise = null;
  resetting = true;
  init().catch(() => { /* init() retries on the next call */ });
}

// Wraps every embind function and method of instance `m` so that its failures become wasmFailure().
function guardModule(m) {
  const guard = (fn) => function guarded(...args) {
    try {
      return fn.apply(this, args);
    } catch (e) {
      throw wasmFailure(e, m);
    }
  };
  const classes = ['_DatasetHandle', '_ForestHandle', '_HaltingTableHandle'];
  for (const name of classes) {
    const proto = m[name].prototype;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key.startsWith('_') && typeof proto[key] === 'function') proto[key] = guard(proto[key]);
    }
  }
  for (const key of Object.keys(m)) {
    if (key.startsWith('_') && !classes.includes(key) && typeof m[key] === 'function') m[key] = guard(m[key]);
  }
  return m;
}

// Copies CSV input (a string, or UTF-8 bytes) into a fresh malloc of wasm memory and returns
// {address, bytes}; the caller frees `address` (m._free) whatever happens. A lone surrogate in a
// string (it has no UTF-8 encoding; embind's glue would merge it with the next character) is
// written as byte 0xFF, never valid UTF-8, so the reader reports CsvInvalidUtf8 at its line and field.
function copyCsvIntoWasm(m, text) {
  let bytes = 0;
  let wellFormed = true;
  if (text instanceof Uint8Array) {
    bytes = text.length;
  } else {
    for (let i = 0; i < text.length; i++) {
      const u = text.charCodeAt(i);
      if (u < 0x80) bytes += 1;
      else if (u < 0x800) bytes += 2;
      else if (u >= 0xd800 && u <= 0xdfff) {
        if (u <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
          bytes += 4;
          i++;
        } else {
          wellFormed = false;
          bytes += 1;
        }
      } else bytes += 3;
    }
  }
  const address = m._malloc(Math.max(bytes, 1));
  if (address === 0) {
    throw new UrnforestError('OutOfMemory', `OutOfMemory: the CSV text (${bytes} bytes of UTF-8) does not fit in wasm memory (capped at 2 GiB)`);
  }
  const dest = m.HEAPU8.subarray(address, address + bytes); // after malloc: memory may have grown
  if (text instanceof Uint8Array) {
    dest.set(text);
  } else if (wellFormed) {
    new TextEncoder().encodeInto(text, dest);
  } else {
    const encoder = new TextEncoder();
    let o = 0;
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      const u = i < text.length ? text.charCodeAt(i) : -1;
      if (u >= 0xd800 && u <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        i++;
      } else if (u === -1 || (u >= 0xd800 && u <= 0xdfff)) {
        o += encoder.encodeInto(text.slice(start, i), dest.subarray(o)).written;
        if (u !== -1) dest[o++] = 0xff;
        start = i + 1;
      }
    }
  }
  return { address, bytes };
}

// ---- argument validation -----------------------------------------------------------------------

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function optionsObject(options, what) {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new TypeError(`${what}: options must be an object`);
  return options;
}

function rejectUnknown(options, allowed, what) {
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown option '${key}' (expected one of ${allowed.join(', ')})`);
    }
  }
}

function intOption(value, name, min, max, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) throw new RangeError(`${name} must be in [${min}, ${max}], got ${value}`);
  return value;
}

function stringArray(value, name) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  return value;
}

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return value.constructor ? value.constructor.name : 'object';
  return `${typeof value} ${String(value)}`;
}

// ---- ownership ---------------------------------------------------------------------------------

// Leak net only: a wrapper that is garbage-collected without dispose() frees its handle. Never rely on it.
// Held values are {generation, handle}: handles of a dropped (aborted) instance are left alone.
const leakNet = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((held) => {
    if (held.generation === generation && !held.handle.isDeleted()) held.handle.delete();
  })
  : null;

const HANDLE = Symbol('handle');
const GENERATION = Symbol('generation');

function adopt(wrapper, handle) {
  wrapper[HANDLE] = handle;
  wrapper[GENERATION] = generation;
  if (leakNet) leakNet.register(wrapper, { generation, handle }, wrapper);
}

// True while the instance that made `wrapper` is the current one (it has not aborted since).
function current(wrapper) {
  return wrapper[GENERATION] === generation;
}

function release(wrapper) {
  const handle = wrapper[HANDLE];
  if (handle === null) return;
  wrapper[HANDLE] = null;
  if (leakNet) leakNet.unregister(wrapper);
  if (current(wrapper)) handle.delete();
}

function live(wrapper, kind) {
  const handle = wrapper[HANDLE];
  if (handle === null) throw new Error(`${kind} has been disposed; it cannot be used any more`);
  if (!current(wrapper)) {
    throw new UrnforestError('ModuleReset', `ModuleReset: this ${kind} belonged to a wasm module instance that aborted; create it again`);
  }
  return handle;
}

const INTERNAL = Symbol('internal');

// ---- Dataset -----------------------------------------------------------------------------------

const CLASS_ORDERS = { sorted: 0, firstSeen: 1 };

/** An immutable table of feature rows with optional class labels, held in wasm memory. */
export class Dataset {
  constructor(token, handle) {
    if (token !== INTERNAL) throw new TypeError('use Dataset.fromCSV() or Dataset.fromArrays()');
    adopt(this, handle);
  }

  /**
   * Parses CSV text (header row; RFC 4180 quoting; empty, `?` or `NA` cells are missing): a string,
   * or the file's bytes as a Uint8Array (UTF-8; invalid bytes are CsvInvalidUtf8, as in the CLI).
   * Options: target (column name, default the last column; null = no target column),
   * classOrder ('sorted' default | 'firstSeen'), schemaOf (a Forest: read against its columns).
   */
  static fromCSV(text, options) {
    const m = requireModule();
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
      throw new TypeError(`Dataset.fromCSV: text must be a string or a Uint8Array, got ${describe(text)}`);
    }
    const o = optionsObject(options, 'Dataset.fromCSV');
    rejectUnknown(o, ['target', 'classOrder', 'schemaOf'], 'Dataset.fromCSV');
    let target = '';
    let hasTarget = true;
    if (o.target === null) {
      hasTarget = false;
    } else if (o.target !== undefined) {
      if (typeof o.target !== 'string' || o.target === '') {
        throw new TypeError(`target must be a non-empty string or null, got ${describe(o.target)}`);
      }
      target = o.target;
    }
    let classOrder = 0;
    if (o.classOrder !== undefined) {
      if (!Object.hasOwn(CLASS_ORDERS, o.classOrder)) {
        throw new RangeError(`classOrder must be 'sorted' or 'firstSeen', got ${describe(o.classOrder)}`);
      }
      classOrder = CLASS_ORDERS[o.classOrder];
    }
    let schemaOf = null;
    if (o.schemaOf !== undefined) {
      if (!(o.schemaOf instanceof Forest)) throw new TypeError('schemaOf must be a Forest');
      schemaOf = live(o.schemaOf, 'Forest');
    }
    const input = copyCsvIntoWasm(m, text);
    let handle = null;
    try {
      handle = new m._DatasetHandle();
      check(call(() => handle._loadCsv(input.address, input.bytes, target, hasTarget, classOrder, schemaOf)));
    } catch (e) {
      if (handle !== null && m === M) handle.delete();
      throw e;
    } finally {
      if (m === M) m._free(input.address);
    }
    return new Dataset(INTERNAL, handle);
  }

  /**
   * From a row-major Float32Array (`x[row * cols + col]`, NaN = missing) of numeric features.
   * Options: rows, cols (required), labels (Int32Array of class indices, -1 = unknown, or string[] of
   * class names), featureNames (string[cols]), classNames (string[]).
   */
  static fromArrays(x, options) {
    const m = requireModule();
    if (!(x instanceof Float32Array)) throw new TypeError(`Dataset.fromArrays: x must be a Float32Array, got ${describe(x)}`);
    if (!isPlainObject(options)) throw new TypeError('Dataset.fromArrays: options {rows, cols} are required');
    rejectUnknown(options, ['rows', 'cols', 'labels', 'featureNames', 'classNames'], 'Dataset.fromArrays');
    if (options.rows === undefined) throw new TypeError('rows is required');
    if (options.cols === undefined) throw new TypeError('cols is required');
    const rows = intOption(options.rows, 'rows', 1, 2 ** 26, 0);
    const cols = intOption(options.cols, 'cols', 1, 65536, 0);
    if (x.length !== rows * cols) {
      throw new RangeError(`x.length (${x.length}) must equal rows * cols (${rows} * ${cols} = ${rows * cols})`);
    }
    const featureNames = stringArray(options.featureNames, 'featureNames');
    if (featureNames !== undefined && featureNames.length !== cols) {
      throw new RangeError(`featureNames.length (${featureNames.length}) must equal cols (${cols})`);
    }
    let classNames = stringArray(options.classNames, 'classNames');
    let labels = options.labels;
    if (labels === undefined) {
      labels = null;
    } else if (labels instanceof Int32Array) {
      if (labels.length !== rows) throw new RangeError(`labels.length (${labels.length}) must equal rows (${rows})`);
      const limit = classNames !== undefined ? classNames.length : 4096;
      for (let i = 0; i < labels.length; i++) {
        if (labels[i] < -1 || labels[i] >= limit) {
          throw new RangeError(`labels[${i}] = ${labels[i]} is not a class index (-1 or 0..${limit - 1})`);
        }
      }
    } else if (Array.isArray(labels)) {
      if (labels.length !== rows) throw new RangeError(`labels.length (${labels.length}) must equal rows (${rows})`);
      if (!labels.every((s) => typeof s === 'string')) {
        throw new TypeError('labels must be an Int32Array of class indices or an array of class-name strings');
      }
      if (classNames === undefined) classNames = [...new Set(labels)].sort(byteOrder);
      const index = new Map(classNames.map((name, i) => [name, i]));
      const mapped = new Int32Array(rows);
      for (let i = 0; i < rows; i++) {
        const c = index.get(labels[i]);
        if (c === undefined) throw new RangeError(`labels[${i}] = ${JSON.stringify(labels[i])} is not one of classNames`);
        mapped[i] = c;
      }
      labels = mapped;
    } else {
      throw new TypeError(`labels must be an Int32Array or an array of strings, got ${describe(labels)}`);
    }
    const handle = new m._DatasetHandle();
    try {
      check(call(() => handle._loadArrays(x, rows, cols, labels, featureNames ?? [], classNames ?? [])));
    } catch (e) {
      handle.delete();
      throw e;
    }
    return new Dataset(INTERNAL, handle);
  }

  /**
   * A new Dataset holding rows `rows` of this one (indices, repeats allowed), with the same schema
   * (feature types and class names). The caller owns the result.
   */
  subset(rows) {
    const handle = live(this, 'Dataset');
    if (!(rows instanceof Uint32Array || rows instanceof Int32Array || Array.isArray(rows))) {
      throw new TypeError(`subset: rows must be a Uint32Array, Int32Array or array of row indices, got ${describe(rows)}`);
    }
    const n = handle._numRows();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (typeof r !== 'number' || !Number.isInteger(r)) throw new TypeError(`rows[${i}] must be an integer, got ${describe(r)}`);
      if (r < 0 || r >= n) throw new RangeError(`rows[${i}] = ${r} is out of range [0, ${n})`);
    }
    const fresh = new (requireModule()._DatasetHandle)();
    try {
      check(call(() => fresh._loadSubset(handle, Uint32Array.from(rows))));
    } catch (e) {
      fresh.delete();
      throw e;
    }
    return new Dataset(INTERNAL, fresh);
  }

  /** Number of rows. */
  get numRows() { return live(this, 'Dataset')._numRows(); }
  /** Number of feature columns. */
  get numFeatures() { return live(this, 'Dataset')._numFeatures(); }
  /** Class index -> class name. */
  get classNames() { return live(this, 'Dataset')._classNames(); }
  /** Feature column names, in column order. */
  get featureNames() { return live(this, 'Dataset')._featureNames(); }
  /** 'numeric' or 'categorical' per feature column. */
  get featureTypes() { return live(this, 'Dataset')._featureTypes(); }
  /** Name of the target column ('' when none). */
  get targetName() { return live(this, 'Dataset')._targetName(); }
  /** True when the data has a target column. */
  get hasLabels() { return live(this, 'Dataset')._hasLabels(); }
  /** Class index per row (-1 = unknown); a copy. Empty when hasLabels is false. */
  labels() { return live(this, 'Dataset')._labels(); }
  /** The feature matrix row-major (categorical values are category indices); a copy. */
  toRowMajor() { return live(this, 'Dataset')._rowMajor(); }
  /** True once dispose() has been called. */
  get disposed() { return this[HANDLE] === null; }
  /** Frees the wasm memory. Idempotent; any later use throws. */
  dispose() { release(this); }
}

function byteOrder(a, b) {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) if (ea[i] !== eb[i]) return ea[i] - eb[i];
  return ea.length - eb.length;
}

// ---- Forest ------------------------------------------------------------------------------------

const ENSEMBLES = { rf: 0, bagging: 1, adaboost: 2, voteboost: 3 };
const ENSEMBLE_NAMES = Object.keys(ENSEMBLES);
const BOOSTING = { resample: 0, reweight: 1 };
const MTRY_RULES = { sqrt: 0, log2: 1, log2plus1: 2 };
// VoteBoostBase codes (src/urnforest/forest.h).
const VOTEBOOST_BASES = { random: 0, unpruned: 1, stump: 2, pruned: 3 };
const VOTEBOOST_BASE_NAMES = Object.keys(VOTEBOOST_BASES);
const TREE_PRUNING = { none: 0, cv: 1 };
const TRAIN_OPTIONS = ['ensemble', 'trees', 'mtry', 'mtryRule', 'maxDepth', 'minLeaf', 'seed', 'onProgress', 'boosting',
  'voteboost', 'adaboost', 'treePruning', 'treeFolds', 'treeSe'];
const VOTEBOOST_OPTIONS = ['a', 'b', 'base', 'cvTrees'];
const ADABOOST_OPTIONS = ['base'];
// Emphasis range accepted by the CLI (--emphasis).
const EMPHASIS_MIN = 1e-6;
const EMPHASIS_MAX = 1e6;

function emphasisOption(value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${name} must be a finite number, got ${describe(value)}`);
  if (value < EMPHASIS_MIN || value > EMPHASIS_MAX) throw new RangeError(`${name} must be in [${EMPHASIS_MIN}, ${EMPHASIS_MAX}], got ${value}`);
  return value;
}

// Base-learner options of trainForest (vote-boosting, AdaBoost, tree pruning), with the CLI's
// semantics (cli/voteboost_args.h). Returns the `base` object of ForestHandle::Train and the
// max depth that AdaBoost's 'stump' / 'depth:N' bases imply.
function baseLearnerOptions(o, ensemble, maxDepth) {
  const base = { vbA: 1, vbB: 0, vbBase: 0, emphasisCv: false, cvTrees: 0, pruning: 0, pruningFolds: 10, pruningSe: 1 };
  if (o.treePruning !== undefined) {
    if (!Object.hasOwn(TREE_PRUNING, o.treePruning)) throw new RangeError(`treePruning must be 'none' or 'cv', got ${describe(o.treePruning)}`);
    base.pruning = TREE_PRUNING[o.treePruning];
  }
  base.pruningFolds = intOption(o.treeFolds, 'treeFolds', 2, 100, 10);
  if (o.treeSe !== undefined) {
    if (typeof o.treeSe !== 'number' || !Number.isFinite(o.treeSe)) throw new TypeError(`treeSe must be a finite number, got ${describe(o.treeSe)}`);
    if (o.treeSe < 0 || o.treeSe > 10) throw new RangeError(`treeSe must be in [0, 10], got ${o.treeSe}`);
    base.pruningSe = o.treeSe;
  }
  if (o.voteboost !== undefined) {
    if (ensemble !== ENSEMBLES.voteboost) throw new TypeError("voteboost needs ensemble: 'voteboost'");
    const vb = optionsObject(o.voteboost, 'trainForest voteboost');
    rejectUnknown(vb, VOTEBOOST_OPTIONS, 'trainForest voteboost');
    if (vb.a === 'cv') {
      base.emphasisCv = true;
      if (vb.b !== undefined) throw new TypeError("voteboost.b cannot be combined with a: 'cv' (a = b)");
    } else if (vb.a !== undefined) {
      base.vbA = emphasisOption(vb.a, 'voteboost.a');
    }
    if (vb.b !== undefined) base.vbB = emphasisOption(vb.b, 'voteboost.b');
    if (vb.base !== undefined) {
      if (!Object.hasOwn(VOTEBOOST_BASES, vb.base)) {
        throw new RangeError(`voteboost.base must be one of ${VOTEBOOST_BASE_NAMES.join(', ')}, got ${describe(vb.base)}`);
      }
      base.vbBase = VOTEBOOST_BASES[vb.base];
    }
    if (vb.cvTrees !== undefined && !base.emphasisCv) throw new TypeError("voteboost.cvTrees needs a: 'cv'");
    base.cvTrees = intOption(vb.cvTrees, 'voteboost.cvTrees', 0, 100000, 0);
  }
  if (o.adaboost !== undefined) {
    if (ensemble !== ENSEMBLES.adaboost) throw new TypeError("adaboost needs ensemble: 'adaboost'");
    const ada = optionsObject(o.adaboost, 'trainForest adaboost');
    rejectUnknown(ada, ADABOOST_OPTIONS, 'trainForest adaboost');
    const name = ada.base;
    if (name !== undefined) {
      const depth = typeof name === 'string' ? /^depth:([1-9][0-9]{0,5})$/.exec(name) : null;
      if (typeof name !== 'string' || (!['unpruned', 'pruned', 'stump'].includes(name) && depth === null)) {
        throw new RangeError(`adaboost.base must be 'unpruned', 'pruned', 'stump' or 'depth:N' (N in 1..999999), got ${describe(name)}`);
      }
      if ((name === 'stump' || depth !== null) && o.maxDepth !== undefined) {
        throw new TypeError(`adaboost.base '${name}' sets the depth: do not combine it with maxDepth`);
      }
      if (name === 'pruned') base.pruning = TREE_PRUNING.cv;
      if (name === 'stump') maxDepth = 1;
      if (depth !== null) maxDepth = Number(depth[1]);
    }
  }
  return { base, maxDepth };
}

const TABLES = Symbol('tables');
const CLASS_NAMES = Symbol('classNames');
const RECENT_TABLE = Symbol('recentTable');
const WEIGHTED = Symbol('weighted');
const EMPHASIS_CV = Symbol('emphasisCv');
// Halting tables built by predict/trace/expectedCost are cached per forest (least recently used
// first out), keyed by rule, alpha and trees; they are freed with the forest.
const TABLE_CACHE_SIZE = 8;

/** A trained ensemble of classification trees, held in wasm memory. */
export class Forest {
  constructor(token, handle) {
    if (token !== INTERNAL) throw new TypeError('use trainForest() or Forest.fromBytes()');
    adopt(this, handle);
    const tables = new Map();
    this[TABLES] = tables;
    if (leakNet) {
      leakNet.register(this, { generation, handle: {
        isDeleted: () => tables.size === 0,
        delete: () => { for (const t of tables.values()) t.delete(); tables.clear(); },
      } }, this);
    }
  }

  /** Loads a model written by toBytes() (or the native CLI's `train --out`). */
  static fromBytes(bytes) {
    const m = requireModule();
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`Forest.fromBytes: bytes must be a Uint8Array, got ${describe(bytes)}`);
    const handle = new m._ForestHandle();
    try {
      check(call(() => handle._load(bytes)));
    } catch (e) {
      handle.delete();
      throw e;
    }
    return new Forest(INTERNAL, handle);
  }

  /**
   * Full-ensemble vote for every row of `dataset` (same feature columns as the training data).
   * Returns {labels: string[], classIndex: Int32Array, votes: Uint32Array (rows x classes, row-major),
   * classNames: string[]}. Ties go to the lowest class index. A boosted model predicts with its
   * weighted vote (classIndex; plus scores: Float64Array rows x classes); votes stay unweighted.
   * With options: halted prediction (HaltingOptions; order 'fixed' + fixedOrder queries given trees).
   */
  predict(dataset, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`predict: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    if (options !== undefined) return predictHalted(this, handle, data, options);
    const out = call(() => handle._predict(data));
    if (out.code !== undefined) check(out);
    useWeightedVote(this, handle, data, out);
    const names = this[CLASS_NAMES] ?? (this[CLASS_NAMES] = handle._classNames());
    const n = out.classIndex.length;
    const labels = new Array(n);
    for (let i = 0; i < n; i++) labels[i] = names[out.classIndex[i]];
    return { labels, classIndex: out.classIndex, votes: out.votes, classNames: names.slice(), ...(out.scores && { scores: out.scores }) };
  }

  /**
   * Every vote of one row in query order and where the halting rule stopped (for plots and
   * animations). `row` is an index into `dataset`; options as predict().
   */
  trace(dataset, row, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`trace: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    if (typeof row !== 'number' || !Number.isInteger(row)) throw new TypeError(`trace: row must be an integer, got ${describe(row)}`);
    const rows = data._numRows();
    if (row < 0 || row >= rows) throw new RangeError(`trace: row must be in [0, ${rows}), got ${row}`);
    const h = haltingOptions(options, 'trace', handle._numTrees(), NO_EXTRA_OPTIONS, defaultOrder(this, handle));
    const table = cachedTable(this, h);
    const out = call(() => handle._trace(data, row, table, h.orderCode, h.seedHi, h.seedLo));
    if (out.code !== undefined) check(out);
    const classNames = handle._classNames();
    const fullVotes = new Uint32Array(classNames.length);
    for (const v of out.votes) fullVotes[v]++;
    let full = 0;
    for (let c = 1; c < fullVotes.length; c++) if (fullVotes[c] > fullVotes[full]) full = c;
    return {
      trees: out.trees,
      votes: out.votes,
      confidence: out.confidence,
      treesUsed: out.treesUsed,
      haltedEarly: out.haltedEarly,
      classIndex: out.classIndex,
      label: classNames[out.classIndex],
      fullClassIndex: full,
      fullVotes,
      classNames,
      rule: h.rule,
      alpha: h.alpha,
    };
  }

  /**
   * A new HaltingTable of `options.rule` for this forest (prior from its out-of-bag votes), for
   * `options.trees` queried trees (default all). The caller owns (and disposes) it.
   */
  haltingTable(options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'haltingTable', handle._numTrees());
    return new HaltingTable(INTERNAL, buildForestTable(handle, h));
  }

  /**
   * Builds the halting table of `options.rule` at `options.alpha` (default 0.99) for
   * `options.trees` queried trees (default all) and stores it with the model: toBytes() then
   * includes it, and haltingTable()/predict()/trace() use it when rule, alpha and trees match
   * exactly. Replaces a stored table with the same rule, alpha and trees.
   */
  storeTable(options) {
    const handle = live(this, 'Forest');
    if (isPlainObject(options)) rejectUnknown(options, ['rule', 'alpha', 'trees'], 'storeTable');
    const h = haltingOptions(options, 'storeTable', handle._numTrees());
    const table = cachedTable(this, h);
    check(call(() => handle._storeTable(table)));
  }

  /** The halting tables stored with the model: [{rule, alpha, trees}], in storage order. */
  storedTables() { return call(() => live(this, 'Forest')._storedTables()); }

  /**
   * Expected trees queried and disagreement with the full vote of `options.rule`, averaged over the
   * out-of-bag data prior (for <= 4 classes the OOB tallies deconvolved from their ~0.37 T-vote binomial
   * noise; beyond, Monte Carlo over the rows' rescaled OOB tallies): exact when feasible, plus Monte Carlo with `samples` draws (default 10000; 0 = none; seed = options.seed).
   */
  expectedCost(options) {
    const handle = live(this, 'Forest');
    const h = haltingOptions(options, 'expectedCost', handle._numTrees(), EXPECTED_COST_EXTRA_OPTIONS);
    const samples = intOption(h.extra.samples, 'samples', 0, 1e8, 10000);
    const table = cachedTable(this, h);
    const out = call(() => handle._expectedCost(table, samples, h.seedHi, h.seedLo));
    if (out.code !== undefined) check(out);
    return out;
  }

  /**
   * The prior `rule` uses, estimated from the out-of-bag votes, for `options.trees` queried trees
   * (default all): {kind, classes, trees, components: [{weight, beta}], finalTallyMass}.
   */
  prior(rule, options) {
    const handle = live(this, 'Forest');
    const r = ruleCode(rule, 'prior: rule');
    const o = optionsObject(options, 'prior');
    rejectUnknown(o, ['trees'], 'prior');
    const trees = intOption(o.trees, 'trees', 1, handle._numTrees(), handle._numTrees());
    const out = call(() => handle._prior(r, trees));
    if (out.code !== undefined) check(out);
    return out;
  }

  /**
   * The ensemble kind and its learner as stored in the model: {ensemble, maxDepth, minLeaf,
   * treePruning: 'none' | 'cv', treeFolds, treeSe, voteboost?: {a, b, base}} (voteboost only when
   * ensemble is 'voteboost'; b resolved, i.e. a for the symmetric emphasis).
   */
  get learner() {
    const o = live(this, 'Forest')._learnerOptions();
    const out = {
      ensemble: ENSEMBLE_NAMES[o.ensemble], maxDepth: o.maxDepth, minLeaf: o.minLeaf,
      treePruning: o.pruning === 1 ? 'cv' : 'none', treeFolds: o.pruningFolds, treeSe: o.pruningSe,
    };
    if (out.ensemble === 'voteboost') out.voteboost = { a: o.vbA, b: o.vbB, base: VOTEBOOST_BASE_NAMES[o.vbBase] };
    return out;
  }

  /**
   * With trainForest's voteboost.a = 'cv': {chosen, grid: Float64Array, cvError: Float64Array
   * (percent misclassified per grid value)}; otherwise undefined (also after fromBytes).
   */
  get emphasisSelection() {
    live(this, 'Forest');
    return this[EMPHASIS_CV];
  }

  /**
   * Vote weight of every tree (AdaBoost's alpha_t), a Float64Array copy; empty for unweighted
   * ensembles (random forest, bagging).
   */
  treeWeights() { return live(this, 'Forest')._treeWeights(); }

  /**
   * Ordered aggregation: the order of all trees (Int32Array, a permutation of 0..numTrees-1) by
   * `options.ordering` (one of `orderings`; default 'boosting') evaluated on labelled `dataset`
   * (normally the training data). Options: backfit 0..100 (reduce-error only; 0), mdmP in (0, 1)
   * (margin-distance only; 0.075).
   */
  order(dataset, options) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`order: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    const o = optionsObject(options, 'order');
    rejectUnknown(o, ['ordering', 'backfit', 'mdmP'], 'order');
    const ordering = o.ordering === undefined ? orderings.indexOf('boosting') : orderingCode(o.ordering, 'ordering');
    const backfit = intOption(o.backfit, 'backfit', 0, 100, 0);
    let mdmP = 0.075;
    if (o.mdmP !== undefined) {
      if (typeof o.mdmP !== 'number') throw new TypeError(`mdmP must be a number, got ${describe(o.mdmP)}`);
      if (!(o.mdmP > 0 && o.mdmP < 1)) throw new RangeError(`mdmP must be in (0, 1), got ${o.mdmP}`);
      mdmP = o.mdmP;
    }
    const out = call(() => handle._order(data, ordering, backfit, mdmP));
    if (out.code !== undefined) check(out);
    return out;
  }

  /**
   * Static pruning: a new Forest made of trees order[0..keep) of this one, in that order (the
   * caller owns and disposes it). `order`: distinct tree ids (usually from order()); keep
   * 1..order.length. Option training: the exact training Dataset, to recompute the out-of-bag votes
   * of a random forest or bagging model (without it they are all 0 and prior-based rules cannot
   * run on the pruned model).
   */
  prune(order, keep, options) {
    const handle = live(this, 'Forest');
    const ids = treeIds(order, 'order', handle._numTrees());
    if (keep === undefined) throw new TypeError('prune: keep is required');
    const k = intOption(keep, 'keep', 1, ids.length, 1);
    const o = optionsObject(options, 'prune');
    rejectUnknown(o, ['training'], 'prune');
    let training = null;
    if (o.training !== undefined) {
      if (!(o.training instanceof Dataset)) throw new TypeError(`training must be a Dataset, got ${describe(o.training)}`);
      training = live(o.training, 'Dataset');
    }
    const fresh = new (requireModule()._ForestHandle)();
    try {
      check(call(() => fresh._loadPruned(handle, ids, k, training)));
    } catch (e) {
      fresh.delete();
      throw e;
    }
    return new Forest(INTERNAL, fresh);
  }

  /**
   * Error-versus-size curve (thesis Fig. 3.1): entry u - 1 is the error rate in [0, 1] on labelled
   * `dataset` of the first u trees of `order` (distinct tree ids), combined as the ensemble combines
   * (weighted for AdaBoost). A Float64Array of order.length entries.
   */
  errorCurve(dataset, order) {
    const handle = live(this, 'Forest');
    if (!(dataset instanceof Dataset)) throw new TypeError(`errorCurve: dataset must be a Dataset, got ${describe(dataset)}`);
    const data = live(dataset, 'Dataset');
    const ids = treeIds(order, 'order', handle._numTrees());
    const out = call(() => handle._errorCurve(data, ids));
    if (out.code !== undefined) check(out);
    return out;
  }

  /** Class index of every training row, aligned with oobVotes() (a copy). */
  trainLabels() { return live(this, 'Forest')._trainLabels(); }

  /** The versioned binary model (a copy). Same data, options and seed give identical bytes. */
  toBytes() { return call(() => live(this, 'Forest')._bytes()); }
  /** Number of trees T. */
  get numTrees() { return live(this, 'Forest')._numTrees(); }
  /** Number of classes. */
  get numClasses() { return live(this, 'Forest')._numClasses(); }
  /** Number of feature columns the model reads. */
  get numFeatures() { return live(this, 'Forest')._numFeatures(); }
  /** Total nodes over all trees. */
  get numNodes() { return live(this, 'Forest')._numNodes(); }
  /** Out-of-bag error of the training data in [0, 1]. */
  get oobError() { return live(this, 'Forest')._oobError(); }
  /** Out-of-bag vote counts, training rows x classes, row-major (a copy). */
  oobVotes() { return live(this, 'Forest')._oobVotes(); }
  /** Class index -> class name. */
  get classNames() { return live(this, 'Forest')._classNames(); }
  /** Feature column names the model reads, in model order. */
  get featureNames() { return live(this, 'Forest')._featureNames(); }
  /** 'numeric' or 'categorical' per feature. */
  get featureTypes() { return live(this, 'Forest')._featureTypes(); }
  /** True once dispose() has been called. */
  get disposed() { return this[HANDLE] === null; }
  /** Frees the wasm memory (with every cached halting table). Idempotent; any later use throws. */
  dispose() {
    const tables = this[TABLES];
    if (current(this)) for (const t of tables.values()) t.delete();
    tables.clear();
    release(this);
  }
}


// The cached internal table handle of a forest for validated halting options (built on first use).
// The most recently used one is also kept with its options, so that repeated predictions with the
// same options find it without building the key.
function cachedTable(forest, h) {
  const handle = live(forest, 'Forest');
  const tables = forest[TABLES];
  const recent = forest[RECENT_TABLE];
  if (recent !== undefined && recent.rule === h.rule && recent.alpha === h.alpha && recent.trees === h.trees &&
      tables.get(recent.key) === recent.table) {
    return recent.table;
  }
  const key = `${h.rule}|${h.alpha}|${h.trees}`;
  let table = tables.get(key);
  if (table !== undefined) {
    tables.delete(key);
    tables.set(key, table);
  } else {
    table = buildForestTable(handle, h);
    tables.set(key, table);
    if (tables.size > TABLE_CACHE_SIZE) {
      const [oldKey, oldest] = tables.entries().next().value;
      tables.delete(oldKey);
      oldest.delete();
    }
  }
  forest[RECENT_TABLE] = { rule: h.rule, alpha: h.alpha, trees: h.trees, key, table };
  return table;
}

function predictHalted(forest, handle, data, options) {
  const numTrees = forestNumTrees(forest, handle);
  const fixed = fixedOrderOption(options, numTrees);
  const h = fixed === null
    ? haltingOptions(options, 'predict', numTrees, PREDICT_EXTRA_OPTIONS, defaultOrder(forest, handle))
    : haltingOptions(fixed.rest, 'predict', fixed.ids.length, PREDICT_EXTRA_OPTIONS);
  const compare = h.extra.compare ?? true;
  if (typeof compare !== 'boolean') throw new TypeError(`predict: option 'compare' must be a boolean, got ${describe(compare)}`);
  const table = cachedTable(forest, h);
  let answer;
  if (fixed !== null) {
    answer = call(() => handle._predictHaltedFixed(data, table, fixed.ids));
    if (answer.code !== undefined) check(answer);
  } else {
    answer = haltedAnswer(handle, data, table, h, compare);
  }
  // A forest's classes never change: read their names from wasm once (each call gets a copy).
  const names = forest[CLASS_NAMES] ?? (forest[CLASS_NAMES] = handle._classNames());
  return readHaltedAnswer(answer, names, h);
}

// The query order of predict/trace without an explicit `order`: 'random' for a vote-boosted forest,
// as the CLI does (its trees are sequentially dependent, and the finite-T rules hold for them only
// in a uniformly random order, docs/voteboost.md), else 'generation'. Asked from wasm once.
const DEFAULT_ORDER = Symbol('defaultOrder');
function defaultOrder(forest, handle) {
  return forest[DEFAULT_ORDER] ?? (forest[DEFAULT_ORDER] =
    handle._learnerOptions().ensemble === ENSEMBLES.voteboost ? 'random' : 'generation');
}

// The wasm address of an embind handle (bindings.cpp Address()), asked once per handle.
const ADDRESS = Symbol('address');
function addressOf(handle) {
  return handle[ADDRESS] ?? (handle[ADDRESS] = handle._address());
}

// A forest's tree count never changes: asked from wasm once.
const NUM_TREES = Symbol('numTrees');
function forestNumTrees(forest, handle) {
  return forest[NUM_TREES] ?? (forest[NUM_TREES] = handle._numTrees());
}

const PREDICT_EXTRA_OPTIONS = ['compare'];
const EXPECTED_COST_EXTRA_OPTIONS = ['samples'];

// The packed answer (bindings.cpp PackHaltedAnswer) of a halted prediction in generation or random
// order, through the plain C entry point (no embind on this path, which small batches call often):
// one copy out of wasm, the wasm block freed whatever happens.
function haltedAnswer(handle, data, table, h, compare) {
  const m = requireModule();
  const address = call(() => m._urnforest_predict_halted(addressOf(handle), addressOf(data),
    addressOf(table), h.orderCode, h.seedHi, h.seedLo, compare ? 1 : 0));
  if (address === 0) check(call(() => m._takeLastError()));
  try {
    return m.HEAPU8.slice(address, address + m.HEAPU32[(address >>> 2) + 3]);  // header: its size
  } finally {
    m._free(address);
  }
}

// predict()'s result from a packed answer (a Uint8Array of its own buffer; layout in bindings.cpp
// PackHaltedAnswer): the halted arrays are views of that one buffer.
function readHaltedAnswer(answer, names, h) {
  const n = (answer[0] | (answer[1] << 8) | (answer[2] << 16) | (answer[3] << 24)) >>> 0;
  const k = names.length;
  const hasFull = answer[8] !== 0;
  const buffer = answer.buffer;
  const classIndex = new Int32Array(buffer, 16 + 8 * n, n);
  const treesUsed = new Int32Array(buffer, 16 + 12 * n, n);
  // The full vote's arrays get buffers of their own, as before the answer was packed: callers
  // transfer, e.g., [treesUsed.buffer, fullClassIndex.buffer] to another thread in one message.
  const fullClassIndex = hasFull ? new Int32Array(buffer, 16 + 16 * n, n).slice() : undefined;
  const labels = new Array(n);
  let differ = 0;
  let used = 0;
  for (let i = 0; i < n; i++) {
    labels[i] = names[classIndex[i]];
    used += treesUsed[i];
  }
  if (hasFull) for (let i = 0; i < n; i++) if (classIndex[i] !== fullClassIndex[i]) differ++;
  return {
    labels,
    classIndex,
    treesUsed,
    confidence: new Float64Array(buffer, 16, n),
    haltedEarly: new Uint8Array(buffer, 16 + (hasFull ? 20 + 4 * k : 16) * n, n),
    fullClassIndex,
    fullVotes: hasFull ? new Uint32Array(buffer, 16 + 20 * n, n * k).slice() : undefined,
    disagreement: !hasFull ? undefined : n === 0 ? 0 : differ / n,
    meanTrees: n === 0 ? 0 : used / n,
    trees: h.trees,
    classNames: names.slice(),
    rule: h.rule,
    alpha: h.alpha,
  };
}

// ---- AdaBoost and static pruning (issue 5) -----------------------------------------------------

/** The ordered-aggregation heuristics (static pruning), in the core's order. */
export const orderings = Object.freeze(['early', 'reduce-error', 'complementarity', 'margin-distance',
  'orientation', 'boosting', 'kappa', 'greedy-sdp']);

function orderingCode(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string (one of ${orderings.join(', ')}), got ${describe(value)}`);
  const code = orderings.indexOf(value);
  if (code < 0) throw new RangeError(`${name} must be one of ${orderings.join(', ')}, got ${describe(value)}`);
  return code;
}

// Distinct tree ids in [0, numTrees) as an Int32Array.
function treeIds(value, name, numTrees) {
  if (!(value instanceof Int32Array || value instanceof Uint32Array || Array.isArray(value))) {
    throw new TypeError(`${name} must be an Int32Array or array of tree ids, got ${describe(value)}`);
  }
  if (value.length === 0) throw new RangeError(`${name} must name at least one tree`);
  if (value.length > numTrees) throw new RangeError(`${name} has ${value.length} ids, more than the ${numTrees} trees`);
  const seen = new Uint8Array(numTrees);
  const out = new Int32Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const t = value[i];
    if (typeof t !== 'number' || !Number.isInteger(t)) throw new TypeError(`${name}[${i}] must be an integer, got ${describe(t)}`);
    if (t < 0 || t >= numTrees) throw new RangeError(`${name}[${i}] = ${t} is not a tree id (0..${numTrees - 1})`);
    if (seen[t]) throw new RangeError(`${name}[${i}] = ${t} repeats a tree id`);
    seen[t] = 1;
    out[i] = t;
  }
  return out;
}

// predict's {order: 'fixed', fixedOrder}: null for other orders, else the ids and the remaining
// halting options (trees defaults to, and must equal, fixedOrder.length).
function fixedOrderOption(options, numTrees) {
  if (!isPlainObject(options)) return null;
  if (options.order !== 'fixed') {
    if (options.fixedOrder !== undefined) throw new TypeError("fixedOrder needs order: 'fixed'");
    return null;
  }
  if (options.fixedOrder === undefined) throw new TypeError("order 'fixed' needs fixedOrder (an Int32Array of tree ids)");
  const ids = treeIds(options.fixedOrder, 'fixedOrder', numTrees);
  if (options.trees !== undefined && options.trees !== ids.length) {
    throw new RangeError(`trees (${options.trees}) must equal fixedOrder.length (${ids.length})`);
  }
  if (options.seed !== undefined) throw new TypeError("seed applies to order 'random', not 'fixed'");
  const { order, fixedOrder, ...rest } = options;
  return { ids, rest };
}

// A boosted model's own prediction is its weighted vote (as the CLI's `predict` without --rule):
// replaces out.classIndex and adds out.scores. `votes` stay the unweighted counts.
function useWeightedVote(forest, handle, data, out) {
  // A forest's weights never change: asked from wasm once.
  if (!(forest[WEIGHTED] ?? (forest[WEIGHTED] = handle._treeWeights().length > 0))) return;
  const weighted = call(() => handle._predictWeighted(data));
  if (weighted.code !== undefined) check(weighted);
  out.classIndex = weighted.classIndex;
  out.scores = weighted.scores;
}

/**
 * Trains a forest on a labeled dataset. Options (all optional): ensemble 'rf' | 'bagging' | 'adaboost' |
 * 'voteboost' (default 'rf'), boosting 'resample' | 'reweight' (AdaBoost only; 'resample'),
 * voteboost {a: number | 'cv', b, base: 'random' | 'unpruned' | 'stump' | 'pruned', cvTrees},
 * adaboost {base: 'unpruned' | 'pruned' | 'stump' | 'depth:N'}, treePruning 'none' | 'cv',
 * treeFolds (10), treeSe (1) -- the CLI's --emphasis, --emphasis-b, --base, --cv-trees,
 * --tree-pruning, --tree-folds, --tree-se,
 * trees 1..100000 (101), mtry 0..features (0 = by mtryRule), mtryRule 'sqrt' | 'log2' | 'log2plus1',
 * maxDepth (0 = unlimited), minLeaf (1), seed (non-negative safe integer or bigint < 2^64; 1),
 * onProgress(done, total) called after each tree (return false to cancel). Returns a new Forest that
 * the caller owns.
 */
export function trainForest(dataset, options) {
  const m = requireModule();
  if (!(dataset instanceof Dataset)) throw new TypeError(`trainForest: dataset must be a Dataset, got ${describe(dataset)}`);
  const data = live(dataset, 'Dataset');
  const o = optionsObject(options, 'trainForest');
  rejectUnknown(o, TRAIN_OPTIONS, 'trainForest');
  let ensemble = 0;
  if (o.ensemble !== undefined) {
    if (!Object.hasOwn(ENSEMBLES, o.ensemble)) throw new RangeError(`ensemble must be one of ${ENSEMBLE_NAMES.join(', ')}, got ${describe(o.ensemble)}`);
    ensemble = ENSEMBLES[o.ensemble];
  }
  let boosting = 0;
  if (o.boosting !== undefined) {
    if (ensemble !== ENSEMBLES.adaboost) throw new TypeError("boosting needs ensemble: 'adaboost'");
    if (!Object.hasOwn(BOOSTING, o.boosting)) throw new RangeError(`boosting must be 'resample' or 'reweight', got ${describe(o.boosting)}`);
    boosting = BOOSTING[o.boosting];
  }
  const learner = baseLearnerOptions(o, ensemble, intOption(o.maxDepth, 'maxDepth', 0, 2 ** 31 - 1, 0));
  let mtryRule = 0;
  if (o.mtryRule !== undefined) {
    if (!Object.hasOwn(MTRY_RULES, o.mtryRule)) throw new RangeError(`mtryRule must be 'sqrt', 'log2' or 'log2plus1', got ${describe(o.mtryRule)}`);
    mtryRule = MTRY_RULES[o.mtryRule];
  }
  const trees = intOption(o.trees, 'trees', 1, 100000, 101);
  const mtry = intOption(o.mtry, 'mtry', 0, data._numFeatures(), 0);
  const maxDepth = learner.maxDepth;
  const minLeaf = intOption(o.minLeaf, 'minLeaf', 1, 2 ** 31 - 1, 1);
  const [seedHi, seedLo] = seedHalves(o.seed);
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(o.onProgress)}`);
  }
  // A JS exception must not unwind through wasm frames (C++ destructors would not run): catch it,
  // cancel training, and rethrow it once the core has returned.
  let callbackError = null;
  const progress = o.onProgress === undefined ? undefined : (done, total) => {
    try {
      return o.onProgress(done, total) !== false;
    } catch (e) {
      callbackError = e;
      return false;
    }
  };
  const handle = new m._ForestHandle();
  let emphasis;
  try {
    const result = call(() => handle._train(data, ensemble, trees, mtry, mtryRule, maxDepth, minLeaf,
      seedHi, seedLo, progress, boosting, learner.base));
    if (callbackError !== null) throw callbackError;
    if (result !== undefined && result.code !== undefined) check(result);
    if (result !== undefined) emphasis = result.emphasis;
  } catch (e) {
    handle.delete();
    throw e;
  }
  const forest = new Forest(INTERNAL, handle);
  if (emphasis !== undefined) forest[EMPHASIS_CV] = Object.freeze({ ...emphasis });
  return forest;
}

function seedHalves(seed) {
  if (seed === undefined) return [0, 1];
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed >= 2n ** 64n) throw new RangeError(`seed must be in [0, 2^64), got ${seed}`);
    return [Number(seed >> 32n), Number(seed & 0xffffffffn)];
  }
  if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new TypeError(`seed must be an integer or a bigint, got ${describe(seed)}`);
  if (seed < 0 || seed > Number.MAX_SAFE_INTEGER) throw new RangeError(`seed must be in [0, 2^53 - 1] (use a bigint for larger seeds), got ${seed}`);
  return [Math.floor(seed / 2 ** 32), seed % 2 ** 32];
}


// ---- halting rules -----------------------------------------------------------------------------

/** The halting rules, in the core's order. */
export const rules = Object.freeze(['alpha1', 'siba', 'hyper', '1dir', 'ndir', 'infinite', 'optimal']);
const PRIORLESS_RULES = ['alpha1', 'siba', 'infinite'];
const HALTING_OPTIONS = ['rule', 'alpha', 'order', 'seed', 'trees'];
const NO_EXTRA_OPTIONS = [];
// HALTING_OPTIONS plus a call's extra keys, per extra-keys array (each call site passes a constant).
const ALLOWED_OPTIONS = new Map();

function ruleCode(rule, name) {
  if (typeof rule !== 'string') throw new TypeError(`${name} must be a string (one of ${rules.join(', ')}), got ${describe(rule)}`);
  const code = rules.indexOf(rule);
  if (code < 0) throw new RangeError(`${name} must be one of ${rules.join(', ')}, got ${describe(rule)}`);
  return code;
}

function alphaOption(alpha) {
  if (alpha === undefined) return 0.99;
  if (typeof alpha !== 'number') throw new TypeError(`alpha must be a number, got ${describe(alpha)}`);
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be in (0, 1], got ${alpha}`);
  return alpha;
}

// Validates HaltingOptions; `maxTrees` bounds `trees` (the forest's size); `order` defaults to
// `orderByDefault`. Extra allowed keys are returned untouched in `.extra`.
function haltingOptions(options, what, maxTrees, extraKeys = NO_EXTRA_OPTIONS, orderByDefault = 'generation') {
  if (!isPlainObject(options)) throw new TypeError(`${what}: options must be an object with a 'rule', got ${describe(options)}`);
  let allowed = ALLOWED_OPTIONS.get(extraKeys);
  if (allowed === undefined) ALLOWED_OPTIONS.set(extraKeys, allowed = HALTING_OPTIONS.concat(extraKeys));
  rejectUnknown(options, allowed, what);
  if (options.rule === undefined) throw new TypeError(`${what}: option 'rule' is required (one of ${rules.join(', ')})`);
  const ruleIndex = ruleCode(options.rule, 'rule');
  const alpha = alphaOption(options.alpha);
  const order = options.order === undefined ? orderByDefault : options.order;
  if (typeof order !== 'string') throw new TypeError(`order must be 'generation' or 'random', got ${describe(order)}`);
  if (order !== 'generation' && order !== 'random') {
    throw new RangeError(`order must be 'generation' or 'random', got ${describe(order)}`);
  }
  const orderCode = order === 'random' ? 1 : 0;
  const [seedHi, seedLo] = seedHalves(options.seed);
  const trees = intOption(options.trees, 'trees', 1, maxTrees, maxTrees);
  const extra = {};
  for (const key of extraKeys) extra[key] = options[key];
  return { rule: options.rule, ruleIndex, alpha, orderCode, seedHi, seedLo, trees, extra };
}

function buildForestTable(forestHandle, h) {
  const table = new (requireModule()._HaltingTableHandle)();
  try {
    check(call(() => table._buildForForest(forestHandle, h.ruleIndex, h.alpha, h.trees)));
  } catch (e) {
    table.delete();
    throw e;
  }
  return table;
}

// A tally-like argument as an Int32Array of `length` non-negative integers summing to <= maxSum.
function countsArg(value, name, length, maxSum) {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw new TypeError(`${name} must be an array or typed array of counts, got ${describe(value)}`);
  }
  if (value.length !== length) throw new RangeError(`${name} must have ${length} counts, got ${value.length}`);
  const out = new Int32Array(length);
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`${name}[${i}] must be an integer, got ${describe(v)}`);
    if (v < 0) throw new RangeError(`${name}[${i}] must be >= 0, got ${v}`);
    sum += v;
    out[i] = v;
  }
  if (sum > maxSum) throw new RangeError(`${name} sums to ${sum}, more than the ${maxSum} trees`);
  return out;
}

function tableAndTally(table, value) {
  const handle = live(table, 'HaltingTable');
  return [handle, countsArg(value, 'tally', handle._numClasses(), handle._numTrees())];
}

/**
 * A precomputed halting table for (rule, T, classes, alpha): one lookup per vote. Held in wasm
 * memory; the caller disposes it.
 */
export class HaltingTable {
  constructor(token, handle) {
    if (token !== INTERNAL) throw new TypeError('use haltingTable(), forest.haltingTable() or HaltingTable.fromBytes()');
    adopt(this, handle);
  }

  /** Loads bytes from toBytes(). Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes) {
    const m = requireModule();
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`HaltingTable.fromBytes: bytes must be a Uint8Array, got ${describe(bytes)}`);
    const handle = new m._HaltingTableHandle();
    try {
      check(call(() => handle._load(bytes)));
    } catch (e) {
      handle.delete();
      throw e;
    }
    return new HaltingTable(INTERNAL, handle);
  }

  /** The rule name. */
  get rule() { return live(this, 'HaltingTable')._rule(); }
  /** Target confidence alpha in (0, 1]. */
  get alpha() { return live(this, 'HaltingTable')._alpha(); }
  /** T, the number of trees queried. */
  get numTrees() { return live(this, 'HaltingTable')._numTrees(); }
  /** Number of classes l. */
  get numClasses() { return live(this, 'HaltingTable')._numClasses(); }
  /** False when some exact halting set was not monotone (thresholds then made conservative). */
  get monotone() { return live(this, 'HaltingTable')._monotone(); }
  /** Storage: 'thresholds' | 'pairwiseBound' | 'leadRule' | 'infiniteProduct'. */
  get layout() { return live(this, 'HaltingTable')._layout(); }

  /** True when voting may stop at `tally` (numClasses counts, sum <= numTrees). */
  halts(tally) {
    const [handle, t] = tableAndTally(this, tally);
    return handle._halts(t);
  }

  /** The rule's confidence for the strict leader of `tally` (0 without a strict leader). */
  confidence(tally) {
    const [handle, t] = tableAndTally(this, tally);
    return handle._confidence(t);
  }

  /** Strict leader of `tally`, or -1 on a tie for first place. */
  leader(tally) {
    const [handle, t] = tableAndTally(this, tally);
    return handle._leader(t);
  }

  /**
   * Minimum count of class `c` from which voting halts when the other classes have `others`
   * (numClasses - 1 counts in class order, skipping c); numTrees + 1 when no count halts.
   */
  minLeaderVotes(c, others) {
    const handle = live(this, 'HaltingTable');
    const l = handle._numClasses();
    const cls = intOption(c, 'c', 0, l - 1, 0);
    if (c === undefined) throw new TypeError('c is required');
    const o = countsArg(others, 'others', l - 1, handle._numTrees());
    return handle._minLeaderVotes(cls, o);
  }

  /**
   * Two-class tables: entry k = minimum votes of class c when the other class has k votes, for
   * k = 0, 1, ... while a halt is possible (the CLI's `min_majority`).
   */
  binaryThresholds(c) {
    const handle = live(this, 'HaltingTable');
    if (handle._numClasses() !== 2) throw new RangeError(`binaryThresholds needs a 2-class table, this one has ${handle._numClasses()} classes`);
    if (c === undefined) throw new TypeError('c is required');
    return handle._binaryThresholds(intOption(c, 'c', 0, 1, 0));
  }

  /**
   * Expected trees and disagreement: for one final tally (`final`, numClasses counts summing to
   * numTrees; Monte Carlo only when `samples` > 0) or averaged over the table's prior (uniform for
   * alpha1/siba/infinite, the forest's prior otherwise; `samples` default 10000).
   */
  expectedCost(options) {
    const handle = live(this, 'HaltingTable');
    const o = optionsObject(options, 'expectedCost');
    rejectUnknown(o, ['final', 'samples', 'seed'], 'expectedCost');
    const [seedHi, seedLo] = seedHalves(o.seed);
    let out;
    if (o.final !== undefined) {
      const final = countsArg(o.final, 'final', handle._numClasses(), handle._numTrees());
      const sum = final.reduce((a, b) => a + b, 0);
      if (sum !== handle._numTrees()) throw new RangeError(`final must sum to numTrees (${handle._numTrees()}), got ${sum}`);
      const samples = intOption(o.samples, 'samples', 0, 1e8, 0);
      out = call(() => handle._expectedCostFinal(final, samples, seedHi, seedLo));
    } else {
      const samples = intOption(o.samples, 'samples', 0, 1e8, 10000);
      out = call(() => handle._expectedCostOverPrior(samples, seedHi, seedLo));
    }
    if (out.code !== undefined) check(out);
    return out;
  }

  /** Versioned bytes of the table (a copy), e.g. to move it between threads. */
  toBytes() { return call(() => live(this, 'HaltingTable')._bytes()); }
  /** True once dispose() has been called. */
  get disposed() { return this[HANDLE] === null; }
  /** Frees the wasm memory. Idempotent; any later use throws. */
  dispose() { release(this); }
}

/**
 * A halting table for a rule needing no data prior ('alpha1', 'siba', 'infinite'): options rule
 * (required), trees 1..100000 (101), classes 2..4096 (2), alpha (0, 1] (0.99). The caller owns it.
 */
export function haltingTable(options) {
  const m = requireModule();
  const o = optionsObject(options, 'haltingTable');
  rejectUnknown(o, ['rule', 'trees', 'classes', 'alpha'], 'haltingTable');
  const { code, trees, classes, alpha } = priorlessSetup(o, 'haltingTable');
  const handle = new m._HaltingTableHandle();
  try {
    check(call(() => handle._build(code, trees, classes, alpha)));
  } catch (e) {
    handle.delete();
    throw e;
  }
  return new HaltingTable(INTERNAL, handle);
}

function priorlessSetup(o, what) {
  if (o.rule === undefined) throw new TypeError(`${what}: option 'rule' is required`);
  const code = ruleCode(o.rule, 'rule');
  if (!PRIORLESS_RULES.includes(o.rule)) {
    throw new RangeError(`rule '${o.rule}' needs a prior estimated from a model: use forest.haltingTable() (here: ${PRIORLESS_RULES.join(', ')})`);
  }
  return {
    code,
    trees: intOption(o.trees, 'trees', 1, 100000, 101),
    classes: intOption(o.classes, 'classes', 2, 4096, 2),
    alpha: alphaOption(o.alpha),
  };
}

/**
 * P* of a partial tally (the rule's confidence that its strict leader wins the full vote), for
 * 'alpha1', 'siba', 'infinite': {pstar, leader (-1 on a tie), halt, exact}.
 */
export function pstar(options) {
  requireModule();
  const o = optionsObject(options, 'pstar');
  rejectUnknown(o, ['rule', 'trees', 'classes', 'votes', 'alpha'], 'pstar');
  if (o.trees === undefined) throw new TypeError("pstar: option 'trees' is required");
  if (o.votes === undefined) throw new TypeError("pstar: option 'votes' is required");
  if (!(Array.isArray(o.votes) || (ArrayBuffer.isView(o.votes) && !(o.votes instanceof DataView)))) {
    throw new TypeError(`votes must be an array or typed array of counts, got ${describe(o.votes)}`);
  }
  const votesLength = o.votes.length;
  const { code, trees, classes, alpha } = priorlessSetup({ ...o, classes: o.classes ?? votesLength }, 'pstar');
  const votes = countsArg(o.votes, 'votes', classes, trees);
  const out = call(() => M._pstar(code, trees, classes, alpha, votes));
  if (out.code !== undefined) check(out);
  return out;
}

// ---- experiments (issues 4 and 5) --------------------------------------------------------------

const EXPERIMENT_OPTIONS = ['data', 'name', 'train', 'test', 'ensemble', 'boosting', 'trees', 'mtry', 'mtryRule',
  'alpha', 'rules', 'folds', 'repeats', 'holdout', 'stratified', 'seed', 'proxyTrees', 'samples', 'prune', 'keep',
  'queryOrder', 'voteboost', 'adaboost', 'treePruning', 'treeFolds', 'treeSe', 'maxDepth', 'noise'];
const QUERY_ORDERS = { ordered: 0, random: 2 };

/** Names of the synthetic problems runExperiment accepts as `data`. */
export function generators() {
  return requireModule()._generatorNames();
}

/**
 * Runs the experiment harness (the CLI's `experiment`) and returns the same JSON-shaped object as
 * `experiment --json` (fields in docs/api.md and docs/experiments.md). `options.data` is a labelled
 * Dataset (k-fold CV, or holdout with `holdout`) or a generator name (synthetic protocol with
 * `train`/`test` rows). `control.onProgress(done, total)` is called before the first partition and
 * after each one; returning false cancels (UrnforestError 'InvalidArgument', "cancelled").
 */
export function runExperiment(options, control) {
  const m = requireModule();
  if (!isPlainObject(options)) throw new TypeError(`runExperiment: options must be an object with 'data', got ${describe(options)}`);
  rejectUnknown(options, EXPERIMENT_OPTIONS, 'runExperiment');
  const ctl = optionsObject(control, 'runExperiment control');
  rejectUnknown(ctl, ['onProgress'], 'runExperiment control');
  if (ctl.onProgress !== undefined && typeof ctl.onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(ctl.onProgress)}`);
  }
  const o = options;
  const spec = {
    protocol: 0, generator: '', name: '', folds: 10, repeats: 10, testFraction: 1 / 3, stratified: true,
    trainRows: 300, testRows: 1000, ensemble: 0, boosting: 0, trees: 101, mtry: 0, mtryRule: 0,
    alphas: [0.99], rules: [0, 1, 2], seedHi: 0, seedLo: 1, proxyTrees: 0, samples: 20000, prune: -1, keep: 0,
    queryOrder: 0,
  };
  let dataHandle = null;
  let maxFeatures = 65536;
  if (o.data === undefined) throw new TypeError("runExperiment: option 'data' is required (a Dataset or a generator name)");
  if (typeof o.data === 'string') {
    const names = m._generatorNames();
    if (!names.includes(o.data)) throw new RangeError(`data must be a Dataset or one of ${names.join(', ')}, got ${describe(o.data)}`);
    for (const key of ['folds', 'holdout', 'stratified']) {
      if (o[key] !== undefined) throw new TypeError(`${key} applies to a Dataset; synthetic problems use train, test and repeats`);
    }
    spec.protocol = 2;
    spec.generator = o.data;
    spec.trainRows = intOption(o.train, 'train', 2, 2 ** 26, 300);
    spec.testRows = intOption(o.test, 'test', 1, 2 ** 26, 1000);
    spec.repeats = intOption(o.repeats, 'repeats', 1, 100000, 100);
  } else if (o.data instanceof Dataset) {
    dataHandle = live(o.data, 'Dataset');
    maxFeatures = dataHandle._numFeatures();
    if (!dataHandle._hasLabels()) throw new RangeError('data must have a target column (labels) for an experiment');
    for (const key of ['train', 'test']) {
      if (o[key] !== undefined) throw new TypeError(`${key} applies to synthetic problems (data: a generator name)`);
    }
    if (o.holdout !== undefined) {
      if (o.folds !== undefined) throw new TypeError('give folds or holdout, not both');
      if (typeof o.holdout !== 'number') throw new TypeError(`holdout must be a number, got ${describe(o.holdout)}`);
      if (!(o.holdout > 0 && o.holdout < 1)) throw new RangeError(`holdout must be in (0, 1), got ${o.holdout}`);
      spec.protocol = 1;
      spec.testFraction = o.holdout;
      spec.repeats = intOption(o.repeats, 'repeats', 1, 100000, 100);
    } else {
      spec.folds = intOption(o.folds, 'folds', 2, dataHandle._numRows(), 10);
      spec.repeats = intOption(o.repeats, 'repeats', 1, 100000, 10);
    }
    if (o.stratified !== undefined && typeof o.stratified !== 'boolean') {
      throw new TypeError(`stratified must be a boolean, got ${describe(o.stratified)}`);
    }
    spec.stratified = o.stratified ?? true;
  } else {
    throw new TypeError(`data must be a Dataset or a generator name, got ${describe(o.data)}`);
  }
  if (o.name !== undefined) {
    if (typeof o.name !== 'string') throw new TypeError(`name must be a string, got ${describe(o.name)}`);
    spec.name = o.name;
  }
  if (o.ensemble !== undefined) {
    if (!Object.hasOwn(ENSEMBLES, o.ensemble)) throw new RangeError(`ensemble must be one of ${ENSEMBLE_NAMES.join(', ')}, got ${describe(o.ensemble)}`);
    spec.ensemble = ENSEMBLES[o.ensemble];
  }
  const learner = baseLearnerOptions(o, spec.ensemble, intOption(o.maxDepth, 'maxDepth', 0, 100000, 0));
  spec.base = learner.base;
  spec.maxDepth = learner.maxDepth;
  if (o.noise !== undefined) {
    if (typeof o.noise !== 'number' || !Number.isFinite(o.noise)) throw new TypeError(`noise must be a number, got ${describe(o.noise)}`);
    if (o.noise < 0 || o.noise > 1) throw new RangeError(`noise must be in [0, 1], got ${o.noise}`);
  }
  spec.noise = o.noise ?? 0;
  if (o.boosting !== undefined) {
    if (spec.ensemble !== ENSEMBLES.adaboost) throw new TypeError("boosting needs ensemble: 'adaboost'");
    if (!Object.hasOwn(BOOSTING, o.boosting)) throw new RangeError(`boosting must be 'resample' or 'reweight', got ${describe(o.boosting)}`);
    spec.boosting = BOOSTING[o.boosting];
  }
  spec.trees = intOption(o.trees, 'trees', 1, 100000, 101);
  spec.mtry = intOption(o.mtry, 'mtry', 0, maxFeatures, 0);
  if (o.mtryRule !== undefined) {
    if (!Object.hasOwn(MTRY_RULES, o.mtryRule)) throw new RangeError(`mtryRule must be 'sqrt', 'log2' or 'log2plus1', got ${describe(o.mtryRule)}`);
    spec.mtryRule = MTRY_RULES[o.mtryRule];
  }
  if (o.alpha !== undefined) {
    const alphas = Array.isArray(o.alpha) ? o.alpha : [o.alpha];
    if (alphas.length === 0) throw new RangeError('alpha must not be an empty array');
    spec.alphas = alphas.map((a) => alphaOption(a));
  }
  if (o.rules !== undefined) {
    if (!Array.isArray(o.rules)) throw new TypeError(`rules must be an array of rule names, got ${describe(o.rules)}`);
    if (o.rules.length === 0) throw new RangeError('rules must name at least one rule');
    spec.rules = o.rules.map((r, i) => ruleCode(r, `rules[${i}]`));
    if (new Set(spec.rules).size !== spec.rules.length) throw new RangeError('rules names a rule twice');
  }
  [spec.seedHi, spec.seedLo] = seedHalves(o.seed);
  spec.proxyTrees = intOption(o.proxyTrees, 'proxyTrees', 0, 100000, 0);
  spec.samples = intOption(o.samples, 'samples', 1, 1e8, 20000);
  if (o.prune !== undefined) {
    spec.prune = orderingCode(o.prune, 'prune');
    spec.keep = intOption(o.keep, 'keep', 1, spec.trees, 0);
  } else if (o.keep !== undefined) {
    throw new TypeError("keep needs prune (an ordering name)");
  }
  if (o.queryOrder !== undefined) {
    if (!Object.hasOwn(QUERY_ORDERS, o.queryOrder)) throw new RangeError(`queryOrder must be 'ordered' or 'random', got ${describe(o.queryOrder)}`);
    spec.queryOrder = QUERY_ORDERS[o.queryOrder];
  }
  // A JS exception must not unwind through wasm frames: catch it, cancel, rethrow afterwards.
  let callbackError = null;
  const progress = ctl.onProgress === undefined ? undefined : (done, total) => {
    try {
      return ctl.onProgress(done, total) !== false;
    } catch (e) {
      callbackError = e;
      return false;
    }
  };
  const out = call(() => m._runExperiment(spec, dataHandle, progress));
  if (callbackError !== null) throw callbackError;
  if (typeof out !== 'string') check(out);
  return JSON.parse(out);
}

/** Heap statistics of the wasm module: {heapBytes: size of wasm memory, inUse: bytes allocated}. */
export function memoryStats() {
  const m = requireModule();
  return { heapBytes: m.HEAPU8.length, inUse: m._heapInUse() };
}

/**
 * Loads the WebAssembly module (embedded; no network request) and returns the API. Safe to call
 * many times; every call resolves to the same object. After an abort inside wasm (see
 * UrnforestError 'ModuleReset'), resolves once the fresh module instance is ready.
 */
export function init() {
  if (modulePromise === null) {
    modulePromise = createUrnforestModule().then((module) => {
      M = guardModule(module);
      resetting = false;
      return api;
    }, (e) => {
      modulePromise = null;
      throw e;
    });
  }
  return modulePromise;
}

const api = Object.freeze({
  Dataset, Forest, HaltingTable, trainForest, haltingTable, pstar, rules, UrnforestError, memoryStats, init,
  orderings, runExperiment, generators,
});
