import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, orderings } from '../../dist/index.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'urnforest-pruning-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const native = (args) => JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const csvPath = (name) => fileURLToPath(new URL(`${name}.csv`, datasetsDir));

function errorRate(classIndex, labels) {
  let wrong = 0;
  for (let i = 0; i < labels.length; i++) wrong += classIndex[i] !== labels[i] ? 1 : 0;
  return wrong / labels.length;
}

test('AdaBoost trains and predicts exactly as the native CLI for the same model bytes', () => {
  const data = uf.Dataset.fromCSV(readDataset('sonar'));
  for (const boosting of ['resample', 'reweight']) {
    const forest = uf.trainForest(data, { ensemble: 'adaboost', boosting, trees: 15, seed: 4, maxDepth: boosting === 'reweight' ? 3 : 0 });
    const weights = forest.treeWeights();
    assert.equal(weights.length, 15);
    assert.ok(weights.every((w) => w > 0));
    const modelPath = join(dir, `sonar-${boosting}.ufm`);
    writeFileSync(modelPath, forest.toBytes());
    const want = native(['predict', '--model', modelPath, '--data', csvPath('sonar')]);
    const got = forest.predict(data);
    assert.deepEqual(got.labels, want.labels);
    assert.deepEqual(Array.from(got.votes), want.votes);
    assert.equal(got.scores.length, data.numRows * 2);
    const halted = native(['predict', '--model', modelPath, '--data', csvPath('sonar'), '--rule', 'siba']);
    const mine = forest.predict(data, { rule: 'siba' });
    assert.deepEqual(mine.labels, halted.labels);
    assert.deepEqual(Array.from(mine.treesUsed), halted.trees_used);
    forest.dispose();
  }
  const rf = uf.trainForest(data, { trees: 5 });
  assert.equal(rf.treeWeights().length, 0);
  assert.equal(rf.predict(data).scores, undefined);
  rf.dispose();
  data.dispose();
});

test('every ordering gives a permutation of all trees', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 21, seed: 3 });
  assert.equal(orderings.length, 8);
  for (const ordering of orderings) {
    const order = forest.order(data, { ordering });
    assert.ok(order instanceof Int32Array);
    assert.deepEqual(Array.from(order).sort((a, b) => a - b), Array.from({ length: 21 }, (_, i) => i), ordering);
  }
  assert.deepEqual(Array.from(forest.order(data, { ordering: 'early' })), Array.from({ length: 21 }, (_, i) => i));
  assert.deepEqual(forest.order(data), forest.order(data, { ordering: 'boosting' }));
  assert.throws(() => forest.order(data, { ordering: 'best' }), (e) => e instanceof RangeError && /ordering/.test(e.message));
  assert.throws(() => forest.order(data, { mdmP: 2 }), (e) => e instanceof RangeError && /mdmP/.test(e.message));
  assert.throws(() => forest.order(data, { backfit: 1.5 }), (e) => e instanceof TypeError && /backfit/.test(e.message));
  const unlabeled = uf.Dataset.fromCSV(readDataset('iris'), { target: null });
  assert.throws(() => forest.order(unlabeled.subset([0, 1, 2]), {}), uf.UrnforestError);
  unlabeled.dispose();
  forest.dispose();
  data.dispose();
});

test('a pruned forest is smaller and predicts as the first-k vote of the full one', () => {
  const data = uf.Dataset.fromCSV(readDataset('wdbc'));
  const forest = uf.trainForest(data, { trees: 51, seed: 9 });
  const order = forest.order(data, { ordering: 'reduce-error' });
  const k = 11;
  const pruned = forest.prune(order, k, { training: data });
  assert.equal(pruned.numTrees, k);
  assert.ok(pruned.toBytes().length < forest.toBytes().length);
  const firstK = order.slice(0, k);
  const viaFixed = forest.predict(data, { rule: 'alpha1', order: 'fixed', fixedOrder: firstK });
  assert.deepEqual(pruned.predict(data).classIndex, viaFixed.fullClassIndex);
  assert.deepEqual(viaFixed.classIndex, viaFixed.fullClassIndex);
  const haltedPruned = pruned.predict(data, { rule: 'siba' });
  const haltedFixed = forest.predict(data, { rule: 'siba', order: 'fixed', fixedOrder: firstK });
  assert.deepEqual(haltedPruned.classIndex, haltedFixed.classIndex);
  assert.deepEqual(haltedPruned.treesUsed, haltedFixed.treesUsed);
  assert.ok(haltedFixed.treesUsed.every((t) => t <= k));

  const curve = forest.errorCurve(data, order);
  assert.equal(curve.length, 51);
  const labels = data.labels();
  assert.equal(curve[k - 1], errorRate(pruned.predict(data).classIndex, labels));
  assert.equal(curve[50], errorRate(forest.predict(data).classIndex, labels));
  assert.ok(pruned.oobVotes().some((v) => v > 0));
  const blind = forest.prune(order, k);
  assert.ok(blind.oobVotes().every((v) => v === 0));
  blind.dispose();
  pruned.dispose();
  forest.dispose();
  data.dispose();
});

