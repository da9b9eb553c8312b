// Types of urnforest/predict (dist/predict.js): the inference-only entry. Its Forest loads and
// predicts exactly as the full package's Forest (dist/index.d.ts) does, with the same options,
// results and error codes; training, halting-table objects, traces, experiments, pruning, datasets
// and CSV are the full package's only (docs/api.md, "The inference-only entry").

/** Failure reported by the urnforest core (corrupt model bytes, a column the model needs, ...). */
export class UrnforestError extends Error {
  /** Stable code, the full package's: e.g. 'CorruptModel', 'ColumnMismatch', 'UnsupportedModel'. */
  readonly code: string;
  /** Always 0 here (CSV positions are the full package's). */
  readonly line: number;
  readonly column: number;
}

/** Where the wasm comes from: a URL to stream, a Response (or a promise of one), bytes or a compiled module. */
export type WasmSource = string | URL | Response | PromiseLike<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

export interface InitOptions {
  /**
   * true: the import build (dist/urnforest_predict_import.wasm), which also reads ONNX and XGBoost JSON
   * (Forest.fromONNX, Forest.fromXGBoost); default false: urnforest's model bytes only (Forest.fromBytes;
   * the others throw UrnforestError 'UnsupportedModel').
   */
  imports?: boolean;
  /** Default: wasmUrl() (or importWasmUrl() with imports: true), next to dist/predict.js. */
  wasm?: WasmSource;
}

export interface PredictApi {
  Forest: typeof Forest;
  UrnforestError: typeof UrnforestError;
  init: typeof init;
  wasmUrl: typeof wasmUrl;
  importWasmUrl: typeof importWasmUrl;
}

/**
 * Loads the inference-only wasm once; later calls resolve to the same API (asking `imports: true` after a
 * call without loads the import build in its place). Must resolve before Forest is used. If the module
 * aborts (out of memory: it is built without exceptions), the call throws UrnforestError 'OutOfMemory'
 * (or 'Internal'), forests of that instance throw 'ModuleReset', and the next init() makes a fresh one.
 */
export function init(options?: InitOptions): Promise<PredictApi>;
/** The URL of this entry's wasm asset (bundlers copy it next to their output). */
export function wasmUrl(): URL;
/** The URL of the import build's wasm asset (init({imports: true})). */
export function importWasmUrl(): URL;

/** Names given to an imported model (as the full package's Forest.fromONNX / fromXGBoost). */
export interface ImportOptions {
  /** One distinct name per input column, in the model's order; default the file's names or f0, f1, .... */
  featureNames?: readonly string[];
  /** Class names in class-index order; default the file's labels or 0..K-1. */
  classNames?: readonly string[];
  /** The target column's name. */
  target?: string;
}

/**
 * The rows predict() reads: number[][] (one value per model feature, in featureNames order), an
 * array of objects keyed by feature name (any order, extra keys ignored; a model's categorical
 * features take their category texts, an unknown category being a missing value), or a flat
 * Float32Array / Float64Array of rows * numFeatures values. NaN, null and undefined are missing.
 */
export type Rows = readonly (readonly (number | null | undefined)[])[] |
  readonly Record<string, number | string | boolean | null | undefined>[] | Float32Array | Float64Array;

export type Vote = 'soft' | 'hard';

/** A halted prediction's options: the full package's predict() options. */
export interface PredictOptions {
  /**
   * A halting rule ('alpha1', 'siba', 'hyper', '1dir', 'ndir', 'infinite', 'optimal') or 'margin'; 'auto', 'lp'
   * and 'stratified' in the import build only (the default build throws UrnforestError 'UnsupportedModel'). Without a rule,
   * an `alpha` or a `delta` asks for 'auto'.
   */
  rule?: string;
  /** Target confidence in (0, 1]; default 0.99. */
  alpha?: number;
  /** Rule 'auto': the certificate's failure probability. */
  delta?: number;
  order?: 'generation' | 'random' | 'fixed';
  seed?: number | bigint;
  trees?: number;
  /** Also the full prediction and the disagreement with it. */
  compare?: boolean;
  /** An imported model's vote. */
  vote?: Vote;
  /** With order 'fixed': the tree ids queried, in order. */
  fixedOrder?: Int32Array | readonly number[];
  /** Rule 'lp': 'minimean' (default) or 'minimax' (two classes). */
  objective?: 'minimean' | 'minimax';
  /** The index of the first row in a larger batch: its random query orders are that batch's (a non-negative integer). */
  firstRow?: number;
}

