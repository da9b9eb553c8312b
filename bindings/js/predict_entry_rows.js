// The inference-only entry's input: the rows predict() accepts, written as the model's layout
// (row-major float32, the model's features in its order, categorical values as category indices,
// NaN = missing) that the core reads (predict_only.h). The same cells mean the same values as in
// the full package (table.js, Dataset.fromRows with schemaOf): numbers, NaN/null/undefined missing,
// categories matched by text with an unknown category missing (ModelRows).
import { UrnforestError } from './errors.js';
import { describe, isPlainObject } from './validate.js';

function fail(code, message) {
  return new UrnforestError(code, `${code}: ${message}`);
}

const FLOAT_ARRAYS = ['Float32Array', 'Float64Array'];

function cellNumber(v, where) {
  if (v === null || v === undefined) return NaN;
  if (typeof v !== 'number') throw fail('InvalidArgument', `${where} is ${describe(v)}; cells must be numbers (NaN, null or undefined = missing)`);
  const f = Math.fround(v);
  if (!Number.isNaN(v) && !Number.isFinite(f)) {
    throw fail('NonFiniteValue', `${where} = ${v} is not a finite float32; write missing values as NaN, null or undefined`);
  }
  return f;
}

// ColumnMismatch for array input to a model with categorical features (arrays hold numbers only).
function requireNumeric(features) {
  const c = features.find((f) => f.type === 'categorical');
  if (c !== undefined) {
    // The full package's message (its arrays are numeric columns); objects keyed by name take category texts.
    throw fail('ColumnMismatch', `column '${c.name}' is numeric but the model expects categorical ('${c.name}')`);
  }
}

function fromArrays(rows, features) {
  requireNumeric(features);
  const width = features.length;
  const values = new Float32Array(rows.length * width);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (!Array.isArray(row)) throw fail('ShapeMismatch', `rows[${r}] is ${describe(row)}, not an array of numbers`);
    if (row.length !== width) {
      throw fail('ShapeMismatch', `predict: rows[${r}] has ${row.length} values; the model has ${width} features, in this order: `
        + features.map((f) => f.name).join(', '));
    }
    for (let c = 0; c < width; c++) values[r * width + c] = cellNumber(row[c], `x[${r}][${c}]`);
  }
  return { values, rows: rows.length };
}

function fromFlat(x, features) {
  requireNumeric(features);
  const width = features.length;
  if (x.length === 0 || x.length % width !== 0) {
    throw fail('ShapeMismatch', `predict: a flat ${x.constructor.name} needs a multiple of the model's ${width} features, got ${x.length} values`);
  }
  if (x instanceof Float32Array) {
    // Already float32: only infinities are refused (as the full package's Dataset.fromArrays); no copy.
    for (let i = 0; i < x.length; i++) {
      if (x[i] === Infinity || x[i] === -Infinity) throw fail('NonFiniteValue', `x[${i}] = ${x[i]} is not a finite float32; write missing values as NaN`);
    }
    return { values: x, rows: x.length / width };
  }
  const values = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) values[i] = cellNumber(x[i], `x[${i}]`);
  return { values, rows: x.length / width };
}

// The category index of each category text of a categorical feature (Map), made once per model.
export function categoryIndex(features) {
  return features.map((f) => (f.type === 'categorical' ? new Map(f.categories.map((text, i) => [text, i])) : null));
}

function fromObjects(rows, features, categories) {
  const width = features.length;
  for (let r = 0; r < rows.length; r++) {
    if (!isPlainObject(rows[r])) {
      throw fail('InvalidArgument', `rows[${r}] is ${describe(rows[r])}; every row must be a plain object (or every row an array)`);
    }
  }
  const values = new Float32Array(rows.length * width);
  for (let c = 0; c < width; c++) {
    const { name } = features[c];
    if (!rows.some((o) => Object.hasOwn(o, name))) {
      throw fail('ColumnMismatch', `the data has no column '${name}' (the model has ${width} feature columns, matched by name)`);
    }
    const index = categories[c];
    for (let r = 0; r < rows.length; r++) {
      let v = Object.hasOwn(rows[r], name) ? rows[r][name] : undefined;
      const where = `rows[${r}].${name}`;
      if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) {
        values[r * width + c] = NaN;
        continue;
      }
      if (typeof v === 'boolean') v = String(v);
      if (typeof v !== 'number' && typeof v !== 'string') {
        throw fail('InvalidArgument', `${where} is ${describe(v)}; values must be numbers, strings, booleans, null or undefined`);
      }
      if (index === null) {
        if (typeof v !== 'number') throw fail('InvalidArgument', `${where} is ${describe(v)}; feature '${name}' is numeric (give a number)`);
        values[r * width + c] = cellNumber(v, where);
      } else {
        values[r * width + c] = index.get(String(v)) ?? NaN; // a category the model never saw is missing
      }
    }
  }
  return { values, rows: rows.length };
}

/**
 * `input` (number[][] in the model's feature order, an array of objects keyed by feature name, or a
 * flat Float32Array / Float64Array of rows * features values) as {values: Float32Array, rows}.
 * TypeError for other input; UrnforestError ShapeMismatch / ColumnMismatch / InvalidArgument /
 * NonFiniteValue as the full package's plain rows.
 */
export function modelRows(input, features, categories) {
  if (ArrayBuffer.isView(input) && FLOAT_ARRAYS.includes(input.constructor?.name)) return fromFlat(input, features);
  if (Array.isArray(input) && input.length > 0 && Array.isArray(input[0])) return fromArrays(input, features);
  if (Array.isArray(input) && input.length > 0 && isPlainObject(input[0])) return fromObjects(input, features, categories);
  throw new TypeError('predict: rows must be number[][] (one value per model feature, in forest.featureNames order), an array of '
    + `objects keyed by feature name, or a flat Float32Array/Float64Array, got ${describe(input)}`);
}
