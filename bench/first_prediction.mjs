// Time to the first full-speed prediction in Chromium: the single-file default (`init()`, the wasm
// embedded as base64 in dist/urnforest_wasm.mjs) vs the separate asset (`init({ wasm: wasmUrl() })`,
// dist/urnforest.wasm streamed with WebAssembly.instantiateStreaming). Not a test.
//
//   node bench/first_prediction.mjs [--rounds 5] [--rows 18208] [--calls 300] [--mbps 0] [--latency 0]
//
// --mbps N (with --latency ms) throttles the page's network in Chromium (DevTools
// Network.emulateNetworkConditions) to N Mbit/s down, as on a real connection; 0 = unthrottled.
//
// A local HTTP server (127.0.0.1) serves a plain <script type=module> page and dist/ with their MIME
// types (.wasm as application/wasm), ETags (304 on If-None-Match) and caching headers: the page
// `no-cache`, dist/ `max-age=3600`. The page holds a small model (wdbc, `{ trees: 101, seed: 1 }`, trained
// here with dist/index.js, its siba table at alpha 0.99 stored with it: 98 KB) and wdbc's 569 rows of
// features (float32), both as base64; the page tiles the rows to --rows (Dataset.fromArrays). After `init()` it loads
// them and runs halted predictions (`siba`, alpha 0.99) back to back, --calls times; the steady state
// is the median of the last quarter of the calls, and the first full-speed call is the first one
// within 1.2x of it (the earlier ones pay for lazy work: Liftoff code before V8's tier-up, the rows'
// conversion to the model's layout). Per variant and round: first load in a fresh browser profile (cold HTTP cache), then a
// reload of the same page in the same browser (HTTP cache and, for the streamed asset, V8's cache of
// the compiled module). It reports, per variant and load, medians over rounds of: ms from navigation
// start to the end of the first full-speed call, ms from the `init()` call to it, `init()` alone,
// the first call and the steady call. Variants alternate their order between rounds.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, launchChromiumProfile } from '../scripts/chromium.mjs';
import { init } from '../dist/index.js';
import { numberOption } from './args.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = numberOption;
const rounds = arg('rounds', 5);
const rows = arg('rows', 18208);
const calls = arg('calls', 300);
const mbps = arg('mbps', 0);
const latency = arg('latency', 0);

const uf = await init();
const csv = readFileSync(join(root, 'datasets/wdbc.csv'), 'utf8').trim();
const [header, ...body] = csv.split(/\r?\n/);
const train = uf.Dataset.fromCSV(csv);
const forest = uf.trainForest(train, { trees: 101, seed: 1 });
forest.storeTable({ rule: 'siba', alpha: 0.99 });
const modelBase64 = Buffer.from(forest.toBytes()).toString('base64');
forest.dispose();
train.dispose();
const featureNames = header.split(',').slice(0, -1);
const features = Float32Array.from(body.flatMap((line) => line.split(',').slice(0, -1).map(Number)));
const featuresBase64 = Buffer.from(features.buffer).toString('base64');

