import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker, RemoteForest } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const wdbc = readDataset('wdbc');
const worker = new UrnforestWorker();
after(() => worker.terminate());

const data = uf.Dataset.fromCSV(wdbc);
const forest = uf.trainForest(data, { trees: 31, seed: 5 });
const bytes = forest.toBytes();
const testRows = Uint32Array.from({ length: 100 }, (_, i) => 3 * i);
const held = data.subset(testRows);
after(() => { for (const d of [forest, data, held]) d.dispose(); });

test('a loaded model answers predict, trace, prior and expectedCost in the worker as on the main thread', async () => {
  const remote = await worker.load(bytes);
  assert.ok(remote instanceof RemoteForest);
  assert.equal(remote.info.numTrees, 31);
  assert.deepEqual(remote.info.classNames, forest.classNames);
  assert.deepEqual(remote.info.featureNames, forest.featureNames);
  assert.equal(remote.info.oobError, forest.oobError);
  assert.equal(remote.info.defaultOrder, 'generation');
  assert.deepEqual(await remote.addData('held', { csv: wdbc, rows: testRows }), {
    numRows: 100, numFeatures: forest.numFeatures, hasLabels: true, classNames: data.classNames,
  });
  assert.deepEqual((await remote.predict('held')).classIndex, forest.predict(held).classIndex);
  const opts = { rule: 'hyper', alpha: 0.95 };
  const halted = await remote.predict('held', opts);
  const local = forest.predict(held, opts);
  assert.deepEqual(halted.treesUsed, local.treesUsed);
  assert.deepEqual(halted.classIndex, local.classIndex);
  assert.equal(halted.meanTrees, local.meanTrees);
  assert.deepEqual(await remote.trace('held', 7, opts), forest.trace(held, 7, opts));
  assert.deepEqual(await remote.prior('hyper'), forest.prior('hyper'));
  const events = [];
  const cost = await remote.expectedCost({ rule: 'hyper', samples: 500 }, { onProgress: (p) => events.push(p.stage) });
  assert.deepEqual(cost, forest.expectedCost({ rule: 'hyper', samples: 500 }));
  assert.ok(events.includes('expectedCost'));
  assert.deepEqual(await remote.oobVotes(), forest.oobVotes());
  remote.dispose();
});

test('data can be loaded for one call: CSV read against the model, typed arrays, row subsets', async () => {
  const remote = await worker.load(bytes);
  const noTarget = wdbc.split('\n').map((l) => l.split(',').slice(0, -1).join(',')).join('\n');
  const p = await remote.predict({ csv: noTarget, schemaOfModel: true, options: { target: null } });
  assert.deepEqual(p.classIndex, forest.predict(data).classIndex);
  const x = held.toRowMajor();
  const fromArrays = await remote.predict({ x, options: { rows: 100, cols: forest.numFeatures, featureNames: forest.featureNames } }, { rule: 'siba' });
  assert.deepEqual(fromArrays.treesUsed, forest.predict(held, { rule: 'siba' }).treesUsed);
  await assert.rejects(remote.predict('nope'), RangeError);
  remote.dispose();
});

test('ordering, error curves, tally queries, stored tables and bytes', async () => {
  const remote = await worker.load(bytes);
  await remote.addData('held', { csv: wdbc, rows: testRows });
  const order = await remote.order('held', { ordering: 'reduce-error' });
  assert.deepEqual(order, forest.order(held, { ordering: 'reduce-error' }));
  assert.deepEqual(await remote.errorCurve('held', order), forest.errorCurve(held, order));
  const table = forest.haltingTable({ rule: 'siba' });
  const tallies = Int32Array.from([0, 0, 10, 0, 5, 5, 20, 1, 0, 17]);
  const halts = await remote.halts({ rule: 'siba' }, tallies);
  const confidence = await remote.confidence({ rule: 'siba' }, tallies);
  const leader = await remote.leader({ rule: 'siba' }, tallies);
  for (let i = 0; i < 5; i++) {
    const t = tallies.subarray(2 * i, 2 * i + 2);
    assert.equal(halts[i], table.halts(t) ? 1 : 0);
    assert.equal(confidence[i], table.confidence(t));
    assert.equal(leader[i], table.leader(t));
  }
  const result = await remote.haltingTable({ rule: 'siba' });
  assert.deepEqual(result.binaryThresholds[0], table.binaryThresholds(0));
  table.dispose();
  await remote.storeTable({ rule: 'siba', alpha: 0.9 });
  assert.deepEqual(await remote.storedTables(), [{ rule: 'siba', alpha: 0.9, trees: 31 }]);
  const stored = uf.Forest.fromBytes(await remote.toBytes());
  assert.deepEqual(stored.storedTables(), [{ rule: 'siba', alpha: 0.9, trees: 31 }]);
  stored.dispose();
  await assert.rejects(remote.halts({ rule: 'siba' }, [0, 1]), TypeError);
  await assert.rejects(remote.halts({ rule: 'siba' }, Int32Array.from([1, 2, 3])), RangeError);
  remote.dispose();
});