/** The full prediction (no options). */
export interface Prediction {
  labels: string[];
  classIndex: Int32Array;
  /** Hard votes, rows x classes row-major (empty for an additive model). */
  votes: Uint32Array;
  /** Weighted ensembles (AdaBoost): summed tree weights per class, rows x classes. */
  scores?: Float64Array;
  /** An imported model's soft vote: the source library's class probabilities. */
  probabilities?: Float64Array;
  classNames: string[];
}

/** A halted prediction (any rule); the fields present depend on the path, as in the full package. */
export interface HaltedPrediction {
  labels: string[];
  classIndex: Int32Array;
  treesUsed: Int32Array;
  confidence: Float64Array;
  haltedEarly: Uint8Array;
  /** Table rules: the votes each row drew, rows x classes. */
  tallies?: Int32Array;
  /** With compare: the full prediction's class indices, its votes and the fraction of rows that differ. */
  fullClassIndex?: Int32Array;
  fullVotes?: Uint32Array;
  disagreement?: number;
  meanTrees: number;
  /** Rule 'margin': the threshold used. */
  lambda?: number;
  trees: number;
  classNames: string[];
  rule: string;
  alpha: number;
  /** An imported model: the vote used. */
  vote?: Vote;
  /**
   * Per row the class probabilities (table rules: posterior mean vote shares; 'margin' and the
   * exact exit: the model's own), computed on first read; absent for 'lp' and 'auto'.
   */
  readonly probabilities?: Float64Array;
}

export interface ProbabilityPrediction {
  labels: string[];
  classIndex: Int32Array;
  /** rows x classes, each row summing to 1. */
  probabilities: Float64Array;
  classNames: string[];
  vote: Vote;
}

/** A model loaded for prediction, held in wasm memory until dispose() (or garbage collection). */
export class Forest {
  private constructor();
  /** A model written by the full package's toBytes() or the CLI's `train --out` (CorruptModel, UnsupportedVersion). */
  static fromBytes(bytes: Uint8Array): Forest;
  /** An ONNX TreeEnsembleClassifier, opsets 1, 3 and 5 (needs init({imports: true}); UnsupportedModel, CorruptModel, LimitExceeded). */
  static fromONNX(bytes: Uint8Array, options?: ImportOptions): Forest;
  /** XGBoost's JSON model (Booster.save_model('model.json')): its bytes or its text (needs init({imports: true})). */
  static fromXGBoost(model: Uint8Array | string, options?: ImportOptions): Forest;
  /** The full prediction. */
  predict(rows: Rows): Prediction;
  /** The halted prediction of `options.rule` (tables stored with the model, else built from its prior and kept). */
  predict(rows: Rows, options: PredictOptions): HaltedPrediction;
  /** Class probabilities of the full prediction. */
  predictProba(rows: Rows, options?: { vote?: Vote }): ProbabilityPrediction;
  readonly numTrees: number;
  readonly numClasses: number;
  readonly numFeatures: number;
  readonly classNames: string[];
  readonly featureNames: string[];
  readonly featureTypes: ('numeric' | 'categorical')[];
  /** An imported model's record, else null. */
  readonly imported: { kind: string; vote: Vote; source: string; calibrated: boolean; calibrationRows: number } | null;
  /** The halting tables stored with the model, in storage order. */
  storedTables(): { rule: string; alpha: number; trees: number }[];
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws. */
  dispose(): void;
}
