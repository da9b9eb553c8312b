// Dataset: an immutable table of feature rows with optional class labels, held in wasm memory;
// loaded from CSV (copied into the heap), from arrays, or as a subset of another Dataset.
import { callChecked, UrnforestError } from './errors.js';
import { INTERNAL, adopt, disposed, isOwned, live, release, withNewHandle } from './handles.js';
import { currentModule, requireModule } from './module.js';
import { describe, distinctStrings, intOption, isPlainObject, optionsObject, rejectUnknown, stringArray } from './validate.js';
import { isFloatArray, labelTransport, numericMatrix, objectTable } from './table.js';
import { optionTables } from './options.js';

const CLASS_ORDERS = { sorted: 0, firstSeen: 1 };
const DELIMITERS = { ',': 44, ';': 59, '\t': 9, auto: 0 };
const DECIMALS = { '.': 46, ',': 44 };

/** An immutable table of feature rows with optional class labels, held in wasm memory. */
export class Dataset {
  constructor(token, handle) {
    if (token !== INTERNAL) throw new TypeError('use Dataset.fromCSV() or Dataset.fromArrays()');
    adopt(this, handle, 'Dataset');
  }

  /** Parses CSV text or its UTF-8 bytes (02_dataset.d.ts, FromCSVOptions). */
  static fromCSV(text, options) {
    const m = requireModule();
    if (text instanceof ArrayBuffer) text = new Uint8Array(text);
    if (typeof text !== 'string' && !(text instanceof Uint8Array)) {
      throw new TypeError(`Dataset.fromCSV: text must be a string, a Uint8Array or an ArrayBuffer, got ${describe(text)}`);
    }
    const o = optionsObject(options, 'Dataset.fromCSV');
    rejectUnknown(o, ['target', 'classOrder', 'schemaOf', 'delimiter', 'decimal', 'targetCategorical'], 'Dataset.fromCSV');
    if (o.delimiter !== undefined && !Object.hasOwn(DELIMITERS, o.delimiter)) {
      throw new RangeError(`delimiter must be ',', ';', '\\t' or 'auto', got ${describe(o.delimiter)}`);
    }
    if (o.decimal !== undefined && !Object.hasOwn(DECIMALS, o.decimal)) {
      throw new RangeError(`decimal must be '.' or ',', got ${describe(o.decimal)}`);
    }
    if (o.targetCategorical !== undefined && typeof o.targetCategorical !== 'boolean') {
      throw new TypeError(`targetCategorical must be a boolean, got ${describe(o.targetCategorical)}`);
    }
    const delimiter = DELIMITERS[o.delimiter ?? ','];
    const decimal = DECIMALS[o.decimal ?? '.'];
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
        (h) => h._loadCsv(input.address, input.bytes, target, hasTarget, classOrder, schemaOf, delimiter, decimal,
          o.targetCategorical === true));
    } finally {
      if (m === currentModule()) m._free(input.address);
    }
    return new Dataset(INTERNAL, handle);
  }

  /** From a numeric matrix or object rows (02_dataset.d.ts, FromArraysOptions, FromMatrixOptions). */
  static fromArrays(x, options) {
    const m = requireModule();
    if (!(x instanceof Float32Array) || (isPlainObject(options) && !isLegacyLabels(options.labels))
        || (isPlainObject(options) && options.targetCategorical !== undefined)) {
      if (Array.isArray(x) && x.length > 0 && isPlainObject(x[0])) return Dataset.fromRows(x, options);
      return fromMatrix(m, x, options, 'Dataset.fromArrays');
    }
    if (!isPlainObject(options)) throw new TypeError(`Dataset.fromArrays: options {rows, cols} (a plain object) are required, got ${describe(options)}`);
    rejectUnknown(options, ['rows', 'cols', 'labels', 'featureNames', 'classNames'], 'Dataset.fromArrays');
    if (options.rows === undefined) throw new TypeError('rows is required');
    if (options.cols === undefined) throw new TypeError('cols is required');
    const { limits } = optionTables();
    const rows = intOption(options.rows, 'rows', 1, limits.maxRows, 0);
    const cols = intOption(options.cols, 'cols', 1, limits.maxFeatures, 0);
    if (x.length !== rows * cols) {
      throw new RangeError(`x.length (${x.length}) must equal rows * cols (${rows} * ${cols} = ${rows * cols})`);
    }
    const featureNames = distinctStrings(options.featureNames, 'featureNames');
    if (featureNames !== undefined && featureNames.length !== cols) {
      throw new RangeError(`featureNames.length (${featureNames.length}) must equal cols (${cols})`);
    }
    const classNames = distinctStrings(options.classNames, 'classNames');
    const labels = labelsOption(options.labels, classNames, rows);
    return loadTransport(m, {
      rows, cols, numbers: x, codes: null, texts: [], featureNames: featureNames ?? null, rules: null, cellWhere: 'x',
      labels, labelWhere: '', classNames: classNames ?? null, classesFromModel: false, targetCategorical: false, targetName: '',
    });
  }

  /** From number[][] or plain-object rows (02_dataset.d.ts, FromRowsOptions). */
  static fromRows(rows, options) {
    const m = requireModule();
    if (!Array.isArray(rows) || rows.length === 0) {
      throw new TypeError(`Dataset.fromRows: rows must be a non-empty array of arrays or objects, got ${describe(rows)}`);
    }
    const o = optionsObject(options, 'Dataset.fromRows');
    if (Array.isArray(rows[0])) {
      rejectUnknown(o, ['labels', 'featureNames', 'classNames', 'targetCategorical', 'schemaOf'], 'Dataset.fromRows');
      return fromMatrix(m, rows, o, 'Dataset.fromRows');
    }
    rejectUnknown(o, ['target', 'labels', 'classNames', 'targetCategorical', 'schemaOf'], 'Dataset.fromRows');
    if (o.target !== undefined && (typeof o.target !== 'string' || o.target === '')) {
      throw new TypeError(`target must be a non-empty string, got ${describe(o.target)}`);
    }
    if (o.target !== undefined && o.labels !== undefined) throw new TypeError('give target or labels, not both');
    const forest = o.schemaOf === undefined ? undefined : schemaForest(o.schemaOf);
    const types = forest === undefined ? undefined
      : new Map(forest.featureNames.map((name, i) => [name, forest.featureTypes[i]]));
    const table = objectTable(rows, o.target, types);
    const given = o.target !== undefined ? table.targets : o.labels;
    return load(m, table, given, o, forest, o.target ?? '', o.target !== undefined ? `rows[].${o.target}` : 'labels');
  }

  /** A new Dataset of the given rows, same schema; the caller owns it (02_dataset.d.ts). */
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

  /** A plain summary for JSON.stringify and logs (02_dataset.d.ts DatasetSummary). */
  toJSON() {
    if (disposed(this, 'Dataset')) return { type: 'Dataset', disposed: true };
    const types = this.featureTypes;
    return {
      type: 'Dataset',
      rows: this.numRows,
      features: this.featureNames.map((name, i) => ({ name, type: types[i] })),
      target: this.hasLabels ? this.targetName : null,
      classes: this.classNames,
    };
  }

  /** What console.log and util.inspect print: the toJSON() summary. */
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const summary = this.toJSON();
    delete summary.type;
    if (summary.features) summary.features = summary.features.map((f) => `${f.name} (${f.type})`);
    if (typeof inspect !== 'function') return `Dataset ${JSON.stringify(summary)}`;
    return depth < 0 ? '[Dataset]' : `Dataset ${inspect(summary, options)}`;
  }
  /** Frees the wasm memory. Idempotent; any later use throws. */
  dispose() { release(this, 'Dataset'); }
}

