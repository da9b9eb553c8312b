import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = new URL('../../dist/', import.meta.url);
const asset = readFileSync(new URL('urnforest.wasm', dist));

// Runs `body` in a fresh Node process (the wasm module is one per process) with `uf` = dist/<entry>
// (index.js: the default entry; single-file.js: urnforest/single-file); returns what it printed, parsed as JSON.
function inFreshProcess(body, env = {}, entry = 'index.js') {
  const script = `import * as uf from ${JSON.stringify(new URL(entry, dist).href)};
    import { readFileSync } from 'node:fs';
    ${body}`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  return JSON.parse(out);
}

const PREDICT = `
  const data = uf.Dataset.fromCSV(readFileSync('datasets/vehicle.csv', 'utf8'));
  const forest = uf.trainForest(data, { trees: 41, seed: 3 });
  const bytes = forest.toBytes();
  const halted = forest.predict(data, { rule: 'siba', alpha: 0.99, compare: true });
  const full = forest.predict(data);
  const hex = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
  console.log(JSON.stringify({ model: hex(bytes), labels: Array.from(halted.labels), trees: hex(halted.treesUsed),
    full: hex(full.classIndex), probabilities: hex(forest.predictProba(data).probabilities) }));`;

function predictWith(initCall, entry = 'index.js') {
  return inFreshProcess(`await ${initCall};\n${PREDICT}`, {}, entry);
}

test('the asset dist/urnforest.wasm holds the same bytes as the wasm embedded in urnforest_wasm.mjs', () => {
  const glue = readFileSync(new URL('urnforest_wasm.mjs', dist), 'utf8');
  const embedded = Buffer.from(glue.match(/data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/)[1], 'base64');
  assert.ok(asset.length > 100_000);
  assert.equal(Buffer.compare(embedded, asset), 0);
});

test('init() (the asset), and init with it as bytes, a WebAssembly.Module, wasmUrl() or a path, train and predict byte-identically to the single-file entry', () => {
  const reference = predictWith('uf.init()', 'single-file.js');
  assert.ok(reference.labels.length > 800);
  const sources = {
    default: 'uf.init()',
    bytes: "uf.init({ wasm: readFileSync(new URL('urnforest.wasm', uf.wasmUrl())) })",
    arrayBuffer: "uf.init({ wasm: new Uint8Array(readFileSync(uf.wasmUrl())).buffer })",
    module: 'uf.init({ wasm: await WebAssembly.compile(readFileSync(uf.wasmUrl())) })',
    wasmUrl: 'uf.init({ wasm: uf.wasmUrl() })',
    path: "uf.init({ wasm: 'dist/urnforest.wasm' })",
  };
  for (const [name, call] of Object.entries(sources)) {
    assert.deepEqual(predictWith(call), reference, name);
  }
});

test('init({wasm}) never loads the embedded copy, and later calls resolve to the same API', () => {
  const out = inFreshProcess(`
    const a = await uf.init({ wasm: uf.wasmUrl() });
    const b = await uf.init();
    const c = await uf.init({ wasm: new Uint8Array(3) });
    console.log(JSON.stringify({ same: a === b && b === c }));`);
  assert.deepEqual(out, { same: true });
});

test('a bad init option rejects with a TypeError naming it', () => {
  const out = inFreshProcess(`
    const seen = [];
    for (const options of [42, { wasm: 42 }, { wasm: null }, { wasmUrl: 'x' }, new Map()]) {
      await uf.init(options).then(() => seen.push('resolved'), (e) => seen.push(e.constructor.name + ': ' + e.message));
    }
    console.log(JSON.stringify(seen));`);
  assert.equal(out.length, 5);
  for (const line of out) assert.match(line, /^TypeError: init: /);
  assert.match(out[1], /wasm must be a URL/);
  assert.match(out[3], /unknown option 'wasmUrl'/);
});

test('a wrong, corrupt, missing or foreign asset rejects with UrnforestError InvalidArgument, and init() then still works', async () => {
  // A module that imports a function the glue does not provide: it compiles but does not link.
  const foreign = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 8, 1, 1, 97, 2, 122, 122, 0, 0];
  const server = createServer((req, res) => {
    if (req.url === '/urnforest.wasm') res.writeHead(200, { 'Content-Type': 'application/wasm' }).end(asset);
    else if (req.url === '/page.wasm') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>not found</p>');
    else if (req.url === '/truncated.wasm') res.writeHead(200, { 'Content-Type': 'application/wasm' }).end(asset.subarray(0, 5000));
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const out = await new Promise((resolve, reject) => {
      const script = `import * as uf from ${JSON.stringify(new URL('index.js', dist).href)};
        const seen = [];
        for (const wasm of [new Uint8Array([1, 2, 3]), new Uint8Array(${JSON.stringify(foreign)}), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]),
          'dist/missing.wasm', '${base}/missing.wasm', '${base}/page.wasm', '${base}/truncated.wasm', fetch('${base}/missing.wasm'),
          { then: (_, fail) => fail(new Error('offline')) }]) {
          await uf.init({ wasm }).then(() => seen.push('resolved'), (e) => seen.push({ name: e.name, code: e.code, message: e.message }));
        }
        const api = await uf.init({ wasm: '${base}/urnforest.wasm' });
        seen.push(typeof api.Dataset.fromCSV('a,class\\n1,x\\n2,y\\n').numRows);
        console.log(JSON.stringify(seen));`;
      // execFileSync would block this process's server.
      import('node:child_process').then(({ execFile }) => execFile(process.execPath, ['--input-type=module', '-e', script],
        { cwd: root, encoding: 'utf8', timeout: 60_000 }, (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(JSON.parse(stdout)))));
    });
    const errors = out.slice(0, -1);
    assert.equal(errors.length, 9);
    for (const e of errors) {
      assert.equal(e.name, 'UrnforestError', JSON.stringify(e));
      assert.equal(e.code, 'InvalidArgument', JSON.stringify(e));
      assert.match(e.message, /^InvalidArgument: init\(\{wasm\}\): /);
    }
    assert.match(errors[0].message, /not a valid wasm module/);
    assert.match(errors[1].message, /not urnforest's wasm, or from another version/);
    assert.match(errors[2].message, /not urnforest's wasm/);
    assert.match(errors[3].message, /could not read dist\/missing\.wasm/);
    assert.match(errors[4].message, /HTTP 404/);
    assert.match(errors[5].message, /not a valid wasm module/);
    assert.match(errors[6].message, /not a valid wasm module/);
    assert.match(errors[7].message, /HTTP 404/);
    assert.match(errors[8].message, /the Response promise rejected: offline/);
    assert.equal(out.at(-1), 'number', 'a good asset after the failures instantiates');
  } finally {
    server.close();
  }
});

test('the init option types compile (tsc --strict)', () => {
  execFileSync(fileURLToPath(new URL('node_modules/.bin/tsc', new URL('../../', import.meta.url))), ['--noEmit', '--strict', '--target', 'es2022',
    '--module', 'nodenext', '--moduleResolution', 'nodenext', 'tests/js/wasm_asset_types_check.ts'], { cwd: root, stdio: 'pipe' });
});
