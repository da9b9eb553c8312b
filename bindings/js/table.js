// Input shapes: turns what a JavaScript program holds (number[][], typed arrays of any float type,
// arrays of plain objects, number[] or string[] labels) into the table transport that the core's
// DatasetBuilder reads (bindings/wasm/dataset_columns.h): numbers, strings and missing cells. JS
// checks only what its values are (cell kinds, lengths, float32 range); the builder decides column
// types, categories, class names and their order. Every bad shape is an UrnforestError whose
// message names the row and the column.
import { UrnforestError } from './errors.js';
import { describe } from './validate.js';

const FLOAT_ARRAYS = ['Float32Array', 'Float64Array', 'Float16Array'];

/** True for a typed array of floats (Float32Array, Float64Array, Float16Array where it exists). */
export function isFloatArray(x) {
  return ArrayBuffer.isView(x) && FLOAT_ARRAYS.includes(x.constructor?.name);
}

function fail(code, message) {
  return new UrnforestError(code, `${code}: ${message}`);
}

// The float32 value of cell `v` at (row, column) of `where`; NaN for missing (NaN, null, undefined).
function cellNumber(v, row, col, where) {
  if (v === null || v === undefined) return NaN;
  if (typeof v !== 'number') {
    throw fail('InvalidArgument', `${where}[${row}][${col}] is ${describe(v)}; cells must be numbers (NaN, null or undefined = missing)`);
  }
  const f = Math.fround(v);
  if (!Number.isNaN(v) && !Number.isFinite(f)) {
    throw fail('NonFiniteValue', `${where}[${row}][${col}] = ${v} is not a finite float32; write missing values as NaN, null or undefined`);
  }
  return f;
}

/**
 * The numeric matrix of `x` as {values: Float32Array row-major, rows, cols}: a typed array of
 * floats (with `rows` and `cols`), or number[][] (rows and cols inferred; when given they must
 * agree).
 */
export function numericMatrix(x, rows, cols) {
  if (Array.isArray(x) && x.length > 0 && Array.isArray(x[0])) {
    const n = x.length;
    const width = x[0].length;
    if (rows !== undefined && rows !== n) throw fail('ShapeMismatch', `rows is ${rows} but x has ${n} rows`);
    if (cols !== undefined && cols !== width) throw fail('ShapeMismatch', `cols is ${cols} but x[0] has ${width} values`);
    if (width === 0) throw fail('ShapeMismatch', 'x[0] is empty; rows need at least one feature');
    const values = new Float32Array(n * width);
    for (let r = 0; r < n; r++) {
      const row = x[r];
      if (!Array.isArray(row) && !isFloatArray(row)) throw fail('ShapeMismatch', `x[${r}] is ${describe(row)}, not an array of numbers`);
      if (row.length !== width) {
        throw fail('ShapeMismatch', `x[${r}] has ${row.length} values but x[0] has ${width} (ragged rows)`);
      }
      for (let c = 0; c < width; c++) values[r * width + c] = cellNumber(row[c], r, c, 'x');
    }
    return { values, rows: n, cols: width };
  }
  if (!isFloatArray(x)) {
    throw new TypeError(`x must be a Float32Array, Float64Array or number[][], got ${describe(x)}`);
  }
  if (rows === undefined || cols === undefined) throw new TypeError('rows and cols are required for a flat x');
  if (x.length !== rows * cols) {
    throw fail('ShapeMismatch', `x.length (${x.length}) must equal rows * cols (${rows} * ${cols} = ${rows * cols})`);
  }
  if (x instanceof Float32Array) {
    for (let i = 0; i < x.length; i++) {
      if (x[i] === Infinity || x[i] === -Infinity) {
        throw fail('NonFiniteValue', `x[${i}] (row ${Math.floor(i / cols)}, column ${i % cols}) = ${x[i]} is not finite; write missing values as NaN`);
      }
    }
    return { values: x, rows, cols };
  }
  const values = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) values[i] = cellNumber(x[i], Math.floor(i / cols), i % cols, 'x');
  return { values, rows, cols };
}

const RULES = { numeric: 1, categorical: 2 };

