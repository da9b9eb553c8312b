// Part of dist/index.d.ts: the file header, UrnforestErrorCode and UrnforestError.
// Hand-written types for urnforest (emscripten 3.1.6 cannot emit them). Mirrors bindings/js/ (entry index.js)
// one-to-one; checked by `tsc --noEmit --strict tests/js/types_check.ts` in `npm test`.

/** Stable error codes of the core (never renamed; new ones are appended). */
export type UrnforestErrorCode =
  | 'InvalidArgument' | 'CsvEmpty' | 'CsvNoRows' | 'CsvRaggedRow' | 'CsvUnterminatedQuote'
  | 'CsvBadQuote' | 'CsvInvalidUtf8' | 'CsvDuplicateColumn' | 'TargetNotFound' | 'MissingLabel'
  | 'NonFiniteValue' | 'ShapeMismatch' | 'TooFewClasses' | 'LimitExceeded' | 'CorruptModel'
  | 'UnsupportedVersion' | 'UnknownClass' | 'ColumnMismatch' | 'OutOfMemory' | 'Internal'
  /** An imported ONNX model uses an operator, graph or split mode urnforest does not run. */
  | 'UnsupportedModel'
  /** The target column holds numbers with many distinct values (regression): urnforest classifies. */
  | 'NumericTarget'
  /** calibrate() was given fewer than 5 rows: no alpha of 1/2 or more can be certified from them. */
  | 'TooFewCalibrationRows'
  /** JS only: the object (or call) belongs to a wasm instance that aborted; `await init()` and retry. */
  | 'ModuleReset';

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

