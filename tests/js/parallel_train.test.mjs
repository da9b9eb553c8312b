import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { init, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const soybean = readDataset('soybean');
const wdbc = readDataset('wdbc');

test('a worker with 1, 2 and 3 threads trains the same model bytes as trainForest', async () => {
  const data = uf.Dataset.fromCSV(soybean);
  const want = uf.trainForest(data, { trees: 41, seed: 5 });
  const bytes = want.toBytes();
  for (const threads of [1, 2, 3]) {
    const worker = new UrnforestWorker({ threads });
    try {
      const events = [];
      const got = await worker.train({ csv: soybean }, { trees: 41, seed: 5 }, { onProgress: (e) => events.push(e) });
      assert.deepEqual(got.bytes, bytes, `threads ${threads}`);
      assert.equal(got.numTrees, 41);
      assert.equal(got.oobError, want.oobError);
      const train = events.filter((e) => e.stage === 'train').map((e) => e.fraction);
      assert.ok(train.length >= 2 && train.length <= 110, `${train.length} train events`);
      for (let i = 1; i < train.length; i++) assert.ok(train[i] >= train[i - 1]);
      assert.ok(Math.abs(train.at(-1) - 1) < 1e-12);
    } finally {
      worker.terminate();
    }
  }
  want.dispose();
  data.dispose();
});

test('trainForestPart and Forest.mergeParts rebuild trainForest byte for byte; bagging of pruned trees too', () => {
  const data = uf.Dataset.fromCSV(wdbc);
  for (const options of [{ trees: 12, seed: 3 }, { ensemble: 'bagging', treePruning: 'cv', trees: 6, seed: 2 }]) {
    const whole = uf.trainForest(data, options);
    const cut = Math.floor(options.trees / 3);
    const parts = [[0, cut], [cut, 1], [cut + 1, options.trees - cut - 1]].map(([first, count]) => {
      const part = uf.trainForestPart(data, options, { first, count });
      assert.equal(part.numTrees, count);
      const b = part.toBytes();
      part.dispose();
      return b;
    });
    const merged = uf.Forest.mergeParts(parts);
    assert.deepEqual(merged.toBytes(), whole.toBytes());
    assert.throws(() => uf.Forest.mergeParts([parts[1], parts[0]]), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /part 0/.test(e.message));
    for (const f of [merged, whole]) f.dispose();
  }
  assert.throws(() => uf.trainForestPart(data, { trees: 5 }, { first: 4, count: 2 }), RangeError);
  assert.throws(() => uf.trainForestPart(data, { ensemble: 'adaboost', trees: 5 }, { first: 0, count: 2 }), (e) => e.code === 'InvalidArgument');
  assert.throws(() => uf.Forest.mergeParts([]), TypeError);
  data.dispose();
});

test('a failed or aborted parallel training rejects once and leaves the worker usable', async () => {
  const worker = new UrnforestWorker({ threads: 2 });
  after(() => worker.terminate());
  await assert.rejects(worker.train({ csv: 'a,class\n1,x\n2,x\n' }, { trees: 32 }), (e) => e.code === 'TooFewClasses');
  const controller = new AbortController();
  const pending = worker.train({ csv: soybean }, { trees: 400, seed: 1 }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 30);
  await assert.rejects(pending, (e) => e.name === 'AbortError');
  const ok = await worker.train({ csv: wdbc }, { trees: 20, seed: 4 });
  assert.equal(ok.numTrees, 20);
  assert.throws(() => new UrnforestWorker({ threads: 0 }), RangeError);
  assert.equal(new UrnforestWorker({ threads: 3 }).threads, 3);
});

test('the worker trains on every input shape Dataset.fromArrays takes, with the bytes of the main thread', async () => {
  const objects = [];
  for (let i = 0; i < 60; i++) objects.push({ size: i % 7, colour: ['red', 'blue', 'green'][i % 3], kind: i % 2 === 0 ? 'even' : 'odd' });
  const matrix = objects.map((o) => [o.size, o.size * 2]);
  const labels = objects.map((o) => o.kind);
  const worker = new UrnforestWorker({ threads: 2 });
  try {
    for (const [x, options] of [[objects, { target: 'kind' }], [matrix, { labels }], [new Float64Array(matrix.flat()), { rows: 60, cols: 2, labels }]]) {
      const data = uf.Dataset.fromArrays(x, options);
      const want = uf.trainForest(data, { trees: 20, seed: 2 });
      const got = await worker.train({ x, options }, { trees: 20, seed: 2 });
      assert.deepEqual(got.bytes, want.toBytes());
      want.dispose();
      data.dispose();
    }
    await assert.rejects(worker.train({ x: 'a,b' }, {}), TypeError);
  } finally {
    worker.terminate();
  }
});

test('a tree count above the core limit is refused by 3 threads with the error of one thread', async () => {
  const tooMany = 100001; // the core's TrainOptions::kMaxTrees + 1
  const errors = [];
  for (const threads of [1, 3]) {
    const worker = new UrnforestWorker({ threads });
    try {
      errors.push(await worker.train({ csv: wdbc }, { trees: tooMany, seed: 1 }).then(() => null, (e) => e));
    } finally {
      worker.terminate();
    }
  }
  assert.ok(errors[0] instanceof RangeError, String(errors[0]));
  assert.equal(errors[1]?.name, errors[0].name);
  assert.equal(errors[1].message, errors[0].message);
});
