import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const wdbc = uf.Dataset.fromCSV(readDataset('wdbc'));
const iris = uf.Dataset.fromCSV(readDataset('iris'));
const forest = uf.trainForest(wdbc, { trees: 101, seed: 3 });
const irisForest = uf.trainForest(iris, { trees: 51, seed: 2 });

test('predict writes the halted answer into caller-owned arrays, equal to the fresh-array result', () => {
  for (const [f, data] of [[forest, wdbc], [irisForest, iris]]) {
    for (const options of [{ rule: 'hyper', alpha: 0.99 }, { rule: 'siba', order: 'random', seed: 5 }, { rule: 'alpha1', trees: 31 }]) {
      const want = f.predict(data, options);
      const out = {
        classIndex: new Int32Array(data.numRows), treesUsed: new Int32Array(data.numRows),
        confidence: new Float64Array(data.numRows), haltedEarly: new Uint8Array(data.numRows),
      };
      const got = f.predict(data, options, { out });
      assert.equal(got.classIndex, out.classIndex);
      assert.equal(got.treesUsed, out.treesUsed);
      assert.deepEqual(out.classIndex, want.classIndex);
      assert.deepEqual(out.treesUsed, want.treesUsed);
      assert.deepEqual(out.confidence, want.confidence);
      assert.deepEqual(out.haltedEarly, want.haltedEarly);
      assert.equal(got.meanTrees, want.meanTrees);
      assert.equal(got.rows, data.numRows);
      assert.equal(got.labels, undefined);
      assert.deepEqual([...got.classNames], f.classNames);
    }
  }
});

test('caller-owned arrays are reused across calls; longer arrays get the first rows; a subset of arrays is fine', () => {
  const small = wdbc.subset([0, 1, 2, 3, 4]);
  const classIndex = new Int32Array(wdbc.numRows).fill(-7);
  const first = forest.predict(small, { rule: 'hyper' }, { out: { classIndex } });
  assert.equal(first.classIndex.length, 5);
  assert.equal(first.classIndex.buffer, classIndex.buffer);
  assert.deepEqual(Array.from(classIndex.subarray(0, 5)), Array.from(forest.predict(small, { rule: 'hyper' }).classIndex));
  assert.equal(classIndex[5], -7);
  forest.predict(wdbc, { rule: 'hyper' }, { out: { classIndex } });
  assert.deepEqual(classIndex, forest.predict(wdbc, { rule: 'hyper' }).classIndex);
  small.dispose();
});

test('wrong caller-owned arrays are refused before any work, naming the array', () => {
  const n = wdbc.numRows;
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper' }, { out: { classIndex: new Float64Array(n) } }), /out.classIndex must be a Int32Array/);
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper' }, { out: { treesUsed: new Int32Array(n - 1) } }), RangeError);
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper' }, { out: { labels: [] } }), /unknown out array 'labels'/);
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper' }, { into: {} }), /unknown destination option/);
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper', compare: true }, { out: {} }), TypeError);
  assert.throws(() => forest.predict(wdbc, undefined, { out: {} }), TypeError);
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper' }, new Map()), TypeError);
});

test('predict validates {rule, alpha} options each time they change, also after the same rule and alpha passed', () => {
  const options = { rule: 'hyper', alpha: 0.99 };
  const first = forest.predict(wdbc, options);
  assert.deepEqual(forest.predict(wdbc, { rule: 'hyper', alpha: 0.99 }).treesUsed, first.treesUsed);
  options.alpha = 1.5;
  assert.throws(() => forest.predict(wdbc, options), RangeError);
  options.alpha = 0.99;
  options.rule = 'nope';
  assert.throws(() => forest.predict(wdbc, options), RangeError);
  assert.throws(() => forest.predict(wdbc, { rule: 'hyper', alpha: 0.99, extra: 1 }), /unknown option 'extra'/);
  const withOrder = forest.predict(wdbc, { rule: 'hyper', alpha: 0.99, order: 'random', seed: 4 });
  assert.notDeepEqual(withOrder.treesUsed, first.treesUsed);
  const again = forest.predict(wdbc, { rule: 'hyper', alpha: 0.99 });
  assert.deepEqual(again.treesUsed, first.treesUsed);
  assert.equal(again.rule, 'hyper');
  assert.equal(again.alpha, 0.99);
  assert.deepEqual(forest.predict(wdbc, { rule: 'siba' }).treesUsed, forest.predict(wdbc, { rule: 'siba', alpha: 0.99 }).treesUsed);
});

test('caller-owned arrays that share memory are a TypeError naming both', () => {
  const n = wdbc.numRows;
  const a = new Int32Array(n);
  assert.throws(() => forest.predict(wdbc, { rule: 'siba' }, { out: { classIndex: a, treesUsed: a } }),
    (e) => e instanceof TypeError && /classIndex/.test(e.message) && /treesUsed/.test(e.message));
  const shared = new ArrayBuffer(8 * n + 4 * n);
  const overlapping = { confidence: new Float64Array(shared, 0, n), treesUsed: new Int32Array(shared, 8 * n - 4, n) };
  assert.throws(() => forest.predict(wdbc, { rule: 'siba' }, { out: overlapping }),
    (e) => e instanceof TypeError && /confidence/.test(e.message) && /treesUsed/.test(e.message));
  const bytes = new Uint8Array(shared, 4, n);
  assert.throws(() => forest.predict(wdbc, { rule: 'siba' }, { out: { confidence: new Float64Array(shared, 0, n), haltedEarly: bytes } }),
    (e) => e instanceof TypeError && /haltedEarly/.test(e.message));
  const apart = { classIndex: new Int32Array(shared, 0, n), treesUsed: new Int32Array(shared, 4 * n, n) };
  const got = forest.predict(wdbc, { rule: 'siba' }, { out: apart });
  const want = forest.predict(wdbc, { rule: 'siba' });
  assert.deepEqual(apart.classIndex, want.classIndex);
  assert.deepEqual(apart.treesUsed, want.treesUsed);
  assert.equal(got.classIndex, apart.classIndex);
});
