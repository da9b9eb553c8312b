// urnforest/predict in Chromium: a plain <script type=module> page (no bundler) served by
// scripts/serve.mjs imports dist/predict.js, fetches a shipped model (urnforest's bytes) and
// predicts full and halted, then loads the import build (init({imports: true})) for an XGBoost JSON
// model; its answers equal the full package's in Node, and the page fetches the entry's own glue and
// wasm files only (never the full package's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../scripts/chromium.mjs';
import { repoRoot, startServer } from '../../scripts/serve.mjs';
import * as full from '../../dist/index.js';

const PAGE = `<!doctype html><html><body><pre id="status">loading</pre>
<script type="module">
try {
  const { init, Forest } = await import('./dist/predict.js');
  await init();
  const rows = await (await fetch('./rows.json')).json();
  const forest = Forest.fromBytes(new Uint8Array(await (await fetch('./model.urnf')).arrayBuffer()));
  const plain = forest.predict(rows);
  const halted = forest.predict(rows, { rule: 'siba', alpha: 0.99 });
  await init({ imports: true }); // the import build, for the XGBoost model
  const xgb = Forest.fromXGBoost(await (await fetch('./xgb.json')).text());
  const proba = xgb.predictProba(rows);
  const exact = xgb.predict(rows, { rule: 'alpha1' });
  window.result = { labels: plain.labels, votes: Array.from(plain.votes), halted: halted.labels,
    treesUsed: Array.from(halted.treesUsed), xgbLabels: proba.labels, xgbProba: Array.from(proba.probabilities),
    exactTrees: Array.from(exact.treesUsed) };
} catch (e) {
  window.result = { error: { name: e.name, code: e.code, message: e.message } };
}
document.getElementById('status').textContent = 'done';
</script></body></html>`;

let dir;
let server;
let browser;
let rows;
let expected;

before(async () => {
  await full.init();
  const data = full.Dataset.fromCSV(readFileSync(join(repoRoot, 'datasets/iris.csv'), 'utf8'));
  const forest = full.trainForest(data, { trees: 41, seed: 5 });
  const m = data.toRowMajor();
  rows = Array.from({ length: data.numRows }, (_, r) => Array.from(m.subarray(r * 4, r * 4 + 4)));
  const xgbText = readFileSync(join(repoRoot, 'tests/fixtures/xgboost/iris_softmax.model.json'), 'utf8');
  const xgb = full.Forest.fromXGBoost(xgbText);
  const plain = forest.predict(rows);
  const halted = forest.predict(rows, { rule: 'siba', alpha: 0.99 });
  const table = full.Dataset.fromRows(rows, { featureNames: xgb.featureNames, schemaOf: xgb });
  const proba = xgb.predictProba(table);
  expected = { labels: plain.labels, votes: Array.from(plain.votes), halted: halted.labels, treesUsed: Array.from(halted.treesUsed),
    xgbLabels: proba.labels, xgbProba: Array.from(proba.probabilities), exactTrees: Array.from(xgb.predict(rows, { rule: 'alpha1' }).treesUsed) };
  dir = mkdtempSync(join(tmpdir(), 'urnforest-predict-entry-'));
  symlinkSync(join(repoRoot, 'dist'), join(dir, 'dist'));
  writeFileSync(join(dir, 'page.html'), PAGE);
  writeFileSync(join(dir, 'model.urnf'), forest.toBytes());
  writeFileSync(join(dir, 'xgb.json'), xgbText);
  writeFileSync(join(dir, 'rows.json'), JSON.stringify(rows));
  forest.dispose();
  xgb.dispose();
  table.dispose();
  data.dispose();
  server = await startServer({ root: dir });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a page predicts with urnforest/predict exactly as the full package does, loading only the entry\'s files', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`${server.origin}/page.html`);
    await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 60_000 });
    const result = await page.evaluate(() => window.result);
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    assert.deepEqual(result, expected);
    const dist = requests.filter((p) => p.startsWith('/dist/')).sort();
    assert.deepEqual(dist, ['/dist/predict.js', '/dist/urnforest_predict.mjs', '/dist/urnforest_predict.wasm',
      '/dist/urnforest_predict_import.mjs', '/dist/urnforest_predict_import.wasm']);
  } finally {
    await context.close();
  }
});
