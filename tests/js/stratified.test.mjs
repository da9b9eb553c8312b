// forest.predict with rule 'stratified' (the minimean strategy per bucket of a surrogate of the final
// vote, docs/halting.md "Beyond counts"): on an imported forest calibrated here, after toBytes, in the
// worker, and its refusal on an uncalibrated forest.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Dataset, Forest, UrnforestError, trainForest } from '../../dist/index.js';
import { calibratedWdbcForest, readDataset, wdbcFeatureCsv } from './helpers.mjs';

let forest;
let rows;
before(async () => {
  await init();
  ({ forest, rows } = calibratedWdbcForest({ Forest, Dataset }));
});

test("rule 'stratified' halts the calibrated two-class forest and answers the same after toBytes", () => {
  const p = forest.predict(rows, { rule: 'stratified', alpha: 0.99, seed: 3, compare: true, vote: 'hard' });
  assert.equal(p.rule, 'stratified');
  assert.equal(p.treesUsed.length, rows.numRows);
  assert.ok(p.meanTrees < forest.numTrees);
  assert.ok(p.disagreement >= 0 && p.disagreement <= 1);
  assert.equal(p.probabilities, undefined);
  const again = Forest.fromBytes(forest.toBytes());
  try {
    const q = again.predict(rows, { rule: 'stratified', alpha: 0.99, seed: 3 });
    assert.deepEqual(Array.from(q.treesUsed), Array.from(p.treesUsed));
    assert.deepEqual(Array.from(q.classIndex), Array.from(p.classIndex));
  } finally {
    again.dispose();
  }
});

test("rule 'stratified' in the worker answers as on the main thread", async () => {
  const { UrnforestWorker } = await import('../../dist/worker.js');
  const worker = new UrnforestWorker();
  try {
    const remote = await worker.load(forest.toBytes());
    await remote.addData('rows', { csv: wdbcFeatureCsv(1), schemaOfModel: true, options: { target: null } });
    const options = { rule: 'stratified', alpha: 0.99, seed: 5 };
    const there = await remote.predict('rows', options);
    const here = forest.predict(rows, options);
    assert.deepEqual(Array.from(there.treesUsed), Array.from(here.treesUsed));
  } finally {
    await worker.terminate();
  }
});

test("rule 'stratified' on a forest never calibrated is refused with InvalidArgument", () => {
  const data = Dataset.fromCSV(readDataset('wdbc'));
  const trained = trainForest(data, { trees: 11 });
  try {
    assert.throws(() => trained.predict(data, { rule: 'stratified', alpha: 0.99 }),
      (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /calibrat/.test(e.message));
  } finally {
    trained.dispose();
    data.dispose();
  }
});
