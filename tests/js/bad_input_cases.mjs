// The bad-input matrix of docs/reliability.md as data, and its JS runner (not a test file itself): every case runs through the
// public JS API (dist/index.js) and, unless `cli` is null, through the native CLI (build/urnforest)
// in tests/js/bad_input.test.mjs, which requires both to give the same outcome and renders this table
// into docs/reliability.md (checked there, so the page never drifts).
//
// A case is one pipeline: read `train` (CSV string, or bytes as a Uint8Array) with `target` →
// train `trees` trees (seed 1) → optionally read `predict` against the model's columns and predict,
// with the halting `rule`/`alpha` when given. Or `model`: load these model bytes (a function of a
// valid model's bytes). Or `js(uf, forest, own)`: a JS-only call (typed arrays; the CLI has no
// equivalent) given a model of BASE, whose result `expect` checks; `own(x)` disposes x after the case.
//
// `want` is the outcome: a stable UrnforestError code (with `line`/`column` when the error points
// into the CSV), 'InvalidArgument' for options the JS API rejects before wasm with a RangeError
// (`jsError`) and the CLI with an InvalidArgument error naming the option, or 'ok' plus `expect`: a
// check of the summary (identical between JS and the CLI) and `behaviour`: the documented outcome.
// `option` is the name both error messages must contain (`--option` in the CLI).

import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

const enc = (s) => new TextEncoder().encode(s);
/** Short SHA-256 of model bytes (for comparing models). */
export const sha = (b) => createHash('sha256').update(b).digest('hex').slice(0, 16);
// Model bytes `m` with the name `name` (a length-prefixed string of the schema) given byte 0xFF as its
// first byte and the CRC recomputed: a hostile writer's model that only the UTF-8 check refuses.
function nameNotUtf8(m, name) {
  const needle = [name.length, 0, 0, 0, ...new TextEncoder().encode(name)];
  const c = m.slice();
  const at = c.findIndex((_, i) => i >= 20 && needle.every((b, k) => c[i + k] === b));
  c[at + 4] = 0xff;
  new DataView(c.buffer).setUint32(16, crc32(c.subarray(20)), true);
  return c;
}
const bytes = (...parts) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc(p)] : p)));

/** Two classes, two numeric features, six rows: the valid baseline most cases alter. */
export const BASE = 'a,b,class\n1,5,x\n2,6,x\n3,7,y\n4,8,y\n5,1,x\n6,2,y\n';
/** Prediction rows for BASE's model. */
export const BASE_PREDICT = 'a,b,class\n1,5,x\n6,2,y\n';

