// Heap stability in wasm: 1,000 train/dispose cycles, 1,000 failed calls (every error row of the
// bad-input matrix, in turn) and 1,000 cycles of every public call (succeeding and failing) leave the
// wasm heap where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

test('1,000 cycles of every public call, succeeding and failing, keep the wasm heap flat', () => {
  const small = 'a,b,class\n1,5,x\n2,6,x\n3,7,y\n4,8,y\n5,1,x\n6,2,y\n7,3,z\n8,4,z\n';
  const onnx = readFileSync(new URL('../fixtures/onnx/sk_rf_iris_nozipmap.onnx', import.meta.url));
  const xgboost = readFileSync(new URL('../fixtures/xgboost/wdbc_logitraw.model.json', import.meta.url));
  const model = baseModelBytes(uf);
  const fails = (fn) => assert.throws(fn, (e) => e instanceof uf.UrnforestError || e instanceof TypeError || e instanceof RangeError);
  assertFlatHeap((i) => {
    const data = uf.Dataset.fromCSV(small);
    const bytesData = uf.Dataset.fromCSV(new TextEncoder().encode(small));
    const arrays = uf.Dataset.fromArrays(new Float32Array([1, 5, 2, 6]), { rows: 2, cols: 2, featureNames: ['a', 'b'] });
    const part = data.subset([0, 2, 4, 6]);
    const unlabeled = uf.Dataset.fromCSV(small, { target: null });
    const forest = uf.trainForest(data, { trees: 3, seed: i + 1, onProgress: () => true });
    const loaded = uf.Forest.fromBytes(forest.toBytes());
    loaded.predict(arrays);
    loaded.predict(data, { rule: uf.rules[i % uf.rules.length], alpha: 0.9 });
    loaded.predictProba(part);
    loaded.trace(data, i % 8, { rule: 'siba', order: 'random', seed: i });
    loaded.expectedCost({ rule: 'siba', samples: 5, seed: i });
    loaded.prior('hyper');
    loaded.posterior([1, 0, 0], { rule: 'siba' });
    const order = loaded.order(data, { ordering: 'reduce-error' });
    loaded.errorCurve(data, order);
    const pruned = loaded.prune(order, 2, { training: data });
    loaded.storeTable({ rule: 'siba', alpha: 0.95 });
    loaded.storedTables();
    const table = loaded.haltingTable({ rule: 'hyper', onProgress: () => true });
    table.halts([1, 0, 0]);
    table.confidence([2, 0, 0]);
    table.haltsMany([[1, 0, 0], [0, 2, 0]]);
    table.leader([1, 0, 0]);
    table.minLeaderVotes(0, [0, 0]);
    table.expectedCost({ final: [3, 0, 0] });
    const copy = uf.HaltingTable.fromBytes(table.toBytes());
    const priorless = uf.haltingTable({ rule: 'siba', trees: 5, classes: 2 });
    priorless.binaryThresholds(0);
    uf.pstar({ rule: 'siba', trees: 5, votes: [2, 0] });
    uf.emphasisWeights([2, 1, 0, 3], 2, { a: 1, b: 2 });
    const imported = uf.Forest.fromONNX(onnx);
    imported.toONNX();
    const boosted = uf.Forest.fromXGBoost(xgboost);
    if (i % 10 === 0) uf.runExperiment({ data, trees: 3, folds: 2, repeats: 1, samples: 10, rules: ['siba'] });
    // The failing calls: core errors, argument errors, cancellations, use after dispose.
    fails(() => uf.Dataset.fromCSV('a,b\n1,"x\n'));
    fails(() => uf.Dataset.fromArrays(new Float32Array([1, Infinity]), { rows: 1, cols: 2 }));
    fails(() => uf.Forest.fromBytes(model.subarray(0, 40)));
    fails(() => uf.Forest.fromONNX(model));
    fails(() => uf.Forest.fromXGBoost(xgboost.subarray(0, 1000 + i)));
    fails(() => uf.HaltingTable.fromBytes(model));
    fails(() => uf.trainForest(unlabeled, { trees: 3 }));
    const empty = data.subset([]);
    fails(() => uf.trainForest(empty, { trees: 3 }));
    fails(() => uf.trainForest(data, { trees: 5, onProgress: (done) => done < 2 }));
    fails(() => loaded.haltingTable({ rule: 'hyper', trees: 2, onProgress: () => false }));
    const wrong = uf.Dataset.fromCSV('q\n1\n', { target: null });
    fails(() => loaded.predict(wrong));
    fails(() => loaded.predict(data, { rule: 'siba', alpha: 2 }));
    fails(() => loaded.posterior([9, 9, 9], { rule: 'siba' }));
    fails(() => uf.runExperiment({ data: unlabeled }));
    fails(() => uf.pstar({ rule: 'hyper', trees: 3, votes: [1, 0] }));
    fails(() => table.expectedCost({ final: [1, 1, 0] }));
    for (const d of [wrong, empty, imported, boosted, priorless, copy, table, pruned, loaded, forest, unlabeled, part, arrays, bytesData, data]) d.dispose();
    assert.throws(() => data.numRows, /disposed/);
  });
});
