// forest.stoppingRegion({rule: 'lp', alpha}): the read-only view of the strategy rule 'lp' runs ([KM26]'s
// two-class minimean strategy), for a forest trained here (out-of-bag tallies) and an imported one (its
// calibration rows), checked against the stops predict() makes, and its refusals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, Dataset, Forest, UrnforestError, trainForest } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const rank = (i, j) => (i * (i + 1)) / 2 + j;
let wdbc;
let forest;
before(async () => {
  await init();
  wdbc = Dataset.fromCSV(readDataset('wdbc'));
  forest = trainForest(wdbc, { trees: 51, seed: 4 });
});
after(() => { forest.dispose(); wdbc.dispose(); });

test('the region has one stop probability and one answer per state, never stops before a vote and always after all', () => {
  const r = forest.stoppingRegion({ rule: 'lp', alpha: 0.99 });
  const N = forest.numTrees;
  assert.equal(r.rule, 'lp');
  assert.equal(r.alpha, 0.99);
  assert.equal(r.numTrees, N);
  assert.ok(r.stopProbability instanceof Float64Array);
  assert.ok(r.answer instanceof Uint8Array);
  assert.equal(r.stopProbability.length, ((N + 1) * (N + 2)) / 2);
  assert.equal(r.answer.length, r.stopProbability.length);
  assert.equal(r.stopProbability[0], 0);
  for (let j = 0; j <= N; j++) assert.equal(r.stopProbability[rank(N, j)], 1);
  for (const p of r.stopProbability) assert.ok(p >= 0 && p <= 1, `stop probability ${p}`);
  // A stop where one class leads answers the leader.
  for (let i = 1; i <= N; i++) {
    for (let j = 0; j <= i; j++) if (2 * j !== i) assert.equal(r.answer[rank(i, j)], 2 * j > i ? 1 : 0, `answer at (${i}, ${j})`);
  }
  assert.ok(r.expectedTrees >= 1 && r.expectedTrees < N, `expected trees ${r.expectedTrees}`);
  assert.ok(r.expectedDisagreement <= 0.01 + 1e-12, `expected disagreement ${r.expectedDisagreement}`);
});

test("every row predict() halts with rule 'lp' stops at a state the region may stop at, and at no earlier certain stop", () => {
  const alpha = 0.95;
  const r = forest.stoppingRegion({ rule: 'lp', alpha });
  const p = forest.predict(wdbc, { rule: 'lp', alpha, order: 'generation' });
  let halted = 0;
  for (let row = 0; row < 60; row++) {
    const votes = forest.trace(wdbc, row, { rule: 'alpha1', alpha: 1 }).votes;
    const stopAt = p.treesUsed[row];
    let j = 0;
    for (let i = 1; i < stopAt; i++) {
      j += votes[i - 1];
      assert.ok(r.stopProbability[rank(i, j)] < 1, `row ${row} went on past the certain stop (${i}, ${j})`);
    }
    j += votes[stopAt - 1];
    assert.ok(r.stopProbability[rank(stopAt, j)] > 0, `row ${row} stopped at (${stopAt}, ${j}), where the region never stops`);
    assert.equal(p.classIndex[row], r.answer[rank(stopAt, j)], `row ${row}'s answer`);
    if (stopAt < forest.numTrees) halted++;
  }
  assert.ok(halted > 0);
});

test('a looser alpha never asks for more trees', () => {
  const tight = forest.stoppingRegion({ rule: 'lp', alpha: 0.999 });
  const loose = forest.stoppingRegion({ rule: 'lp', alpha: 0.9 });
  assert.ok(loose.expectedTrees <= tight.expectedTrees);
});

test('an imported forest has a region after calibrate() and none before', () => {
  const dir = new URL('../fixtures/onnx/', import.meta.url);
  const fx = JSON.parse(readFileSync(new URL('sk_rf_wdbc_binary_zipmap.json', dir), 'utf8'));
  const imported = Forest.fromONNX(new Uint8Array(readFileSync(new URL(fx.model_file, dir))), { featureNames: fx.feature_names });
  const header = readDataset('wdbc').trim().split('\n').map((l) => l.split(',').slice(0, 30).join(',')).join('\n');
  const rows = Dataset.fromCSV(`${header}\n`, { target: null });
  try {
    assert.throws(() => imported.stoppingRegion({ rule: 'lp' }), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument');
    imported.calibrate(rows);
    const r = imported.stoppingRegion({ rule: 'lp', alpha: 0.95 });
    assert.equal(r.numTrees, imported.numTrees);
    assert.equal(r.stopProbability.length, ((r.numTrees + 1) * (r.numTrees + 2)) / 2);
  } finally {
    rows.dispose();
    imported.dispose();
  }
});

test('stoppingRegion refuses other rules, bad options and more than two classes', () => {
  assert.throws(() => forest.stoppingRegion(), TypeError);
  assert.throws(() => forest.stoppingRegion({ rule: 'siba' }), RangeError);
  assert.throws(() => forest.stoppingRegion({ rule: 'lp', alpha: 0 }), RangeError);
  assert.throws(() => forest.stoppingRegion({ rule: 'lp', alpha: '0.9' }), TypeError);
  assert.throws(() => forest.stoppingRegion({ rule: 'lp', delta: 0.1 }), TypeError);
  const iris = Dataset.fromCSV(readDataset('iris'));
  const three = trainForest(iris, { trees: 11 });
  try {
    assert.throws(() => three.stoppingRegion({ rule: 'lp' }), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /two classes/.test(e.message));
  } finally {
    three.dispose();
    iris.dispose();
  }
});
