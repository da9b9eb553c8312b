import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';

const uf = await init();

function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

// 120 rows of two separated blobs: number[][] features and 'a'/'b' labels.
function blobRows(n = 120) {
  const rand = lcg(3);
  const x = [];
  const y = [];
  for (let r = 0; r < n; r++) {
    const cls = r % 2;
    x.push([cls ? 2 + rand() : -2 - rand(), rand() * 4 - 2, (cls ? 1 : -1) + rand() - 0.5]);
    y.push(cls ? 'b' : 'a');
  }
  return { x, y };
}

function trainsAndPredicts(data, expectedLabels) {
  const forest = uf.trainForest(data, { trees: 21, seed: 4 });
  const out = forest.predict(data);
  let right = 0;
  for (let i = 0; i < expectedLabels.length; i++) right += out.classIndex[i] === expectedLabels[i] ? 1 : 0;
  assert.ok(right / expectedLabels.length > 0.95, `training accuracy ${right / expectedLabels.length}`);
  forest.dispose();
}

test('number[][] features with string labels round-trip through train and predict', () => {
  const { x, y } = blobRows();
  const data = uf.Dataset.fromArrays(x, { labels: y });
  assert.equal(data.numRows, 120);
  assert.equal(data.numFeatures, 3);
  assert.deepEqual(data.classNames, ['a', 'b']);
  assert.equal(data.toRowMajor()[0], Math.fround(x[0][0]));
  trainsAndPredicts(data, Array.from(data.labels()));
  data.dispose();
});

test('Float64Array features with number[] labels round-trip; class names are the numbers as text in byte order, as in CSV', () => {
  const { x, y } = blobRows();
  const flat = Float64Array.from(x.flat());
  const labels = y.map((s) => (s === 'a' ? 10 : 2));
  const data = uf.Dataset.fromArrays(flat, { rows: 120, cols: 3, labels });
  assert.deepEqual(data.classNames, ['10', '2']);
  assert.equal(data.labels()[0], 0);
  trainsAndPredicts(data, Array.from(data.labels()));
  data.dispose();
});

test('a flat Float64Array with rows and cols, and fromRows of number[][] with featureNames, load the same table', () => {
  const { x, y } = blobRows(10);
  const a = uf.Dataset.fromArrays(Float64Array.from(x.flat()), { rows: 10, cols: 3, labels: y });
  const b = uf.Dataset.fromRows(x, { labels: y, featureNames: ['p', 'q', 'r'] });
  assert.deepEqual(a.toRowMajor(), b.toRowMajor());
  assert.deepEqual(b.featureNames, ['p', 'q', 'r']);
  a.dispose();
  b.dispose();
});

test('object rows: numbers numeric, strings categorical, null/undefined missing, target by option', () => {
  const rand = lcg(9);
  const rows = [];
  for (let r = 0; r < 150; r++) {
    const cls = r % 3;
    rows.push({
      sepal: cls + rand() * 0.5,
      colour: ['red', 'green', 'blue'][cls],
      note: r % 7 === 0 ? null : r % 11 === 0 ? undefined : 'n',
      species: ['setosa', 'versicolor', 'virginica'][cls],
    });
  }
  delete rows[5].sepal;
  const data = uf.Dataset.fromRows(rows, { target: 'species' });
  assert.deepEqual(data.featureNames, ['sepal', 'colour', 'note']);
  assert.deepEqual(data.featureTypes, ['numeric', 'categorical', 'categorical']);
  assert.equal(data.targetName, 'species');
  assert.deepEqual(data.classNames, ['setosa', 'versicolor', 'virginica']);
  const m = data.toRowMajor();
  assert.ok(Number.isNaN(m[5 * 3]));
  assert.ok(Number.isNaN(m[0 * 3 + 2]));
  assert.equal(m[1 * 3 + 1], 1);
  trainsAndPredicts(data, Array.from(data.labels()));

  const forest = uf.trainForest(data, { trees: 15, seed: 1 });
  const query = uf.Dataset.fromRows([{ colour: 'blue', sepal: 2.2, note: null }, { sepal: 0.1, colour: 'red' }], { schemaOf: forest });
  assert.deepEqual(query.featureTypes, ['categorical', 'numeric', 'categorical']);
  const out = forest.predict(query);
  assert.deepEqual(Array.from(out.classIndex), [2, 0]);
  query.dispose();
  forest.dispose();
  data.dispose();
});

