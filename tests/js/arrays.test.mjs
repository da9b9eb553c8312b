import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { accuracy } from './helpers.mjs';

const uf = await init();

// Two well-separated Gaussian-ish blobs from a fixed LCG (no Math.random).
function blobs(rows, cols, seed = 1) {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const x = new Float32Array(rows * cols);
  const y = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    y[r] = r % 2;
    for (let c = 0; c < cols; c++) x[r * cols + c] = (y[r] ? 2 : -2) + (rand() + rand() + rand() - 1.5);
  }
  return { x, y };
}

test('fromArrays with Int32Array labels trains and predicts', () => {
  const { x, y } = blobs(200, 5);
  const data = uf.Dataset.fromArrays(x, { rows: 200, cols: 5, labels: y, classNames: ['neg', 'pos'] });
  assert.equal(data.numRows, 200);
  assert.equal(data.numFeatures, 5);
  assert.deepEqual(data.classNames, ['neg', 'pos']);
  assert.deepEqual(Array.from(data.labels()), Array.from(y));
  assert.deepEqual(data.toRowMajor(), x);
  const forest = uf.trainForest(data, { trees: 25, seed: 5 });
  const out = forest.predict(data);
  assert.ok(accuracy(out, y) > 0.98);
  assert.ok(out.labels.every((l) => l === 'neg' || l === 'pos'));
  forest.dispose();
  data.dispose();
});

test('fromArrays defaults feature and class names', () => {
  const { x, y } = blobs(20, 3);
  const data = uf.Dataset.fromArrays(x, { rows: 20, cols: 3, labels: y });
  assert.deepEqual(data.featureNames, ['x0', 'x1', 'x2']);
  assert.deepEqual(data.classNames, ['0', '1']);
  data.dispose();
});

test('fromArrays with string labels sorts class names; unlabeled data predicts', () => {
  const { x, y } = blobs(60, 2);
  const names = Array.from(y, (v) => (v ? 'yes' : 'no'));
  const data = uf.Dataset.fromArrays(x, { rows: 60, cols: 2, labels: names, featureNames: ['a', 'b'] });
  assert.deepEqual(data.classNames, ['no', 'yes']);
  assert.deepEqual(data.featureNames, ['a', 'b']);
  const forest = uf.trainForest(data, { trees: 9, seed: 1 });
  const unlabeled = uf.Dataset.fromArrays(x, { rows: 60, cols: 2, featureNames: ['a', 'b'] });
  assert.equal(unlabeled.hasLabels, false);
  assert.deepEqual(forest.predict(unlabeled).labels, forest.predict(data).labels);
  for (const d of [unlabeled, forest, data]) d.dispose();
});

test('NaN features are missing values, not errors', () => {
  const { x, y } = blobs(40, 2);
  x[3] = NaN;
  const data = uf.Dataset.fromArrays(x, { rows: 40, cols: 2, labels: y });
  assert.ok(Number.isNaN(data.toRowMajor()[3]));
  const forest = uf.trainForest(data, { trees: 5 });
  forest.dispose();
  data.dispose();
});

test('Infinity in features is an UrnforestError NonFiniteValue', () => {
  const { x, y } = blobs(10, 2);
  x[4] = Infinity;
  assert.throws(() => uf.Dataset.fromArrays(x, { rows: 10, cols: 2, labels: y }),
    (e) => e instanceof uf.UrnforestError && e.code === 'NonFiniteValue');
});

test('subset keeps the schema and picks rows (repeats allowed)', () => {
  const { x, y } = blobs(30, 2);
  const data = uf.Dataset.fromArrays(x, { rows: 30, cols: 2, labels: y, classNames: ['a', 'b'] });
  const part = data.subset(new Uint32Array([5, 5, 0, 29]));
  assert.equal(part.numRows, 4);
  assert.deepEqual(part.classNames, ['a', 'b']);
  assert.deepEqual(Array.from(part.labels()), [y[5], y[5], y[0], y[29]]);
  assert.deepEqual(Array.from(part.toRowMajor().subarray(0, 2)), Array.from(x.subarray(10, 12)));
  assert.throws(() => data.subset([30]), RangeError);
  assert.throws(() => data.subset([1.5]), TypeError);
  assert.throws(() => data.subset('0'), TypeError);
  part.dispose();
  data.dispose();
});
