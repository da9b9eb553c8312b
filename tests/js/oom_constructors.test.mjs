// At the wasm heap cap every constructor and factory of the API (and every call that builds a table
// internally) throws UrnforestError 'OutOfMemory' with its code, like the rest of the API, never a plain
// Error; releasing the memory makes the library usable again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const small = 'a,b,class\n1,5,x\n2,6,x\n3,7,y\n4,8,y\n5,1,x\n6,2,y\n';
const onnx = readFileSync(new URL('../fixtures/onnx/sk_rf_iris_nozipmap.onnx', import.meta.url));
const xgboost = readFileSync(new URL('../fixtures/xgboost/iris_softmax.model.json', import.meta.url));

// Datasets that take the whole heap: as large as they fit, halving down to one row; then the
// smallest Dataset there is (one cell, a subset of a one-cell dataset) into the holes a loader's
// temporary buffers leave, until even that does not fit.
function fillHeap() {
  const fillers = [];
  const x = new Float32Array(2 ** 26);
  const cell = uf.Dataset.fromArrays(new Float32Array(1), { rows: 1, cols: 1 });
  fillers.push(cell);
  for (let rows = 2 ** 26; rows >= 1;) {
    try {
      fillers.push(uf.Dataset.fromArrays(x.subarray(0, rows), { rows, cols: 1 }));
    } catch (e) {
      assert.ok(e instanceof UrnforestError && e.code === 'OutOfMemory', `filling the heap: ${e}`);
      rows >>= 1;
    }
  }
  for (;;) {
    try {
      fillers.push(cell.subset([0]));
    } catch (e) {
      assert.ok(e instanceof UrnforestError && e.code === 'OutOfMemory', `filling the heap: ${e}`);
      return fillers;
    }
  }
}

test('every constructor and factory throws UrnforestError OutOfMemory at the heap cap, and the library recovers', () => {
  const data = uf.Dataset.fromCSV(small);
  const irisData = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(irisData, { trees: 11, seed: 1 });
  const model = forest.toBytes();
  const table = uf.haltingTable({ rule: 'siba', trees: 11 });
  const tableBytes = table.toBytes();
  const calls = {
    'Dataset.fromCSV': () => uf.Dataset.fromCSV(small),
    'Dataset.fromCSV (bytes)': () => uf.Dataset.fromCSV(new TextEncoder().encode(small)),
    'Dataset.fromArrays': () => uf.Dataset.fromArrays(new Float32Array(4), { rows: 2, cols: 2 }),
    'dataset.subset': () => data.subset([0, 1, 2]),
    trainForest: () => uf.trainForest(data, { trees: 3 }),
    'Forest.fromBytes': () => uf.Forest.fromBytes(model),
    'Forest.fromONNX': () => uf.Forest.fromONNX(onnx),
    'Forest.fromXGBoost': () => uf.Forest.fromXGBoost(xgboost),
    'forest.prune': () => forest.prune([0, 1, 2], 2),
    haltingTable: () => uf.haltingTable({ rule: 'siba', trees: 51 }),
    'forest.haltingTable': () => forest.haltingTable({ rule: 'hyper' }),
    'HaltingTable.fromBytes': () => uf.HaltingTable.fromBytes(tableBytes),
    'forest.predict (halted)': () => forest.predict(irisData, { rule: 'ndir', alpha: 0.9 }),
    'forest.trace': () => forest.trace(irisData, 0, { rule: '1dir' }),
    'forest.expectedCost': () => forest.expectedCost({ rule: 'siba', alpha: 0.9, samples: 10 }),
    'forest.storeTable': () => forest.storeTable({ rule: 'hyper', alpha: 0.95 }),
  };
  const fillers = fillHeap();
  const outcomes = {};
  try {
    for (const [name, call] of Object.entries(calls)) {
      try {
        const made = call();
        outcomes[name] = 'succeeded';
        made?.dispose?.();
      } catch (e) {
        outcomes[name] = e instanceof UrnforestError ? e.code : `${e.constructor.name}: ${e.message}`;
      }
    }
  } finally {
    for (const f of fillers) f.dispose();
  }
  const expected = Object.fromEntries(Object.keys(calls).map((name) => [name, 'OutOfMemory']));
  assert.deepEqual(outcomes, expected);
  const again = uf.trainForest(data, { trees: 3 });
  assert.equal(again.predict(data, { rule: 'siba' }).labels.length, 6);
  for (const d of [again, table, forest, irisData, data]) d.dispose();
});