test('typed-array results of data loaded for one call arrive whole', async () => {
  const remote = await worker.load(bytes);
  const p = await remote.predict({ csv: wdbc }, { rule: 'siba' });
  assert.ok(p.treesUsed instanceof Int32Array && p.treesUsed.length === data.numRows);
  const curve = await remote.errorCurve({ csv: wdbc }, [0, 1, 2]);
  assert.equal(curve.length, 3);
  remote.dispose();
});

test('aborting a session job restarts the worker and the session comes back with its data and stored tables', async () => {
  const remote = await worker.load(bytes);
  await remote.addData('held', { csv: wdbc, rows: testRows });
  await remote.storeTable({ rule: 'siba', alpha: 0.9 });
  const controller = new AbortController();
  const slow = worker.train({ csv: wdbc }, { trees: 3000 }, {
    signal: controller.signal,
    onProgress: (p) => { if (p.stage === 'train' && p.fraction > 0.001) controller.abort(); },
  });
  await assert.rejects(slow, (e) => e.name === 'AbortError');
  const stages = [];
  const p = await remote.predict('held', { rule: 'siba' }, { onProgress: (e) => stages.push(e.stage) });
  assert.deepEqual(p.treesUsed, forest.predict(held, { rule: 'siba' }).treesUsed);
  assert.ok(stages.includes('load'), 'the fresh worker loaded the model again');
  assert.deepEqual(await remote.storedTables(), [{ rule: 'siba', alpha: 0.9, trees: 31 }]);
  const aborted = remote.predict('held', { rule: 'ndir' }, { signal: AbortSignal.abort() });
  await assert.rejects(aborted, (e) => e.name === 'AbortError');
  remote.dispose();
});

test('a vote-boosted model reports the random default order the library uses', async () => {
  const vb = uf.trainForest(data, { ensemble: 'voteboost', trees: 5, seed: 1, voteboost: { a: 2 } });
  const remote = await worker.load(vb.toBytes());
  assert.equal(remote.info.defaultOrder, 'random');
  assert.equal(remote.info.learner.ensemble, 'voteboost');
  remote.dispose();
  vb.dispose();
});

test('session errors: bad options keep their classes, non-cloneable arguments reject with a TypeError and the worker goes on', async () => {
  await assert.rejects(worker.load([1, 2]), TypeError);
  await assert.rejects(worker.load(new Uint8Array([1, 2, 3])), (e) => e instanceof UrnforestError);
  const remote = await worker.load(bytes);
  await assert.rejects(remote.predict({ csv: wdbc }, { rule: 'nope' }), RangeError);
  await assert.rejects(remote.predict({ csv: wdbc }, { rule: 'siba', alpha: () => 0.9 }), TypeError);
  await assert.rejects(remote.predict(held, { rule: 'siba' }), TypeError);
  await assert.rejects(remote.predict({ csv: 'a,b\n1,2\n3\n' }), (e) => e instanceof UrnforestError && e.code === 'CsvRaggedRow');
  const p = await remote.predict({ csv: wdbc });
  assert.equal(p.classIndex.length, data.numRows);
  remote.dispose();
});

test('a disposed remote rejects its queued and later calls with RemoteDisposed', async () => {
  const remote = await worker.load(bytes);
  const blocker = worker.train({ csv: wdbc }, { trees: 50 });
  const queued = remote.predict({ csv: wdbc });
  remote.dispose();
  remote.dispose();
  assert.equal(remote.disposed, true);
  await assert.rejects(queued, (e) => e.code === 'RemoteDisposed');
  await assert.rejects(remote.prior('siba'), (e) => e.code === 'RemoteDisposed' && /disposed/.test(e.message));
  assert.equal((await blocker).numTrees, 50);
  const other = await worker.load(bytes);
  assert.equal(other.info.numTrees, 31);
  other.dispose();
});

test('training on a row subset gives the bytes of training on that subset on the main thread', async () => {
  const rows = Uint32Array.from({ length: 200 }, (_, i) => 2 * i + 1);
  const result = await worker.train({ csv: wdbc, rows }, { trees: 11, seed: 3 });
  const sub = data.subset(rows);
  const local = uf.trainForest(sub, { trees: 11, seed: 3 });
  assert.deepEqual(result.bytes, local.toBytes());
  local.dispose();
  sub.dispose();
});
