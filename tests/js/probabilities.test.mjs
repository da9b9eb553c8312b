import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = uf.Dataset.fromCSV(readDataset('iris'));
const forest = uf.trainForest(iris, { trees: 31, seed: 3 });
const k = iris.classNames.length;

function rowSums(p, n) {
  const sums = [];
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let c = 0; c < k; c++) s += p[r * k + c];
    sums.push(s);
  }
  return sums;
}

test('full-vote probabilities are votes / T, rows x classes, each row summing to 1', () => {
  const out = forest.predict(iris);
  assert.ok(out.probabilities instanceof Float64Array);
  assert.equal(out.probabilities.length, iris.numRows * k);
  for (let i = 0; i < out.votes.length; i++) assert.equal(out.probabilities[i], out.votes[i] / 31);
  for (const s of rowSums(out.probabilities, iris.numRows)) assert.ok(Math.abs(s - 1) < 1e-12);
});

test('a boosted model reports its weighted vote shares', () => {
  const boosted = uf.trainForest(iris, { trees: 15, seed: 3, ensemble: 'adaboost' });
  const out = boosted.predict(iris);
  for (let r = 0; r < iris.numRows; r++) {
    let total = 0;
    for (let c = 0; c < k; c++) total += out.scores[r * k + c];
    for (let c = 0; c < k; c++) assert.ok(Math.abs(out.probabilities[r * k + c] - out.scores[r * k + c] / total) < 1e-12);
  }
  boosted.dispose();
});

for (const rule of ['siba', 'hyper', 'ndir']) {
  test(`halted probabilities (${rule}) sum to 1, are votes / T where every tree voted, and equal the brute-force posterior mean`, () => {
    const out = forest.predict(iris, { rule, alpha: 0.95, compare: true });
    assert.equal(out.probabilities.length, iris.numRows * k);
    for (const s of rowSums(out.probabilities, iris.numRows)) assert.ok(Math.abs(s - 1) < 1e-9);
    let halted = 0;
    let full = 0;
    for (let r = 0; r < iris.numRows; r++) {
      const p = out.probabilities.subarray(r * k, (r + 1) * k);
      if (out.treesUsed[r] === 31) {
        full++;
        for (let c = 0; c < k; c++) assert.ok(Math.abs(p[c] - out.fullVotes[r * k + c] / 31) < 1e-12);
        continue;
      }
      if (halted++ > 12) continue;
      const trace = forest.trace(iris, r, { rule, alpha: 0.95 });
      const tally = new Array(k).fill(0);
      for (let i = 0; i < trace.treesUsed; i++) tally[trace.votes[i]]++;
      const post = forest.posterior(tally, { rule, trees: 31 });
      for (let c = 0; c < k; c++) {
        let mean = 0;
        for (let j = 0; j < post.probability.length; j++) mean += post.probability[j] * post.tallies[j * k + c];
        assert.ok(Math.abs(p[c] - mean / 31) < 1e-9, `row ${r} class ${c}: ${p[c]} vs ${mean / 31}`);
      }
    }
    assert.ok(halted > 0, 'some rows halted early');
    assert.ok(full + halted === iris.numRows);
  });
}

test('the halted probabilities do not depend on compare', () => {
  const a = forest.predict(iris, { rule: 'siba', compare: true });
  const b = forest.predict(iris, { rule: 'siba', compare: false });
  assert.deepEqual(a.probabilities, b.probabilities);
});

test('a halted result carries the tallies drawn, and computes probabilities from them on first read', () => {
  const out = forest.predict(iris, { rule: 'hyper', compare: false });
  for (let r = 0; r < iris.numRows; r++) {
    let drawn = 0;
    for (let c = 0; c < k; c++) drawn += out.tallies[r * k + c];
    assert.equal(drawn, out.treesUsed[r]);
  }
  assert.ok('probabilities' in out);
  assert.equal(Object.hasOwn(out, 'probabilities'), false);
  const first = out.probabilities;
  assert.ok(first instanceof Float64Array);
  assert.equal(out.probabilities, first);
  const other = uf.trainForest(iris, { trees: 5, seed: 1 });
  const late = other.predict(iris, { rule: 'siba' });
  other.dispose();
  assert.throws(() => late.probabilities, /disposed/);
});
