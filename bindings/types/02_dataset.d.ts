// Part of dist/index.d.ts: Dataset and its loaders' options.
export type FeatureType = 'numeric' | 'categorical';

export interface FromCSVOptions {
  /** Target column name; default: the last column; `null`: the text has no target column. */
  target?: string | null;
  /** Class index order: byte-wise sorted names (default) or order of first appearance. */
  classOrder?: 'sorted' | 'firstSeen';
  /** Read the text against this model's columns (by name, any order; unseen category → missing). */
  schemaOf?: Forest;
  /** Field separator; 'auto' detects `;` or tab from the header line (default ','). */
  delimiter?: ',' | ';' | '\t' | 'auto';
  /** Decimal mark of numbers (default '.'); ',' needs delimiter ';' or '\t'. */
  decimal?: '.' | ',';
  /** True: a numeric target with many distinct values is read as classes (default: 'NumericTarget' error). */
  targetCategorical?: boolean;
}

/**
 * Class labels a loader accepts: class indices (Int32Array, -1 = unknown), names, or values (null = unknown).
 * Values are named by their text and ordered byte-wise, as CSV labels: [10, 2] gives classes '10', '2'.
 */
export type LabelsInput = Int32Array | ArrayLike<string | null | undefined> | ArrayLike<number | null | undefined>;

/** A float typed array of features (row-major). */
export type FloatArray = Float32Array | Float64Array;

/**
 * One row as a plain object: numbers are numeric, strings and booleans categorical, null/undefined missing.
 * Only the row's own keys are read: an inherited one (constructor, valueOf) is missing.
 */
export type RowObject = Record<string, number | string | boolean | null | undefined>;

export interface FromRowsOptions {
  /** The objects' key holding the class label (object rows only). */
  target?: string;
  /** Class per row, when not under `target`. */
  labels?: LabelsInput;
  /** One name per column (number[][] rows only); default "x0", "x1", ... */
  featureNames?: string[];
  /** Class index → name. */
  classNames?: string[];
  /** True: numeric labels with many distinct values are classes anyway (default: 'NumericTarget' error). */
  targetCategorical?: boolean;
  /** Take column types and class names from this model (for rows to predict). */
  schemaOf?: Forest;
}

export interface FromMatrixOptions {
  /** Rows; required for a typed array x, inferred from number[][]. */
  rows?: number;
  /** Columns; required for a typed array x, inferred from number[][]. */
  cols?: number;
  labels?: LabelsInput;
  featureNames?: string[];
  classNames?: string[];
  targetCategorical?: boolean;
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
   * Parses CSV text with a header row (RFC 4180 quoting; empty, `?` or `NA` cells are missing): a
   * string, or the file's UTF-8 bytes (invalid bytes: 'CsvInvalidUtf8', as in the CLI). Throws
   * UrnforestError (with line/column) on malformed input, 'OutOfMemory' when wasm cannot hold a copy of it.
   */
  static fromCSV(text: string | Uint8Array | ArrayBuffer, options?: FromCSVOptions): Dataset;
  /** From a row-major matrix `x[row * cols + col]` of numeric features (NaN = missing). */
  static fromArrays(x: Float32Array, options: FromArraysOptions): Dataset;
  /**
   * From a flat float array (rows, cols required), number[][] (shape inferred) or
   * object rows (as fromRows). Bad shapes throw UrnforestError ('ShapeMismatch', 'InvalidArgument',
   * 'NonFiniteValue', 'UnknownClass', 'NumericTarget') naming the row and column.
   */
  static fromArrays(x: FloatArray | number[][] | RowObject[], options?: FromMatrixOptions & FromRowsOptions): Dataset;
  /** From number[][] or plain-object rows (string values become categories, null/undefined missing). */
  static fromRows(rows: number[][] | RowObject[], options?: FromRowsOptions): Dataset;
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
  /** A summary (rows, features, target, classes; not the data) for JSON and logs. */
  toJSON(): DatasetSummary;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}
