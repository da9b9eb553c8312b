// The demo's vote-boosting weights (web/emphasis.js) against the definitions of [SMS18], in Node (pure functions
// of the page's modules and the built library; no browser needed): w_i ∝ g(p_i), g(p) = p^(a-1) (1-p)^(b-1),
// p Laplace-corrected. The page takes the weights and the grid from the library.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init } from '../../dist/index.js';
import { gridValue, logEmphasis, nextTreeWeights } from '../../web/emphasis.js';
import { pruneKeep } from '../../web/pruning.js';

const uf = await init();
const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);
const weights = (votes, l, T, a, b) => {
  const { share, weights: w } = nextTreeWeights(uf, votes, l, T, a, b);
  return { p: share, w };
};

test('the page takes the weights and the grid from the library, defining neither itself', () => {
  const votes = Uint32Array.from([10, 1, 3, 8, 6, 5]);
  assert.deepEqual(nextTreeWeights(uf, votes, 2, 11, 2.5, 2.5), uf.emphasisWeights(votes, 2, { a: 2.5, b: 2.5, trees: 11 }));
  assert.deepEqual(uf.emphasisGrid().map((_, i) => gridValue(uf, i)), [...uf.emphasisGrid()]);
  assert.equal(gridValue(uf, uf.emphasisGrid().length), 1);
  const source = readFileSync(new URL('../../web/emphasis.js', import.meta.url), 'utf8');
  assert.doesNotMatch(source, /function emphasisWeights|EMPHASIS_GRID/);
  assert.doesNotMatch(readFileSync(new URL('../../web/math.js', import.meta.url), 'utf8'), /EMPHASIS_GRID/);
});

test('the grid is the paper\'s a = b values (0.25 … 40)', () => {
  assert.deepEqual([...uf.emphasisGrid()], [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2.5, 5, 10, 20, 40]);
});

test('a = b = 1 weighs every training row alike (bagging / random forest)', () => {
  const { w } = weights(Uint32Array.from([10, 1, 3, 8, 6, 5]), 2, 11, 1, 1);
  for (const x of w) close(x, 1 / 3);
});

test('two classes: p is the Laplace share of class 1, (t+ + 1)/(T + 2), and the weights sum to one', () => {
  const votes = Uint32Array.from([11, 0, 0, 11, 6, 5]);
  const { p, w } = weights(votes, 2, 11, 2.5, 2.5);
  close(p[0], 1 / 13);
  close(p[1], 12 / 13);
  close(p[2], 6 / 13);
  close(w.reduce((s, x) => s + x, 0), 1);
  close(w[0], w[1], 1e-15);
  const g = (x) => Math.exp(logEmphasis(x, 2.5, 2.5));
  close(w[2] / w[0], g(6 / 13) / g(1 / 13), 1e-9);
  assert.ok(w[2] > w[0], 'a > 1 stresses the uncertain row');
});

test('a ≠ b weighs the rows by p^(a-1) (1-p)^(b-1) of the share of class 1', () => {
  const votes = Uint32Array.from([11, 0, 0, 11, 6, 5]);
  const { p, w } = weights(votes, 2, 11, 2, 0.5);
  const g = p.map((x) => Math.exp(logEmphasis(x, 2, 0.5)));
  const sum = g.reduce((s, x) => s + x, 0);
  g.forEach((x, i) => close(w[i], x / sum, 1e-12));
});

test('a = b < 1 stresses the rows the trees agree on; more classes use the leader share (max + 1)/(T + l)', () => {
  const votes = Uint32Array.from([9, 1, 1, 4, 4, 3]);
  const { p, w } = weights(votes, 3, 11, 0.5, 0.5);
  close(p[0], 10 / 14);
  close(p[1], 5 / 14);
  assert.ok(w[0] > w[1]);
});

test('the demo\'s static pruning keeps the library\'s default, ⌈0.2 T⌉ trees (21 of 101), at least one', () => {
  assert.equal(pruneKeep(uf, 101), 21);
  assert.equal(pruneKeep(uf, 51), 11);
  assert.equal(pruneKeep(uf, 10), 2);
  assert.equal(pruneKeep(uf, 1), 1);
  for (let T = 1; T <= 300; T++) assert.equal(pruneKeep(uf, T), uf.defaultKeep(T));
});