test('fromArrays takes object rows too', () => {
  const data = uf.Dataset.fromArrays([{ a: 1, y: 'p' }, { a: 2, y: 'q' }], { target: 'y' });
  assert.deepEqual(data.classNames, ['p', 'q']);
  data.dispose();
});

function rejects(fn, code, pattern) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, 'UrnforestError', e.message);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, pattern);
    return true;
  });
}

test('each bad shape is an UrnforestError with a code naming the row and column', () => {
  rejects(() => uf.Dataset.fromArrays([[1, 2], [3]], {}), 'ShapeMismatch', /x\[1\] has 1 values but x\[0\] has 2/);
  rejects(() => uf.Dataset.fromRows([[1, 2], [3, 'a']]), 'InvalidArgument', /x\[1\]\[1\]/);
  rejects(() => uf.Dataset.fromRows([[1, 2], [3, Infinity]]), 'NonFiniteValue', /x\[1\]\[1\] = Infinity/);
  rejects(() => uf.Dataset.fromArrays(new Float64Array([1, 1e39]), { rows: 1, cols: 2 }), 'NonFiniteValue', /x\[0\]\[1\]/);
  rejects(() => uf.Dataset.fromArrays(new Float64Array(5), { rows: 2, cols: 3 }), 'ShapeMismatch', /rows \* cols/);
  rejects(() => uf.Dataset.fromRows([[1], [2]], { labels: ['a'] }), 'ShapeMismatch', /labels has 1 entries but there are 2 rows/);
  rejects(() => uf.Dataset.fromRows([[1], [2]], { labels: ['a', 3] }), 'InvalidArgument', /labels\[1\]/);
  rejects(() => uf.Dataset.fromRows([{ a: 1 }, { a: 'x' }]), 'InvalidArgument', /column 'a' mixes numbers and strings: rows\[0\]\.a is a number, rows\[1\]\.a is text 'x'/);
  rejects(() => uf.Dataset.fromRows([{ a: 1 }, { a: -Infinity }]), 'NonFiniteValue', /rows\[1\]\[a\]/);
  rejects(() => uf.Dataset.fromRows([{ a: 1 }, { a: {} }]), 'InvalidArgument', /rows\[1\].a is Object/);
  rejects(() => uf.Dataset.fromRows([{ a: 1 }, 7]), 'InvalidArgument', /rows\[1\] is number 7/);
  rejects(() => uf.Dataset.fromRows([{ y: 'p' }], { target: 'y' }), 'ShapeMismatch', /no feature keys/);
  rejects(() => uf.Dataset.fromRows([[1], [2]], { labels: ['a', 'c'], classNames: ['a', 'b'] }), 'UnknownClass', /labels\[1\]: label 'c' is not one of the 2 class names given/);
});

test('numeric labels with many distinct values are NumericTarget unless declared categorical', () => {
  const x = Array.from({ length: 80 }, (_, i) => [i, i % 3]);
  const price = x.map(([i]) => i * 1.25);
  rejects(() => uf.Dataset.fromRows(x, { labels: price }), 'NumericTarget', /urnforest classifies/);
  const objects = x.map(([i, j]) => ({ i, j, price: i * 1.25 }));
  rejects(() => uf.Dataset.fromRows(objects, { target: 'price' }), 'NumericTarget', /'price'/);
  const data = uf.Dataset.fromRows(x, { labels: price, targetCategorical: true });
  assert.equal(data.classNames.length, 80);
  data.dispose();
  const digits = uf.Dataset.fromRows(x, { labels: x.map(([i]) => i % 10) });
  assert.equal(digits.classNames.length, 10);
  digits.dispose();
});
