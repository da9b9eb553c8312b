// A Vite production build of a consumer app that calls init({ wasm: wasmUrl() }) and trains in
// new UrnforestWorker({ wasm: wasmUrl() }): Vite copies urnforest.wasm into the build (from
// new URL('./urnforest.wasm', import.meta.url)), the page and the worker thread stream that one file in
// Chromium, and neither requests the embedded copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { consumerSuite } from './helpers.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

const MAIN = `
import { init, wasmUrl } from 'urnforest';
import { UrnforestWorker } from 'urnforest/worker';
const status = document.getElementById('status');
try {
  const uf = await init({ wasm: wasmUrl() });
  const csv = 'a,b,class\\n' + Array.from({ length: 60 }, (_, i) => \`\${i % 7},\${(i * 3) % 5},\${i % 2 ? 'y' : 'x'}\`).join('\\n');
  const data = uf.Dataset.fromCSV(csv);
  const forest = uf.trainForest(data, { trees: 21, seed: 1 });
  const out = forest.predict(data, { rule: 'hyper', alpha: 0.99 });
  const worker = new UrnforestWorker({ wasm: wasmUrl(), threads: 1 });
  const { bytes } = await worker.train({ csv }, { trees: 21, seed: 1 });
  worker.terminate();
  const mine = forest.toBytes();
  const same = bytes.length === mine.length && bytes.every((b, i) => b === mine[i]);
  status.textContent = \`ok rows=\${out.labels.length} same=\${same}\`;
} catch (e) {
  status.textContent = \`error \${(e && e.stack) || e}\`;
}
`;

const suite = consumerSuite('urnforest-vite-asset-', MAIN);

test('a Vite build copies urnforest.wasm and the page streams it with init({ wasm: wasmUrl() })', { timeout: 120_000 }, async () => {
  await build({ logLevel: 'silent', configFile: false, root: suite.project });
  const assets = readdirSync(join(suite.project, 'dist', 'assets'));
  const wasm = assets.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, assets.join(', '));
  assert.equal(Buffer.compare(readFileSync(join(suite.project, 'dist', 'assets', wasm[0])), readFileSync(join(root, 'dist', 'urnforest.wasm'))), 0);
  const server = await preview({ logLevel: 'silent', configFile: false, root: suite.project, preview: { host: '127.0.0.1', port: 0 } });
  try {
    const page = await (await suite.browser()).newPage();
    const responses = [];
    page.on('response', (r) => responses.push({ path: new URL(r.url()).pathname, type: r.headers()['content-type'], size: Number(r.headers()['content-length'] ?? 0) }));
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForFunction(() => document.getElementById('status').textContent !== 'loading', null, { timeout: 60_000 });
    assert.equal(await page.textContent('#status'), 'ok rows=60 same=true');
    const fetched = responses.filter((r) => r.path.endsWith('.wasm'));
    assert.ok(fetched.length >= 1 && fetched.length <= 2, JSON.stringify(responses)); // the page's, the worker's (or cached)
    assert.equal(new Set(fetched.map((r) => r.path)).size, 1, 'one wasm file for the page and the worker');
    assert.ok(fetched.every((r) => r.type === 'application/wasm'));
    const scripts = responses.filter((r) => r.path.endsWith('.js'));
    assert.ok(scripts.every((r) => r.size < 400_000), `no script holds the embedded wasm: ${JSON.stringify(scripts)}`);
    await page.close();
  } finally {
    await server.close();
  }
});
