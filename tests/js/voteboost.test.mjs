import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, UrnforestError } from '../../dist/index.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'urnforest-voteboost-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const native = (args) => JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const csvPath = (name) => fileURLToPath(new URL(`${name}.csv`, datasetsDir));

// Trains natively with `args` and returns the model bytes and the JSON document.
function nativeTrain(name, args) {
  const out = join(dir, `${name}-${args.join('_').replace(/[^a-z0-9_.]/gi, '')}.urnf`);
  const doc = native(['train', '--data', csvPath(name), '--out', out, ...args]);
  return { bytes: new Uint8Array(readFileSync(out)), doc };
}

test('vote-boosting trains, predicts and round-trips with the model bytes of the native CLI', () => {
  const data = uf.Dataset.fromCSV(readDataset('sonar'));
  const cases = [
    [{ a: 5 }, ['--emphasis', '5']],
    [{ a: 0.5, base: 'unpruned' }, ['--emphasis', '0.5', '--base', 'unpruned']],
    [{ a: 2, b: 3, base: 'stump' }, ['--emphasis', '2', '--emphasis-b', '3', '--base', 'stump']],
    [{ a: 10, base: 'pruned' }, ['--emphasis', '10', '--base', 'pruned']],
  ];
  for (const [voteboost, args] of cases) {
    const forest = uf.trainForest(data, { ensemble: 'voteboost', voteboost, trees: 11, seed: 3 });
    const want = nativeTrain('sonar', ['--ensemble', 'voteboost', '--trees', '11', '--seed', '3', ...args]);
    assert.deepEqual(forest.toBytes(), want.bytes, JSON.stringify(voteboost));
    const learner = forest.learner;
    assert.equal(learner.ensemble, 'voteboost');
    assert.deepEqual(learner.voteboost, { a: voteboost.a, b: voteboost.b ?? voteboost.a, base: voteboost.base ?? 'random' });
    assert.equal(learner.treePruning, voteboost.base === 'pruned' ? 'cv' : 'none');
    assert.equal(forest.treeWeights().length, 0, 'unweighted majority vote');
    const reloaded = uf.Forest.fromBytes(forest.toBytes());
    assert.deepEqual(reloaded.learner, learner);
    const prediction = reloaded.predict(data);
    assert.deepEqual(prediction.classIndex, forest.predict(data).classIndex);
    reloaded.dispose();
    forest.dispose();
  }
  data.dispose();
});

test('a vote-boosted forest is queried in a random order unless told otherwise, as by the native CLI', () => {
  // Vote-boosted trees are sequentially dependent: the finite-T rules hold only in a random order.
  const want = nativeTrain('sonar', ['--ensemble', 'voteboost', '--emphasis', '5', '--trees', '41', '--seed', '6']);
  const forest = uf.Forest.fromBytes(want.bytes);
  const data = uf.Dataset.fromCSV(readDataset('sonar'), { schemaOf: forest });
  const model = join(dir, 'vb-order.urnf');
  writeFileSync(model, want.bytes);
  const cliDefault = native(['predict', '--model', model, '--data', csvPath('sonar'), '--rule', 'siba']);
  const byDefault = forest.predict(data, { rule: 'siba' });
  const random = forest.predict(data, { rule: 'siba', order: 'random', seed: 1 });
  const generation = forest.predict(data, { rule: 'siba', order: 'generation' });
  assert.deepEqual(Array.from(byDefault.treesUsed), cliDefault.trees_used);
  assert.deepEqual(byDefault.treesUsed, random.treesUsed);
  assert.notDeepEqual(byDefault.treesUsed, generation.treesUsed);
  const trace = forest.trace(data, 3, { rule: 'siba' });
  assert.deepEqual(trace.trees, forest.trace(data, 3, { rule: 'siba', order: 'random' }).trees);
  assert.equal(trace.treesUsed, byDefault.treesUsed[3]);
  // A random forest keeps generation order by default.
  const rf = uf.trainForest(data, { trees: 41, seed: 6 });
  assert.deepEqual(rf.predict(data, { rule: 'siba' }).treesUsed, rf.predict(data, { rule: 'siba', order: 'generation' }).treesUsed);
  rf.dispose();
  forest.dispose();
  data.dispose();
});

test('vote-boosting with a = b = 1 and random trees grows the random forest of the same seed', () => {
  const data = uf.Dataset.fromCSV(readDataset('ionosphere'));
  const rf = uf.trainForest(data, { trees: 15, seed: 9 });
  const vb = uf.trainForest(data, { ensemble: 'voteboost', voteboost: { a: 1 }, trees: 15, seed: 9 });
  assert.deepEqual(vb.predict(data).votes, rf.predict(data).votes);
  assert.deepEqual(vb.oobVotes(), rf.oobVotes());
  assert.equal(vb.numNodes, rf.numNodes);
  rf.dispose();
  vb.dispose();
  data.dispose();
});

