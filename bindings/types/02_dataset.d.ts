// Part of dist/index.d.ts: Dataset and its loaders' options.
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
  /**
   * Parses CSV text with a header row: a string, or the file's UTF-8 bytes. Throws UrnforestError
   * (with line/column) on malformed input, 'OutOfMemory' when wasm cannot hold a copy of it.
   */
  static fromCSV(text: string | Uint8Array | ArrayBuffer, options?: FromCSVOptions): Dataset;
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
