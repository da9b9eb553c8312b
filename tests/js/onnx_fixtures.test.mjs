// The ONNX import fixtures (tests/fixtures/onnx, made by scripts/onnx_fixtures.py) are faithful
// encodings: onnxruntime-web reproduces the recorded outputs and agrees with the source library.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';

ort.env.wasm.numThreads = 1;
const dir = new URL('../fixtures/onnx/', import.meta.url);
const readJson = (name) => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
const load = (file) => ort.InferenceSession.create(readFileSync(new URL(file, dir)));

function feed(fixture) {
  const { rows, input } = fixture;
  const Flat = input.dtype === 'float64' ? Float64Array : Float32Array;
  const flat = Flat.from(rows.flat(), (v) => (v === null ? NaN : v));
  return { [input.name]: new ort.Tensor(input.dtype, flat, [rows.length, input.n_features]) };
}

const plain = (t) => Array.from(t.data, (v) => (typeof v === 'bigint' ? Number(v) : v));

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance,
      `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

function assertLabelsAgree(ortLabels, sourceLabels, flips, sourceKey) {
  const flipped = new Map(flips.map((f) => [f.row, f]));
  ortLabels.forEach((label, row) => {
    const flip = flipped.get(row);
    if (flip) assert.deepEqual([label, sourceLabels[row]], [flip.ort, flip[sourceKey]], `row ${row} flip`);
    else assert.equal(label, sourceLabels[row], `row ${row} label`);
  });
}

const sklearnFixtures = ['sk_rf_wdbc_binary_zipmap', 'sk_rf_iris_nozipmap',
  'sk_et_vehicle_strings_opset3', 'sk_rf_soybean_19class'];

for (const name of sklearnFixtures) {
  test(`${name}: onnxruntime reproduces the recorded outputs and sklearn's labels and probabilities`, async () => {
    const fx = readJson(`${name}.json`);
    const session = await load(fx.model_file);
    const zipmap = 'twin_without_zipmap' in fx.ort;
    const labelName = zipmap ? 'output_label' : 'label';
    const { [labelName]: label } = await session.run(feed(fx), [labelName]);
    const labels = plain(label);
    assert.deepEqual(labels, fx.ort.outputs[labelName].data);
    assertLabelsAgree(labels, fx.source.predict, fx.label_flips, 'sklearn');
    const recorded = zipmap ? fx.ort.twin_without_zipmap : fx.ort.outputs;
    if (!zipmap) {
      const { probabilities } = await session.run(feed(fx), ['probabilities']);
      assert.deepEqual(plain(probabilities), recorded.probabilities.data);
    } else {
      await assert.rejects(session.run(feed(fx), ['output_probability']), /non-tensor/);
    }
    assert.deepEqual(recorded.label.data, labels);
    assertClose(recorded.probabilities.data, fx.source.predict_proba.flat(), 1e-5, 'probabilities');
    assert.equal(fx.source.tree_votes.length, fx.rows.length);
    assert.ok(fx.source.tree_votes.every((v) => v.length === fx.n_trees
      && v.every((c) => Number.isInteger(c) && c >= 0 && c < fx.classes.length)));
  });
}

for (const name of ['xgb_wdbc_binary_missing', 'xgb_vehicle_softprob_missing']) {
  test(`${name}: onnxruntime reproduces the recorded outputs and xgboost's labels and probabilities`, async () => {
    const fx = readJson(`${name}.json`);
    const session = await load(fx.model_file);
    const out = await session.run(feed(fx));
    const labels = plain(out.label);
    const probabilities = plain(out.probabilities);
    assert.deepEqual(labels, fx.ort.outputs.label.data);
    assert.deepEqual(probabilities, fx.ort.outputs.probabilities.data);
    assertLabelsAgree(labels, fx.source.predict, fx.label_flips, 'xgboost');
    assertClose(probabilities, fx.source.predict_proba.flat(), 1e-5, 'probabilities');
    assert.ok(fx.rows.some((r) => r.includes(null)), 'test rows hold missing values');
    const k = fx.classes.length;
    const margin = fx.source.margin;
    for (let i = 0; i < fx.rows.length; i++) {
      if (k === 2) {
        assertClose([1 / (1 + Math.exp(-margin[i]))], [probabilities[2 * i + 1]], 1e-5, `logistic(margin) row ${i}`);
      } else {
        const m = Math.max(...margin[i]);
        const e = margin[i].map((v) => Math.exp(v - m));
        const s = e.reduce((a, b) => a + b, 0);
        assertClose(e.map((v) => v / s), probabilities.slice(k * i, k * i + k), 1e-5, `softmax(margin) row ${i}`);
      }
    }
  });
}

test('tiny_all_modes: every node mode, missing track and shuffled node order agrees with the reference', async () => {
  const fx = readJson('tiny_all_modes.json');
  const session = await load(fx.model_file);
  const out = await session.run(feed(fx));
  assert.deepEqual(plain(out.label), fx.ort.outputs.label.data);
  assert.deepEqual(plain(out.label), fx.source.predict);
  assert.deepEqual(plain(out.probabilities), fx.source.scores.flat().map(Math.fround));
  assert.ok(fx.rows.some((r) => r.includes(null)));
});

test('tiny_all_modes_opset5: TreeEnsemble with BRANCH_MEMBER then ArgMax agrees with the reference', async () => {
  const fx = readJson('tiny_all_modes_opset5.json');
  const session = await load(fx.model_file);
  const out = await session.run(feed(fx));
  assert.deepEqual(plain(out.scores), fx.ort.outputs.scores.data);
  assert.deepEqual(plain(out.scores), fx.source.scores.flat().map(Math.fround));
  assert.deepEqual(plain(out.class_index), fx.source.class_index);
});

test('bad files load or fail in onnxruntime exactly as their notes say', async () => {
  const fx = readJson('bad_files.json');
  for (const [name, file] of Object.entries(fx.files)) {
    if (file.ort_loads) {
      const session = await load(file.model_file);
      const out = await session.run(feed(fx));
      for (const [key, value] of Object.entries(file.ort.outputs)) {
        assert.deepEqual(plain(out[key]), value.data, `${name} ${key}`);
      }
    } else {
      await assert.rejects(load(file.model_file), /not a registered function\/op/, name);
    }
  }
});
