import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, createServer, preview } from 'vite';
import { consumerSuite } from './helpers.mjs';


const MAIN = `
import { init } from 'urnforest';
import { UrnforestWorker } from 'urnforest/worker';
const status = document.getElementById('status');
try {
  const uf = await init();
  const csv = 'a,b,class\\n' + Array.from({ length: 60 }, (_, i) => \`\${i % 7},\${(i * 3) % 5},\${i % 2 ? 'y' : 'x'}\`).join('\\n');
  const data = uf.Dataset.fromCSV(csv);
  const forest = uf.trainForest(data, { trees: 21, seed: 1 });
  const out = forest.predict(data, { rule: 'hyper', alpha: 0.99 });
  const worker = new UrnforestWorker();
  let progress = 0;
  const { bytes } = await worker.train({ csv }, { trees: 21, seed: 1 }, { onProgress: () => { progress++; } });
  worker.terminate();
  const mine = forest.toBytes();
  const same = bytes.length === mine.length && bytes.every((b, i) => b === mine[i]);
  status.textContent = \`ok rows=\${out.labels.length} meanTrees=\${out.meanTrees} same=\${same} progress=\${progress}\`;
} catch (e) {
  status.textContent = \`error \${(e && e.stack) || e}\`;
}
`;

const suite = consumerSuite('urnforest-vite-', MAIN);

async function runPage(url) {
  const page = await (await suite.browser()).newPage();
  const outside = [];
  page.on('request', (req) => { if (!req.url().startsWith(url) && !req.url().startsWith('data:')) outside.push(req.url()); });
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('status').textContent !== 'loading', null, { timeout: 60_000 });
  const status = await page.textContent('#status');
  await page.close();
  assert.deepEqual(outside, []);
  return status;
}

function checkStatus(status) {
  assert.match(status, /^ok rows=60 /, status);
  assert.match(status, /same=true/);
  assert.match(status, /progress=([1-9]\d*)/);
}

const quiet = { logLevel: 'silent', configFile: false };

// Every file under `dir` (recursively), as [path, bytes].
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile())
    .map((f) => [f, readFileSync(f)]);
}

// How many copies of a wasm module `bytes` holds: a file that is one (it starts with the magic and
// version \0asm 1), plus the base64 of one (data: URLs, SINGLE_FILE glue) embedded in text.
function wasmCopies(bytes) {
  const magic = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  const binary = bytes.subarray(0, magic.length).equals(magic) ? 1 : 0;
  return binary + bytes.toString('latin1').split(magic.toString('base64').slice(0, 10)).length - 1;
}

test('a Vite production build of a consumer app holds the wasm once, and runs a halted prediction and a worker in Chromium', { timeout: 120_000 }, async () => {
  await build({ ...quiet, root: suite.project });
  const output = filesUnder(join(suite.project, 'dist'));
  const holders = output.filter(([, bytes]) => wasmCopies(bytes) > 0);
  assert.deepEqual(holders.map(([f]) => f.endsWith('.wasm')), [true], `one wasm copy: ${holders.map(([f]) => f).join(', ')}`);
  assert.equal(wasmCopies(holders[0][1]), 1);
  const total = output.reduce((sum, [, bytes]) => sum + bytes.length, 0);
  const wasmSize = holders[0][1].length;
  assert.ok(total < wasmSize + 400_000, `output ${total} B: the wasm (${wasmSize} B) and small scripts`);
  const server = await preview({ ...quiet, root: suite.project, preview: { host: '127.0.0.1', port: 0 } });
  try {
    const url = server.resolvedUrls.local[0];
    checkStatus(await runPage(url));
  } finally {
    await server.close();
  }
});

test('the Vite dev server serves the same app', { timeout: 120_000 }, async () => {
  const server = await createServer({ ...quiet, root: suite.project, server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  try {
    const url = server.resolvedUrls.local[0];
    checkStatus(await runPage(url));
  } finally {
    await server.close();
  }
});
