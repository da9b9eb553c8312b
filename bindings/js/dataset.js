// Dataset: an immutable table of feature rows with optional class labels, held in wasm memory;
// loaded from CSV (copied into the heap), from arrays, or as a subset of another Dataset.
import { callChecked, UrnforestError } from './errors.js';
import { INTERNAL, adopt, disposed, isOwned, live, release, withNewHandle } from './handles.js';
import { currentModule, requireModule } from './module.js';
import { describe, distinctStrings, intOption, isPlainObject, optionsObject, rejectUnknown } from './validate.js';

const CLASS_ORDERS = { sorted: 0, firstSeen: 1 };

/** An immutable table of feature rows with optional class labels, held in wasm memory. */
export class Dataset {
  constructor(token, handle) {
    if (token !== INTERNAL) throw new TypeError('use Dataset.fromCSV() or Dataset.fromArrays()');
    adopt(this, handle, 'Dataset');
  }

  /**
   * Parses CSV text (header row; RFC 4180 quoting; empty, `?` or `NA` cells are missing): a string,
   * or the file's bytes as a Uint8Array or ArrayBuffer (UTF-8; invalid bytes are CsvInvalidUtf8, as in the CLI).
   * Options: target (column name, default the last column; null = no target column),
   * classOrder ('sorted' default | 'firstSeen'), schemaOf (a Forest: read against its columns).
   */
  static fromCSV(text, options) {
    const m = requireModule();
    if (text instanceof ArrayBuffer) text = new Uint8Array(text);
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
      throw new TypeError(`Dataset.fromCSV: text must be a string, a Uint8Array or an ArrayBuffer, got ${describe(text)}`);
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
      // A string, not anything whose string form names an order (['firstSeen'] is refused).
      if (typeof o.classOrder !== 'string' || !Object.hasOwn(CLASS_ORDERS, o.classOrder)) {
        throw new RangeError(`classOrder must be 'sorted' or 'firstSeen', got ${describe(o.classOrder)}`);
      }
      classOrder = CLASS_ORDERS[o.classOrder];
    }
    let schemaOf = null;
    if (o.schemaOf !== undefined) {
      if (!isOwned(o.schemaOf, 'Forest')) throw new TypeError('schemaOf must be a Forest');
      schemaOf = live(o.schemaOf, 'Forest');
    }
    const input = copyCsvIntoWasm(m, text);
    let handle;
    try {
      handle = withNewHandle(m._DatasetHandle,
        (h) => h._loadCsv(input.address, input.bytes, target, hasTarget, classOrder, schemaOf));
    } finally {
      if (m === currentModule()) m._free(input.address);
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
    if (!isPlainObject(options)) throw new TypeError(`Dataset.fromArrays: options {rows, cols} (a plain object) are required, got ${describe(options)}`);
    rejectUnknown(options, ['rows', 'cols', 'labels', 'featureNames', 'classNames'], 'Dataset.fromArrays');
    if (options.rows === undefined) throw new TypeError('rows is required');
    if (options.cols === undefined) throw new TypeError('cols is required');
    const rows = intOption(options.rows, 'rows', 1, 2 ** 26, 0);
    const cols = intOption(options.cols, 'cols', 1, 65536, 0);
    if (x.length !== rows * cols) {
      throw new RangeError(`x.length (${x.length}) must equal rows * cols (${rows} * ${cols} = ${rows * cols})`);
    }
    const featureNames = distinctStrings(options.featureNames, 'featureNames');
    if (featureNames !== undefined && featureNames.length !== cols) {
      throw new RangeError(`featureNames.length (${featureNames.length}) must equal cols (${cols})`);
    }
    const { labels, classNames } = labelsOption(options.labels, distinctStrings(options.classNames, 'classNames'), rows);
    const handle = withNewHandle(m._DatasetHandle,
      (h) => h._loadArrays(x, rows, cols, labels, featureNames ?? [], classNames ?? []));
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
    const fresh = withNewHandle(requireModule()._DatasetHandle, (h) => h._loadSubset(handle, Uint32Array.from(rows)));
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
  get disposed() { return disposed(this, 'Dataset'); }
  /** Frees the wasm memory. Idempotent; any later use throws. */
  dispose() { release(this, 'Dataset'); }
}

// fromArrays' labels (undefined, an Int32Array of class indices or class-name strings) as
// {labels: Int32Array or null, classNames}; names given as strings default to their byte order.
function labelsOption(labels, classNames, rows) {
  if (labels === undefined) return { labels: null, classNames };
  if (labels instanceof Int32Array) {
    if (labels.length !== rows) throw new RangeError(`labels.length (${labels.length}) must equal rows (${rows})`);
    const limit = classNames !== undefined ? classNames.length : 4096;
    for (let i = 0; i < labels.length; i++) {
      if (labels[i] < -1 || labels[i] >= limit) {
        throw new RangeError(`labels[${i}] = ${labels[i]} is not a class index (-1 or 0..${limit - 1})`);
      }
    }
    return { labels, classNames };
  }
  if (Array.isArray(labels)) {
    if (labels.length !== rows) throw new RangeError(`labels.length (${labels.length}) must equal rows (${rows})`);
    if (!labels.every((s) => typeof s === 'string')) {
      throw new TypeError('labels must be an Int32Array of class indices or an array of class-name strings');
    }
    const names = classNames ?? [...new Set(labels)].sort(byteOrder);
    const index = new Map(names.map((name, i) => [name, i]));
    const mapped = new Int32Array(rows);
    for (let i = 0; i < rows; i++) {
      const c = index.get(labels[i]);
      if (c === undefined) throw new RangeError(`labels[${i}] = ${JSON.stringify(labels[i])} is not one of classNames`);
      mapped[i] = c;
    }
    return { labels: mapped, classNames: names };
  }
  throw new TypeError(`labels must be an Int32Array or an array of strings, got ${describe(labels)}`);
}

function byteOrder(a, b) {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) if (ea[i] !== eb[i]) return ea[i] - eb[i];
  return ea.length - eb.length;
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