test("voteboost.a = 'cv' chooses a = b as the native CLI's --emphasis cv", () => {
  const data = uf.Dataset.fromCSV(readDataset('sonar'));
  const forest = uf.trainForest(data, { ensemble: 'voteboost', voteboost: { a: 'cv', cvTrees: 5 }, trees: 5, seed: 2 });
  const selection = forest.emphasisSelection;
  assert.equal(selection.grid.length, 11);
  assert.equal(selection.cvError.length, 11);
  assert.ok(Array.from(selection.grid).includes(selection.chosen));
  const best = Math.min(...selection.cvError);
  assert.equal(selection.cvError[Array.from(selection.grid).indexOf(selection.chosen)], best);
  assert.equal(forest.learner.voteboost.a, selection.chosen);
  // The CLI's CV uses the full T (no --cv-trees on train): compare with the same T.
  const small = uf.trainForest(data, { ensemble: 'voteboost', voteboost: { a: 'cv' }, trees: 5, seed: 2 });
  const want = nativeTrain('sonar', ['--ensemble', 'voteboost', '--emphasis', 'cv', '--trees', '5', '--seed', '2']);
  assert.equal(small.emphasisSelection.chosen, want.doc.emphasis_a);
  assert.deepEqual(Array.from(small.emphasisSelection.cvError), want.doc.emphasis_cv_error);
  assert.deepEqual(small.toBytes(), want.bytes);
  assert.equal(uf.Forest.fromBytes(small.toBytes()).emphasisSelection, undefined);
  small.dispose();
  forest.dispose();
  data.dispose();
});

test('AdaBoost base learners match the native --base and pruning shrinks the trees', () => {
  const data = uf.Dataset.fromCSV(readDataset('sonar'));
  const sizes = {};
  for (const base of ['unpruned', 'pruned', 'stump', 'depth:3']) {
    const forest = uf.trainForest(data, { ensemble: 'adaboost', adaboost: { base }, trees: 9, seed: 4 });
    const want = nativeTrain('sonar', ['--ensemble', 'adaboost', '--base', base, '--trees', '9', '--seed', '4']);
    assert.deepEqual(forest.toBytes(), want.bytes, base);
    sizes[base] = forest.numNodes;
    const learner = forest.learner;
    assert.equal(learner.treePruning, base === 'pruned' ? 'cv' : 'none');
    assert.equal(learner.maxDepth, { stump: 1, 'depth:3': 3 }[base] ?? 0);
    forest.dispose();
  }
  assert.equal(sizes.stump, 9 * 3);
  assert.ok(sizes.pruned < sizes.unpruned);
  // The default is the unpruned CART of the double-pruning runs ([Sot11] ch. 3): same bytes as without the option.
  const plain = uf.trainForest(data, { ensemble: 'adaboost', trees: 9, seed: 4 });
  const unpruned = uf.trainForest(data, { ensemble: 'adaboost', adaboost: { base: 'unpruned' }, trees: 9, seed: 4 });
  assert.deepEqual(plain.toBytes(), unpruned.toBytes());
  plain.dispose();
  unpruned.dispose();
  data.dispose();
});

test('treePruning applies cost-complexity pruning to random-forest trees as the CLI does', () => {
  const data = uf.Dataset.fromCSV(readDataset('wdbc'));
  const forest = uf.trainForest(data, { trees: 7, seed: 5, treePruning: 'cv', treeFolds: 5, treeSe: 0 });
  const want = nativeTrain('wdbc', ['--trees', '7', '--seed', '5', '--tree-pruning', 'cv', '--tree-folds', '5', '--tree-se', '0']);
  assert.deepEqual(forest.toBytes(), want.bytes);
  assert.deepEqual(
    { treePruning: forest.learner.treePruning, treeFolds: forest.learner.treeFolds, treeSe: forest.learner.treeSe },
    { treePruning: 'cv', treeFolds: 5, treeSe: 0 });
  const full = uf.trainForest(data, { trees: 7, seed: 5 });
  assert.ok(forest.numNodes < full.numNodes);
  assert.equal(full.learner.treePruning, 'none');
  full.dispose();
  forest.dispose();
  data.dispose();
});

