// Heap stability in wasm: 1,000 train/dispose cycles and 1,000 failed calls (every error
// row of the bad-input matrix, in turn) leave the wasm heap where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, memoryStats } from '../../dist/index.js';
import { baseModelBytes, cases, jsOutcome } from './bad_input_cases.mjs';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = readDataset('iris');

// Runs `cycle(i)` for i < 1,000 after a warm-up, and requires a flat heap.
function assertFlatHeap(cycle) {
  for (let i = 0; i < 10; i++) cycle(i);
  const before = memoryStats();
  for (let i = 0; i < 1000; i++) cycle(i);
  const after = memoryStats();
  assert.equal(after.heapBytes, before.heapBytes, 'the wasm memory did not grow');
  assert.ok(after.inUse - before.inUse <= 1024, `allocated bytes grew by ${after.inUse - before.inUse}`);
}

test('1,000 train / toBytes / fromBytes / predict / dispose cycles keep the wasm heap flat', () => {
  assertFlatHeap((i) => {
    const data = uf.Dataset.fromCSV(iris);
    const forest = uf.trainForest(data, { trees: 3, seed: i + 1 });
    const loaded = uf.Forest.fromBytes(forest.toBytes());
    assert.equal(loaded.predict(data).labels.length, 150);
    for (const d of [loaded, forest, data]) d.dispose();
  });
});

test('1,000 failed calls (every error row of the bad-input matrix in turn) keep the wasm heap flat', () => {
  const model = baseModelBytes(uf);
  const failing = cases.filter((c) => c.want !== 'ok');
  assert.ok(failing.length >= 30);
  assertFlatHeap((i) => {
    const c = failing[i % failing.length];
    assert.equal(jsOutcome(uf, c, model).code, c.want, c.name);
  });
});
