// A worker session rebuilt on a fresh thread (after an aborted job) is rebuilt from the library's own
// snapshots of its data, never from the caller's objects, and only from what is live: the latest data set
// of each name and the stored tables. What a session keeps on the caller's thread is bounded the same way.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { init } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const uf = await init();
const wdbc = readDataset('wdbc');
const data = uf.Dataset.fromCSV(wdbc);
const forest = uf.trainForest(data, { trees: 31, seed: 5 });
const bytes = forest.toBytes();
after(() => {
  forest.dispose();
  data.dispose();
});

/** Aborts a long training on `worker` once it runs: the worker's thread is terminated. */
async function abortAJob(worker) {
  const controller = new AbortController();
  const slow = worker.train({ csv: wdbc }, { trees: 3000 }, {
    signal: controller.signal,
    onProgress: (p) => { if (p.stage === 'train') controller.abort(); },
  });
  await assert.rejects(slow, (e) => e.name === 'AbortError');
}

/** wdbc's header and `copies` copies of its rows, the first feature of every row shifted by `shift`: a new string each call. */
function wdbcCopies(copies, shift) {
  const [header, ...rows] = wdbc.trimEnd().split('\n');
  const lines = [header];
  for (let c = 0; c < copies; c++) {
    for (const row of rows) {
      const comma = row.indexOf(',');
      lines.push(`${Number(row.slice(0, comma)) + shift + c}${row.slice(comma)}`);
    }
  }
  return lines.join('\n');
}

/** The main thread's halted prediction of CSV `text` with the forest. */
function localPredict(text, options) {
  const d = uf.Dataset.fromCSV(text);
  try {
    return forest.predict(d, options);
  } finally {
    d.dispose();
  }
}

test('data changed by the caller after addData does not change answers after the session is rebuilt', async () => {
  const worker = new UrnforestWorker({ threads: 1 });
  try {
    const remote = await worker.load(bytes);
    const x = data.toRowMajor();
    const options = { rows: data.numRows, cols: data.numFeatures, featureNames: data.featureNames };
    await remote.addData('t', { x, options });
    const before = await remote.predict('t', { rule: 'siba' });
    x.fill(0);
    options.rows = 1;
    await abortAJob(worker);
    const rebuilt = await remote.predict('t', { rule: 'siba' });
    assert.deepEqual(rebuilt.classIndex, before.classIndex);
    assert.deepEqual(rebuilt.treesUsed, before.treesUsed);
    remote.dispose();
  } finally {
    worker.terminate();
  }
});

test('replacing one named data set 30 times keeps one snapshot on the caller\'s thread, not 30', async () => {
  const worker = new UrnforestWorker({ threads: 1 });
  try {
    const remote = await worker.load(bytes);
    const size = wdbcCopies(20, 0).length;
    assert.ok(size > 2.4e6, `${size} bytes of CSV`);
    gc();
    const base = process.memoryUsage();
    for (let i = 0; i < 30; i++) await remote.addData('t', { csv: wdbcCopies(20, i) });
    gc();
    const now = process.memoryUsage();
    const retained = (now.heapUsed - base.heapUsed) + (now.arrayBuffers - base.arrayBuffers);
    assert.ok(retained < 2 * size, `retained ${(retained / 2 ** 20).toFixed(1)} MiB for data sets of ${(size / 2 ** 20).toFixed(1)} MiB`);
    const p = await remote.predict('t', { rule: 'siba' });
    assert.deepEqual(p.treesUsed, localPredict(wdbcCopies(20, 29), { rule: 'siba' }).treesUsed);
    remote.dispose();
  } finally {
    worker.terminate();
  }
});

test('a rebuild replays only what is live: the stored tables once and the latest data set of each name', async () => {
  const url = new URL('./worker_probe_thread.mjs', import.meta.url);
  const probe = new BroadcastChannel('urnforest-worker-probe');
  const rebuilds = [];
  probe.onmessage = (event) => rebuilds.push(event.data);
  const worker = new UrnforestWorker({ url, threads: 1 });
  try {
    const remote = await worker.load(bytes);
    for (let i = 0; i < 30; i++) await remote.addData('t', { csv: wdbcCopies(1, i) });
    await remote.addData('u', { csv: wdbc });
    await remote.dropData('u');
    await remote.storeTable({ rule: 'siba', alpha: 0.9 });
    await remote.storeTable({ rule: 'siba', alpha: 0.9 });
    await remote.storeTable({ rule: 'hyper', alpha: 0.95 });
    await abortAJob(worker);
    const p = await remote.predict('t', { rule: 'siba' });
    assert.deepEqual(p.treesUsed, localPredict(wdbcCopies(1, 29), { rule: 'siba' }).treesUsed);
    assert.deepEqual(await remote.storedTables(), [{ rule: 'siba', alpha: 0.9, trees: 31 }, { rule: 'hyper', alpha: 0.95, trees: 31 }]);
    for (let wait = 0; rebuilds.length === 0 && wait < 100; wait++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(rebuilds, [{ session: rebuilds[0]?.session, replayed: ['storeTable', 'storeTable', 'addData'] }]);
    remote.dispose();
  } finally {
    worker.terminate();
    probe.close();
  }
});