export const cases = [
  // ---- CSV structure -------------------------------------------------------------------------
  { name: 'empty file', input: '(0 bytes)', train: '', want: 'CsvEmpty' },
  { name: 'UTF-8 BOM only', input: 'EF BB BF', train: '\uFEFF', want: 'CsvEmpty' },
  { name: 'header only', input: '`a,b,class`', train: 'a,b,class\n', want: 'CsvNoRows' },
  { name: 'ragged row', input: 'a row with 2 of 3 fields', train: 'a,b,class\n1,2,x\n3,4\n',
    want: 'CsvRaggedRow', line: 3, column: 3 },
  { name: 'unterminated quote', input: '`1,"x` to the end', train: 'a,class\n1,"x\n2,y\n',
    want: 'CsvUnterminatedQuote', line: 2, column: 2 },
  { name: 'quote inside a field', input: '`1,x"y`', train: 'a,class\n1,x"y\n2,y\n',
    want: 'CsvBadQuote', line: 2, column: 2 },
  { name: 'duplicate column names', input: 'header `a,a,class`', train: 'a,a,class\n1,2,x\n3,4,y\n',
    want: 'CsvDuplicateColumn', line: 1, column: 2 },
  { name: 'unknown target name', input: 'target `label`', train: BASE, target: 'label',
    want: 'TargetNotFound', line: 1 },
  { name: 'a row without a label', input: 'empty class cell', train: 'a,class\n1,x\n2,\n3,y\n',
    want: 'MissingLabel', line: 3 },
  { name: 'UTF-8 BOM', input: 'EF BB BF + valid CSV', train: `\uFEFF${BASE}`, want: 'ok',
    behaviour: 'skipped: the first column is `a`', expect: (s) => s.features[0] === 'a' },
  { name: 'CRLF line ends', input: 'valid CSV with CR LF', train: BASE.replaceAll('\n', '\r\n'), want: 'ok',
    behaviour: 'the same data set and model bytes as with LF', sameAs: { train: BASE } },
  { name: 'non-UTF-8 bytes', input: 'byte FF in a label', train: bytes('a,class\n1,x\n2,', [0xff], '\n'),
    want: 'CsvInvalidUtf8', line: 3, column: 2 },
  { name: 'encoded surrogate / lone surrogate', input: 'ED A0 80 (CLI); `\\uD800` in a JS string',
    train: 'a,class\n1,x\n2,\uD800y\n', cliTrain: bytes('a,class\n1,x\n2,', [0xed, 0xa0, 0x80], 'y\n'),
    want: 'CsvInvalidUtf8', line: 3, column: 2 },
  // ---- values --------------------------------------------------------------------------------
  { name: 'Inf', input: '`inf` in a numeric column', train: 'a,class\n2,x\ninf,y\n3,x\n',
    want: 'NonFiniteValue', line: 3, column: 1 },
  { name: '-Infinity', input: '`-Infinity`', train: 'a,class\n2,x\n-Infinity,y\n3,x\n',
    want: 'NonFiniteValue', line: 3, column: 1 },
  { name: 'huge number', input: '`1e39` (beyond float)', train: 'a,class\n2,x\n1e39,y\n3,x\n',
    want: 'NonFiniteValue', line: 3, column: 1 },
  { name: 'largest float', input: '`3.4028235e38`', train: 'a,class\n3.4028235e38,x\n-3.4028235e38,y\n1,x\n2,y\n',
    want: 'ok', behaviour: 'kept; trains', expect: (s) => s.types[0] === 'numeric' },
  { name: 'NaN', input: '`nan` in a column', train: 'a,class\nnan,x\n1,y\n2,x\n3,y\n', want: 'ok',
    behaviour: 'text: the column becomes categorical', expect: (s) => s.types[0] === 'categorical' },
  { name: 'all values missing', input: 'every feature cell empty, `?` or `NA`',
    train: 'a,b,class\n,?,x\nNA,,y\n,,x\n?,NA,y\n', want: 'ok', behaviour: 'single-leaf trees',
    expect: (s) => s.nodes === s.trees },
  { name: 'constant features', input: 'every row `1,1`', train: 'a,b,class\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n',
    want: 'ok', behaviour: 'single-leaf trees', expect: (s) => s.nodes === s.trees },
  // ---- classes -------------------------------------------------------------------------------
  { name: 'one class only', input: 'every label `x`', train: 'a,class\n1,x\n2,x\n3,x\n', want: 'TooFewClasses' },
  { name: 'a class with one row', input: 'one `z` row', train: `${BASE}7,7,z\n`, predict: 'a,b,class\n7,7,z\n1,5,x\n',
    want: 'ok', behaviour: 'trains and predicts', expect: (s) => s.classes.length === 3 && s.labels.length === 2 },
  // ---- options -------------------------------------------------------------------------------
  { name: 'T = 0', input: 'trees 0', train: BASE, trees: 0, want: 'InvalidArgument', jsError: RangeError, option: 'trees' },
  { name: 'even T', input: 'trees 4', train: BASE, trees: 4, predict: BASE_PREDICT, want: 'ok',
    behaviour: 'allowed; a tied vote goes to the lowest class index', expect: (s) => s.trees === 4 },
  { name: 'T = 100,000', input: 'trees 100000', train: 'a,class\n1,x\n2,y\n', trees: 100000, want: 'ok',
    behaviour: 'allowed (the maximum)', expect: (s) => s.trees === 100000 },
  { name: 'T = 100,001', input: 'trees 100001', train: BASE, trees: 100001, want: 'InvalidArgument',
    jsError: RangeError, option: 'trees' },
  { name: 'α = 0', input: 'rule siba, alpha 0', train: BASE, predict: BASE_PREDICT, rule: 'siba', alpha: 0,
    want: 'InvalidArgument', jsError: RangeError, option: 'alpha' },
  { name: 'α > 1', input: 'rule hyper, alpha 1.5', train: BASE, predict: BASE_PREDICT, rule: 'hyper', alpha: 1.5,
    want: 'InvalidArgument', jsError: RangeError, option: 'alpha' },
  { name: 'α < 0', input: 'rule siba, alpha -0.5', train: BASE, predict: BASE_PREDICT, rule: 'siba', alpha: -0.5,
    want: 'InvalidArgument', jsError: RangeError, option: 'alpha' },
  { name: 'T = " 11"', input: 'trees `" 11"` (a string; CLI: `--trees " 11"`)', train: BASE, trees: ' 11',
    want: 'InvalidArgument', jsError: TypeError, option: 'trees' },
  { name: 'T = +11', input: 'trees `"+11"`', train: BASE, trees: '+11', want: 'InvalidArgument', jsError: TypeError, option: 'trees' },
  { name: 'T = 011', input: 'trees `"011"`', train: BASE, trees: '011', want: 'InvalidArgument', jsError: TypeError, option: 'trees' },
  { name: 'α in hexadecimal', input: 'rule siba, alpha `"0x1p-1"`', train: BASE, predict: BASE_PREDICT, rule: 'siba',
    alpha: '0x1p-1', want: 'InvalidArgument', jsError: TypeError, option: 'alpha' },
  { name: 'α = 1', input: 'rule siba, alpha 1', train: BASE, predict: BASE_PREDICT, rule: 'siba', alpha: 1,
    want: 'ok', behaviour: 'allowed (halts only when the vote is decided)', expect: (s) => s.labels.length === 2 },
  // ---- prediction data -----------------------------------------------------------------------
  { name: 'predict: a model column missing', input: 'columns `a,class`', train: BASE, predict: 'a,class\n1,x\n',
    want: 'ColumnMismatch', line: 1 },
  { name: 'predict: text in a numeric column', input: '`b` = `big`', train: BASE, predict: 'a,b,class\n1,big,x\n',
    want: 'ColumnMismatch', line: 2, column: 2 },
  { name: 'predict: reordered and extra columns', input: 'columns `class,z,b,a`', train: BASE,
    predict: 'class,z,b,a\nx,0,5,1\ny,0,2,6\n', want: 'ok', behaviour: 'matched by name; extras ignored',
    sameAs: { train: BASE, predict: BASE_PREDICT } },
  { name: 'predict: an unseen label', input: 'label `w`', train: BASE, predict: 'a,b,class\n1,5,w\n',
    want: 'UnknownClass', line: 2, column: 3 },
  // ---- model bytes ---------------------------------------------------------------------------
  { name: 'model: empty', input: '0 bytes', model: () => new Uint8Array(0), want: 'CorruptModel' },
  { name: 'model: a CSV file', input: 'BASE as bytes', model: () => enc(BASE), want: 'CorruptModel' },
  { name: 'model: truncated', input: 'first half', model: (m) => m.slice(0, m.length >> 1), want: 'CorruptModel' },
  { name: 'model: one payload byte flipped', input: 'byte 40 XOR FF',
    model: (m) => { const c = m.slice(); c[40] ^= 0xff; return c; }, want: 'CorruptModel' },
  { name: 'model: format version 2', input: 'version field = 2',
    model: (m) => { const c = m.slice(); c[4] = 2; return c; }, want: 'UnsupportedVersion' },
  { name: 'model: a class name not UTF-8', input: 'class `x` → byte FF, CRC recomputed',
    model: (m) => nameNotUtf8(m, 'x'), want: 'CorruptModel' },
  { name: 'model: a feature name not UTF-8', input: 'column `b` → byte FF, CRC recomputed',
    model: (m) => nameNotUtf8(m, 'b'), want: 'CorruptModel' },
  // ---- strict types and specific codes (JS only) -----------------------------------------------
  { name: 'ensemble as an array', input: "ensemble `['rf']`", cli: null, want: 'InvalidArgument', jsError: RangeError,
    option: 'ensemble', js: (uf, forest, own) => own(uf.trainForest(own(uf.Dataset.fromCSV(BASE)), { ensemble: ['rf'] })) },
  { name: 'options as a Map', input: "`new Map([['trees', 0]])`", cli: null, want: 'InvalidArgument', jsError: TypeError,
    option: 'options', js: (uf, forest, own) => own(uf.trainForest(own(uf.Dataset.fromCSV(BASE)), new Map([['trees', 0]]))) },
  { name: 'duplicate class names', input: "fromArrays classNames `['x', 'x']`", cli: null, want: 'InvalidArgument',
    jsError: RangeError, option: 'classNames',
    js: (uf, forest, own) => own(uf.Dataset.fromArrays(new Float32Array(2), { rows: 2, cols: 1, labels: new Int32Array([0, 1]), classNames: ['x', 'x'] })) },
  { name: 'training on an empty subset', input: '`subset([])`', cli: null, want: 'InvalidArgument',
    js: (uf, forest, own) => own(uf.trainForest(own(own(uf.Dataset.fromCSV(BASE)).subset([])))) },
  { name: 'training on unlabeled data', input: 'fromCSV `target: null`', cli: null, want: 'MissingLabel',
    js: (uf, forest, own) => own(uf.trainForest(own(uf.Dataset.fromCSV(BASE, { target: null })))) },
  // ---- typed arrays (JS only) ----------------------------------------------------------------
  { name: 'x.length ≠ rows × cols', input: '5 values, rows 2, cols 2', cli: null, want: 'InvalidArgument',
    jsError: RangeError, option: 'x.length', js: (uf) => uf.Dataset.fromArrays(new Float32Array(5), { rows: 2, cols: 2 }) },
  { name: 'labels.length ≠ rows', input: '3 labels, rows 2', cli: null, want: 'InvalidArgument', jsError: RangeError,
    option: 'labels.length', js: (uf) => uf.Dataset.fromArrays(new Float32Array(4), { rows: 2, cols: 2, labels: new Int32Array(3) }) },
  { name: 'Inf in a Float32Array', input: 'x[1] = Infinity', cli: null, want: 'NonFiniteValue',
    js: (uf) => uf.Dataset.fromArrays(new Float32Array([1, Infinity]), { rows: 1, cols: 2 }) },
  { name: 'NaN in a Float32Array', input: 'x[1] = NaN', cli: null, want: 'ok', behaviour: 'a missing value',
    js: (uf, forest, own) => own(uf.Dataset.fromArrays(new Float32Array([1, NaN]), { rows: 1, cols: 2 })).toRowMajor(),
    expect: (x) => x[0] === 1 && Number.isNaN(x[1]) },
  { name: 'predict: fewer typed-array columns', input: 'model of 2 columns, data of 1', cli: null,
    want: 'ColumnMismatch', js: (uf, forest, own) => forest.predict(own(uf.Dataset.fromArrays(new Float32Array(2), { rows: 2, cols: 1 }))) },
];

