import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const owned = [];
const own = (x) => { owned.push(x); return x; };
after(() => { for (const x of owned) x.dispose(); });

const worker = new UrnforestWorker();
after(() => worker.terminate());

const iris = own(uf.Dataset.fromCSV(readDataset('iris')));
const three = own(uf.trainForest(iris, { trees: 21, seed: 3 }));
const wdbc = own(uf.Dataset.fromCSV(readDataset('wdbc')));
const two = own(uf.trainForest(wdbc, { trees: 31, seed: 5 }));

const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

function strictLeader(row) {
  let best = 0;
  let tie = false;
  for (let i = 1; i < row.length; i++) {
    if (row[i] > row[best]) { best = i; tie = false; } else if (row[i] === row[best]) tie = true;
  }
  return tie ? -1 : best;
}

test('posterior.win sums to 1 minus the mass of the tied final tallies', () => {
  for (const rule of ['siba', 'hyper', '1dir', 'ndir']) {
    const p = three.posterior([2, 2, 1], { rule, trees: 12 });
    const l = p.numClasses;
    let tied = 0;
    const direct = new Float64Array(l);
    for (let k = 0; k < p.probability.length; k++) {
      const winner = strictLeader(p.tallies.subarray(k * l, (k + 1) * l));
      if (winner < 0) tied += p.probability[k]; else direct[winner] += p.probability[k];
    }
    assert.ok(tied > 0, rule);
    assert.ok(p.win instanceof Float64Array);
    close(p.win.reduce((a, b) => a + b, 0), 1 - tied, 1e-12);
    p.win.forEach((w, c) => close(w, direct[c], 1e-12));
    assert.equal(p.leader, -1);
  }
});

test('with two classes win is the posterior mass on each side of the middle, read in lexicographic tally order', () => {
  const p = two.posterior([9, 4], { rule: 'hyper' });
  const T = p.numTrees;
  let first = 0;
  let second = 0;
  for (let k = 0; k < p.probability.length; k++) {
    assert.equal(p.tallies[2 * k], 9 + k);
    assert.equal(p.tallies[2 * k + 1], T - 9 - k);
    if (2 * p.tallies[2 * k] > T) first += p.probability[k]; else second += p.probability[k];
  }
  close(p.win[0], first);
  close(p.win[1], second);
  assert.equal(p.leader, 0);
});

test('the leader\'s win is the library\'s P* under the uniform prior', () => {
  const p = two.posterior([7, 3], { rule: 'siba' });
  assert.equal(p.leader, 0);
  close(p.win[0], uf.pstar({ rule: 'siba', trees: two.numTrees, votes: [7, 3] }).pstar, 1e-12);
});

test('remote.posterior answers as forest.posterior, and info.defaultOrder is the library\'s', async () => {
  const remote = await worker.load(two.toBytes());
  try {
    assert.equal(remote.info.defaultOrder, two.defaultOrder);
    const got = await remote.posterior(Int32Array.from([5, 2]), { rule: 'hyper', trees: 21 });
    assert.deepEqual(got, two.posterior([5, 2], { rule: 'hyper', trees: 21 }));
    await assert.rejects(remote.posterior([5], { rule: 'hyper' }), (e) => e instanceof RangeError && /tally/.test(e.message));
  } finally {
    remote.dispose();
  }
  const sonar = own(uf.Dataset.fromCSV(readDataset('sonar')));
  const boosted = own(uf.trainForest(sonar, { ensemble: 'voteboost', trees: 5, voteboost: { a: 2 } }));
  const vb = await worker.load(boosted.toBytes());
  try {
    assert.equal(vb.info.defaultOrder, 'random');
  } finally {
    vb.dispose();
  }
});
