// A large RemoteForest#predict split over an UrnforestWorker's threads answers as one thread and as
// Forest#predict on the main thread, field for field, for every thread count and every mode; and
// predict's firstRow, on which the split rests.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';

const uf = await init();

// Two Gaussian classes in `cols` dimensions (deterministic): {x, labels}.
function twoClasses(rows, cols, seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  const x = new Float32Array(rows * cols);
  const labels = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    labels[r] = r % 2;
    for (let c = 0; c < cols; c++) {
      const normal = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      x[r * cols + c] = normal + (labels[r] === 1 ? 0.6 : -0.6);
    }
  }
  return { x, labels };
}

const COLS = 6;
const TREES = 201;
const train = twoClasses(400, COLS, 3);
const trainSet = uf.Dataset.fromArrays(train.x, { rows: 400, cols: COLS, labels: train.labels });
const forest = uf.trainForest(trainSet, { trees: TREES, seed: 4 });
const model = forest.toBytes();
// Rows x trees well above 3 parts' worth of work (parallel_predict.js MIN_WORK_PER_PART = 250,000).
const ROWS = 36_001;
const test_ = twoClasses(ROWS, COLS, 11);
const testSet = uf.Dataset.fromArrays(test_.x, { rows: ROWS, cols: COLS });
after(() => { forest.dispose(); trainSet.dispose(); testSet.dispose(); });

const MODES = {
  full: undefined,
  'hyper, random order, compare': { rule: 'hyper', alpha: 0.95, order: 'random', seed: 7, compare: true },
  'hyper, generation order': { rule: 'hyper', alpha: 0.99, order: 'generation' },
  'alpha1, random order, from row 1000': { rule: 'alpha1', order: 'random', seed: 3, firstRow: 1000 },
  'auto (certified), compare': { rule: 'auto', alpha: 0.95, compare: true },
  'lp, random order': { rule: 'lp', alpha: 0.95 },
};

// Every field of an answer but the table's build time, with the halted probabilities read (a getter
// on the main thread, an own property from the worker), as plain data.
function plain(answer) {
  const out = {};
  for (const key of Object.keys(answer)) out[key] = answer[key];
  if ('probabilities' in answer) out.probabilities = answer.probabilities;
  if (out.table !== undefined) out.table = { source: out.table.source };
  return out;
}

function assertSame(got, want, what) {
  const g = plain(got);
  const w = plain(want);
  delete g.table;
  delete w.table;
  assert.deepEqual(Object.keys(g).sort(), Object.keys(w).sort(), `${what}: fields`);
  for (const key of Object.keys(w)) {
    const a = g[key];
    const b = w[key];
    if (ArrayBuffer.isView(b)) {
      assert.equal(a.constructor, b.constructor, `${what}: ${key} type`);
      assert.deepEqual(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), new Uint8Array(b.buffer, b.byteOffset, b.byteLength), `${what}: ${key} bytes`);
    } else if (typeof b === 'number') {
      assert.ok(Object.is(a, b), `${what}: ${key} ${a} !== ${b}`);
    } else {
      assert.deepEqual(a, b, `${what}: ${key}`);
    }
  }
}

const data = () => ({ x: test_.x, options: { rows: ROWS, cols: COLS } });

test('predict with firstRow answers a part of a batch as the batch answers those rows', () => {
  const cut = 12_345;
  const options = { rule: 'hyper', alpha: 0.95, order: 'random', seed: 9, compare: true };
  const whole = forest.predict(testSet, options);
  const tail = uf.Dataset.fromArrays(test_.x.subarray(cut * COLS), { rows: ROWS - cut, cols: COLS });
  try {
    const shifted = forest.predict(tail, { ...options, firstRow: cut });
    assert.deepEqual(shifted.tallies, whole.tallies.subarray(cut * 2));
    assert.deepEqual(shifted.treesUsed, whole.treesUsed.subarray(cut));
    assert.deepEqual(shifted.labels, whole.labels.slice(cut));
    // Without its offset the part draws other orders: the test above could fail.
    const unshifted = forest.predict(tail, options);
    assert.notDeepEqual(unshifted.tallies, whole.tallies.subarray(cut * 2));
  } finally {
    tail.dispose();
  }
  assert.throws(() => forest.predict(testSet, { rule: 'hyper', firstRow: -1 }), RangeError);
  assert.throws(() => forest.predict(testSet, { rule: 'hyper', firstRow: 1.5 }), TypeError);
  assert.throws(() => forest.predict(testSet, { rule: 'hyper', firstRow: '3' }), TypeError);
});

test('a large predict answers the same on 1, 2 and 3 worker threads as Forest#predict, in every mode', async () => {
  const want = Object.fromEntries(Object.entries(MODES).map(([name, options]) => [name, forest.predict(testSet, options)]));
  for (const threads of [1, 2, 3]) {
    const worker = new UrnforestWorker({ threads });
    try {
      const remote = await worker.load(model);
      for (const [name, options] of Object.entries(MODES)) {
        const got = await remote.predict(data(), options);
        assertSame(got, want[name], `${threads} threads, ${name}`);
      }
      // The batch was split: every extra thread was started (none with one thread).
      assert.equal(worker._helpers.length, threads - 1, `${threads} threads: extra threads started`);
    } finally {
      worker.terminate();
    }
  }
});

