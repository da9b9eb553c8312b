// Worker calls read their arguments when the call is made: a job queued behind others must not see what
// the caller wrote into its arrays afterwards (copied by default, moved with the control's transfer: true).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const data = uf.Dataset.fromCSV(readDataset('wdbc'));
const forest = uf.trainForest(data, { trees: 31, seed: 5 });
const x = data.toRowMajor();
const labels = Array.from(data.labels(), (i) => data.classNames[i]);
const cols = data.numFeatures;
const featureNames = data.featureNames;
const worker = new UrnforestWorker({ threads: 1 });
const remote = await worker.load(forest.toBytes());
after(() => {
  remote.dispose();
  worker.terminate();
  forest.dispose();
  data.dispose();
});

/** Rows first .. first + count - 1 of wdbc (wrapping around), row-major. */
function batchOf(first, count) {
  const out = new Float32Array(count * cols);
  for (let r = 0; r < count; r++) {
    const row = (first + r) % data.numRows;
    out.set(x.subarray(row * cols, (row + 1) * cols), r * cols);
  }
  return out;
}

/** The model the main thread trains from all of wdbc as arrays (x, labels, featureNames) with `options`. */
function localTrain(options) {
  const d = uf.Dataset.fromArrays(x, { rows: data.numRows, cols, labels, featureNames });
  const f = uf.trainForest(d, options);
  try {
    return f.toBytes();
  } finally {
    f.dispose();
    d.dispose();
  }
}

/** The main thread's halted prediction of `batch` (rows x cols). */
function localPredict(batch, rows, options) {
  const d = uf.Dataset.fromArrays(batch, { rows, cols, featureNames });
  try {
    return forest.predict(d, options);
  } finally {
    d.dispose();
  }
}

test('one buffer reused for 1,000 batches: every batch is answered with its own rows', async () => {
  const rows = 7;
  const buffer = new Float32Array(rows * cols);
  const jobs = [];
  for (let b = 0; b < 1000; b++) {
    buffer.set(batchOf(b * rows, rows));
    jobs.push(remote.predict({ x: buffer, options: { rows, cols, featureNames } }, { rule: 'siba', alpha: 0.9 }));
  }
  const answers = await Promise.all(jobs);
  let wrong = 0;
  for (let b = 0; b < 1000; b++) {
    const local = localPredict(batchOf(b * rows, rows), rows, { rule: 'siba', alpha: 0.9 });
    const same = answers[b].classIndex.every((c, i) => c === local.classIndex[i]) &&
      answers[b].treesUsed.every((t, i) => t === local.treesUsed[i]);
    if (!same) wrong++;
  }
  assert.equal(wrong, 0, `${wrong} of 1000 batches answered with other rows`);
});

test('a training spread over threads reads its arguments when called too', async () => {
  const parallel = new UrnforestWorker({ threads: 2 });
  try {
    const mine = x.slice();
    const job = parallel.train({ x: mine, options: { rows: data.numRows, cols, labels, featureNames } }, { trees: 16, seed: 3 });
    mine.fill(0);
    assert.deepEqual((await job).bytes, localTrain({ trees: 16, seed: 3 }));
  } finally {
    parallel.terminate();
  }
});

// A call is posted at once when the worker is idle, and snapshotted when it waits behind another job:
// both ways read the arguments at call time.
const ahead = {
  idle: () => Promise.resolve(),
  queued: () => remote.storedTables(),
};

for (const [state, jobAhead] of Object.entries(ahead)) {
  test(`train reads x and the labels when called: changing them after the call does not change the model (${state})`, async () => {
    const before = jobAhead();
    const mine = x.slice();
    const myLabels = labels.slice();
    const options = { rows: data.numRows, cols, labels: myLabels, featureNames };
    const job = worker.train({ x: mine, options }, { trees: 11, seed: 2 });
    mine.fill(0);
    myLabels.reverse();
    options.rows = 1;
    assert.deepEqual((await job).bytes, localTrain({ trees: 11, seed: 2 }));
    await before;
  });

  test(`every kind of argument is read at call time: CSV bytes, row subsets, tallies, model bytes (${state})`, async () => {
    const before = [jobAhead()];
    const csv = new TextEncoder().encode(readDataset('wdbc'));
    const rows = Uint32Array.from({ length: 50 }, (_, i) => 2 * i);
    const first = remote.predict({ csv, rows }, { rule: 'siba' });
    csv.fill(32);
    rows.fill(0);
    const held = data.subset(Uint32Array.from({ length: 50 }, (_, i) => 2 * i));
    assert.deepEqual((await first).treesUsed, forest.predict(held, { rule: 'siba' }).treesUsed);
    held.dispose();

    const tallies = Int32Array.from([25, 6, 3, 28]);
    before.push(jobAhead());
    const leaders = remote.leader({ rule: 'siba' }, tallies);
    tallies.fill(0);
    assert.deepEqual(Array.from(await leaders), [0, 1]);

    const bytes = forest.toBytes();
    before.push(jobAhead());
    const loading = worker.load(bytes);
    bytes.fill(0);
    const other = await loading;
    assert.equal(other.info.numTrees, 31);
    other.dispose();
    await Promise.all(before);
  });

  test(`with transfer: true the buffers move to the worker at call time and the answers are the same (${state})`, async () => {
    const before = jobAhead();
    const batch = batchOf(100, 40);
    const expected = localPredict(batch, 40, { rule: 'siba' });
    const job = remote.predict({ x: batch, options: { rows: 40, cols, featureNames } }, { rule: 'siba' }, { transfer: true });
    assert.equal(batch.byteLength, 0, 'the caller no longer holds the rows');
    assert.deepEqual((await job).treesUsed, expected.treesUsed);

    const mine = x.slice();
    const trained = worker.train({ x: mine, options: { rows: data.numRows, cols, labels, featureNames } }, { trees: 5, seed: 8 }, { transfer: true });
    assert.equal(mine.length, 0);
    assert.deepEqual((await trained).bytes, localTrain({ trees: 5, seed: 8 }));
    await before;
  });

  test(`a typed array on a SharedArrayBuffer is copied at call time as well (${state})`, async () => {
    const before = jobAhead();
    const shared = new Float32Array(new SharedArrayBuffer(30 * cols * 4));
    shared.set(batchOf(200, 30));
    const expected = localPredict(batchOf(200, 30), 30, { rule: 'siba' });
    const job = remote.predict({ x: shared, options: { rows: 30, cols, featureNames } }, { rule: 'siba' });
    shared.fill(0);
    assert.deepEqual((await job).treesUsed, expected.treesUsed);
    await before;
  });
}

test('a bad transfer option or an argument that cannot be sent rejects with a TypeError and nothing runs', async () => {
  await assert.rejects(remote.predict({ x: batchOf(0, 2), options: { rows: 2, cols } }, undefined, { transfer: 1 }), TypeError);
  await assert.rejects(remote.predict({ csv: 'a,b\n1,2\n', options: { target: () => 'b' } }), TypeError);
  const p = await remote.predict({ x: batchOf(0, 3), options: { rows: 3, cols, featureNames } });
  assert.equal(p.classIndex.length, 3);
});
