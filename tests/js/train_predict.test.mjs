import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { accuracy, readDataset } from './helpers.mjs';

const uf = await init();

test('init resolves to the same API every time', async () => {
  assert.equal(await init(), uf);
  assert.equal(typeof uf.trainForest, 'function');
});

for (const name of ['iris', 'wine']) {
  test(`${name}: CSV -> train -> predict`, () => {
    const data = uf.Dataset.fromCSV(readDataset(name), { target: 'class' });
    const forest = uf.trainForest(data, { trees: 51, seed: 3 });
    try {
      assert.equal(forest.numTrees, 51);
      assert.deepEqual(forest.classNames, data.classNames);
      assert.equal(forest.numFeatures, data.numFeatures);
      const out = forest.predict(data);
      assert.ok(out.classIndex instanceof Int32Array);
      assert.ok(out.votes instanceof Uint32Array);
      assert.equal(out.classIndex.length, data.numRows);
      assert.equal(out.votes.length, data.numRows * data.classNames.length);
      assert.deepEqual(out.classNames, data.classNames);
      for (let r = 0; r < data.numRows; r++) {
        let sum = 0;
        for (let c = 0; c < out.classNames.length; c++) sum += out.votes[r * out.classNames.length + c];
        assert.equal(sum, 51);
        assert.equal(out.labels[r], out.classNames[out.classIndex[r]]);
      }
      assert.ok(accuracy(out, data.labels()) >= 0.97, 'training accuracy');
      assert.ok(forest.oobError > 0 && forest.oobError < 0.12, `OOB error ${forest.oobError}`);
      assert.equal(forest.oobVotes().length, data.numRows * data.classNames.length);
    } finally {
      forest.dispose();
      data.dispose();
    }
  });
}

test('iris dataset shape and class names', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  assert.equal(data.numRows, 150);
  assert.equal(data.numFeatures, 4);
  assert.deepEqual(data.classNames, ['setosa', 'versicolor', 'virginica']);
  assert.deepEqual(data.featureTypes, ['numeric', 'numeric', 'numeric', 'numeric']);
  assert.equal(data.targetName, 'class');
  assert.equal(data.hasLabels, true);
  assert.equal(data.toRowMajor().length, 600);
  data.dispose();
});

test('bagging and rf options are accepted; progress is reported for every tree', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const seen = [];
  const forest = uf.trainForest(data, {
    ensemble: 'bagging', trees: 7, maxDepth: 3, minLeaf: 2, seed: 11n,
    onProgress: (done, total) => { seen.push([done, total]); },
  });
  assert.deepEqual(seen.at(-1), [7, 7]);
  assert.equal(seen.length, 7);
  forest.dispose();
  const rf = uf.trainForest(data, { ensemble: 'rf', trees: 5, mtry: 2, mtryRule: 'log2plus1', seed: 2 ** 40 });
  assert.equal(rf.numTrees, 5);
  rf.dispose();
  data.dispose();
});

test('onProgress returning false cancels; a throwing onProgress rethrows its error', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  assert.throws(() => uf.trainForest(data, { trees: 20, onProgress: (done) => done < 3 }),
    (e) => e instanceof uf.UrnforestError && e.code === 'InvalidArgument' && /cancel/.test(e.message));
  const boom = new Error('boom');
  assert.throws(() => uf.trainForest(data, { trees: 20, onProgress: () => { throw boom; } }), (e) => e === boom);
  data.dispose();
});

test('Dataset.fromCSV with schemaOf reads prediction data against the model', () => {
  const text = readDataset('iris');
  const train = uf.Dataset.fromCSV(text);
  const forest = uf.trainForest(train, { trees: 11, seed: 1 });
  const lines = text.trim().split('\n');
  const header = lines[0].split(',');
  // Columns reordered and the target dropped: matched by name.
  const order = [3, 1, 0, 2];
  const reordered = [order.map((i) => header[i]).join(',')]
    .concat(lines.slice(1).map((l) => { const c = l.split(','); return order.map((i) => c[i]).join(','); }))
    .join('\n');
  const test = uf.Dataset.fromCSV(reordered, { schemaOf: forest });
  assert.equal(test.hasLabels, false);
  assert.deepEqual(Array.from(forest.predict(test).classIndex), Array.from(forest.predict(train).classIndex));
  test.dispose();
  forest.dispose();
  train.dispose();
});