/** Bytes of the model of BASE (5 trees, seed 1) that the `model` cases alter. */
export function baseModelBytes(uf) {
  const data = uf.Dataset.fromCSV(BASE);
  const forest = uf.trainForest(data, { trees: 5, seed: 1 });
  const bytes = forest.toBytes();
  forest.dispose();
  data.dispose();
  return bytes;
}

/**
 * Runs case `c` through the JS API `uf` (`validModel`: bytes of a model of BASE, 5 trees, seed 1).
 * Returns {code, line, column, message} for an error, {ok: summary} otherwise; any other kind of
 * failure (an unexpected TypeError, a crash) is thrown.
 */
export function jsOutcome(uf, c, validModel) {
  const owned = [];
  const own = (x) => { owned.push(x); return x; };
  try {
    if (c.model) {
      own(uf.Forest.fromBytes(c.model(validModel)));
      return { ok: {} };
    }
    if (c.js) {
      const forest = own(uf.Forest.fromBytes(validModel));
      return { ok: c.js(uf, forest, own) ?? {} };
    }
    const data = own(uf.Dataset.fromCSV(c.train, c.target ? { target: c.target } : undefined));
    const forest = own(uf.trainForest(data, { trees: c.trees ?? 5, seed: 1 }));
    const summary = {
      rows: forest.trainLabels().length, trees: forest.numTrees, classes: forest.classNames,
      features: forest.featureNames, types: forest.featureTypes, nodes: forest.numNodes, model: sha(forest.toBytes()),
    };
    if (c.predict !== undefined) {
      const rows = own(uf.Dataset.fromCSV(c.predict, { schemaOf: forest }));
      summary.labels = forest.predict(rows, c.rule ? { rule: c.rule, alpha: c.alpha } : undefined).labels;
    }
    return { ok: summary };
  } catch (e) {
    if (e instanceof uf.UrnforestError) return { code: e.code, line: e.line, column: e.column, message: e.message };
    if (c.jsError && e instanceof c.jsError) return { code: 'InvalidArgument', line: 0, column: 0, message: e.message };
    throw e; // an unexpected kind of failure fails the case
  } finally {
    for (const x of owned.reverse()) x.dispose();
  }
}