// True for the labels the original Float32Array path takes (undefined, Int32Array, string[]).
function isLegacyLabels(labels) {
  return labels === undefined || labels instanceof Int32Array
    || (Array.isArray(labels) && labels.every((s) => typeof s === 'string'));
}

function schemaForest(forest) {
  if (!isOwned(forest, 'Forest')) throw new TypeError('schemaOf must be a Forest');
  live(forest, 'Forest');
  return forest;
}

// fromArrays/fromRows over a numeric matrix (any float typed array, number[][]).
function fromMatrix(m, x, options, what) {
  if (!isPlainObject(options) && !(Array.isArray(x) && Array.isArray(x[0]))) {
    throw new TypeError(`${what}: options {rows, cols} are required`);
  }
  const o = optionsObject(options, what);
  rejectUnknown(o, ['rows', 'cols', 'labels', 'featureNames', 'classNames', 'targetCategorical', 'schemaOf'], what);
  const { limits } = optionTables();
  const rows = o.rows === undefined ? undefined : intOption(o.rows, 'rows', 1, limits.maxRows, 0);
  const cols = o.cols === undefined ? undefined : intOption(o.cols, 'cols', 1, limits.maxFeatures, 0);
  if (!(isFloatArray(x) || (Array.isArray(x) && Array.isArray(x[0])))) {
    throw new TypeError(`${what}: x must be a Float32Array, Float64Array, number[][] or an array of objects, got ${describe(x)}`);
  }
  const matrix = numericMatrix(x, rows, cols);
  const featureNames = stringArray(o.featureNames, 'featureNames');
  if (featureNames !== undefined && featureNames.length !== matrix.cols) {
    throw new UrnforestError('ShapeMismatch', `ShapeMismatch: featureNames has ${featureNames.length} names for ${matrix.cols} columns`);
  }
  const forest = o.schemaOf === undefined ? undefined : schemaForest(o.schemaOf);
  const table = {
    numbers: matrix.values, codes: null, texts: [], rows: matrix.rows, cols: matrix.cols,
    featureNames: featureNames ?? null, rules: null, cellWhere: 'x',
  };
  return load(m, table, o.labels, o, forest, '', 'labels');
}

