// The ONNX Runtime oracle: every crafted file of docs/import.md's "Cases decided against ONNX Runtime"
// (tests/fixtures/onnx/crafted/, written by scripts/onnx_crafted_fixtures.sh from
// tests/cpp/onnx_crafted_cases.h) runs through onnxruntime-web 1.30 and through Forest.fromONNX, and
// the labels and probabilities agree row by row, or both refuse the file. The deliberate differences
// are listed below, each with what ONNX Runtime answers and why urnforest does not; a case in neither
// the agreements nor this list fails the test, so no case is skipped silently.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import { init, Dataset, Forest, UrnforestError } from '../../dist/index.js';

ort.env.wasm.numThreads = 1;
const dir = new URL('../fixtures/onnx/crafted/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8'));

// name -> how urnforest deliberately differs. `refused`: urnforest refuses a file ONNX Runtime runs
// (with an ill-defined or self-contradicting answer); `labels`: the rows whose labels differ, with
// ONNX Runtime's and urnforest's (probabilities still agree).
const deliberate = {
  binary_tie_T20: { labels: [{ row: 1, ort: 1, ours: 0 }],
    why: 'an exact vote tie answers the first class, as scikit-learn, where float32(1/T) rounds up' },
  opset5_softmax: { refused: 'UnsupportedModel', why: 'ONNX Runtime computes LOGISTIC for the specification\'s SOFTMAX (1)' },
  opset5_logistic: { refused: 'UnsupportedModel', why: 'ONNX Runtime computes SOFTMAX for the specification\'s LOGISTIC (2)' },
  second_class_only_base_values: { refused: 'UnsupportedModel', why: 'ONNX Runtime drops the trees\' sum' },
  single_score_logistic_nonnegative: { labels: [{ row: 0, ort: 0, ours: 1 }, { row: 2, ort: 0, ours: 1 },
    { row: 3, ort: 0, ours: 1 }],
  why: 'ONNX Runtime compares the raw score with 0.5 while reporting sigmoid(0.3) = 0.574 for class 1' },
  single_score_softmax_nonnegative: { refused: 'UnsupportedModel', why: 'ONNX Runtime ignores SOFTMAX here' },
  single_score_softmax_signed: { refused: 'UnsupportedModel', why: 'ONNX Runtime ignores SOFTMAX here' },
  two_classes_both_ids: { labels: [{ row: 0, ort: 1, ours: 0 }, { row: 2, ort: 1, ours: 0 },
    { row: 3, ort: 1, ours: 0 }],
  why: 'with weights on both class ids ONNX Runtime answers 1 whenever the second score is above 0, ' +
    'against its own scores [0.7, 0.3]' },
};

before(async () => { await init(); });

async function runOrt(name, rows) {
  let session;
  try {
    session = await ort.InferenceSession.create(readFileSync(new URL(`${name}.onnx`, dir)));
  } catch (e) {
    return { error: String(e.message ?? e) };
  }
  const x = new ort.Tensor('float32', Float32Array.from(rows), [rows.length, 1]);
  const scoresName = session.outputNames.find((n) => n !== 'label');
  const out = await session.run({ X: x });
  return {
    labels: Array.from(out.label.data, Number),
    scores: Array.from(out[scoresName].data),
    classes: out[scoresName].dims[1],
  };
}

function runOurs(name, rows) {
  let forest;
  try {
    forest = Forest.fromONNX(readFileSync(new URL(`${name}.onnx`, dir)));
  } catch (e) {
    assert.ok(e instanceof UrnforestError, `${name}: ${e}`);
    return { code: e.code, error: e.message };
  }
  const data = Dataset.fromArrays(Float32Array.from(rows), { rows: rows.length, cols: 1, featureNames: forest.featureNames });
  try {
    const labels = Array.from(forest.predict(data).classIndex);
    const halted = Array.from(forest.predict(data, { rule: 'alpha1', vote: 'soft' }).classIndex);
    assert.deepEqual(halted, labels, `${name}: the exact early exit answers the full prediction`);
    const p = forest.predictProba(data);
    return { labels, scores: Array.from(p.probabilities), classes: forest.classNames.length };
  } finally {
    data.dispose();
    forest.dispose();
  }
}

test('every crafted case is either an agreement or a listed deliberate difference', () => {
  const names = new Set(manifest.map((c) => c.name));
  for (const name of Object.keys(deliberate)) assert.ok(names.has(name), `${name} is listed but not crafted`);
  assert.ok(manifest.length >= 20);
});

for (const { name, rows, what } of manifest) {
  test(`${name} (${what}): urnforest answers as onnxruntime-web or differs as listed`, async () => {
    const theirs = await runOrt(name, rows);
    const ours = runOurs(name, rows);
    const listed = deliberate[name];
    if (theirs.error !== undefined) {
      // A file ONNX Runtime refuses (ambiguous) is refused here too.
      assert.equal(ours.code, 'CorruptModel', `${name}: ONNX Runtime refuses it (${theirs.error}); urnforest: ${ours.error}`);
      return;
    }
    if (listed?.refused) {
      assert.equal(ours.code, listed.refused, `${name}: ${listed.why}`);
      return;
    }
    assert.equal(ours.error, undefined, `${name}: ONNX Runtime runs it; urnforest refused: ${ours.error}`);
    assert.equal(ours.classes, theirs.classes);
    const expected = theirs.labels.slice();
    for (const d of listed?.labels ?? []) {
      assert.equal(theirs.labels[d.row], d.ort, `${name}: ONNX Runtime's label of row ${d.row} (listed)`);
      expected[d.row] = d.ours;
    }
    assert.deepEqual(ours.labels, expected, `${name}: labels (ONNX Runtime ${theirs.labels})`);
    theirs.scores.forEach((s, i) => {
      assert.ok(Math.abs(ours.scores[i] - s) <= 1e-6 * Math.max(1, Math.abs(s)),
        `${name}: probability ${i}: ${ours.scores[i]} vs ONNX Runtime ${s}`);
    });
  });
}
