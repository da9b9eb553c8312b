import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();

const iris = readDataset('iris');
const asSemicolons = (text) => text.replace(/,/g, ';');

test('semicolon, tab and auto-detected delimiters read iris like the comma file', () => {
  const comma = uf.Dataset.fromCSV(iris);
  const semi = uf.Dataset.fromCSV(asSemicolons(iris), { delimiter: ';' });
  const tab = uf.Dataset.fromCSV(iris.replace(/,/g, '\t'), { delimiter: '\t' });
  const auto = uf.Dataset.fromCSV(asSemicolons(iris), { delimiter: 'auto' });
  for (const d of [semi, tab, auto]) {
    assert.deepEqual(d.featureNames, comma.featureNames);
    assert.deepEqual(d.toRowMajor(), comma.toRowMajor());
    assert.deepEqual(d.labels(), comma.labels());
    d.dispose();
  }
  comma.dispose();
});

test('decimal commas read as numbers with delimiter ; and decimal ,', () => {
  const text = asSemicolons(iris).replace(/(\d)\.(\d)/g, '$1,$2');
  const comma = uf.Dataset.fromCSV(iris);
  const eu = uf.Dataset.fromCSV(text, { delimiter: ';', decimal: ',' });
  assert.deepEqual(eu.featureTypes, comma.featureTypes);
  assert.deepEqual(eu.toRowMajor(), comma.toRowMajor());
  const forest = uf.trainForest(eu, { trees: 11, seed: 2 });
  const again = uf.Dataset.fromCSV(text, { delimiter: 'auto', decimal: ',', schemaOf: forest });
  assert.equal(forest.predict(again).classIndex.length, 150);
  assert.throws(() => uf.Dataset.fromCSV(iris, { decimal: ',' }), { code: 'InvalidArgument' });
  assert.throws(() => uf.Dataset.fromCSV(iris, { delimiter: '|' }), RangeError);
  for (const d of [comma, eu, again, forest]) d.dispose();
});

test('a file with every cell quoted (pandas QUOTE_ALL) has numeric columns; schemaOf and predict work', () => {
  const quoted = iris.split('\n').filter((l) => l !== '').map((l) => l.split(',').map((c) => `"${c}"`).join(',')).join('\n');
  const plain = uf.Dataset.fromCSV(iris);
  const data = uf.Dataset.fromCSV(quoted);
  assert.deepEqual(data.featureTypes, ['numeric', 'numeric', 'numeric', 'numeric']);
  assert.deepEqual(data.toRowMajor(), plain.toRowMajor());
  const forest = uf.trainForest(data, { trees: 11, seed: 2 });
  const rows = uf.Dataset.fromCSV(quoted, { schemaOf: forest });
  const out = forest.predict(rows);
  assert.deepEqual(out.classIndex, forest.predict(plain).classIndex);
  for (const d of [plain, data, rows, forest]) d.dispose();
});

test('a numeric target with many distinct values is NumericTarget explaining urnforest classifies, unless targetCategorical', () => {
  let text = 'x,price\n';
  for (let i = 0; i < 80; i++) text += `${i},${(i * 1.37).toFixed(2)}\n`;
  assert.throws(() => uf.Dataset.fromCSV(text), (e) => e.code === 'NumericTarget' && /classifies/.test(e.message));
  const data = uf.Dataset.fromCSV(text, { targetCategorical: true });
  assert.equal(data.classNames.length, 80);
  data.dispose();
});