const PAGE = `<!doctype html><html><body><pre id="status">loading</pre>
<script type="module">
import { init, wasmUrl, Forest, Dataset } from './dist/index.js';
const streamed = new URLSearchParams(location.search).get('variant') === 'asset';
const MODEL = ${JSON.stringify(modelBase64)};
const FEATURES = ${JSON.stringify(featuresBase64)};
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const initStart = performance.now();
await init(streamed ? { wasm: wasmUrl() } : undefined);
const initEnd = performance.now();
const forest = Forest.fromBytes(bytes(MODEL));
const wdbc = new Float32Array(bytes(FEATURES).buffer);
const x = new Float32Array(${rows} * ${featureNames.length});
for (let at = 0; at < x.length; at += wdbc.length) x.set(wdbc.subarray(0, Math.min(wdbc.length, x.length - at)), at);
const data = Dataset.fromArrays(x, { rows: ${rows}, cols: ${featureNames.length}, featureNames: ${JSON.stringify(featureNames)} });
const times = [];
const ends = [];
for (let i = 0; i < ${calls}; i++) {
  const start = performance.now();
  forest.predict(data, { rule: 'siba', alpha: 0.99 });
  const end = performance.now();
  times.push(end - start);
  ends.push(end);
}
const tail = times.slice(-Math.floor(times.length / 4)).sort((a, b) => a - b);
const steady = tail[Math.floor(tail.length / 2)];
const first = times.findIndex((t) => t <= 1.2 * steady);
window.result = { navToFull: ends[first], initToFull: ends[first] - initStart, initMs: initEnd - initStart,
  firstCall: times[0], steady, fullAt: first };
document.getElementById('status').textContent = 'done';
</script></body></html>`;

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };
const files = new Map([['/page.html', Buffer.from(PAGE)]]);
for (const name of ['index.js', 'urnforest_wasm.mjs', 'urnforest.mjs', 'urnforest.wasm']) {
  files.set(`/dist/${name}`, readFileSync(join(root, 'dist', name)));
}
const served = [];
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://127.0.0.1').pathname;
  const body = files.get(path);
  if (body === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404');
    return;
  }
  const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
  const headers = { 'Content-Type': MIME[extname(path)], ETag: etag,
    'Cache-Control': path === '/page.html' ? 'no-cache' : 'max-age=3600' };
  const notModified = req.headers['if-none-match'] === etag;
  served.push(`${notModified ? 304 : 200} ${path}`);
  if (notModified) res.writeHead(304, headers).end();
  else res.writeHead(200, { ...headers, 'Content-Length': body.length }).end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

async function result(page) {
  await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120_000 });
  return page.evaluate(() => window.result);
}

// One round of one variant: first load in a fresh profile, then a reload in the same browser.
async function measure(variant) {
  const profile = mkdtempSync(join(tmpdir(), 'urnforest-first-prediction-'));
  const context = await launchChromiumProfile(profile);
  try {
    const page = context.pages()[0] ?? await context.newPage();
    if (mbps > 0) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency,
        downloadThroughput: (mbps * 1e6) / 8, uploadThroughput: (mbps * 1e6) / 8 });
    }
    await page.goto(`${origin}/page.html?variant=${variant}`);
    const first = await result(page);
    await page.waitForTimeout(2000); // lets the browser finish writing its caches
    await page.reload();
    const second = await result(page);
    return { first, second };
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
const variants = ['single', 'asset'];
const samples = { single: [], asset: [] };
for (let round = 0; round < rounds; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    samples[variant].push(await measure(variant));
    process.stderr.write(`round ${round + 1}/${rounds} ${variant}: ${JSON.stringify(samples[variant].at(-1))}\n`);
  }
}
server.close();

const keys = ['navToFull', 'initToFull', 'initMs', 'firstCall', 'steady', 'fullAt'];
const report = { date: new Date().toISOString(), rounds, rows, calls, mbps, latency, chromium: CHROMIUM, sizes: {}, medians: {} };
for (const name of ['urnforest_wasm.mjs', 'urnforest.mjs', 'urnforest.wasm', 'index.js']) report.sizes[name] = files.get(`/dist/${name}`).length;
for (const variant of variants) {
  for (const load of ['first', 'second']) {
    report.medians[`${variant}/${load}`] = Object.fromEntries(keys.map((k) => [k, Number(median(samples[variant].map((s) => s[load][k])).toFixed(k === 'fullAt' ? 1 : 2))]));
  }
}
report.requestsOfLastRound = served.slice(-12);
console.log(JSON.stringify(report, null, 2));
console.log('\n| variant | load | navigation → full speed (ms) | init() → full speed (ms) | init() (ms) | first call (ms) | steady call (ms) |');
console.log('|---|---|---|---|---|---|---|');
for (const [key, m] of Object.entries(report.medians)) {
  const [variant, load] = key.split('/');
  console.log(`| ${variant === 'single' ? 'single file (`init()`)' : 'asset (`init({ wasm: wasmUrl() })`)'} | ${load} | ${m.navToFull} | ${m.initToFull} | ${m.initMs} | ${m.firstCall} | ${m.steady} |`);
}