test('runExperiment runs vote-boosting with label noise as the CLI experiment', () => {
  const doc = uf.runExperiment({
    data: 'twonorm', train: 100, test: 200, repeats: 2, trees: 7, seed: 3, rules: ['siba'],
    ensemble: 'voteboost', voteboost: { a: 5, base: 'pruned' }, noise: 0.2,
  });
  const want = native(['experiment', '--data', 'twonorm', '--train', '100', '--test', '200', '--repeats', '2',
    '--trees', '7', '--seed', '3', '--rules', 'siba', '--ensemble', 'voteboost', '--emphasis', '5',
    '--base', 'pruned', '--noise', '0.2', '--quiet']);
  assert.equal(doc.ensemble, 'voteboost');
  assert.equal(doc.base, 'pruned');
  assert.equal(doc.tree_pruning, 'cv');
  assert.equal(doc.noise, 0.2);
  assert.deepEqual(doc.full.error, want.full.error);
  assert.deepEqual(doc.emphasis, want.emphasis);
});

test('bad vote-boosting and AdaBoost options are TypeError/RangeError naming the option; combinations are the core\'s InvalidArgument', () => {
  const data = uf.Dataset.fromCSV(readDataset('sonar'));
  const train = (o) => () => uf.trainForest(data, { trees: 3, ...o });
  const cases = [
    [{ ensemble: 'voteboost', voteboost: { a: 0 } }, RangeError, /voteboost\.a/],
    [{ ensemble: 'voteboost', voteboost: { a: -1 } }, RangeError, /voteboost\.a/],
    [{ ensemble: 'voteboost', voteboost: { a: Number.NaN } }, TypeError, /voteboost\.a/],
    [{ ensemble: 'voteboost', voteboost: { a: '2' } }, TypeError, /voteboost\.a/],
    [{ ensemble: 'voteboost', voteboost: { a: 2, b: 0 } }, RangeError, /voteboost\.b/],
    [{ ensemble: 'voteboost', voteboost: { a: 'cv', b: 2 } }, UrnforestError, /voteboost\.b cannot be combined with voteboost\.a = cv/],
    [{ ensemble: 'voteboost', voteboost: { base: 'forest' } }, RangeError, /voteboost\.base/],
    [{ ensemble: 'voteboost', voteboost: { emphasis: 2 } }, TypeError, /unknown option 'emphasis'/],
    [{ ensemble: 'voteboost', voteboost: { a: 2, cvTrees: 5 } }, UrnforestError, /voteboost\.cv_trees needs voteboost\.a = cv/],
    [{ voteboost: { a: 2 } }, UrnforestError, /need ensemble voteboost, not rf/],
    [{ ensemble: 'boost' }, RangeError, /voteboost/],
    [{ ensemble: 'adaboost', adaboost: { base: 'random' } }, RangeError, /adaboost\.base/],
    [{ ensemble: 'adaboost', adaboost: { base: 'depth:0' } }, RangeError, /adaboost\.base/],
    [{ ensemble: 'adaboost', adaboost: { base: 'stump' }, maxDepth: 2 }, UrnforestError, /max_depth/],
    [{ ensemble: 'rf', adaboost: { base: 'pruned' } }, UrnforestError, /need ensemble adaboost, not rf/],
    [{ treePruning: 'yes' }, RangeError, /treePruning/],
    [{ treeFolds: 1 }, RangeError, /treeFolds/],
    [{ treeSe: -1 }, RangeError, /treeSe/],
  ];
  for (const [options, type, message] of cases) {
    assert.throws(train(options), (e) => e instanceof type && message.test(e.message), JSON.stringify(options));
  }
  data.dispose();
});

test('asymmetric emphasis with more than two classes is UrnforestError InvalidArgument', () => {
  const iris = uf.Dataset.fromCSV(readDataset('iris'));
  assert.throws(() => uf.trainForest(iris, { ensemble: 'voteboost', voteboost: { a: 2, b: 3 }, trees: 3 }),
    (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /voteboost\.b/.test(e.message));
  // Symmetric emphasis is the labelled multi-class extension and trains.
  const forest = uf.trainForest(iris, { ensemble: 'voteboost', voteboost: { a: 2 }, trees: 5 });
  assert.equal(forest.numTrees, 5);
  forest.dispose();
  iris.dispose();
});

test("trainForest with voteboost.a = 'cv' reports progress during the cross-validation, then the final trees", () => {
  const data = uf.Dataset.fromCSV(readDataset('wdbc'));
  const seen = [];
  const forest = uf.trainForest(data, { ensemble: 'voteboost', trees: 5, voteboost: { a: 'cv', cvTrees: 3 }, seed: 2,
    onProgress: (done, total) => { seen.push([done, total]); } });
  const total = seen[0][1];
  const grid = uf.emphasisGrid().length;
  assert.equal(total, 10 * grid * 3 + 5);
  assert.ok(seen.every(([, t]) => t === total));
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i][0] >= seen[i - 1][0]);
  assert.equal(seen.at(-1)[0], total);
  assert.ok(seen.filter(([d]) => d < 10 * grid * 3).length >= 10 * grid, 'progress while cross-validating');
  forest.dispose();
  data.dispose();
});
