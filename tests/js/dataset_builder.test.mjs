// Every JS input shape goes through the core's DatasetBuilder, as CSV text does: one class order,
// one meaning of a row's keys, one rule for a column's type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';

const uf = await init();

function labelsOneToTen() {
  const labels = Array.from({ length: 40 }, (_, i) => 1 + (i % 10));
  const x = labels.map((l, i) => [l + 0.25 * (i % 3), i % 4]);
  return { labels, x };
}

test('fromCSV and fromArrays give labels 1..10 the same class order (byte-wise: "1" < "10" < "2")', () => {
  const { labels, x } = labelsOneToTen();
  const csv = 'a,b,y\n' + x.map((row, i) => `${row[0]},${row[1]},${labels[i]}`).join('\n') + '\n';
  const fromCsv = uf.Dataset.fromCSV(csv);
  const fromArrays = uf.Dataset.fromArrays(x, { labels, featureNames: ['a', 'b'] });
  const fromRows = uf.Dataset.fromRows(x.map(([a, b], i) => ({ a, b, y: labels[i] })), { target: 'y' });
  const fromFlat = uf.Dataset.fromArrays(Float32Array.from(x.flat()), { rows: 40, cols: 2, labels: labels.map(String) });
  const expected = ['1', '10', '2', '3', '4', '5', '6', '7', '8', '9'];
  for (const data of [fromCsv, fromArrays, fromRows, fromFlat]) {
    assert.deepEqual(data.classNames, expected);
    assert.deepEqual(data.labels(), fromCsv.labels());
    assert.deepEqual(data.toRowMajor(), fromCsv.toRowMajor());
  }
  for (const data of [fromCsv, fromArrays, fromRows, fromFlat]) data.dispose();
});

test('a key a row does not own is a missing value: constructor, valueOf and JSON.parse\'s __proto__', () => {
  const data = uf.Dataset.fromRows([{ constructor: 1, y: 'a' }, { y: 'b' }], { target: 'y' });
  assert.deepEqual(data.featureNames, ['constructor']);
  assert.deepEqual(data.featureTypes, ['numeric']);
  const m = data.toRowMajor();
  assert.equal(m[0], 1);
  assert.ok(Number.isNaN(m[1]));
  data.dispose();

  const rows = JSON.parse('[{"__proto__": "x", "valueOf": 2, "y": "a"}, {"y": "b"}, {"__proto__": "z", "y": "a"}]');
  const parsed = uf.Dataset.fromRows(rows, { target: 'y' });
  assert.deepEqual(parsed.featureNames, ['__proto__', 'valueOf']);
  assert.deepEqual(parsed.featureTypes, ['categorical', 'numeric']);
  const p = parsed.toRowMajor();
  assert.deepEqual([p[0], p[1]], [0, 2]);
  assert.ok(Number.isNaN(p[2]) && Number.isNaN(p[3]));
  assert.equal(p[4], 1);
  parsed.dispose();
});

test('a target key a row does not own is an unknown label, not the inherited function', () => {
  const data = uf.Dataset.fromRows([{ a: 1, constructor: 'p' }, { a: 2 }], { target: 'constructor' });
  assert.deepEqual(data.classNames, ['p']);
  assert.deepEqual(Array.from(data.labels()), [0, -1]);
  data.dispose();
});

test('quoting never decides a column\'s type: " 1" quoted reads as the number 1, as unquoted  1 does', () => {
  const quoted = uf.Dataset.fromCSV('a,y\n" 1",p\n"2 ",q\n3,p\n');
  const unquoted = uf.Dataset.fromCSV('a,y\n 1,p\n2 ,q\n3,p\n');
  assert.deepEqual(quoted.featureTypes, ['numeric']);
  assert.deepEqual(quoted.toRowMajor(), Float32Array.from([1, 2, 3]));
  assert.deepEqual(quoted.toRowMajor(), unquoted.toRowMajor());
  quoted.dispose();
  unquoted.dispose();
  const blank = uf.Dataset.fromCSV('a,y\n1,p\n"  ",q\n3,p\n');
  assert.deepEqual(blank.featureTypes, ['numeric']);
  assert.ok(Number.isNaN(blank.toRowMajor()[1]));
  blank.dispose();
});
