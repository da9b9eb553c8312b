// Input shapes: turns what a JavaScript program holds (number[][], typed arrays of any float type,
// arrays of plain objects, number[] or string[] labels) into the row-major Float32Array, per-column
// categories and class indices that the core's Dataset takes. Every bad shape is an UrnforestError
// whose message names the row and the column.
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

/**
 * The table of an array of plain objects: one column per key (in first-seen order over all rows,
 * the target key left out); numbers make numeric columns, strings and booleans categorical ones
 * (categories in first-seen order), null/undefined/NaN/absent keys are missing. `types`: column
 * name -> 'numeric' | 'categorical' of a model (schemaOf), which then decides a column's type.
 * Returns {values, rows, cols, featureNames, categories (string[] per column, null = numeric),
 * targets (the target key's values, or undefined)}.
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
  const values = new Float32Array(n * cols);
  const categories = [];
  for (let c = 0; c < cols; c++) {
    const name = names[c];
    const forced = types?.get(name);
    let kind = forced ?? null; // 'numeric' | 'categorical' once a value decides it
    let firstRow = -1;
    const index = new Map();
    for (let r = 0; r < n; r++) {
      let v = objects[r][name];
      if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) {
        values[r * cols + c] = NaN;
        continue;
      }
      if (typeof v === 'boolean') v = String(v);
      if (typeof v !== 'number' && typeof v !== 'string') {
        throw fail('InvalidArgument', `rows[${r}].${name} is ${describe(v)}; values must be numbers, strings, booleans, null or undefined`);
      }
      if (forced === 'categorical' && typeof v === 'number') v = String(v);
      const vkind = typeof v === 'number' ? 'numeric' : 'categorical';
      if (kind === null) {
        kind = vkind;
        firstRow = r;
      } else if (kind !== vkind) {
        throw fail(forced ? 'ColumnMismatch' : 'InvalidArgument', forced
          ? `rows[${r}].${name} is ${describe(v)} but column '${name}' is ${forced} in the model`
          : `column '${name}' mixes numbers and strings: rows[${firstRow}].${name} is ${describe(objects[firstRow][name])}, rows[${r}].${name} is ${describe(v)}`);
      }
      if (vkind === 'numeric') {
        values[r * cols + c] = cellNumber(v, r, name, 'rows');
      } else {
        let k = index.get(v);
        if (k === undefined) {
          k = index.size;
          index.set(v, k);
        }
        values[r * cols + c] = k;
      }
    }
    categories.push(kind === 'categorical' ? [...index.keys()] : null);
  }
  const targets = target === undefined ? undefined : objects.map((o) => o[target]);
  return { values, rows: n, cols, featureNames: names, categories, targets };
}

/**
 * Class indices of `labels` for `rows` rows: an Int32Array of indices (-1 = unknown) kept as is;
 * string[] (class names); number[] or another typed array (class values; their names are the
 * numbers as text, in numeric order); null/undefined entries are unknown (-1). `classNames`, when
 * given, fixes the names and their order. Returns {labels: Int32Array, classNames, numeric (true
 * when the labels were numbers, so that the core checks for a regression target)}.
 */
export function labelIndices(labels, classNames, rows, what = 'labels') {
  if (!Array.isArray(labels) && !ArrayBuffer.isView(labels)) {
    throw new TypeError(`${what} must be an Int32Array, string[] or number[], got ${describe(labels)}`);
  }
  if (labels.length !== rows) {
    throw fail('ShapeMismatch', `${what} has ${labels.length} entries but there are ${rows} rows`);
  }
  if (labels instanceof Int32Array) return { labels, classNames, numeric: false };
  let kind = null;
  for (let i = 0; i < rows; i++) {
    const v = labels[i];
    if (v === null || v === undefined) continue;
    const k = typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'other';
    if (k === 'other' || (k === 'number' && !Number.isFinite(v))) {
      throw fail('InvalidArgument', `${what}[${i}] is ${describe(v)}; labels must be strings or finite numbers (null = unknown)`);
    }
    if (kind === null) kind = k;
    else if (kind !== k) throw fail('InvalidArgument', `${what} mixes numbers and strings (at ${what}[${i}] = ${describe(v)})`);
  }
  const text = (v) => (typeof v === 'number' ? String(v) : v);
  let names = classNames;
  if (names === undefined) {
    const distinct = [...new Set(Array.from(labels).filter((v) => v !== null && v !== undefined))];
    if (kind === 'number') distinct.sort((a, b) => a - b);
    else distinct.sort(byteOrder);
    names = distinct.map(text);
  }
  const index = new Map(names.map((name, i) => [name, i]));
  const mapped = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = labels[i];
    if (v === null || v === undefined) {
      mapped[i] = -1;
      continue;
    }
    const c = index.get(text(v));
    if (c === undefined) throw fail('UnknownClass', `${what}[${i}] = ${JSON.stringify(v)} is not one of classNames`);
    mapped[i] = c;
  }
  return { labels: mapped, classNames: names, numeric: kind === 'number' };
}

/** Byte-wise (UTF-8) order of two strings, the CSV reader's class order. */
export function byteOrder(a, b) {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) if (ea[i] !== eb[i]) return ea[i] - eb[i];
  return ea.length - eb.length;
}
