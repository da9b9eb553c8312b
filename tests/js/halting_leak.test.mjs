import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, memoryStats } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = uf.Dataset.fromCSV(readDataset('iris'));
const model = uf.trainForest(iris, { trees: 21, seed: 1 }).toBytes();
const narrow = uf.Dataset.fromArrays(new Float32Array(6), { rows: 2, cols: 3 });

test('no heap growth over 1,000 create/dispose cycles of forests and halting tables', () => {
  const cycle = (i) => {
    const forest = uf.Forest.fromBytes(model);
    const rule = uf.rules[i % uf.rules.length];
    forest.predict(iris, { rule, alpha: 0.95 });
    forest.trace(iris, i % 150, { rule, order: 'random', seed: i });
    const table = forest.haltingTable({ rule: 'siba', trees: 11 });
    table.halts([3, 0, 0]);
    table.expectedCost({ final: [11, 0, 0] });
    const again = uf.HaltingTable.fromBytes(table.toBytes());
    const top = uf.haltingTable({ rule: i % 2 ? 'infinite' : 'siba', trees: 21, alpha: 0.9 });
    top.binaryThresholds(0);
    uf.pstar({ rule: 'siba', trees: 21, votes: [4, 1] });
    try { forest.predict(iris, { rule: 'hyper', trees: 22 }); } catch { /* RangeError before wasm */ }
    try { uf.HaltingTable.fromBytes(new Uint8Array(8)); } catch { /* a failed load must free too */ }
    try { forest.predict(narrow, { rule: 'siba', alpha: 0.95 }); } catch { /* ColumnMismatch in wasm */ }
    for (const d of [top, again, table, forest]) d.dispose();
  };
  for (let i = 0; i < 7; i++) cycle(i);
  const before = memoryStats();
  for (let i = 0; i < 1000; i++) cycle(i);
  const after = memoryStats();
  assert.equal(after.heapBytes, before.heapBytes, 'HEAPU8 length is stable');
  assert.ok(after.inUse - before.inUse <= 1024, `allocated bytes grew by ${after.inUse - before.inUse}`);
});

test('the per-forest table cache is bounded', () => {
  const forest = uf.Forest.fromBytes(model);
  forest.predict(iris, { rule: 'siba', alpha: 0.5 });
  const before = memoryStats().inUse;
  for (let i = 0; i < 40; i++) forest.predict(iris, { rule: 'siba', alpha: 0.5 + i / 100 });
  const mid = memoryStats().inUse;
  for (let i = 0; i < 40; i++) forest.predict(iris, { rule: 'siba', alpha: 0.5 + i / 100 });
  assert.ok(memoryStats().inUse - mid <= 1024, 'cycling alphas does not grow the heap');
  assert.ok(mid >= before);
  forest.dispose();
});

test("a long sweep of alphas through tallyAnswers keeps a bounded number of the forest's tables", () => {
  const forest = uf.Forest.fromBytes(model);
  const tallies = new Int32Array([5, 0, 0, 2, 2, 1]);
  const sweep = () => {
    for (let i = 0; i < 60; i++) forest.tallyAnswers('halts', tallies, { rule: 'siba', alpha: 0.4 + i / 100 });
  };
  sweep();
  const mid = memoryStats().inUse;
  sweep();
  assert.ok(memoryStats().inUse - mid <= 1024, 'sweeping alphas again does not grow the heap');
  // Options that resolve to the same table share it: the default alpha and trees spelled out build nothing.
  forest.tallyAnswers('confidence', tallies, { rule: 'hyper' });
  const one = memoryStats().inUse;
  forest.tallyAnswers('confidence', tallies, { rule: 'hyper', alpha: 0.99, trees: 21 });
  assert.equal(memoryStats().inUse, one);
  forest.dispose();
});
