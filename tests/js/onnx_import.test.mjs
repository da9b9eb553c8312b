// Forest.fromONNX on models made by scikit-learn and XGBoost (tests/fixtures/onnx): urnforest
// predicts what the source library and onnxruntime-web (run live here) predict, halts exactly, and
// calibrates from unlabeled rows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import { init, Dataset, Forest, UrnforestError } from '../../dist/index.js';

ort.env.wasm.numThreads = 1;
const dir = new URL('../fixtures/onnx/', import.meta.url);
const readJson = (name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const modelBytes = (file) => new Uint8Array(readFileSync(new URL(file, dir)));

before(async () => { await init(); });

function datasetOf(fx) {
  const x = Float32Array.from(fx.rows.flat(), (v) => (v === null ? NaN : v));
  return Dataset.fromArrays(x, { rows: fx.rows.length, cols: fx.feature_names.length, featureNames: fx.feature_names });
}

async function ortOutputs(fx, names) {
  const session = await ort.InferenceSession.create(modelBytes(fx.model_file));
  const Flat = fx.input.dtype === 'float64' ? Float64Array : Float32Array;
  const flat = Flat.from(fx.rows.flat(), (v) => (v === null ? NaN : v));
  const out = await session.run({ [fx.input.name]: new ort.Tensor(fx.input.dtype, flat, [fx.rows.length, fx.input.n_features]) }, names);
  return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, Array.from(t.data, (v) => (typeof v === 'bigint' ? Number(v) : v))]));
}

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

const fixtures = ['sk_rf_wdbc_binary_zipmap', 'sk_rf_iris_nozipmap', 'sk_et_vehicle_strings_opset3',
  'sk_rf_soybean_19class', 'xgb_wdbc_binary_missing', 'xgb_vehicle_softprob_missing', 'tiny_all_modes'];

for (const name of fixtures) {
  test(`${name}: labels equal onnxruntime's on every row and probabilities agree within 1e-5`, async () => {
    const fx = readJson(`${name}.json`);
    const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
    const data = datasetOf(fx);
    const p = forest.predictProba(data);
    assert.equal(p.vote, 'soft');
    const zipmap = fx.ort.twin_without_zipmap !== undefined;
    const live = await ortOutputs(fx, zipmap ? ['output_label'] : ['label', 'probabilities']);
    const ortLabels = (zipmap ? live.output_label : live.label).map(String);
    assert.deepEqual(p.labels, ortLabels);
    const ortProba = zipmap ? fx.ort.twin_without_zipmap.probabilities.data : live.probabilities;
    assertClose(Array.from(p.probabilities), ortProba, 1e-5, 'probabilities vs onnxruntime');
    if (fx.source?.predict_proba) {
      assertClose(Array.from(p.probabilities), fx.source.predict_proba.flat(), 1e-5, 'probabilities vs the source library');
    }
    // predict() gives the model's own (soft) prediction too.
    assert.deepEqual(forest.predict(data).labels, p.labels);
    // The exact early exit answers the soft prediction on every row.
    const exact = forest.predict(data, { rule: 'alpha1', compare: true });
    assert.deepEqual(Array.from(exact.classIndex), Array.from(p.classIndex));
    assert.equal(exact.disagreement, 0);
    assert.ok(exact.meanTrees <= forest.numTrees);
    // The model bytes keep the import: same predictions after a round trip.
    const again = Forest.fromBytes(forest.toBytes());
    assert.deepEqual(again.predictProba(data).labels, p.labels);
    assert.equal(again.imported.kind, forest.imported.kind);
    again.dispose();
    forest.dispose();
    data.dispose();
  });
}

for (const name of ['sk_rf_wdbc_binary_zipmap', 'sk_rf_iris_nozipmap', 'sk_et_vehicle_strings_opset3', 'sk_rf_soybean_19class']) {
  test(`${name}: each imported tree votes as the scikit-learn estimator's own predict`, () => {
    const fx = readJson(`${name}.json`);
    const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
    assert.deepEqual(forest.imported.kind, 'voting');
    const data = datasetOf(fx);
    for (let row = 0; row < fx.rows.length; row++) {
      const t = forest.trace(data, row, { rule: 'alpha1' });
      assert.deepEqual(Array.from(t.votes), fx.source.tree_votes[row], `row ${row}`);
    }
    forest.dispose();
    data.dispose();
  });
}

