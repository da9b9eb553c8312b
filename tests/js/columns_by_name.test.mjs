// A dataset meets a model by column name on every path that takes one (predict, halted predict,
// trace, order, errorCurve): reordered columns give the same answers, a missing column is a
// ColumnMismatch naming it, and unnamed data (fromArrays without featureNames) is read by position.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Dataset, trainForest, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

before(async () => { await init(); });

function reorder(csv, order) {
  const lines = csv.trim().split(/\r?\n/).map((l) => l.split(','));
  return lines.map((cells) => order.map((i) => cells[i]).join(',')).join('\n');
}

test('iris with its feature columns reversed predicts exactly as iris', () => {
  const text = readDataset('iris');
  const data = Dataset.fromCSV(text);
  const forest = trainForest(data, { trees: 25, seed: 3 });
  const reversed = Dataset.fromCSV(reorder(text, [3, 2, 1, 0, 4]));
  assert.deepEqual(reversed.featureNames, [...data.featureNames].reverse());
  assert.deepEqual(forest.predict(reversed).labels, forest.predict(data).labels);
  const options = { rule: 'hyper', alpha: 0.99 };
  assert.deepEqual(Array.from(forest.predict(reversed, options).treesUsed), Array.from(forest.predict(data, options).treesUsed));
  assert.deepEqual(forest.trace(reversed, 7, options).votes, forest.trace(data, 7, options).votes);
  assert.deepEqual(forest.order(reversed), forest.order(data));
  assert.deepEqual(forest.errorCurve(reversed, forest.order(data)), forest.errorCurve(data, forest.order(data)));
  for (const d of [forest, data, reversed]) d.dispose();
});

test('a column the model needs and the data lacks is a ColumnMismatch naming it; extra columns are ignored', () => {
  const text = readDataset('iris');
  const data = Dataset.fromCSV(text);
  const forest = trainForest(data, { trees: 9, seed: 3 });
  const renamed = Dataset.fromCSV(text.replace(/^[^\n]*/, 'a,b,c,d,class'));
  assert.throws(() => forest.predict(renamed), (e) => e instanceof UrnforestError && e.code === 'ColumnMismatch' && e.message.includes(data.featureNames[0]));
  const extra = Dataset.fromCSV(reorder(text, [4, 0, 1, 2, 3]).split('\n').map((l, i) => (i === 0 ? `noise,${l}` : `1,${l}`)).join('\n'), { target: 'class' });
  assert.deepEqual(forest.predict(extra).labels, forest.predict(data).labels);
  for (const d of [forest, data, renamed, extra]) d.dispose();
});

test('unnamed rows (fromArrays without featureNames) are read by position and must have the model width', () => {
  const text = readDataset('iris');
  const data = Dataset.fromCSV(text);
  const forest = trainForest(data, { trees: 9, seed: 3 });
  const x = data.toRowMajor();
  const unnamed = Dataset.fromArrays(x, { rows: data.numRows, cols: data.numFeatures });
  assert.deepEqual(forest.predict(unnamed).labels, forest.predict(data).labels);
  const narrow = Dataset.fromArrays(x.subarray(0, 3 * 10), { rows: 10, cols: 3 });
  assert.throws(() => forest.predict(narrow), (e) => e.code === 'ColumnMismatch');
  for (const d of [forest, data, unnamed, narrow]) d.dispose();
});
