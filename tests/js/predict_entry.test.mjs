// urnforest/predict (dist/predict.js): the inference-only entry answers as the full package does, on
// every row, for forests trained here (rf, adaboost, vote-boosting, bagging, categorical features;
// the default build) and imported ONNX and XGBoost fixtures (the import build, init({imports: true})),
// full and halted predictions and probabilities; it refuses what the full package refuses with the
// same codes; and it loads none of the full package's modules or wasm.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as full from '../../dist/index.js';
import * as slim from '../../dist/predict.js';
import { readDataset } from './helpers.mjs';

await full.init();
const api = await slim.init();

const RULES = ['alpha1', 'siba', 'hyper', '1dir', 'ndir', 'infinite', 'optimal'];

// Largest relative difference between two Float64Arrays of the same length.
function relativeGap(x, y) {
  let worst = 0;
  for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs(x[i] - y[i]) / Math.max(Math.abs(x[i]), Number.MIN_VALUE));
  return worst;
}

// Every field of the full package's result (own, plus the probabilities getter) equals the slim one's:
// labels, class indices, votes, trees used, tallies and flags exactly; real numbers (probabilities,
// confidences, scores) to 1e-12 relative: the inference-only wasm is the core compiled for size, and
// LLVM folds some libm calls at compile time there, which moves a posterior's last bits (docs/api.md).
function assertSameResult(a, b, what) {
  const keys = Object.keys(a).filter((k) => k !== 'table' && k !== 'certificate'); // objects of the full API only
  if ('probabilities' in a && !keys.includes('probabilities')) keys.push('probabilities');
  for (const key of keys) {
    if (a[key] instanceof Float64Array && b[key] instanceof Float64Array && a[key].length === b[key].length) {
      const gap = relativeGap(a[key], b[key]);
      assert.ok(gap <= 1e-12, `${what}: field ${key} differs by ${gap} (relative)`);
      if (gap > 0) gaps.add(`${key} ${gap.toExponential(1)}`);
    } else {
      assert.deepEqual(b[key], a[key], `${what}: field ${key}`);
    }
  }
}
const gaps = new Set();
after(() => { if (gaps.size > 0) console.log(`# real-number fields that differed (largest relative gap): ${[...gaps].join(', ')}`); });

function rowsOf(data) {
  const m = data.toRowMajor();
  const w = data.numFeatures;
  return Array.from({ length: data.numRows }, (_, r) => Array.from(m.subarray(r * w, r * w + w)));
}

// The full package's Dataset of plain rows, as its predict(rows) makes it (predictProba takes Datasets only).
function datasetOf(forest, rows) {
  return Array.isArray(rows[0])
    ? full.Dataset.fromRows(rows, { featureNames: forest.featureNames, schemaOf: forest })
    : full.Dataset.fromRows(rows, { schemaOf: forest });
}

// The full package answers on a Dataset of the rows (its lazy probabilities need the Dataset alive).
function sameEverywhere(forestFull, forestSlim, rows, what, optionsList) {
  const data = datasetOf(forestFull, rows);
  assertSameResult(forestFull.predict(data), forestSlim.predict(rows), `${what} full`);
  const votes = forestFull.imported === null ? [undefined] : forestFull.imported.kind === 'additive' ? ['soft'] : ['soft', 'hard'];
  for (const vote of votes) {
    assertSameResult(forestFull.predictProba(data, { vote }), forestSlim.predictProba(rows, { vote }), `${what} predictProba ${vote}`);
  }
  for (const options of optionsList) {
    assertSameResult(forestFull.predict(data, options), forestSlim.predict(rows, options), `${what} ${JSON.stringify(options)}`);
  }
  data.dispose();
}

test('init resolves to the API once; the entry is the package export urnforest/predict', async () => {
  assert.equal(await slim.init(), api);
  await assert.rejects(slim.init({ imports: 'yes' }), TypeError);
  await assert.rejects(slim.init({ color: 1 }), TypeError);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.deepEqual(pkg.exports['./predict'], { types: './dist/predict.d.ts', default: './dist/predict.js' });
  assert.equal(pkg.typesVersions['*'].predict[0], './dist/predict.d.ts');
});

