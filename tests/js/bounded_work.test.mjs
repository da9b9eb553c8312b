// Bounded work: the sizes that used to run for minutes (optimal with 3 classes at T = 701, siba's pairwise
// bound at T = 1,000 with 5 classes) answer in seconds with tables that serialise; a full table's build
// reports progress and can be cancelled (onProgress returning false, an AbortSignal), on the main thread
// and in the worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, memoryStats, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const iris = uf.Dataset.fromCSV(readDataset('iris'));

test('optimal with 3 classes at T = 701 predicts in seconds (its table decides on demand), not minutes', () => {
  const forest = uf.trainForest(iris, { trees: 701, seed: 1 });
  const start = performance.now();
  const table = forest.haltingTable({ rule: 'optimal' });
  assert.equal(table.layout, 'onDemand');
  assert.equal(table.optimalFallback, true);
  const bytes = table.toBytes();
  assert.ok(bytes.length < 1 << 20, `${bytes.length} bytes`);
  const halted = forest.predict(iris, { rule: 'optimal', alpha: 0.99 });
  assert.equal(halted.labels.length, 150);
  const seconds = (performance.now() - start) / 1000;
  assert.ok(seconds < 30, `took ${seconds.toFixed(1)} s`);
  table.dispose();
  forest.dispose();
});

test("siba with 5 classes at T = 1,000 (the documented maximum of the pairwise bound) builds small, in seconds", () => {
  const start = performance.now();
  const table = uf.haltingTable({ rule: 'siba', trees: 1000, classes: 5 });
  const bytes = table.toBytes();
  assert.ok(bytes.length < 1 << 20, `${bytes.length} bytes`);
  const again = uf.HaltingTable.fromBytes(bytes);
  assert.equal(again.halts([900, 0, 0, 0, 0]), table.halts([900, 0, 0, 0, 0]));
  assert.ok((performance.now() - start) / 1000 < 30);
  for (const t of [again, table]) t.dispose();
});

test('a full table build reports its steps through onProgress, in order, up to the total', () => {
  const forest = uf.trainForest(iris, { trees: 51, seed: 1 });
  for (const [rule, expectedTotal] of [['hyper', 52], ['optimal', 62]]) {
    const seen = [];
    const table = forest.haltingTable({ rule, onProgress: (done, total) => { seen.push([done, total]); } });
    assert.equal(table.layout, 'thresholds');
    assert.ok(seen.length > 0, rule);
    assert.ok(seen.every(([, total]) => total === expectedTotal), `${rule}: ${JSON.stringify(seen.slice(0, 3))}`);
    assert.deepEqual(seen.map(([done]) => done), Array.from({ length: seen.length }, (_, i) => i + 1));
    assert.equal(seen.at(-1)[0], expectedTotal);
    table.dispose();
  }
  const seen = [];
  uf.haltingTable({ rule: 'siba', trees: 31, classes: 3, onProgress: (done) => { seen.push(done); } }).dispose();
  assert.equal(seen.length, 32);
  forest.dispose();
});

test('onProgress returning false or throwing cancels a build; an AbortSignal aborted before or during it too', () => {
  const forest = uf.trainForest(iris, { trees: 51, seed: 1 });
  const before = memoryStats().inUse;
  assert.throws(() => forest.haltingTable({ rule: 'hyper', onProgress: (done) => done < 5 }), (e) => {
    assert.ok(e instanceof UrnforestError);
    assert.equal(e.code, 'InvalidArgument');
    assert.match(e.message, /cancelled/);
    return true;
  });
  const thrown = new Error('from the callback');
  assert.throws(() => uf.haltingTable({ rule: 'siba', trees: 31, classes: 3, onProgress: () => { throw thrown; } }), (e) => e === thrown);
  const controller = new AbortController();
  let calls = 0;
  assert.throws(() => forest.haltingTable({ rule: 'optimal', signal: controller.signal,
    onProgress: () => { if (++calls === 3) controller.abort(); } }), (e) => e.name === 'AbortError');
  assert.equal(calls, 3);
  assert.throws(() => uf.haltingTable({ rule: 'siba', trees: 31, classes: 3, signal: AbortSignal.abort() }), (e) => e.name === 'AbortError');
  assert.throws(() => forest.haltingTable({ rule: 'hyper', onProgress: () => { forest.dispose(); } }),
    /cannot be disposed while haltingTable is using it/);
  assert.throws(() => forest.haltingTable({ rule: 'hyper', signal: {} }), TypeError);
  assert.throws(() => forest.haltingTable({ rule: 'hyper', onProgress: 1 }), TypeError);
  assert.ok(memoryStats().inUse - before <= 1024, 'a cancelled build frees what it allocated');
  const table = forest.haltingTable({ rule: 'hyper' });
  assert.equal(table.layout, 'thresholds');
  table.dispose();
  forest.dispose();
});

test('the worker reports a full table build as stage "table" fractions and aborts it by signal', async () => {
  const forest = uf.trainForest(iris, { trees: 51, seed: 1 });
  const model = forest.toBytes();
  forest.dispose();
  const worker = new UrnforestWorker();
  try {
    const fractions = [];
    const table = await worker.haltingTable({ model, options: { rule: 'hyper' } },
      { onProgress: ({ stage, fraction }) => { if (stage === 'table') fractions.push(fraction); } });
    assert.equal(table.rule, 'hyper');
    // Throttled to what a page can draw: a fast build sends its first and last fraction at least.
    assert.ok(fractions.length >= 2, `${fractions.length} progress messages`);
    for (let i = 1; i < fractions.length; i++) assert.ok(fractions[i] >= fractions[i - 1]);
    assert.equal(fractions.at(-1), 1);
    const controller = new AbortController();
    const pending = worker.haltingTable({ model, options: { rule: 'optimal', trees: 51 } }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, (e) => e.name === 'AbortError');
  } finally {
    worker.terminate();
  }
});