test('xgboost margins: an additive model halts only with the exact early exit and saves trees', () => {
  const fx = readJson('xgb_vehicle_softprob_missing.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  assert.equal(forest.imported.kind, 'additive');
  const data = datasetOf(fx);
  assert.throws(() => forest.predict(data, { rule: 'hyper' }), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument');
  assert.throws(() => forest.calibrate(data), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument');
  const exact = forest.predict(data, { rule: 'alpha1', compare: false });
  assert.ok(exact.meanTrees < forest.numTrees, `mean trees ${exact.meanTrees}`);
  forest.dispose();
  data.dispose();
});

test('an imported forest calibrated on unlabeled rows halts with hyper and keeps the calibration in its bytes', () => {
  const fx = readJson('sk_rf_soybean_19class.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  const data = datasetOf(fx);
  assert.throws(() => forest.predict(data, { rule: 'hyper' }), (e) => e.code === 'InvalidArgument' && /calibrate/.test(e.message));
  forest.calibrate(data);
  assert.equal(forest.imported.calibrated, true);
  assert.equal(forest.imported.calibrationRows, fx.rows.length);
  const halted = forest.predict(data, { rule: 'hyper', alpha: 0.99, compare: true });
  assert.equal(halted.vote, 'soft');
  assert.ok(halted.meanTrees < forest.numTrees);
  assert.ok(halted.disagreement <= 0.05, `disagreement ${halted.disagreement}`);
  const again = Forest.fromBytes(forest.toBytes());
  assert.equal(again.imported.calibrated, true);
  assert.deepEqual(Array.from(again.predict(data, { rule: 'hyper', alpha: 0.99 }).classIndex), Array.from(halted.classIndex));
  again.dispose();
  forest.dispose();
  data.dispose();
});

test('datasets meet an imported model by column name: reordered columns give the same answers', () => {
  const fx = readJson('sk_rf_iris_nozipmap.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  const names = fx.feature_names;
  const csv = (cols) => [cols.join(','), ...fx.rows.map((r) => cols.map((c) => r[names.indexOf(c)]).join(','))].join('\n');
  const straight = Dataset.fromCSV(csv(names), { target: null, schemaOf: forest });
  const reversed = Dataset.fromCSV(csv([...names].reverse()), { target: null, schemaOf: forest });
  assert.deepEqual(forest.predict(reversed).labels, forest.predict(straight).labels);
  forest.dispose();
  straight.dispose();
  reversed.dispose();
});

test('files urnforest cannot run are clear errors naming the node', () => {
  const cases = [
    ['bad_regressor.onnx', 'UnsupportedModel', /regressor/],
    ['bad_scaler_pipeline.onnx', 'UnsupportedModel', /Scaler/],
    ['bad_unknown_op.onnx', 'UnsupportedModel', /node '/],
  ];
  for (const [file, code, message] of cases) {
    assert.throws(() => Forest.fromONNX(modelBytes(file)), (e) => e instanceof UrnforestError && e.code === code && message.test(e.message), file);
  }
  const bytes = modelBytes('sk_rf_iris_nozipmap.onnx');
  assert.throws(() => Forest.fromONNX(bytes.slice(0, bytes.length >> 1)), (e) => e.code === 'CorruptModel');
  assert.throws(() => Forest.fromONNX(new Uint8Array([1, 2, 3, 4, 5])), (e) => e.code === 'CorruptModel');
  assert.throws(() => Forest.fromONNX(bytes, { featureNames: ['a'] }), (e) => e.code === 'InvalidArgument');
  assert.throws(() => Forest.fromONNX(bytes, { columns: [] }), TypeError);
  assert.throws(() => Forest.fromONNX([1, 2]), TypeError);
});

test('the margin rule halts the soft prediction of a calibrated forest and reports its threshold', () => {
  const fx = readJson('sk_rf_soybean_19class.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  const data = datasetOf(fx);
  assert.throws(() => forest.predict(data, { rule: 'margin' }), (e) => e.code === 'InvalidArgument' && /calibrate/.test(e.message));
  forest.calibrate(data);
  const strict = forest.predict(data, { rule: 'margin', alpha: 1, compare: true });
  assert.equal(strict.lambda, Infinity);
  assert.equal(strict.disagreement, 0);
  const loose = forest.predict(data, { rule: 'margin', alpha: 0.9, compare: true });
  assert.ok(Number.isFinite(loose.lambda));
  assert.ok(loose.meanTrees < strict.meanTrees, `${loose.meanTrees} < ${strict.meanTrees}`);
  // On the calibration rows themselves, the chosen threshold's disagreement is what was measured.
  assert.ok(loose.disagreement <= 0.1, `disagreement ${loose.disagreement}`);
  assert.throws(() => forest.predict(data, { rule: 'margin', alpha: 0 }), RangeError);
  assert.throws(() => forest.predict(data, { rule: 'margin', vote: 'hard' }), TypeError);
  forest.dispose();
  data.dispose();
});

test('toONNX of an imported forest runs in onnxruntime with the same labels', async () => {
  const fx = readJson('xgb_vehicle_softprob_missing.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  const data = datasetOf(fx);
  const bytes = forest.toONNX();
  assert.ok(bytes instanceof Uint8Array && bytes.length > 0);
  const session = await ort.InferenceSession.create(bytes);
  const x = Float32Array.from(fx.rows.flat(), (v) => (v === null ? NaN : v));
  const out = await session.run({ X: new ort.Tensor('float32', x, [fx.rows.length, fx.feature_names.length]) });
  assert.deepEqual(Array.from(out.label.data, (v) => String(v)), forest.predict(data).labels);
  const back = Forest.fromONNX(bytes, { featureNames: fx.feature_names });
  assert.deepEqual(back.predict(data).labels, forest.predict(data).labels);
  back.dispose();
  forest.dispose();
  data.dispose();
});

test('an imported forest predicts and halts in the worker as on the main thread', async () => {
  const { UrnforestWorker } = await import('../../dist/worker.js');
  const fx = readJson('sk_rf_soybean_19class.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  const data = datasetOf(fx);
  forest.calibrate(data);
  const worker = new UrnforestWorker();
  try {
    const remote = await worker.load(forest.toBytes());
    const csv = [fx.feature_names.join(','), ...fx.rows.map((r) => r.map((v) => (v === null ? '' : v)).join(','))].join('\n');
    await remote.addData('rows', { csv, schemaOfModel: true, options: { target: null } });
    assert.deepEqual(Array.from((await remote.predict('rows')).classIndex), Array.from(forest.predict(data).classIndex));
    for (const options of [{ rule: 'alpha1' }, { rule: 'margin', alpha: 0.95 }, { rule: 'hyper', alpha: 0.99 }]) {
      const there = await remote.predict('rows', options);
      const here = forest.predict(data, options);
      assert.deepEqual(Array.from(there.classIndex), Array.from(here.classIndex), options.rule);
      assert.equal(there.meanTrees, here.meanTrees, options.rule);
    }
  } finally {
    await worker.terminate();
    forest.dispose();
    data.dispose();
  }
});

test('expectedCost of a calibrated imported forest predicts the trees hyper uses on its calibration rows', () => {
  const fx = readJson('sk_rf_wdbc_binary_zipmap.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  const data = datasetOf(fx);
  assert.throws(() => forest.expectedCost({ rule: 'hyper' }), (e) => e.code === 'InvalidArgument');
  forest.calibrate(data);
  const cost = forest.expectedCost({ rule: 'hyper', alpha: 0.99 });
  const measured = forest.predict(data, { rule: 'hyper', alpha: 0.99 });
  assert.ok(Math.abs(cost.expectedTrees - measured.meanTrees) < 0.5, `${cost.expectedTrees} vs ${measured.meanTrees}`);
  assert.ok(Number.isNaN(forest.oobError));
  forest.dispose();
  data.dispose();
});

test('an opset-5 TreeEnsemble with BRANCH_MEMBER, then ArgMax, predicts what onnxruntime does', async () => {
  const fx = readJson('tiny_all_modes_opset5.json');
  const forest = Forest.fromONNX(modelBytes(fx.model_file), { featureNames: fx.feature_names });
  assert.equal(forest.imported.kind, 'additive');
  const data = datasetOf(fx);
  const live = await ortOutputs(fx, ['scores', 'class_index']);
  const p = forest.predictProba(data);
  assert.deepEqual(p.labels, live.class_index.map(String));
  assertClose(Array.from(p.probabilities), live.scores, 1e-6, 'scores');
  const exact = forest.predict(data, { rule: 'alpha1' });
  assert.deepEqual(Array.from(exact.classIndex), Array.from(p.classIndex));
  forest.dispose();
  data.dispose();
});