for (const [ensemble, dataset] of [['rf', 'iris'], ['adaboost', 'wdbc'], ['voteboost', 'wine'], ['bagging', 'vehicle']]) {
  test(`a ${ensemble} forest trained here (${dataset}): the same answers on every row, full and halted with every rule`, () => {
    const data = full.Dataset.fromCSV(readDataset(dataset), { target: 'class' });
    const forest = full.trainForest(data, { ensemble, trees: 25, seed: 7 });
    const model = api.Forest.fromBytes(forest.toBytes());
    assert.equal(model.numTrees, forest.numTrees);
    assert.deepEqual(model.classNames, forest.classNames);
    assert.deepEqual(model.featureNames, forest.featureNames);
    const rows = rowsOf(data);
    const options = RULES.flatMap((rule) => [{ rule }, { rule, alpha: 0.95, compare: true }, { rule, order: 'random', seed: 3, trees: 20 }]);
    sameEverywhere(forest, model, rows, `${ensemble} ${dataset}`, options);
    model.dispose();
    forest.dispose();
    data.dispose();
  });
}

test('a table stored with the model is used, and objects, flat typed arrays and arrays predict alike', () => {
  const data = full.Dataset.fromCSV(readDataset('iris'), { target: 'class' });
  const forest = full.trainForest(data, { trees: 31, seed: 4 });
  forest.storeTable({ rule: 'hyper', alpha: 0.99 });
  const model = api.Forest.fromBytes(forest.toBytes());
  assert.deepEqual(model.storedTables(), forest.storedTables());
  const rows = rowsOf(data);
  const names = forest.featureNames;
  const objects = rows.map((row) => Object.fromEntries([...names].reverse().map((n) => [n, row[names.indexOf(n)]])));
  const flat = Float64Array.from(rows.flat());
  const flat32 = Float32Array.from(rows.flat());
  for (const options of [undefined, { rule: 'hyper' }, { rule: 'hyper', compare: true }]) {
    const expected = forest.predict(rows, options);
    for (const input of [rows, objects, flat, flat32]) assertSameResult(expected, model.predict(input, options), `input ${input.constructor.name}`);
  }
  flat32[5] = Infinity;
  assert.throws(() => model.predict(flat32), (e) => e instanceof slim.UrnforestError && e.code === 'NonFiniteValue');
  model.dispose();
  forest.dispose();
  data.dispose();
});

test('categorical features: object rows with category texts, unknown categories and missing cells answer as the full package', () => {
  const iris = full.Dataset.fromCSV(readDataset('iris'), { target: 'class' });
  const names = iris.featureNames;
  const labels = iris.classNames;
  const shades = ['pale', 'deep', 'mid', 'dark'];
  const rowsIn = rowsOf(iris);
  const training = rowsIn.map((row, i) => ({
    ...Object.fromEntries(names.map((n, c) => [n, row[c]])),
    shade: shades[(Math.floor(row[2]) + i) % 4], spot: i % 3 === 0 ? true : 'no', class: labels[iris.labels()[i]],
  }));
  const data = full.Dataset.fromRows(training, { target: 'class' });
  const forest = full.trainForest(data, { trees: 21, seed: 2 });
  assert.deepEqual(forest.featureTypes.slice(-2), ['categorical', 'categorical']);
  const model = api.Forest.fromBytes(forest.toBytes());
  const objects = training.map((o, i) => {
    const copy = { ...o };
    if (i % 7 === 0) copy.shade = 'never-seen';
    if (i % 5 === 0) delete copy.spot;
    if (i % 11 === 0) copy[names[0]] = null;
    return copy;
  });
  sameEverywhere(forest, model, objects, 'categorical objects', [{ rule: 'alpha1' }, { rule: 'hyper', compare: true }]);
  const wide = rowsIn.map((row) => [...row, 0, 1]);
  sameError((m) => (m === full ? forest : model).predict(wide), 'arrays for a model with categorical features');
  model.dispose();
  forest.dispose();
  data.dispose();
  iris.dispose();
});

