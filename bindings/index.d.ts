// Hand-written types for urnforest (emscripten 3.1.6 cannot emit them). Mirrors bindings/index.js
// one-to-one; checked by `tsc --noEmit --strict tests/js/types_check.ts` in `npm test`.

/** Stable error codes of the core (never renamed; new ones are appended). */
export type UrnforestErrorCode =
  | 'InvalidArgument' | 'CsvEmpty' | 'CsvNoRows' | 'CsvRaggedRow' | 'CsvUnterminatedQuote'
  | 'CsvBadQuote' | 'CsvInvalidUtf8' | 'CsvDuplicateColumn' | 'TargetNotFound' | 'MissingLabel'
  | 'NonFiniteValue' | 'ShapeMismatch' | 'TooFewClasses' | 'LimitExceeded' | 'CorruptModel'
  | 'UnsupportedVersion' | 'UnknownClass' | 'ColumnMismatch' | 'OutOfMemory' | 'Internal';

/**
 * A failure reported by the urnforest core. Bad arguments are TypeError/RangeError instead;
 * use of a disposed object is a plain Error.
 */
export class UrnforestError extends Error {
  constructor(code: UrnforestErrorCode | string, message: string, where?: { line?: number; column?: number });
  readonly name: 'UrnforestError';
  /** Stable machine-readable code, e.g. 'CsvRaggedRow'. */
  readonly code: UrnforestErrorCode | string;
  /** 1-based line in the CSV text; 0 when not applicable. */
  readonly line: number;
  /** 1-based column in the CSV text; 0 when not applicable. */
  readonly column: number;
}

export type FeatureType = 'numeric' | 'categorical';

export interface FromCSVOptions {
  /** Target column name; default: the last column; `null`: the text has no target column. */
  target?: string | null;
  /** Class index order: byte-wise sorted names (default) or order of first appearance. */
  classOrder?: 'sorted' | 'firstSeen';
  /** Read the text against this model's columns (by name, any order; unseen category → missing). */
  schemaOf?: Forest;
}

export interface FromArraysOptions {
  /** Number of rows (≥ 1). */
  rows: number;
  /** Number of feature columns (≥ 1). */
  cols: number;
  /** Class per row: indices (-1 = unknown) or class names. */
  labels?: Int32Array | string[];
  /** One name per column; default "x0", "x1", ... */
  featureNames?: string[];
  /** Class index → name; default: sorted distinct `labels` strings, or "0", "1", ... for indices. */
  classNames?: string[];
}

/** An immutable table of rows held in wasm memory. Call dispose() when done. */
export class Dataset {
  private constructor();
  /** Parses CSV text with a header row. Throws UrnforestError (with line/column) on malformed input. */
  static fromCSV(text: string, options?: FromCSVOptions): Dataset;
  /** From a row-major matrix `x[row * cols + col]` of numeric features (NaN = missing). */
  static fromArrays(x: Float32Array, options: FromArraysOptions): Dataset;
  /** A new Dataset of the given rows (indices, repeats allowed), same schema. The caller owns it. */
  subset(rows: Uint32Array | Int32Array | number[]): Dataset;
  readonly numRows: number;
  readonly numFeatures: number;
  readonly classNames: string[];
  readonly featureNames: string[];
  readonly featureTypes: FeatureType[];
  /** '' when the data has no target column. */
  readonly targetName: string;
  readonly hasLabels: boolean;
  /** Class index per row (-1 = unknown); a copy; empty when hasLabels is false. */
  labels(): Int32Array;
  /** Row-major features (categorical values as category indices, NaN = missing); a copy. */
  toRowMajor(): Float32Array;
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

export interface TrainOptions {
  /** 'rf' (default): bootstrap + mtry features per node; 'bagging': bootstrap, all features. */
  ensemble?: 'rf' | 'bagging';
  /** Number of trees, 1..100000; default 101. */
  trees?: number;
  /** Candidate features per node, 0..numFeatures; 0 (default) = by mtryRule. Ignored for bagging. */
  mtry?: number;
  /** Default mtry: floor(sqrt(M)) (default), floor(log2(M)), floor(log2(M) + 1). */
  mtryRule?: 'sqrt' | 'log2' | 'log2plus1';
  /** Maximum depth (root = 0); 0 (default) = unlimited. */
  maxDepth?: number;
  /** Minimum rows per leaf, ≥ 1; default 1. */
  minLeaf?: number;
  /** Random seed: non-negative safe integer or bigint below 2^64; default 1. */
  seed?: number | bigint;
  /** Called after each tree; return `false` to cancel (UrnforestError 'InvalidArgument'). */
  onProgress?: (done: number, total: number) => boolean | void;
}

export interface Prediction {
  /** Majority class name per row. */
  labels: string[];
  /** Majority class index per row (ties → lowest index). */
  classIndex: Int32Array;
  /** Vote counts, rows × classes, row-major. */
  votes: Uint32Array;
  /** Class index → name. */
  classNames: string[];
}

/** A trained ensemble held in wasm memory. Call dispose() when done. */
export class Forest {
  private constructor();
  /** Loads bytes from toBytes() or the native CLI. Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes: Uint8Array): Forest;
  /** Full-ensemble vote for every row (the dataset must have the model's feature columns). */
  predict(dataset: Dataset): Prediction;
  /** Versioned binary model (a copy). */
  toBytes(): Uint8Array;
  readonly numTrees: number;
  readonly numClasses: number;
  readonly numFeatures: number;
  readonly numNodes: number;
  /** Out-of-bag error of the training data, in [0, 1]. */
  readonly oobError: number;
  /** Out-of-bag vote counts, training rows × classes, row-major (a copy). */
  oobVotes(): Uint32Array;
  readonly classNames: string[];
  readonly featureNames: string[];
  readonly featureTypes: FeatureType[];
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

/** Trains a forest; the caller owns (and must dispose) the result. */
export function trainForest(dataset: Dataset, options?: TrainOptions): Forest;

export interface MemoryStats {
  /** Size of the wasm linear memory in bytes (grows, never shrinks). */
  heapBytes: number;
  /** Bytes currently allocated inside it. */
  inUse: number;
}
export function memoryStats(): MemoryStats;

export interface Urnforest {
  Dataset: typeof Dataset;
  Forest: typeof Forest;
  trainForest: typeof trainForest;
  UrnforestError: typeof UrnforestError;
  memoryStats: typeof memoryStats;
  init: typeof init;
}

/** Loads the embedded WebAssembly module (no network request). Every call resolves to the same API. */
export function init(): Promise<Urnforest>;
