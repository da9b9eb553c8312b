import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();

function isUrnforestError(code, extra = () => true) {
  return (e) => {
    assert.ok(e instanceof UrnforestError, `expected UrnforestError, got ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'UrnforestError');
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.includes(code));
    return extra(e);
  };
}

test('UrnforestError is the same class from the module and from init()', () => {
  assert.equal(uf.UrnforestError, UrnforestError);
});

test('a ragged CSV row is CsvRaggedRow with line and column', () => {
  assert.throws(() => uf.Dataset.fromCSV('a,b,class\n1,2,x\n3,4\n5,6,y\n'), isUrnforestError('CsvRaggedRow', (e) => {
    assert.equal(e.line, 3);
    assert.ok(e.column > 0);
    assert.match(e.message, /line 3/);
    return true;
  }));
});

test('CSV failures have stable codes', () => {
  const cases = [
    ['', 'CsvEmpty'],
    ['a,b,class\n', 'CsvNoRows'],
    ['a,class\n1,x\n2,y\n', 'TargetNotFound', { target: 'label' }],
    ['a,class\n1,"x\n2,y\n', 'CsvUnterminatedQuote'],
    ['a,a,class\n1,2,x\n', 'CsvDuplicateColumn'],
    ['a,class\n1e39,x\n2,y\n', 'NonFiniteValue'],
    ['a,class\n1,x\n2,\n', 'MissingLabel'],
  ];
  for (const [text, code, opts] of cases) {
    assert.throws(() => uf.Dataset.fromCSV(text, opts), isUrnforestError(code), `${JSON.stringify(text)} -> ${code}`);
  }
});

test('corrupt model bytes are CorruptModel', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 5 });
  const bytes = forest.toBytes();
  for (const bad of [new Uint8Array(0), new Uint8Array([1, 2, 3, 4, 5]), bytes.subarray(0, bytes.length - 3)]) {
    assert.throws(() => uf.Forest.fromBytes(bad), isUrnforestError('CorruptModel'));
  }
  const flipped = bytes.slice();
  flipped[Math.floor(flipped.length / 2)] ^= 0xff;
  assert.throws(() => uf.Forest.fromBytes(flipped), (e) => e instanceof UrnforestError &&
    (e.code === 'CorruptModel' || e.code === 'UnsupportedVersion'));
  forest.dispose();
  data.dispose();
});

test('training failures: one class is TooFewClasses; unlabeled data cannot train', () => {
  const one = uf.Dataset.fromCSV('a,class\n1,x\n2,x\n');
  assert.throws(() => uf.trainForest(one), isUrnforestError('TooFewClasses'));
  one.dispose();
  const unlabeled = uf.Dataset.fromArrays(new Float32Array(4), { rows: 2, cols: 2 });
  assert.throws(() => uf.trainForest(unlabeled), (e) => e instanceof UrnforestError);
  unlabeled.dispose();
});

test('predicting data with other columns is an UrnforestError', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 3 });
  const other = uf.Dataset.fromArrays(new Float32Array(6), { rows: 2, cols: 3 });
  assert.throws(() => forest.predict(other), (e) => e instanceof UrnforestError &&
    ['ColumnMismatch', 'ShapeMismatch'].includes(e.code));
  assert.throws(() => uf.Dataset.fromCSV('a,b\n1,2\n', { schemaOf: forest }), isUrnforestError('ColumnMismatch'));
  for (const d of [other, forest, data]) d.dispose();
});

test('bad arguments are TypeError / RangeError naming the option', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const typeErrors = [
    () => uf.Dataset.fromCSV(42),
    () => uf.Dataset.fromCSV('a\n1\n', { target: 3 }),
    () => uf.Dataset.fromCSV('a\n1\n', { tagret: 'a' }),
    () => uf.Dataset.fromArrays([1, 2], { rows: 1, cols: 2 }),
    () => uf.Dataset.fromArrays(new Int16Array(2), { rows: 1, cols: 2 }),
    () => uf.Dataset.fromArrays(new Float32Array(2), { rows: '1', cols: 2 }),
    () => uf.Dataset.fromArrays(new Float32Array(2), { rows: 1, cols: 2, labels: 1 }),
    () => uf.Dataset.fromArrays(new Float32Array(2), { rows: 1, cols: 2, featureNames: 'ab' }),
    () => uf.trainForest({}),
    () => uf.trainForest(data, { trees: '10' }),
    () => uf.trainForest(data, { trees: 2.5 }),
    () => uf.trainForest(data, { seed: 1.5 }),
    () => uf.trainForest(data, { onProgress: 1 }),
    () => uf.trainForest(data, { tress: 10 }),
    () => uf.trainForest(data, 'fast'),
    () => uf.Forest.fromBytes([1, 2, 3]),
    () => new uf.Dataset(),
    () => new uf.Forest(),
  ];
  for (const f of typeErrors) assert.throws(f, TypeError, f.toString());
  const rangeErrors = [
    [() => uf.trainForest(data, { trees: 0 }), /trees/],
    [() => uf.trainForest(data, { trees: 100001 }), /trees/],
    [() => uf.trainForest(data, { mtry: 5 }), /mtry/],
    [() => uf.trainForest(data, { minLeaf: 0 }), /minLeaf/],
    [() => uf.trainForest(data, { maxDepth: -1 }), /maxDepth/],
    [() => uf.trainForest(data, { seed: -1 }), /seed/],
    [() => uf.trainForest(data, { seed: 2n ** 64n }), /seed/],
    [() => uf.trainForest(data, { ensemble: 'boost' }), /ensemble/],
    [() => uf.Dataset.fromCSV('a\n1\n', { classOrder: 'random' }), /classOrder/],
    [() => uf.Dataset.fromArrays(new Float32Array(5), { rows: 2, cols: 2 }), /rows \* cols/],
    [() => uf.Dataset.fromArrays(new Float32Array(4), { rows: 2, cols: 2, labels: new Int32Array(3) }), /labels/],
    [() => uf.Dataset.fromArrays(new Float32Array(4), { rows: 2, cols: 2, labels: new Int32Array([0, 2]), classNames: ['a', 'b'] }), /labels\[1\]/],
    [() => uf.Dataset.fromArrays(new Float32Array(4), { rows: 2, cols: 2, labels: ['a', 'c'], classNames: ['a', 'b'] }), /labels\[1\]/],
  ];
  for (const [f, name] of rangeErrors) assert.throws(f, (e) => e instanceof RangeError && name.test(e.message), f.toString());
  data.dispose();
});