test('prune with the training data writes the same bytes as the CLI', () => {
  const data = uf.Dataset.fromCSV(readDataset('ionosphere'));
  const forest = uf.trainForest(data, { trees: 31, seed: 2 });
  const modelPath = join(dir, 'ionosphere.ufm');
  const outPath = join(dir, 'ionosphere-pruned.ufm');
  writeFileSync(modelPath, forest.toBytes());
  const doc = native(['prune', '--model', modelPath, '--data', csvPath('ionosphere'), '--ordering', 'boosting', '--keep', '7', '--out', outPath]);
  const order = forest.order(data, { ordering: 'boosting' });
  assert.deepEqual(Array.from(order), doc.order);
  assert.deepEqual(Array.from(forest.errorCurve(data, order)), doc.error_curve);
  const pruned = forest.prune(order, 7, { training: data });
  assert.deepEqual(pruned.toBytes(), new Uint8Array(readFileSync(outPath)));
  pruned.dispose();
  forest.dispose();
  data.dispose();
});

test('orderReport warns when unpruned trees are ordered on their own training data, and on: oob orders on out-of-bag votes as the CLI', () => {
  const data = uf.Dataset.fromCSV(readDataset('sonar'));
  const unpruned = uf.trainForest(data, { ensemble: 'bagging', trees: 21, seed: 2 });
  const report = unpruned.orderReport(data);
  assert.equal(report.on, 'data');
  assert.equal(report.warnings.length, 1);
  assert.match(report.warnings[0], /in-bag/);
  assert.deepEqual(report.order, unpruned.order(data));
  const oob = unpruned.orderReport(data, { on: 'oob' });
  assert.equal(oob.on, 'oob');
  assert.deepEqual(oob.warnings, []);
  const modelPath = join(dir, 'sonar-bag.ufm');
  writeFileSync(modelPath, unpruned.toBytes());
  const doc = native(['prune', '--model', modelPath, '--data', csvPath('sonar'), '--on', 'oob', '--out', join(dir, 'sonar-oob.ufm')]);
  assert.deepEqual(Array.from(oob.order), doc.order);
  assert.deepEqual(doc.warnings, []);
  assert.throws(() => unpruned.order(data, { on: 'oob', ordering: 'kappa' }), (e) => e instanceof uf.UrnforestError && e.code === 'InvalidArgument');
  assert.throws(() => unpruned.order(data, { on: 'bag' }), (e) => e instanceof RangeError && /on/.test(e.message));
  const pruned = uf.trainForest(data, { ensemble: 'bagging', trees: 5, seed: 2, treePruning: 'cv' });
  assert.deepEqual(pruned.orderReport(data).warnings, []);
  pruned.dispose();
  unpruned.dispose();
  data.dispose();
});

test('pruning and fixed-order options are validated by name', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 9 });
  assert.throws(() => forest.prune([0, 1], 0), (e) => e instanceof RangeError && /keep/.test(e.message));
  assert.throws(() => forest.prune([0, 1], 3), (e) => e instanceof RangeError && /keep/.test(e.message));
  assert.throws(() => forest.prune([0, 0], 1), (e) => e instanceof RangeError && /repeats/.test(e.message));
  assert.throws(() => forest.prune([0, 9], 1), (e) => e instanceof RangeError && /order\[1\]/.test(e.message));
  assert.throws(() => forest.prune('0,1', 1), TypeError);
  assert.throws(() => forest.prune([0, 1], 1, { training: 'x' }), (e) => e instanceof TypeError && /training/.test(e.message));
  assert.throws(() => forest.errorCurve(data, [1.5]), TypeError);
  assert.throws(() => forest.predict(data, { rule: 'siba', fixedOrder: [0] }), (e) => e instanceof TypeError && /fixedOrder/.test(e.message));
  assert.throws(() => forest.predict(data, { rule: 'siba', order: 'fixed' }), (e) => e instanceof TypeError && /fixedOrder/.test(e.message));
  assert.throws(() => forest.predict(data, { rule: 'siba', order: 'fixed', fixedOrder: [0, 1], trees: 3 }), (e) => e instanceof RangeError && /trees/.test(e.message));
  assert.throws(() => uf.trainForest(data, { boosting: 'resample' }), (e) => e.code === 'InvalidArgument' && /option boosting needs ensemble adaboost/.test(e.message));
  assert.throws(() => uf.trainForest(data, { ensemble: 'adaboost', boosting: 'both' }), (e) => e instanceof RangeError && /boosting/.test(e.message));
  assert.throws(() => uf.trainForest(data, { ensemble: 'gbm' }), (e) => e instanceof RangeError && /adaboost/.test(e.message));
  forest.dispose();
  assert.throws(() => forest.order(data), /disposed/);
  data.dispose();
});
