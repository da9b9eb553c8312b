import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = readDataset('iris');
const worker = new UrnforestWorker();
after(() => worker.terminate());

test('a worker throttles progress to what a page can draw: not one event per tree', async () => {
  const events = [];
  const start = Date.now();
  await worker.train({ csv: iris }, { trees: 3000, seed: 2 }, { onProgress: (p) => events.push({ ...p, at: Date.now() }) });
  const seconds = (Date.now() - start) / 1000;
  const train = events.filter((e) => e.stage === 'train');
  assert.equal(train.at(-1).fraction, 1);
  assert.ok(train.length <= 102, `${train.length} train events for 3,000 trees`);
  assert.ok(train.length <= 30 * seconds + 3, `${train.length} events in ${seconds} s`);
  for (let i = 1; i < train.length - 1; i++) assert.ok(train[i].fraction - train[i - 1].fraction >= 0.01);
});

test('a model loaded once in a worker predicts many times, with probabilities as on the main thread', async () => {
  const data = uf.Dataset.fromCSV(iris);
  const forest = uf.trainForest(data, { trees: 21, seed: 5 });
  const remote = await worker.load(forest.toBytes());
  await remote.addData('iris', { csv: iris });
  for (const options of [undefined, { rule: 'siba', compare: true }, { rule: 'hyper', compare: false }]) {
    const there = await remote.predict('iris', options);
    const here = forest.predict(data, options);
    assert.deepEqual(there.classIndex, here.classIndex);
    assert.deepEqual(there.probabilities, here.probabilities);
  }
  const once = await remote.predict({ csv: iris.split('\n').slice(0, 4).join('\n') });
  assert.equal(once.probabilities.length, 3 * 3);
  remote.dispose();
  forest.dispose();
  data.dispose();
});
