// The inference-only entry urnforest/predict against the full package: bytes a page loads (gzip -9 of
// the JS modules and the wasm each entry fetches) and time from navigation to the first prediction
// in headless Chromium. Not a test.
//
//   node bench/predict_entry.mjs [--rounds 5] [--reloads 5]
//
// A local HTTP server (127.0.0.1) serves a plain <script type=module> page (no-cache), dist/ and a
// shipped model (ETag, max-age=3600; .wasm as application/wasm). The model: wdbc, rf, 101 trees, seed
// 1, trained here with dist/index.js, its siba table at alpha 0.99 stored with it. The page imports
// the entry, fetches the model while init() loads the wasm, Forest.fromBytes, predicts one row halted
// (siba, alpha 0.99) and records performance.now() (ms since navigation start). Per round and variant: a fresh
// browser profile, a first load, then --reloads reloads (HTTP cache warm; V8's code cache for the
// streamed wasm). Reported: medians over rounds x reloads, and the first load's median. Variants
// alternate their order between rounds. Both variants must give the same label (checked).
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, launchChromiumProfile } from '../scripts/chromium.mjs';
import { init } from '../dist/index.js';
import { numberOption } from './args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = numberOption('rounds', 5);
const reloads = numberOption('reloads', 5);

const uf = await init();
const csv = readFileSync(join(root, 'datasets/wdbc.csv'), 'utf8').trim();
const train = uf.Dataset.fromCSV(csv);
const forest = uf.trainForest(train, { trees: 101, seed: 1 });
forest.storeTable({ rule: 'siba', alpha: 0.99 });
const model = Buffer.from(forest.toBytes());
const [header, firstRow] = csv.split(/\r?\n/);
const row = firstRow.split(',').slice(0, -1).map(Number);
const expected = forest.predict([row], { rule: 'siba', alpha: 0.99 }).labels[0];
forest.dispose();
train.dispose();

// What each variant's page loads (besides the page and the model), in load order.
const ENTRIES = {
  predict: { module: './dist/predict.js', files: ['predict.js', 'urnforest_predict.mjs', 'urnforest_predict.wasm'] },
  full: { module: './dist/index.js', files: ['index.js', 'urnforest.mjs', 'urnforest.wasm'] },
};

const page = (entry) => `<!doctype html><html><body><pre id="status">loading</pre>
<script type="module">
import { init, Forest } from '${entry.module}';
try {
  const model = fetch('./model.urnf').then((r) => r.arrayBuffer()); // fetched while the wasm loads
  await init();
  const bytes = new Uint8Array(await model);
  const forest = Forest.fromBytes(bytes);
  const out = forest.predict([${JSON.stringify(row)}], { rule: 'siba', alpha: 0.99 });
  const at = performance.now();
  window.result = { at, label: out.labels[0], treesUsed: out.treesUsed[0] };
} catch (e) {
  window.result = { error: String(e && e.stack || e) };
}
document.getElementById('status').textContent = 'done';
</script></body></html>`;

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.urnf': 'application/octet-stream' };
const files = new Map([['/model.urnf', model]]);
for (const [name, entry] of Object.entries(ENTRIES)) {
  files.set(`/${name}.html`, Buffer.from(page(entry)));
  for (const f of entry.files) files.set(`/dist/${f}`, readFileSync(join(root, 'dist', f)));
}
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://127.0.0.1').pathname;
  const body = files.get(path);
  if (body === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404');
    return;
  }
  const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
  const headers = { 'Content-Type': MIME[extname(path)], ETag: etag,
    'Cache-Control': path.endsWith('.html') ? 'no-cache' : 'max-age=3600' };
  if (req.headers['if-none-match'] === etag) res.writeHead(304, headers).end();
  else res.writeHead(200, { ...headers, 'Content-Length': body.length }).end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

async function result(p) {
  await p.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120_000 });
  const r = await p.evaluate(() => window.result);
  if (r.error !== undefined) throw new Error(r.error);
  if (r.label !== expected) throw new Error(`the page predicted ${r.label}, Node ${expected}`);
  return r.at;
}

async function measure(variant) {
  const profile = mkdtempSync(join(tmpdir(), 'urnforest-predict-entry-'));
  const context = await launchChromiumProfile(profile);
  try {
    const p = context.pages()[0] ?? await context.newPage();
    const loaded = [];
    p.on('request', (r) => loaded.push(new URL(r.url()).pathname));
    await p.goto(`${origin}/${variant}.html`);
    const first = await result(p);
    await p.waitForTimeout(1000); // lets the browser finish writing its caches
    const again = [];
    for (let i = 0; i < reloads; i++) {
      await p.reload();
      again.push(await result(p));
    }
    return { first, reloads: again, loaded: [...new Set(loaded)] };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const variants = Object.keys(ENTRIES);
const samples = Object.fromEntries(variants.map((v) => [v, []]));
const load = [];
for (let round = 0; round < rounds; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    samples[variant].push(await measure(variant));
    load.push(loadavg()[0]);
    process.stderr.write(`round ${round + 1}/${rounds} ${variant}: ${JSON.stringify(samples[variant].at(-1))}\n`);
  }
}
server.close();

const report = { date: new Date().toISOString(), rounds, reloads, chromium: CHROMIUM, modelBytes: model.length,
  loadAverage1m: { min: Math.min(...load), max: Math.max(...load) }, variants: {} };
for (const variant of variants) {
  const sizes = Object.fromEntries(ENTRIES[variant].files.map((f) => {
    const body = files.get(`/dist/${f}`);
    return [f, { raw: body.length, gzip9: gzipSync(body, { level: 9 }).length }];
  }));
  const gzipTotal = Object.values(sizes).reduce((a, s) => a + s.gzip9, 0);
  report.variants[variant] = {
    sizes, gzipTotal, gzipKiB: Number((gzipTotal / 1024).toFixed(1)),
    reloadMs: Number(median(samples[variant].flatMap((s) => s.reloads)).toFixed(1)),
    firstLoadMs: Number(median(samples[variant].map((s) => s.first)).toFixed(1)),
    loaded: samples[variant].at(-1).loaded,
  };
}
console.log(JSON.stringify(report, null, 2));
console.log('\n| entry | JS + wasm loaded, gzip -9 (KiB) | navigation → first prediction, reload (ms, median) | first load (ms, median) |');
console.log('|---|---|---|---|');
for (const [variant, v] of Object.entries(report.variants)) {
  console.log(`| ${variant === 'predict' ? '`urnforest/predict`' : '`urnforest` (full)'} | ${v.gzipKiB} | ${v.reloadMs} | ${v.firstLoadMs} |`);
}