test('the default build reads urnforest\'s bytes only; init({imports: true}) loads the import build, and forests loaded before keep working', async () => {
  const data = full.Dataset.fromCSV(readDataset('iris'), { target: 'class' });
  const forest = full.trainForest(data, { trees: 11, seed: 3 });
  const before = api.Forest.fromBytes(forest.toBytes());
  const xgb = readFileSync(new URL('../fixtures/xgboost/iris_softmax.model.json', import.meta.url), 'utf8');
  assert.throws(() => api.Forest.fromXGBoost(xgb), (e) => e instanceof slim.UrnforestError && e.code === 'UnsupportedModel');
  const onnx = new Uint8Array(readFileSync(new URL('../fixtures/onnx/sk_rf_iris_nozipmap.onnx', import.meta.url)));
  assert.throws(() => api.Forest.fromONNX(onnx), (e) => e instanceof slim.UrnforestError && e.code === 'UnsupportedModel');
  assert.throws(() => before.predict(rowsOf(data).slice(0, 3), { rule: 'auto' }), (e) => e instanceof slim.UrnforestError
    && e.code === 'UnsupportedModel' && e.message.includes("rule 'auto' is not in urnforest/predict's default build"));
  const wdbc = full.Dataset.fromCSV(readDataset('wdbc'), { target: 'class' });
  const binary = full.trainForest(wdbc, { trees: 11, seed: 3 });
  const binarySlim = api.Forest.fromBytes(binary.toBytes());
  assert.throws(() => binarySlim.predict(rowsOf(wdbc).slice(0, 3), { rule: 'lp' }), (e) => e instanceof slim.UrnforestError
    && e.code === 'UnsupportedModel' && e.message.includes("rule 'lp' is not in urnforest/predict's default build"));
  for (const f of [binarySlim, binary, wdbc]) f.dispose();
  assert.equal(await slim.init({ imports: true }), api);
  const rows = rowsOf(data);
  assertSameResult(forest.predict(data), before.predict(rows), 'a forest of the default build');
  const after = api.Forest.fromBytes(forest.toBytes());
  assertSameResult(forest.predict(data, { rule: 'siba' }), after.predict(rows, { rule: 'siba' }), 'a forest of the import build');
  api.Forest.fromXGBoost(xgb).dispose();
  for (const f of [before, after, forest, data]) f.dispose();
});

test('rules auto and lp: refused with UnsupportedModel by the default build, the full package\'s answers in the import build', async () => {
  const data = full.Dataset.fromCSV(readDataset('wdbc'), { target: 'class' });
  const forest = full.trainForest(data, { trees: 31, seed: 9 });
  const rows = rowsOf(data);
  for (const options of [{ rule: 'auto' }, { rule: 'lp', alpha: 0.95 }, { rule: 'auto', compare: true }]) {
    assertSameResult(forest.predict(data, options), api.Forest.fromBytes(forest.toBytes()).predict(rows, options), JSON.stringify(options));
  }
  forest.dispose();
  data.dispose();
});

const onnxDir = new URL('../fixtures/onnx/', import.meta.url);
for (const name of ['sk_rf_iris_nozipmap', 'sk_rf_wdbc_binary_zipmap', 'sk_rf_soybean_19class', 'sk_et_vehicle_strings_opset3',
  'tiny_all_modes', 'tiny_all_modes_opset5', 'xgb_vehicle_softprob_missing', 'xgb_wdbc_binary_missing']) {
  test(`ONNX fixture ${name}: the same answers on every row, soft and hard votes, full and halted`, () => {
    const fx = JSON.parse(readFileSync(new URL(`${name}.json`, onnxDir), 'utf8'));
    const bytes = new Uint8Array(readFileSync(new URL(fx.model_file, onnxDir)));
    const options = fx.feature_names ? { featureNames: fx.feature_names } : undefined;
    const forest = full.Forest.fromONNX(bytes, options);
    const model = api.Forest.fromONNX(bytes, options);
    assert.deepEqual(model.imported, forest.imported);
    const rows = fx.rows.map((row) => row.map((v) => (v === null ? NaN : v)));
    const list = [{ rule: 'alpha1' }, { rule: 'alpha1', compare: true }];
    if (forest.imported.kind !== 'additive') list.push({ rule: 'siba', vote: 'hard', compare: true }, { rule: 'alpha1', vote: 'hard' });
    sameEverywhere(forest, model, rows, name, list);
    model.dispose();
    forest.dispose();
  });
}

const xgbDir = new URL('../fixtures/xgboost/', import.meta.url);
for (const name of ['wdbc_binary_missing', 'vehicle_softprob_missing', 'iris_softmax', 'wdbc_logitraw']) {
  test(`XGBoost fixture ${name}: the same answers on every row, full, probabilities and the exact exit`, () => {
    const fx = JSON.parse(readFileSync(new URL(`${name}.json`, xgbDir), 'utf8'));
    const text = readFileSync(new URL(fx.model_file, xgbDir), 'utf8');
    const forest = full.Forest.fromXGBoost(text);
    const model = api.Forest.fromXGBoost(text);
    const rows = fx.rows.map((row) => row.map((v) => (v === null ? NaN : v)));
    sameEverywhere(forest, model, rows, name, [{ rule: 'alpha1' }, { rule: 'alpha1', compare: true }]);
    model.dispose();
    forest.dispose();
  });
}

