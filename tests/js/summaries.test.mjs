import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { init, confusionMatrix } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();

test('confusionMatrix counts true x predicted classes, with accuracy overall and per class', () => {
  const cm = confusionMatrix([0, 0, 1, 1, 2, -1], new Int32Array([0, 1, 1, 1, 0, 2]), 3);
  assert.deepEqual(Array.from(cm.matrix), [1, 1, 0, 0, 2, 0, 1, 0, 0]);
  assert.equal(cm.rows, 5);
  assert.equal(cm.accuracy, 3 / 5);
  assert.deepEqual(cm.perClass.map((c) => c.support), [2, 2, 1]);
  assert.deepEqual(cm.perClass.map((c) => c.accuracy), [0.5, 1, 0]);
  assert.equal(cm.perClass[1].precision, 2 / 3);
  assert.ok(Number.isNaN(cm.perClass[2].precision));
  assert.throws(() => confusionMatrix([0, 1], [0]), RangeError);
  assert.throws(() => confusionMatrix([0, 5], [0, 1], 3), /trueLabels\[1\]/);
});

test('confusionMatrix takes a predict() result and agrees with its accuracy', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 11, seed: 1 });
  const out = forest.predict(data);
  const cm = uf.confusionMatrix(data.labels(), out);
  assert.equal(cm.numClasses, 3);
  let right = 0;
  const labels = data.labels();
  for (let i = 0; i < labels.length; i++) right += labels[i] === out.classIndex[i] ? 1 : 0;
  assert.equal(cm.accuracy, right / labels.length);
  assert.equal(cm.perClass.reduce((s, c) => s + c.support, 0), 150);
  forest.dispose();
  data.dispose();
});

test('JSON.stringify and console.log of a forest and a dataset show their summaries', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 11, seed: 1 });
  const summary = JSON.parse(JSON.stringify(forest));
  assert.equal(summary.type, 'Forest');
  assert.equal(summary.trees, 11);
  assert.deepEqual(summary.classes, ['setosa', 'versicolor', 'virginica']);
  assert.deepEqual(summary.features[0], { name: 'sepal_length_(cm)', type: 'numeric' });
  assert.equal(summary.ensemble, 'rf');
  assert.equal(summary.oobError, forest.oobError);
  assert.equal(summary.imported, null);
  const shown = inspect(forest);
  assert.match(shown, /^Forest \{/);
  assert.match(shown, /trees: 11/);
  assert.match(shown, /setosa/);
  assert.doesNotMatch(shown, /Symbol/);
  const d = JSON.parse(JSON.stringify(data));
  assert.deepEqual(d, { type: 'Dataset', rows: 150, features: data.featureNames.map((name) => ({ name, type: 'numeric' })), target: 'class', classes: ['setosa', 'versicolor', 'virginica'] });
  assert.match(inspect(data), /^Dataset \{\n  rows: 150,\n  features: \[\n    'sepal_length_\(cm\) \(numeric\)'/);
  assert.match(inspect({ nested: { forest } }, { depth: 0 }), /\[Forest\]|\[Object\]/);
  forest.dispose();
  data.dispose();
  assert.deepEqual(forest.toJSON(), { type: 'Forest', disposed: true });
  assert.match(inspect(data), /disposed: true/);
});