// Loads `table` (a transport of table.js) with class labels `given` (undefined = none) through the
// core's DatasetBuilder, which decides column types, class names and their order.
function load(m, table, given, o, forest, targetName, what) {
  if (o.targetCategorical !== undefined && typeof o.targetCategorical !== 'boolean') {
    throw new TypeError(`targetCategorical must be a boolean, got ${describe(o.targetCategorical)}`);
  }
  let classNames = stringArray(o.classNames, 'classNames');
  if (classNames === undefined && forest !== undefined) classNames = forest.classNames;
  const labels = given === undefined ? null : labelTransport(given, table.rows, what);
  return loadTransport(m, {
    ...table, labels, labelWhere: targetName, classNames: classNames ?? null, classesFromModel: forest !== undefined,
    targetCategorical: o.targetCategorical === true, targetName,
  });
}

// One call of the wasm dataset adapter (bindings/wasm/dataset_columns.h) with a whole transport.
function loadTransport(m, transport) {
  const handle = withNewHandle(m._DatasetHandle, (h) => h._loadColumns(transport));
  return new Dataset(INTERNAL, handle);
}

// fromArrays' labels (undefined, an Int32Array of class indices or class-name strings), checked as
// arguments (RangeError), as a label transport or null. The core orders names given as strings
// (byte-wise) when classNames is not given.
function labelsOption(labels, classNames, rows) {
  if (labels === undefined) return null;
  if (labels instanceof Int32Array) {
    if (labels.length !== rows) throw new RangeError(`labels.length (${labels.length}) must equal rows (${rows})`);
    const limit = classNames !== undefined ? classNames.length : optionTables().limits.maxLabelClasses;
    for (let i = 0; i < labels.length; i++) {
      if (labels[i] < -1 || labels[i] >= limit) {
        throw new RangeError(`labels[${i}] = ${labels[i]} is not a class index (-1 or 0..${limit - 1})`);
      }
    }
    return labels;
  }
  if (Array.isArray(labels)) {
    if (labels.length !== rows) throw new RangeError(`labels.length (${labels.length}) must equal rows (${rows})`);
    if (!labels.every((s) => typeof s === 'string')) {
      throw new TypeError('labels must be an Int32Array of class indices or an array of class-name strings');
    }
    if (classNames !== undefined) {
      const known = new Set(classNames);
      const i = labels.findIndex((s) => !known.has(s));
      if (i >= 0) throw new RangeError(`labels[${i}] = ${JSON.stringify(labels[i])} is not one of classNames`);
    }
    return labelTransport(labels, rows);
  }
  throw new TypeError(`labels must be an Int32Array or an array of strings, got ${describe(labels)}`);
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