test('a small predict stays on one thread', async () => {
  const worker = new UrnforestWorker({ threads: 3 });
  try {
    const remote = await worker.load(model);
    const rows = 1000; // 201,000 rows x trees: below one part of 250,000
    const got = await remote.predict({ x: test_.x.slice(0, rows * COLS), options: { rows, cols: COLS } }, { rule: 'hyper', order: 'random' });
    const part = uf.Dataset.fromArrays(test_.x.subarray(0, rows * COLS), { rows, cols: COLS });
    try {
      assertSame(got, forest.predict(part, { rule: 'hyper', order: 'random' }), 'small');
    } finally {
      part.dispose();
    }
    assert.equal(worker._helpers.length, 0);
  } finally {
    worker.terminate();
  }
});

test('a split predict moves the rows with transfer: true and reads them when called', async () => {
  const worker = new UrnforestWorker({ threads: 2 });
  try {
    const remote = await worker.load(model);
    const options = { rule: 'hyper', order: 'random', seed: 5 };
    const want = forest.predict(testSet, options);
    const x = test_.x.slice();
    const moved = remote.predict({ x, options: { rows: ROWS, cols: COLS } }, options, { transfer: true });
    assert.equal(x.length, 0, 'detached on the call');
    assertSame(await moved, want, 'transfer');
    const y = test_.x.slice();
    const copied = remote.predict({ x: y, options: { rows: ROWS, cols: COLS } }, options);
    y.fill(0); // after the call: not seen by it
    assertSame(await copied, want, 'copied');
  } finally {
    worker.terminate();
  }
});

test('a refused, aborted or disposed split predict fails as on one thread and the threads keep working', async () => {
  const one = new UrnforestWorker({ threads: 1 });
  const three = new UrnforestWorker({ threads: 3 });
  try {
    const [single, split] = [await one.load(model), await three.load(model)];
    const bad = { rule: 'nope' };
    const e1 = await single.predict(data(), bad).then(() => null, (e) => e);
    const e3 = await split.predict(data(), bad).then(() => null, (e) => e);
    assert.ok(e1 instanceof RangeError);
    assert.equal(e3.constructor, e1.constructor);
    assert.equal(e3.message, e1.message);
    const options = { rule: 'hyper', order: 'random', compare: true };
    const want = forest.predict(testSet, options);
    assertSame(await split.predict(data(), options), want, 'after a refusal');

    const controller = new AbortController();
    const aborted = split.predict(data(), options, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await assert.rejects(aborted, (e) => e.name === 'AbortError');
    assertSame(await split.predict(data(), options), want, 'after an abort');

    const queued = split.predict(data(), options);
    const later = split.predict(data(), options);
    split.dispose();
    assertSame(await queued, want, 'running when disposed');
    await assert.rejects(later, (e) => e.code === 'RemoteDisposed');
    await assert.rejects(split.predict(data(), options), (e) => e.code === 'RemoteDisposed');
    const again = await three.load(model);
    assertSame(await again.predict(data(), options), want, 'a model loaded after dispose');
  } finally {
    one.terminate();
    three.terminate();
  }
});

test('an imported boosted model answers the same over 2 threads: soft scores split, the exact early exit on one thread', async () => {
  const { readFileSync } = await import('node:fs');
  const onnx = new Uint8Array(readFileSync(new URL('../fixtures/onnx/xgb_wdbc_binary_missing.onnx', import.meta.url)));
  const imported = uf.Forest.fromONNX(onnx);
  const cols = imported.numFeatures;
  const rows = 2 * Math.ceil(250_000 / imported.numTrees) + 3;
  const x = new Float32Array(rows * cols);
  let state = 17;
  for (let i = 0; i < x.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    x[i] = i % 13 === 0 ? NaN : (state >>> 8) / 2 ** 24 * 30; // wdbc-like magnitudes, some missing
  }
  const set = uf.Dataset.fromArrays(x, { rows, cols });
  const worker = new UrnforestWorker({ threads: 2 });
  try {
    const remote = await worker.load(imported.toBytes());
    const got = await remote.predict({ x, options: { rows, cols } });
    assertSame(got, imported.predict(set), 'imported, soft scores');
    assert.equal(worker._helpers.length, 1);
    // The exact exit decides from the call's first rows whether halting pays (its trees used follow),
    // so it is not split: the same answer as the main thread, trees used included.
    for (const options of [{ rule: 'alpha1' }, { rule: 'alpha1', compare: true }]) {
      const halted = await remote.predict({ x, options: { rows, cols } }, options);
      assertSame(halted, imported.predict(set, options), `imported, ${JSON.stringify(options)}`);
    }
  } finally {
    worker.terminate();
    set.dispose();
    imported.dispose();
  }
});
