// A callback cannot free what the running call uses: disposing the dataset from onProgress is an
// Error naming the call, the call stops (the callback's error is what it throws), and the dataset
// stays usable until disposed after the call.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Dataset, trainForest, runExperiment } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

before(async () => { await init(); });

test('runExperiment: disposing its dataset from onProgress is an error naming runExperiment', () => {
  const data = Dataset.fromCSV(readDataset('iris'));
  assert.throws(
    () => runExperiment({ data, folds: 3, repeats: 1, trees: 5, rules: ['siba'] }, { onProgress: () => { data.dispose(); } }),
    (e) => e instanceof Error && /runExperiment/.test(e.message) && /disposed/.test(e.message),
  );
  assert.equal(data.disposed, false);
  assert.equal(data.numRows, 150);
  const report = runExperiment({ data, folds: 3, repeats: 1, trees: 5, rules: ['siba'] });
  assert.ok(report);
  data.dispose();
  assert.equal(data.disposed, true);
});

test('trainForest: disposing its dataset from onProgress is an error naming trainForest', () => {
  const data = Dataset.fromCSV(readDataset('iris'));
  assert.throws(() => trainForest(data, { trees: 5, onProgress: () => { data.dispose(); } }),
    (e) => e instanceof Error && /trainForest/.test(e.message));
  assert.equal(data.disposed, false);
  const forest = trainForest(data, { trees: 5 });
  assert.equal(forest.numTrees, 5);
  forest.dispose();
  data.dispose();
});
