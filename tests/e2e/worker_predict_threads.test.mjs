// RemoteForest#predict split over Web Workers in Chromium: a plain module page (no bundler) served by
// scripts/serve.mjs trains a forest, predicts a large batch on the main thread, then on an
// UrnforestWorker of 1, 2 and 3 threads (Web Workers running dist/worker_thread.js), in the full vote
// and in halted modes (random and generation order), and compares every per-row array byte for byte.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../scripts/chromium.mjs';
import { repoRoot, startServer } from '../../scripts/serve.mjs';

const PAGE = `<!doctype html><html><body><pre id="status">loading</pre>
<script type="module">
try {
  const { init, Dataset, trainForest } = await import('./dist/index.js');
  const { UrnforestWorker } = await import('./dist/worker.js');
  await init();
  const cols = 6;
  let state = 5;
  const uniform = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return (state + 0.5) / 2 ** 32; };
  const make = (rows) => {
    const x = new Float32Array(rows * cols);
    const labels = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      labels[r] = r % 2;
      for (let c = 0; c < cols; c++) x[r * cols + c] = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()) + (labels[r] ? 0.6 : -0.6);
    }
    return { x, labels };
  };
  const train = make(400);
  const trainSet = Dataset.fromArrays(train.x, { rows: 400, cols, labels: train.labels });
  const forest = trainForest(trainSet, { trees: 201, seed: 4 });
  const model = forest.toBytes();
  const rows = 36001; // rows x trees above 3 parts of 250,000
  const test = make(rows);
  const testSet = Dataset.fromArrays(test.x, { rows, cols });
  const modes = [undefined, { rule: 'hyper', order: 'random', seed: 7, compare: true }, { rule: 'hyper', order: 'generation' }];
  const bytes = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).join(',');
  const arrays = ['classIndex', 'votes', 'treesUsed', 'confidence', 'tallies', 'haltedEarly', 'fullClassIndex', 'fullVotes'];
  const mismatches = [];
  const helpers = [];
  for (const threads of [1, 2, 3]) {
    const worker = new UrnforestWorker({ threads });
    const remote = await worker.load(model);
    for (const [i, options] of modes.entries()) {
      const want = forest.predict(testSet, options);
      const got = await remote.predict({ x: test.x, options: { rows, cols } }, options);
      for (const key of arrays) {
        if ((want[key] === undefined) !== (got[key] === undefined)) mismatches.push(threads + '/' + i + '/' + key + ' presence');
        else if (want[key] !== undefined && bytes(want[key]) !== bytes(got[key])) mismatches.push(threads + '/' + i + '/' + key);
      }
      if (JSON.stringify(want.labels) !== JSON.stringify(got.labels)) mismatches.push(threads + '/' + i + '/labels');
      if (want.meanTrees !== got.meanTrees || (want.disagreement ?? null) !== (got.disagreement ?? null)) mismatches.push(threads + '/' + i + '/figures');
    }
    helpers.push(worker._helpers.length);
    worker.terminate();
  }
  window.result = { mismatches, helpers };
} catch (e) {
  window.result = { error: { name: e.name, code: e.code, message: e.message } };
}
document.getElementById('status').textContent = 'done';
</script></body></html>`;

let dir;
let server;
let browser;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'urnforest-worker-predict-'));
  symlinkSync(join(repoRoot, 'dist'), join(dir, 'dist'));
  writeFileSync(join(dir, 'page.html'), PAGE);
  server = await startServer({ root: dir });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a large predict on 1, 2 and 3 Web Workers answers as Forest#predict on the main thread', { timeout: 240_000 }, async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${server.origin}/page.html`);
    await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 200_000 });
    const result = await page.evaluate(() => window.result);
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    assert.deepEqual(result.mismatches, []);
    assert.deepEqual(result.helpers, [0, 1, 2], 'the batch was split over every thread');
  } finally {
    await context.close();
  }
});
