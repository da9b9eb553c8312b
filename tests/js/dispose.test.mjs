import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, memoryStats } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = readDataset('iris');

test('dispose is idempotent and any later use throws an Error saying so', () => {
  const data = uf.Dataset.fromCSV(iris);
  const forest = uf.trainForest(data, { trees: 3 });
  assert.equal(forest.disposed, false);
  forest.dispose();
  forest.dispose();
  assert.equal(forest.disposed, true);
  for (const use of [() => forest.numTrees, () => forest.predict(data), () => forest.toBytes(),
    () => forest.oobError, () => forest.classNames, () => uf.Dataset.fromCSV(iris, { schemaOf: forest })]) {
    assert.throws(use, (e) => e instanceof Error && /Forest has been disposed/.test(e.message));
  }
  data.dispose();
  data.dispose();
  for (const use of [() => data.numRows, () => data.labels(), () => uf.trainForest(data)]) {
    assert.throws(use, (e) => e instanceof Error && /Dataset has been disposed/.test(e.message));
  }
});

test('a forest outlives the dataset it was trained on', () => {
  const data = uf.Dataset.fromCSV(iris);
  const forest = uf.trainForest(data, { trees: 3, seed: 2 });
  data.dispose();
  const again = uf.Dataset.fromCSV(iris);
  assert.equal(forest.predict(again).classIndex.length, 150);
  forest.dispose();
  again.dispose();
});

test('no leak over 200 create/dispose cycles', () => {
  const cycle = () => {
    const data = uf.Dataset.fromCSV(iris);
    const forest = uf.trainForest(data, { trees: 5, seed: 1 });
    const bytes = forest.toBytes();
    const loaded = uf.Forest.fromBytes(bytes);
    loaded.predict(data);
    try { uf.Dataset.fromCSV('a,b\n1\n'); } catch { /* failed loads must free too */ }
    try { uf.Forest.fromBytes(bytes.subarray(0, 10)); } catch { /* idem */ }
    loaded.dispose();
    forest.dispose();
    data.dispose();
  };
  for (let i = 0; i < 5; i++) cycle();
  const before = memoryStats();
  for (let i = 0; i < 200; i++) cycle();
  const after = memoryStats();
  assert.equal(after.heapBytes, before.heapBytes, 'HEAPU8 length is stable');
  assert.ok(after.inUse - before.inUse <= 1024, `allocated bytes grew by ${after.inUse - before.inUse}`);
});