// The value of `key` that row `o` owns; undefined (missing) for a key it only inherits, such as
// constructor or valueOf, or __proto__ when it is not an own key (JSON.parse makes it one).
function own(o, key) {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/**
 * The table transport of an array of plain objects: one column per own key (in first-seen order
 * over all rows, the target key left out); numbers are number cells, strings and booleans string
 * cells, null/undefined/NaN and keys a row does not own are missing. `types`: column name ->
 * 'numeric' | 'categorical' of a model (schemaOf), which then decides a column's type (a number in
 * a categorical column is sent as its text). Returns {numbers, codes, texts, rows, cols,
 * featureNames, rules, cellWhere, targets (the target key's values, or undefined)}.
 */
export function objectTable(objects, target, types) {
  const n = objects.length;
  const names = [];
  const seen = new Set();
  for (let r = 0; r < n; r++) {
    const o = objects[r];
    if (o === null || typeof o !== 'object' || Array.isArray(o)) {
      throw fail('InvalidArgument', `rows[${r}] is ${describe(o)}; every row must be a plain object (or every row an array)`);
    }
    for (const key of Object.keys(o)) {
      if (key !== target && !seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  if (names.length === 0) throw fail('ShapeMismatch', 'the rows have no feature keys');
  const cols = names.length;
  const numbers = new Float32Array(n * cols).fill(NaN);
  const codes = new Int32Array(n * cols).fill(-1);
  const texts = [];
  const textIndex = new Map();
  const rules = new Int32Array(cols);
  for (let c = 0; c < cols; c++) {
    const name = names[c];
    const forced = types?.get(name);
    if (forced !== undefined) rules[c] = RULES[forced];
    for (let r = 0; r < n; r++) {
      let v = own(objects[r], name);
      if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) continue;
      if (typeof v === 'boolean') v = String(v);
      if (typeof v !== 'number' && typeof v !== 'string') {
        throw fail('InvalidArgument', `rows[${r}].${name} is ${describe(v)}; values must be numbers, strings, booleans, null or undefined`);
      }
      if (forced === 'categorical' && typeof v === 'number') v = String(v);
      if (typeof v === 'number') {
        numbers[r * cols + c] = cellNumber(v, r, name, 'rows');
      } else {
        let k = textIndex.get(v);
        if (k === undefined) {
          k = texts.length;
          textIndex.set(v, k);
          texts.push(v);
        }
        codes[r * cols + c] = k;
      }
    }
  }
  const targets = target === undefined ? undefined : objects.map((o) => own(o, target));
  return { numbers, codes, texts, rows: n, cols, featureNames: names, rules, cellWhere: 'rows', targets };
}

/**
 * The label transport of `labels` for `rows` rows: an Int32Array of class indices (-1 = unknown)
 * as is; string[], number[] or another typed array as {codes (index into names, -1 = unknown),
 * names (distinct labels as text, a number's text is String(v)), numbers (Uint8Array, 1 where the
 * name is a number's)}. null/undefined entries are unknown. The core decides the class names and
 * their order (byte-wise, as the CSV reader: numbers 1..10 give '1', '10', '2', ...).
 */
export function labelTransport(labels, rows, what = 'labels') {
  if (!Array.isArray(labels) && !ArrayBuffer.isView(labels)) {
    throw new TypeError(`${what} must be an Int32Array, string[] or number[], got ${describe(labels)}`);
  }
  if (labels.length !== rows) {
    throw fail('ShapeMismatch', `${what} has ${labels.length} entries but there are ${rows} rows`);
  }
  if (labels instanceof Int32Array) return labels;
  const codes = new Int32Array(rows);
  const names = [];
  const numbers = [];
  const index = new Map();
  for (let i = 0; i < rows; i++) {
    const v = labels[i];
    if (v === null || v === undefined) {
      codes[i] = -1;
      continue;
    }
    const number = typeof v === 'number';
    if (number ? !Number.isFinite(v) : typeof v !== 'string') {
      throw fail('InvalidArgument', `${what}[${i}] is ${describe(v)}; labels must be strings or finite numbers (null = unknown)`);
    }
    const key = (number ? 'n' : 's') + String(v);
    let k = index.get(key);
    if (k === undefined) {
      k = names.length;
      index.set(key, k);
      names.push(String(v));
      numbers.push(number ? 1 : 0);
    }
    codes[i] = k;
  }
  return { codes, names, numbers: Uint8Array.from(numbers) };
}
