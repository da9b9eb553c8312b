// Out of memory inside wasm (design in docs/reliability.md): a request beyond the 2 GiB
// wasm heap is UrnforestError 'OutOfMemory', frees everything it allocated, and leaves the module
// usable; an abort (trap) drops the instance, and `await init()` brings a working one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, memoryStats, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = readDataset('iris');

function isCode(code) {
  return (e) => {
    assert.ok(e instanceof UrnforestError, `expected UrnforestError ${code}, got ${e}`);
    assert.equal(e.code, code, e.message);
    return true;
  };
}

// A normal train + predict + reload round trip on iris: throws if the module is unusable.
function normalWork() {
  const data = uf.Dataset.fromCSV(iris);
  const forest = uf.trainForest(data, { trees: 11, seed: 3 });
  const again = uf.Forest.fromBytes(forest.toBytes());
  const labels = again.predict(data, { rule: 'siba' }).labels;
  for (const d of [again, forest, data]) d.dispose();
  assert.equal(labels.length, 150);
  return labels;
}

// A 4096-class model (the class cap): one row per class and one tree. Its full-vote matrix for
// `rows` rows needs rows x 4096 x 4 bytes of wasm memory.
function manyClassModel() {
  const k = 4096;
  const x = new Float32Array(k);
  const labels = new Int32Array(k);
  for (let i = 0; i < k; i++) {
    x[i] = i;
    labels[i] = i;
  }
  const classNames = Array.from({ length: k }, (_, i) => `c${i}`);
  const data = uf.Dataset.fromArrays(x, { rows: k, cols: 1, labels, classNames });
  const forest = uf.trainForest(data, { trees: 1 });
  data.dispose();
  return forest;
}

const expected = normalWork();
const forest = manyClassModel();
// 140,000 rows x 4096 classes x 4 bytes = 2.29 GB of votes: more than the whole wasm heap.
const tooMany = uf.Dataset.fromArrays(new Float32Array(140000), { rows: 140000, cols: 1 });

test('a vote matrix larger than the wasm heap is OutOfMemory, and normal work succeeds right after', () => {
  assert.throws(() => forest.predict(tooMany), isCode('OutOfMemory'));
  assert.deepEqual(normalWork(), expected);
  const fewer = uf.Dataset.fromArrays(new Float32Array(1000), { rows: 1000, cols: 1 });
  assert.equal(forest.predict(fewer).classIndex.length, 1000, 'the big model itself still predicts');
  fewer.dispose();
});

test('50 out-of-memory failures in a row neither leak nor break the module', () => {
  assert.throws(() => forest.predict(tooMany), isCode('OutOfMemory'));
  const before = memoryStats();
  for (let i = 0; i < 50; i++) assert.throws(() => forest.predict(tooMany), isCode('OutOfMemory'));
  const after = memoryStats();
  assert.equal(after.heapBytes, before.heapBytes, 'the wasm memory did not grow');
  assert.ok(after.inUse - before.inUse <= 1024, `allocated bytes grew by ${after.inUse - before.inUse}`);
  assert.deepEqual(normalWork(), expected);
});

test('an abort inside wasm drops the instance: its objects throw ModuleReset, await init() gives a working module', async () => {
  const data = uf.Dataset.fromCSV(iris);
  const doomed = uf.trainForest(data, { trees: 3 });
  // Simulate a crash inside the core: point the embind handle at memory beyond the heap, so that the
  // next call traps (WebAssembly.RuntimeError), as a bug or an abort() would.
  const handle = Object.getOwnPropertySymbols(doomed).map((s) => doomed[s]).find((v) => v && v.$$);
  handle.$$.ptr = 0x7ffffff0;
  assert.throws(() => doomed.predict(data), (e) => {
    assert.ok(e instanceof UrnforestError);
    assert.equal(e.code, 'Internal', e.message);
    assert.match(e.message, /aborted/);
    return true;
  });
  assert.throws(() => uf.Dataset.fromCSV(iris), isCode('ModuleReset'), 'calls before init() resolves');
  assert.equal(await uf.init(), uf, 'init() resolves to the same API object');
  assert.throws(() => data.numRows, isCode('ModuleReset'));
  assert.throws(() => forest.predict(tooMany), isCode('ModuleReset'));
  data.dispose();
  doomed.dispose();
  forest.dispose();
  tooMany.dispose();
  assert.equal(data.disposed, true);
  assert.deepEqual(normalWork(), expected);
  const stats = memoryStats();
  assert.ok(stats.heapBytes < 64 << 20, `the fresh instance starts small (${stats.heapBytes} bytes)`);
});
