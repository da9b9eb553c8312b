import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';

const uf = await init();

// 400 rows: the class is signal + other > 1 (5 % label noise); the other four columns are noise.
function twoInformative(seed) {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const rows = [];
  for (let r = 0; r < 400; r++) {
    const row = { noise1: rand(), signal: rand(), noise2: rand(), other: rand(), noise3: rand(), noise4: rand() };
    let y = row.signal + row.other > 1 ? 'high' : 'low';
    if (rand() < 0.05) y = y === 'high' ? 'low' : 'high';
    rows.push({ ...row, y });
  }
  return uf.Dataset.fromRows(rows, { target: 'y' });
}

const topTwo = (names, values) => names.map((n, i) => [n, values[i]]).sort((a, b) => b[1] - a[1]).slice(0, 2).map(([n]) => n).sort();

test('impurity and out-of-bag permutation importance rank the informative features first', () => {
  const data = twoInformative(5);
  const forest = uf.trainForest(data, { trees: 60, seed: 2 });
  const impurity = forest.featureImportance(data);
  assert.ok(impurity instanceof Float64Array);
  assert.equal(impurity.length, 6);
  assert.ok(Math.abs(impurity.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  assert.deepEqual(topTwo(forest.featureNames, impurity), ['other', 'signal']);
  const permutation = forest.featureImportance(data, { method: 'permutation', seed: 4 });
  assert.deepEqual(topTwo(forest.featureNames, permutation), ['other', 'signal']);
  assert.deepEqual(forest.featureImportance(data, { method: 'permutation', seed: 4 }), permutation);
  const heldOut = twoInformative(6);
  assert.deepEqual(topTwo(forest.featureNames, forest.featureImportance(heldOut, { method: 'permutation' })), ['other', 'signal']);
  assert.throws(() => forest.featureImportance(data, { method: 'gain' }), RangeError);
  assert.throws(() => forest.featureImportance(), TypeError);
  for (const d of [data, heldOut, forest]) d.dispose();
});
