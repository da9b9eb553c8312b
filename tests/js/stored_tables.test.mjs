import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, UrnforestError } from '../../dist/index.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const wdbc = uf.Dataset.fromCSV(readDataset('wdbc'));

test('storeTable -> toBytes -> fromBytes keeps the table; storedTables lists it; predict is identical', () => {
  const forest = uf.trainForest(wdbc, { trees: 51, seed: 3 });
  const plainBytes = forest.toBytes();
  assert.deepEqual(forest.storedTables(), []);
  forest.storeTable({ rule: 'hyper', alpha: 0.99 });
  forest.storeTable({ rule: 'siba', alpha: 0.95, trees: 31 });
  forest.storeTable({ rule: 'hyper', alpha: 0.99 });
  const bytes = forest.toBytes();
  assert.ok(bytes.length > plainBytes.length);
  const loaded = uf.Forest.fromBytes(bytes);
  assert.deepEqual(loaded.storedTables(), [
    { rule: 'hyper', alpha: 0.99, trees: 51 },
    { rule: 'siba', alpha: 0.95, trees: 31 },
  ]);
  assert.deepEqual(loaded.toBytes(), bytes);
  const plain = uf.Forest.fromBytes(plainBytes);
  assert.deepEqual(plain.storedTables(), []);
  for (const options of [{ rule: 'hyper', alpha: 0.99 }, { rule: 'siba', alpha: 0.95, trees: 31 }]) {
    const a = loaded.predict(wdbc, options);
    const b = plain.predict(wdbc, options);
    assert.deepEqual(a.classIndex, b.classIndex);
    assert.deepEqual(a.treesUsed, b.treesUsed);
    const ta = loaded.haltingTable(options);
    const tb = plain.haltingTable(options);
    assert.deepEqual(ta.toBytes(), tb.toBytes());
    ta.dispose();
    tb.dispose();
  }
  forest.dispose();
  loaded.dispose();
  plain.dispose();
});

test('storeTable validates its options like haltingTable', () => {
  const forest = uf.trainForest(wdbc, { trees: 11, seed: 3 });
  assert.throws(() => forest.storeTable({ rule: 'nope' }), RangeError);
  assert.throws(() => forest.storeTable({ rule: 'siba', trees: 12 }), RangeError);
  assert.throws(() => forest.storeTable({ rule: 'siba', order: 'random' }), TypeError);
  assert.throws(() => forest.storeTable(), TypeError);
  assert.deepEqual(forest.storedTables(), []);
  forest.dispose();
  assert.throws(() => forest.storedTables(), Error);
  void UrnforestError;
});
