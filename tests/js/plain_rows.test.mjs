// forest.predict(rows) on plain rows: number[][] in the model's feature order, or objects keyed by
// feature name; the same answers as predicting a Dataset of the same rows, and clear errors otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const data = uf.Dataset.fromCSV(readDataset('iris'), { target: 'class' });
const forest = uf.trainForest(data, { trees: 31, seed: 4 });
const names = forest.featureNames;
const matrix = data.toRowMajor();
const arrays = Array.from({ length: data.numRows }, (_, r) => Array.from(matrix.subarray(r * 4, r * 4 + 4)));
const objects = arrays.map((row) => Object.fromEntries([...names].reverse().map((n) => [n, row[names.indexOf(n)]])));

test('number[][] of the model\'s width predicts as the Dataset of the same rows, full and halted', () => {
  assert.deepEqual(forest.predict(arrays).labels, forest.predict(data).labels);
  const options = { rule: 'hyper', alpha: 0.99 };
  const halted = forest.predict(arrays, options);
  assert.deepEqual(halted.treesUsed, forest.predict(data, options).treesUsed);
  assert.deepEqual(halted.classIndex, forest.predict(data, options).classIndex);
});

test('objects are matched by feature name in any key order; extra keys such as the target are ignored', () => {
  assert.deepEqual(forest.predict(objects).labels, forest.predict(data).labels);
  const withTarget = objects.map((o, i) => ({ class: 'anything', ...o, note: String(i) }));
  assert.deepEqual(forest.predict(withTarget, { rule: 'siba' }).labels, forest.predict(data, { rule: 'siba' }).labels);
});

test('caller-owned arrays work with plain rows too', () => {
  const out = { classIndex: new Int32Array(150), treesUsed: new Int32Array(150) };
  forest.predict(arrays, { rule: 'hyper' }, { out });
  assert.deepEqual(out.treesUsed, forest.predict(data, { rule: 'hyper' }).treesUsed);
});

test('rows of another width are a ShapeMismatch that lists the model\'s features in order', () => {
  assert.throws(() => forest.predict([[1, 2, 3]]), (e) => e instanceof UrnforestError && e.code === 'ShapeMismatch'
    && e.message.includes(`3 values; the model has 4 features, in this order: ${names.join(', ')}`));
  assert.throws(() => forest.predict([[1, 2, 3, 4], [1, 2, 3]]), (e) => e instanceof UrnforestError && e.code === 'ShapeMismatch');
});

test('an object row without a model feature is a ColumnMismatch naming it', () => {
  const missing = objects.map(({ [names[2]]: _, ...rest }) => rest);
  assert.throws(() => forest.predict(missing), (e) => e instanceof UrnforestError && e.code === 'ColumnMismatch' && e.message.includes(names[2]));
});

test('anything else is a TypeError pointing to plain rows and Dataset.fromRows\' shapes', () => {
  for (const bad of [[], 'a,b', [1, 2, 3, 4], new Float32Array(4), null]) {
    assert.throws(() => forest.predict(bad), (e) => e instanceof TypeError && /number\[\]\[\]/.test(e.message) && /Dataset/.test(e.message));
  }
});

test('the temporary dataset is freed: no wasm memory stays in use', () => {
  forest.predict(arrays);
  const before = uf.memoryStats().inUse;
  for (let i = 0; i < 20; i++) forest.predict(objects, { rule: 'hyper' });
  assert.equal(uf.memoryStats().inUse, before);
});
