// Forest.fromXGBoost on models saved by XGBoost itself (tests/fixtures/xgboost, made by
// scripts/xgboost_fixtures.py with xgboost 1.7.4): labels equal xgboost's on every row,
// probabilities within 1e-6, the exact early exit halts them, and bad files are refused cleanly.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, Dataset, Forest, UrnforestError } from '../../dist/index.js';

const dir = new URL('../fixtures/xgboost/', import.meta.url);
const readJson = (name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const modelBytes = (file) => new Uint8Array(readFileSync(new URL(file, dir)));

before(async () => { await init(); });

function datasetOf(fx) {
  const x = Float32Array.from(fx.rows.flat(), (v) => (v === null ? NaN : v));
  return Dataset.fromArrays(x, { rows: fx.rows.length, cols: fx.feature_names.length, featureNames: fx.feature_names });
}

const fixtures = ['wdbc_binary_missing', 'vehicle_softprob_missing', 'iris_softmax', 'wdbc_logitraw'];

for (const name of fixtures) {
  test(`${name}: labels equal xgboost's on every row, probabilities within 1e-6, and the exact exit halts with them`, () => {
    const fx = readJson(`${name}.json`);
    const forest = Forest.fromXGBoost(modelBytes(fx.model_file));
    assert.equal(forest.numTrees, fx.n_trees);
    assert.deepEqual(forest.imported, { kind: 'additive', vote: 'soft', source: 'xgboost 1.7.4', calibrated: false, calibrationRows: 0 });
    const data = datasetOf(fx);
    const p = forest.predictProba(data);
    assert.deepEqual(Array.from(p.classIndex), fx.source.predict);
    const expected = fx.source.predict_proba.flat();
    let worst = 0;
    for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(p.probabilities[i] - expected[i]));
    assert.ok(worst <= 1e-6, `largest probability difference ${worst}`);
    const exact = forest.predict(data, { rule: 'alpha1', compare: true });
    assert.deepEqual(Array.from(exact.classIndex), fx.source.predict);
    assert.equal(exact.disagreement, 0);
    assert.ok(exact.meanTrees < forest.numTrees, `mean trees ${exact.meanTrees} of ${forest.numTrees}`);
    data.dispose();
    forest.dispose();
  });
}

test('the JSON text works as well as its bytes, and stored feature names match columns by name', () => {
  const fx = readJson('wdbc_binary_missing.json');
  const text = readFileSync(new URL(fx.model_file, dir), 'utf8');
  const forest = Forest.fromXGBoost(text, { classNames: ['benign', 'malignant'] });
  assert.equal(forest.featureNames[0], 'mean_radius');
  // Columns in reverse order: matched by name, the answers stay xgboost's.
  const names = [...fx.feature_names].reverse();
  const x = Float32Array.from(fx.rows.flatMap((r) => [...r].reverse()), (v) => (v === null ? NaN : v));
  const data = Dataset.fromArrays(x, { rows: fx.rows.length, cols: names.length, featureNames: names });
  const p = forest.predict(data);
  assert.deepEqual(p.labels, fx.source.predict.map((c) => ['benign', 'malignant'][c]));
});

test('bad models are refused with UrnforestError codes, never a crash', () => {
  const refuse = (model, code, pattern) => assert.throws(() => Forest.fromXGBoost(model),
    (e) => e instanceof UrnforestError && e.code === code && pattern.test(e.message), `${code} ${pattern}`);
  refuse(modelBytes('bad_regression.model.json'), 'UnsupportedModel', /reg:squarederror/);
  refuse(modelBytes('bad_dart.model.json'), 'UnsupportedModel', /dart/);
  refuse(modelBytes('bad_categorical.model.json'), 'UnsupportedModel', /categorical/);
  refuse('['.repeat(5000), 'CorruptModel', /nested deeper than 64/);
  const bytes = modelBytes('iris_softmax.model.json');
  for (let percent = 0; percent < 100; percent += 7) {
    refuse(bytes.subarray(0, Math.floor(bytes.length * percent / 100)), 'CorruptModel', /XGBoost JSON: at byte \d+: /);
  }
  assert.throws(() => Forest.fromXGBoost(42), TypeError);
  assert.throws(() => Forest.fromXGBoost(bytes, { feature: [] }), /feature/);
  assert.throws(() => Forest.fromXGBoost(bytes, { classNames: ['a'] }),
    (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /3 classes, 1 names/.test(e.message));
});
