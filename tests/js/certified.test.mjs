// forest.predict with rule 'auto' (certified halting: the answer's certificate, docs/halting.md) and
// rule 'lp' ([KM26]'s minimean strategy), on the main thread and in the worker, and their refusals.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Dataset, Forest, UrnforestError, trainForest } from '../../dist/index.js';
import { calibratedWdbcForest, readDataset, wdbcFeatureCsv } from './helpers.mjs';

const CERTIFICATE_KEYS = ['strategy', 'parameter', 'certified', 'bound', 'alpha', 'delta', 'fitRows', 'certifyRows', 'reason', 'method', 'rowsNeeded'];

let forest;
let test_rows;
before(async () => {
  await init();
  ({ forest, rows: test_rows } = calibratedWdbcForest({ Forest, Dataset }));
});

test("rule 'auto' answers with the certified strategy and carries the certificate with exactly its keys", () => {
  const p = forest.predict(test_rows, { rule: 'auto', alpha: 0.95, compare: true, vote: 'hard' });
  assert.deepEqual(Object.keys(p.certificate), CERTIFICATE_KEYS);
  const c = p.certificate;
  assert.equal(c.certified, true);
  assert.notEqual(c.strategy, 'exact');
  assert.equal(c.fitRows + c.certifyRows, 285);
  assert.ok(c.bound <= 0.05);
  assert.equal(c.reason, '');
  assert.equal(c.rowsNeeded, null);
  assert.match(c.method, /^betting, one fixed sequence of \d+ candidates ordered on the fit rows, \d+ tested$/);
  assert.equal(p.treesUsed.length, test_rows.numRows);
  assert.ok(p.meanTrees < forest.numTrees);
  assert.ok(p.disagreement <= 0.05);
  assert.equal(p.rule, 'auto');
});

test("halting asked for with an alpha or a delta and no rule is rule 'auto'", () => {
  const named = forest.predict(test_rows, { rule: 'auto', alpha: 0.95 });
  for (const options of [{ alpha: 0.95 }, { alpha: 0.95, delta: 0.05 }]) {
    const p = forest.predict(test_rows, options);
    assert.equal(p.rule, 'auto');
    assert.deepEqual(p.certificate, named.certificate);
    assert.deepEqual(Array.from(p.treesUsed), Array.from(named.treesUsed));
    assert.deepEqual(p.labels, named.labels);
  }
  assert.equal(forest.predict(test_rows, { delta: 0.1 }).certificate.delta, 0.1);
  assert.throws(() => forest.predict(test_rows, {}), TypeError);
  assert.throws(() => forest.predict(test_rows, { order: 'random' }), TypeError);
});

test("rule 'auto' with too few rows for alpha answers with the exact exit and says how many it needs", () => {
  const p = forest.predict(test_rows, { rule: 'auto', alpha: 0.99, delta: 0.05, compare: true });
  assert.equal(p.certificate.certified, false);
  assert.equal(p.certificate.strategy, 'exact');
  assert.equal(p.certificate.rowsNeeded, 419);
  assert.match(p.certificate.reason, /too few calibration rows/);
  assert.equal(p.certificate.method, '');  // no test ran
  assert.equal(p.disagreement, 0);
});

test("rule 'lp' halts the two-class forest with fewer trees and no certificate", () => {
  const p = forest.predict(test_rows, { rule: 'lp', alpha: 0.99, seed: 3, compare: true, vote: 'hard' });
  assert.ok(p.meanTrees < forest.numTrees);
  assert.equal(p.certificate, undefined);
  assert.deepEqual(Array.from(p.treesUsed), Array.from(forest.predict(test_rows, { rule: 'lp', alpha: 0.99, seed: 3 }).treesUsed));
});

test("rule 'lp' serves three or more classes and refuses a tally lattice too large with LimitExceeded", () => {
  const soybean = Dataset.fromCSV(readDataset('soybean'));
  const many = trainForest(soybean, { trees: 11 });
  try {
    assert.ok(many.numClasses > 4);
    assert.throws(() => many.predict(soybean, { rule: 'lp' }), (e) => e instanceof UrnforestError && e.code === 'LimitExceeded' && /full-tally states/.test(e.message));
  } finally {
    many.dispose();
    soybean.dispose();
  }
});

test("rule 'lp' with objective 'minimax' halts two classes with no fewer trees than minimean and refuses three", () => {
  const mean = forest.predict(test_rows, { rule: 'lp', alpha: 0.99, seed: 3 });
  const minimax = forest.predict(test_rows, { rule: 'lp', objective: 'minimax', alpha: 0.99, seed: 3, compare: true });
  assert.ok(minimax.meanTrees < forest.numTrees);
  assert.ok(minimax.meanTrees >= mean.meanTrees - 1);
  assert.deepEqual(Array.from(forest.predict(test_rows, { rule: 'lp', objective: 'minimean', alpha: 0.99, seed: 3 }).treesUsed), Array.from(mean.treesUsed));
  assert.throws(() => forest.predict(test_rows, { rule: 'lp', objective: 'maximin' }), RangeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'lp', objective: 1 }), TypeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'auto', objective: 'minimax' }), TypeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'hyper', objective: 'minimax' }), TypeError);
  const iris = Dataset.fromCSV(readDataset('iris'));
  const three = trainForest(iris, { trees: 11 });
  try {
    assert.throws(() => three.predict(iris, { rule: 'lp', objective: 'minimax' }), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /two classes/.test(e.message));
  } finally {
    three.dispose();
    iris.dispose();
  }
});

test("rules 'auto' and 'lp' refuse what does not apply", () => {
  assert.throws(() => forest.predict(test_rows, { rule: 'auto', delta: 0 }), RangeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'auto', delta: 1 }), RangeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'auto', delta: '0.1' }), TypeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'hyper', delta: 0.1 }), TypeError);
  assert.throws(() => forest.predict(test_rows, { rule: 'auto', trees: 5 }), TypeError);
  const iris = Dataset.fromCSV(readDataset('iris'));
  const three = trainForest(iris, { trees: 11 });
  try {
    const lp = three.predict(iris, { rule: 'lp', alpha: 0.99, compare: true, seed: 2 });
    assert.ok(lp.meanTrees < three.numTrees);
    assert.equal(lp.disagreement <= 0.05, true);
    const p = three.predict(iris, { rule: 'auto', compare: true });
    assert.equal(p.certificate.certified, false);
    assert.match(p.certificate.reason, /calibration rows/);
    assert.equal(p.disagreement, 0);
  } finally {
    three.dispose();
    iris.dispose();
  }
});

test("rule 'auto' in the worker carries the same certificate and answer as on the main thread", async () => {
  const { UrnforestWorker } = await import('../../dist/worker.js');
  const worker = new UrnforestWorker();
  try {
    const remote = await worker.load(forest.toBytes());
    await remote.addData('rows', { csv: wdbcFeatureCsv(1), schemaOfModel: true, options: { target: null } });
    const options = { rule: 'auto', alpha: 0.95, vote: 'hard' };
    const there = await remote.predict('rows', options);
    const here = forest.predict(test_rows, options);
    assert.deepEqual(there.certificate, here.certificate);
    assert.deepEqual(Array.from(there.treesUsed), Array.from(here.treesUsed));
  } finally {
    await worker.terminate();
  }
});
