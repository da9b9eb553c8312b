import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init, rules, orderings, emphasisWeights, emphasisGrid, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const owned = [];
const own = (x) => { owned.push(x); return x; };
after(() => { for (const x of owned) x.dispose(); });

const BASE = 'a,b,class\n1,5,x\n2,6,x\n3,7,y\n4,8,y\n5,1,x\n6,2,y\n';
const small = own(uf.Dataset.fromCSV(BASE));
const five = own(uf.trainForest(small, { trees: 5, seed: 1 }));

test('the public rule and ordering lists are the core names the options accept', () => {
  assert.throws(() => five.predict(small, { rule: 'nope' }),
    (e) => e instanceof RangeError && e.message.includes(`one of ${rules.join(', ')},`));
  assert.throws(() => five.order(small, { ordering: 'nope' }),
    (e) => e instanceof RangeError && e.message.includes(`one of ${orderings.join(', ')},`));
});

test('defaultOrder is random for vote-boosting only, and predict uses it without an order', () => {
  const sonar = own(uf.Dataset.fromCSV(readDataset('sonar')));
  const forests = {
    rf: five,
    adaboost: own(uf.trainForest(sonar, { ensemble: 'adaboost', trees: 5 })),
    voteboost: own(uf.trainForest(sonar, { ensemble: 'voteboost', trees: 5, voteboost: { a: 2 } })),
  };
  assert.equal(forests.rf.defaultOrder, 'generation');
  assert.equal(forests.adaboost.defaultOrder, 'generation');
  assert.equal(forests.voteboost.defaultOrder, 'random');
  const vb = forests.voteboost;
  const implicit = vb.predict(sonar, { rule: 'siba', seed: 7 });
  const explicit = vb.predict(sonar, { rule: 'siba', seed: 7, order: 'random' });
  assert.deepEqual(implicit.treesUsed, explicit.treesUsed);
  assert.deepEqual(implicit.classIndex, explicit.classIndex);
});

test('posterior of a partial tally under the uniform prior matches the hand-computed urn posterior', () => {
  // siba's prior is uniform: P(F | t) ∝ C(F0, t0) C(F1, t1) over F0 + F1 = 5, F >= t.
  const p = five.posterior([1, 1], { rule: 'siba' });
  assert.equal(p.numClasses, 2);
  assert.equal(p.numTrees, 5);
  assert.deepEqual(Array.from(p.tallies), [1, 4, 2, 3, 3, 2, 4, 1]);
  const want = [4, 6, 6, 4].map((w) => w / 20);
  p.probability.forEach((x, k) => assert.ok(Math.abs(x - want[k]) < 1e-12, `${x} vs ${want[k]}`));
});

test('posterior agrees with the core P* of the tally and sums to 1 for data priors', () => {
  const t = [2, 1];
  const p = five.posterior(t, { rule: 'siba' });
  let wins = 0;
  for (let k = 0; k < p.probability.length; k++) if (p.tallies[2 * k] > p.tallies[2 * k + 1]) wins += p.probability[k];
  const star = uf.pstar({ rule: 'siba', trees: 5, votes: t });
  assert.ok(Math.abs(wins - star.pstar) < 1e-12, `${wins} vs ${star.pstar}`);
  const iris = own(uf.Dataset.fromCSV(readDataset('iris')));
  const forest = own(uf.trainForest(iris, { trees: 21, seed: 3 }));
  const hyper = forest.posterior([3, 1, 0], { rule: 'hyper', trees: 11 });
  assert.equal(hyper.numTrees, 11);
  assert.equal(hyper.tallies.length, 3 * hyper.probability.length);
  assert.ok(Math.abs(hyper.probability.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  assert.throws(() => forest.posterior([3, 1], { rule: 'hyper' }), (e) => e instanceof RangeError && /tally/.test(e.message));
  assert.throws(() => forest.posterior([3, 1, 0], {}), (e) => e instanceof TypeError && /rule/.test(e.message));
  assert.throws(() => forest.posterior([3, 1, 0], { rule: 'hyper', trees: 22 }), (e) => e instanceof RangeError && /trees/.test(e.message));
});

test('haltsMany answers as halts for every tally, flat or as an array of tallies', () => {
  const table = own(uf.haltingTable({ rule: 'siba', trees: 11 }));
  const tallies = [];
  for (let a = 0; a <= 11; a++) for (let b = 0; a + b <= 11; b++) tallies.push([a, b]);
  const want = Uint8Array.from(tallies, (t) => (table.halts(t) ? 1 : 0));
  assert.deepEqual(table.haltsMany(tallies), want);
  assert.deepEqual(table.haltsMany(Int32Array.from(tallies.flat())), want);
  assert.ok(want.some((x) => x === 1) && want.some((x) => x === 0));
  assert.throws(() => table.haltsMany(new Int32Array(3)), RangeError);
  assert.throws(() => table.haltsMany([[12, 0]]), (e) => e instanceof RangeError && /tallies\[0\]/.test(e.message));
  assert.throws(() => table.haltsMany('01'), TypeError);
});

test('emphasisWeights gives the Laplace shares and the normalised beta emphasis of the core', () => {
  const two = emphasisWeights(new Uint32Array([3, 0, 1, 2]), 2, { a: 1, b: 1 });
  assert.deepEqual(Array.from(two.share), [1 / 5, 3 / 5]);
  assert.deepEqual(Array.from(two.weights), [0.5, 0.5]);
  const linear = emphasisWeights([3, 0, 1, 2], 2, { a: 2, b: 1 });
  linear.weights.forEach((w, i) => assert.ok(Math.abs(w - [0.25, 0.75][i]) < 1e-12));
  const three = emphasisWeights([1, 2, 1, 0, 0, 4], 3, { a: 2, b: 2, trees: 4 });
  assert.deepEqual(Array.from(three.share), [3 / 7, 5 / 7]);
  const g = (p) => p * (1 - p);
  const sum = g(3 / 7) + g(5 / 7);
  three.weights.forEach((w, i) => assert.ok(Math.abs(w - g(three.share[i]) / sum) < 1e-12));
  assert.throws(() => emphasisWeights([1, 2, 2, 2], 2, { a: 1, b: 1 }), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument');
  assert.throws(() => emphasisWeights([1, 2, 2], 2, { a: 1, b: 1 }), RangeError);
  assert.throws(() => emphasisWeights([1, 2], 2, { a: 0, b: 1 }), RangeError);
  assert.throws(() => emphasisWeights([1, 2], 2, { a: 1 }), TypeError);
});

test('emphasisGrid is the paper grid, frozen', () => {
  const grid = emphasisGrid();
  assert.deepEqual([...grid], [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2.5, 5, 10, 20, 40]);
  assert.ok(Object.isFrozen(grid));
  assert.equal(uf.emphasisGrid(), grid);
});
