// forest.calibrate() on a forest trained here: the votes of all its trees on unlabeled held-out
// rows are stored beside its out-of-bag votes, so that rule 'auto' certifies (docs/halting.md,
// "A forest trained here"); the other rules answer as before, and toBytes() keeps the rows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { init, Dataset, Forest, UrnforestError, trainForest } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

// wdbc in three parts by position: a quarter trains, half calibrates (labels dropped), a quarter is predicted.
const lines = readDataset('wdbc').trim().split('\n');
const part = (keep, unlabeled) => {
  const cut = (l) => (unlabeled ? l.split(',').slice(0, 30).join(',') : l);
  return [cut(lines[0]), ...lines.slice(1).filter((_, i) => keep(i % 4)).map(cut)].join('\n') + '\n';
};
let train, calibration, testRows;

before(async () => {
  await init();
  train = Dataset.fromCSV(part((m) => m === 0, false));
  calibration = Dataset.fromCSV(part((m) => m === 1 || m === 2, true), { target: null });
  testRows = Dataset.fromCSV(part((m) => m === 3, false));
});

test("calibrate on a forest trained here lets rule 'auto' certify, within 1 - alpha of the full vote", () => {
  const forest = trainForest(train, { trees: 101, seed: 3 });
  const uncalibrated = forest.predict(testRows, { rule: 'auto', alpha: 0.9, compare: true });
  assert.equal(uncalibrated.certificate.certified, false);
  assert.match(uncalibrated.certificate.reason, /calibrate it on held-out unlabeled rows/);
  const report = forest.calibrate(calibration, { alpha: 0.9 });
  assert.equal(report.rows, 284);
  assert.deepEqual(report.warnings, []);
  assert.equal(forest.imported, null);
  const p = forest.predict(testRows, { rule: 'auto', alpha: 0.9, compare: true });
  assert.equal(p.certificate.certified, true);
  assert.equal(p.certificate.fitRows + p.certificate.certifyRows, 284);
  assert.ok(p.meanTrees < 101);
  assert.ok(p.disagreement <= 0.1);
  const back = Forest.fromBytes(forest.toBytes());
  const q = back.predict(testRows, { rule: 'auto', alpha: 0.9, compare: true });
  assert.deepEqual(q.certificate, p.certificate);
  assert.deepEqual(Array.from(q.labels), Array.from(p.labels));
  back.dispose();
  forest.dispose();
});

test('calibrating a forest trained here keeps the answers of the out-of-bag rules', () => {
  const forest = trainForest(train, { trees: 51, seed: 4 });
  const before = forest.predict(testRows, { rule: 'hyper', alpha: 0.99, seed: 2 });
  forest.calibrate(calibration);
  const after = forest.predict(testRows, { rule: 'hyper', alpha: 0.99, seed: 2 });
  assert.equal(before.labels.length, 142);
  assert.deepEqual(Array.from(after.labels), Array.from(before.labels));
  assert.deepEqual(Array.from(after.treesUsed), Array.from(before.treesUsed));
  forest.dispose();
});

test('calibrate refuses an AdaBoost forest with InvalidArgument', () => {
  const boosted = trainForest(train, { trees: 11, ensemble: 'adaboost' });
  assert.throws(() => boosted.calibrate(calibration), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /weighted vote/.test(e.message));
  boosted.dispose();
});
