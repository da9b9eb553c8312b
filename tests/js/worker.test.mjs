import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker, trainInWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const wdbc = readDataset('wdbc');
const worker = new UrnforestWorker();
after(() => worker.terminate());

test('training in a worker reports progress and gives the same model bytes as the main thread', async () => {
  const events = [];
  const result = await worker.train({ csv: wdbc }, { trees: 31, seed: 9 }, { onProgress: (p) => events.push(p) });
  const data = uf.Dataset.fromCSV(wdbc);
  const forest = uf.trainForest(data, { trees: 31, seed: 9 });
  assert.ok(result.bytes instanceof Uint8Array);
  assert.deepEqual(result.bytes, forest.toBytes());
  assert.equal(result.numTrees, 31);
  assert.equal(result.oobError, forest.oobError);
  const train = events.filter((e) => e.stage === 'train');
  assert.ok(train.length >= 2 && train.length <= 32, `${train.length} train events`);
  assert.equal(train.at(-1).fraction, 1);
  for (let i = 1; i < train.length; i++) assert.ok(train[i].fraction >= train[i - 1].fraction);
  assert.ok(events.every((e) => e.fraction >= 0 && e.fraction <= 1 && typeof e.stage === 'string'));
  const loaded = uf.Forest.fromBytes(result.bytes);
  assert.deepEqual(loaded.predict(data, { rule: 'hyper' }).treesUsed, forest.predict(data, { rule: 'hyper' }).treesUsed);
  for (const d of [loaded, forest, data]) d.dispose();
});

test('training from typed arrays in a worker', async () => {
  const x = new Float32Array([0, 0, 1, 1, 0, 1, 1, 0, 0.1, 0.2, 0.9, 0.8]);
  const result = await worker.train({ x, options: { rows: 6, cols: 2, labels: ['a', 'b', 'a', 'b', 'a', 'b'] } }, { trees: 5 });
  const forest = uf.Forest.fromBytes(result.bytes);
  assert.deepEqual(forest.classNames, ['a', 'b']);
  forest.dispose();
});

test('aborting a running training rejects with an AbortError and the worker stays usable', async () => {
  const controller = new AbortController();
  let seen = 0;
  const job = worker.train({ csv: wdbc }, { trees: 3000, seed: 1 }, {
    signal: controller.signal,
    onProgress: (p) => { if (p.stage === 'train' && ++seen === 3) controller.abort(); },
  });
  await assert.rejects(job, (e) => e.name === 'AbortError');
  assert.ok(seen >= 3);
  const after = await worker.train({ csv: readDataset('iris') }, { trees: 3 });
  assert.ok(after.bytes.length > 0);
});

test('an already-aborted signal rejects at once; queued jobs can be aborted', async () => {
  await assert.rejects(worker.train({ csv: wdbc }, {}, { signal: AbortSignal.abort() }), (e) => e.name === 'AbortError');
  const controller = new AbortController();
  const first = worker.train({ csv: wdbc }, { trees: 20 });
  const second = worker.train({ csv: wdbc }, { trees: 20 }, { signal: controller.signal });
  controller.abort();
  await assert.rejects(second, (e) => e.name === 'AbortError');
  assert.equal((await first).numTrees, 20);
});

test('worker failures keep their error classes and codes', async () => {
  await assert.rejects(worker.train({ csv: 'a,b,class\n1,2,x\n3,4\n' }), (e) => e instanceof UrnforestError && e.code === 'CsvRaggedRow' && e.line === 3);
  await assert.rejects(worker.train({ csv: wdbc }, { trees: 0 }), (e) => e instanceof RangeError && /trees/.test(e.message));
  await assert.rejects(worker.train({ csv: wdbc }, { onProgress: () => {} }), TypeError);
  await assert.rejects(worker.train('csv'), TypeError);
  await assert.rejects(worker.train({ csv: wdbc }, {}, { signal: 1 }), TypeError);
  await assert.rejects(worker.haltingTable({ model: [1], options: { rule: 'siba' } }), TypeError);
  await assert.rejects(worker.haltingTable({ options: { rule: 'hyper' } }), RangeError);
});

test('halting tables and expected cost in a worker', async () => {
  const events = [];
  const siba = await worker.haltingTable({ options: { rule: 'siba', trees: 101 } }, { onProgress: (p) => events.push(p) });
  assert.equal(siba.binaryThresholds[0][0], 6);
  assert.ok(events.some((e) => e.stage === 'table'));
  const table = uf.HaltingTable.fromBytes(siba.bytes);
  assert.equal(table.minLeaderVotes(0, [1]), 8);
  table.dispose();
  const { bytes } = await worker.train({ csv: wdbc }, { trees: 51, seed: 4 });
  const hyper = await worker.haltingTable({ model: bytes, options: { rule: 'hyper', alpha: 0.95 } });
  const forest = uf.Forest.fromBytes(bytes);
  const local = forest.haltingTable({ rule: 'hyper', alpha: 0.95 });
  assert.deepEqual(hyper.binaryThresholds[1], local.binaryThresholds(1));
  const cost = await worker.expectedCost({ model: bytes, options: { rule: 'hyper', samples: 1000 } });
  assert.deepEqual(cost, forest.expectedCost({ rule: 'hyper', samples: 1000 }));
  local.dispose();
  forest.dispose();
});

test('trainInWorker runs one job in a fresh worker; terminate rejects pending jobs', async () => {
  const result = await trainInWorker({ csv: readDataset('iris') }, { trees: 7, seed: 3 });
  assert.equal(result.numTrees, 7);
  const w = new UrnforestWorker();
  const job = w.train({ csv: wdbc }, { trees: 2000 });
  w.terminate();
  w.terminate();
  await assert.rejects(job, (e) => e.name === 'AbortError');
  await assert.rejects(w.train({ csv: wdbc }), /terminated/);
});