// The error the full package throws (class, code and, unless `message` is false, message) for the same call.
function sameError(fn, what, message = true) {
  let expected;
  try {
    fn(full);
  } catch (e) {
    expected = e;
  }
  assert.ok(expected, `${what}: the full package refuses it`);
  const Class = expected instanceof full.UrnforestError ? slim.UrnforestError : expected.constructor;
  assert.throws(() => fn(api), (e) => e instanceof Class && e.name === expected.name && e.code === expected.code
    && (!message || e.message === expected.message), `${what}: ${expected.message}`);
}

test('refusals carry the full package\'s class, code and message', () => {
  const data = full.Dataset.fromCSV(readDataset('iris'), { target: 'class' });
  const trained = full.trainForest(data, { trees: 11, seed: 1 });
  const bytes = trained.toBytes();
  const rows = rowsOf(data).slice(0, 5);
  sameError((m) => m.Forest.fromBytes(bytes.subarray(0, 40)), 'truncated model');
  sameError((m) => m.Forest.fromONNX(new Uint8Array([1, 2, 3])), 'bad ONNX');
  sameError((m) => m.Forest.fromXGBoost('{"learner": 1}'), 'bad XGBoost JSON');
  const models = { full: trained, slim: api.Forest.fromBytes(bytes) };
  const on = (m) => (m === full ? models.full : models.slim);
  sameError((m) => on(m).predict(rows, { rule: 'nope' }), 'unknown rule');
  sameError((m) => on(m).predict(rows, { rule: 'hyper', alpha: 1.5 }), 'alpha out of range');
  sameError((m) => on(m).predict(rows, { rule: 'hyper', trees: 0 }), 'trees out of range');
  sameError((m) => on(m).predict(rows, { rule: 'margin' }), 'margin on a forest trained here');
  sameError((m) => on(m).predict(rows, { rule: 'hyper', vote: 'sideways' }), 'unknown vote');
  sameError((m) => on(m).predict(rows, { rule: 'hyper', color: 1 }), 'unknown option');
  sameError((m) => on(m).predict([[1, 2, Infinity, 4]]), 'infinite value');
  sameError((m) => on(m).predict([{ a: 1 }]), 'missing column');
  sameError((m) => on(m).predict('rows'), 'not rows', false); // the entry also names flat typed arrays
  models.slim.dispose();
  assert.throws(() => models.slim.predict(rows), /dispose/);
  models.slim.dispose(); // idempotent
  trained.dispose();
  data.dispose();
});

test('dist/predict.js imports only its own glue (the import build\'s on demand) and names only its own wasm', () => {
  const code = readFileSync(new URL('../../dist/predict.js', import.meta.url), 'utf8');
  const imports = [...code.matchAll(/(?:^|;)\s*import\s*[^;]*?from\s*["']([^"']+)["']/g)].map((m) => m[1]);
  assert.deepEqual(imports, ['./urnforest_predict.mjs']);
  assert.ok(code.includes('import("./urnforest_predict_import.mjs")'), 'the import build\'s glue, by a literal bundlers follow');
  assert.ok(!/urnforest_wasm|urnforest\.wasm|urnforest\.mjs/.test(code));
  assert.ok(code.includes('new URL("./urnforest_predict.wasm",import.meta.url)'));
  assert.ok(code.includes('new URL("./urnforest_predict_import.wasm",import.meta.url)'));
});

test('the entry\'s types compile (tsc --strict on tests/js/predict_types_check.ts)', () => {
  const root = new URL('../../', import.meta.url);
  execFileSync(fileURLToPath(new URL('node_modules/.bin/tsc', root)), ['--noEmit', '--strict', '--target', 'es2022',
    '--module', 'nodenext', '--moduleResolution', 'nodenext', 'tests/js/predict_types_check.ts'], { cwd: fileURLToPath(root), stdio: 'pipe' });
});

test('what a page loads for the entry (predict.js, its glue and its wasm) stays within 120 KiB gzip', () => {
  const files = ['predict.js', 'urnforest_predict.mjs', 'urnforest_predict.wasm'];
  const sizes = files.map((f) => gzipSync(readFileSync(new URL(`../../dist/${f}`, import.meta.url)), { level: 9 }).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  assert.ok(total <= 120 * 1024, `${files.map((f, i) => `${f} ${sizes[i]} B`).join(', ')}: ${total} B in all`);
});
