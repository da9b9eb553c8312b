// The separate wasm asset in Chromium: a plain <script type=module> page (no bundler) served by
// scripts/serve.mjs (.wasm as application/wasm) streams dist/urnforest.wasm with
// WebAssembly.instantiateStreaming (init()'s default, and init({wasm})), never downloads the embedded
// copy, and predicts the labels of the single-file entry (its embedded wasm); a bad asset rejects init
// with UrnforestError 'InvalidArgument' instead of hanging.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../../scripts/chromium.mjs';
import { repoRoot, startServer } from '../../scripts/serve.mjs';


const PAGE = `<!doctype html><html><body><pre id="status">loading</pre>
<script type="module">
const params = new URLSearchParams(location.search);
const source = params.get('wasm');
const entry = params.get('entry') === 'single-file' ? './dist/single-file.js' : './dist/index.js';
try {
  const { init, wasmUrl, Dataset, trainForest } = await import(entry);
  await init(source === null ? undefined : { wasm: source === 'asset' ? wasmUrl() : source });
  const data = Dataset.fromCSV(await (await fetch('./datasets/vehicle.csv')).text());
  const forest = trainForest(data, { trees: 41, seed: 3 });
  const out = forest.predict(data, { rule: 'siba', alpha: 0.99 });
  window.result = { labels: Array.from(out.labels), treesUsed: Array.from(out.treesUsed) };
} catch (e) {
  window.result = { error: { name: e.name, code: e.code, message: e.message } };
}
document.getElementById('status').textContent = 'done';
</script></body></html>`;

let dir;
let server;
let browser;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'urnforest-wasm-asset-'));
  symlinkSync(join(repoRoot, 'dist'), join(dir, 'dist'));
  symlinkSync(join(repoRoot, 'datasets'), join(dir, 'datasets'));
  writeFileSync(join(dir, 'page.html'), PAGE);
  writeFileSync(join(dir, 'garbage.wasm'), Buffer.from('this is not a wasm module at all'));
  server = await startServer({ root: dir });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Loads page.html?wasm=<source>&entry=<entry> in a fresh context; returns the page's result, the
// requested paths and how often WebAssembly.instantiateStreaming ran.
async function load(source, entry = 'index') {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const streaming = WebAssembly.instantiateStreaming;
      window.streamed = 0;
      WebAssembly.instantiateStreaming = (...args) => { window.streamed++; return streaming.apply(WebAssembly, args); };
    });
    const requests = [];
    const types = {};
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      requests.push(path);
      types[path] = r.headers()['content-type'];
    });
    const query = new URLSearchParams({ entry });
    if (source !== undefined) query.set('wasm', source);
    await page.goto(`${server.origin}/page.html?${query}`);
    await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 30_000 });
    return { ...(await page.evaluate(() => ({ result: window.result, streamed: window.streamed }))), requests, types };
  } finally {
    await context.close();
  }
}

test('a plain module page streams dist/urnforest.wasm and predicts the same labels as the single-file entry', { timeout: 120_000 }, async () => {
  const embedded = await load(undefined, 'single-file');
  assert.equal(embedded.result.error, undefined, JSON.stringify(embedded.result.error));
  assert.ok(embedded.requests.includes('/dist/urnforest_wasm.mjs'));
  assert.ok(!embedded.requests.includes('/dist/urnforest.wasm'));
  assert.equal(embedded.streamed, 0);

  const byDefault = await load(undefined);
  assert.equal(byDefault.result.error, undefined, JSON.stringify(byDefault.result.error));
  assert.equal(byDefault.streamed, 1, 'init() streams the asset by default');
  assert.equal(byDefault.types['/dist/urnforest.wasm'], 'application/wasm');
  assert.ok(!byDefault.requests.includes('/dist/urnforest_wasm.mjs'), 'the embedded copy is never downloaded');
  assert.deepEqual(byDefault.result, embedded.result);

  const streamed = await load('asset');
  assert.equal(streamed.result.error, undefined, JSON.stringify(streamed.result.error));
  assert.equal(streamed.streamed, 1, 'init used WebAssembly.instantiateStreaming');
  assert.equal(streamed.types['/dist/urnforest.wasm'], 'application/wasm');
  assert.ok(streamed.requests.includes('/dist/urnforest.mjs'));
  assert.ok(!streamed.requests.includes('/dist/urnforest_wasm.mjs'), 'the embedded copy is never downloaded');
  assert.ok(streamed.result.labels.length > 800);
  assert.deepEqual(streamed.result, embedded.result);
});

test('a relative URL string is resolved against the page', { timeout: 60_000 }, async () => {
  const out = await load('./dist/urnforest.wasm');
  assert.equal(out.result.error, undefined, JSON.stringify(out.result.error));
  assert.equal(out.streamed, 1);
});

test('a corrupt, missing or non-wasm asset rejects init with UrnforestError InvalidArgument, not a hang', { timeout: 90_000 }, async () => {
  const cases = { './garbage.wasm': /not a valid wasm module/, './missing.wasm': /HTTP 404/, './page.html': /not a valid wasm module/ };
  for (const [source, message] of Object.entries(cases)) {
    const { result } = await load(source);
    assert.equal(result.error?.name, 'UrnforestError', `${source}: ${JSON.stringify(result)}`.slice(0, 300));
    assert.equal(result.error.code, 'InvalidArgument', source);
    assert.match(result.error.message, /^InvalidArgument: init\(\{wasm\}\): /);
    assert.match(result.error.message, message, source);
  }
});
