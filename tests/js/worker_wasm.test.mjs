// UrnforestWorker({wasm}): every worker thread (the job thread and parallel training's helper threads)
// instantiates the wasm given, as init({wasm}) takes it, instead of the library's embedded copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, wasmUrl, UrnforestError } from '../../dist/index.js';
import { UrnforestWorker } from '../../dist/worker.js';
import { readDataset } from './helpers.mjs';

const uf = await init();
const wdbc = readDataset('wdbc');
const bytes = readFileSync(wasmUrl());
// A valid wasm module that is not urnforest's: instantiating it fails to link.
const notUrnforest = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

function mainThreadBytes(options) {
  const data = uf.Dataset.fromCSV(wdbc);
  const forest = uf.trainForest(data, options);
  try {
    return forest.toBytes();
  } finally {
    forest.dispose();
    data.dispose();
  }
}

test('a worker given wasmUrl(), the bytes or a compiled Module trains the main thread\'s model bytes', async () => {
  const expected = mainThreadBytes({ trees: 21, seed: 5 });
  for (const wasm of [wasmUrl(), wasmUrl().href, bytes, new WebAssembly.Module(bytes)]) {
    const worker = new UrnforestWorker({ wasm, threads: 1 });
    try {
      const result = await worker.train({ csv: wdbc }, { trees: 21, seed: 5 });
      assert.deepEqual(result.bytes, expected, String(wasm?.constructor?.name));
    } finally {
      worker.terminate();
    }
  }
});

test('the thread really instantiates the given wasm: another module is refused as not urnforest\'s', async () => {
  const worker = new UrnforestWorker({ wasm: notUrnforest, threads: 1 });
  try {
    await assert.rejects(worker.train({ csv: wdbc }, { trees: 5 }),
      (e) => e instanceof UrnforestError && e.code === 'InvalidArgument' && /not urnforest's wasm/.test(e.message));
  } finally {
    worker.terminate();
  }
});

test('parallel training\'s helper threads load the given wasm too, and give the same bytes', async () => {
  const good = new UrnforestWorker({ wasm: wasmUrl(), threads: 2 });
  try {
    assert.deepEqual((await good.train({ csv: wdbc }, { trees: 32, seed: 2 })).bytes, mainThreadBytes({ trees: 32, seed: 2 }));
  } finally {
    good.terminate();
  }
  const bad = new UrnforestWorker({ wasm: notUrnforest, threads: 2 });
  try {
    await assert.rejects(bad.train({ csv: wdbc }, { trees: 32, seed: 2 }), (e) => e instanceof UrnforestError && e.code === 'InvalidArgument');
  } finally {
    bad.terminate();
  }
});

test('a wasm option that cannot be sent to a thread is a TypeError when the worker is made', () => {
  for (const wasm of [42, null, {}, Promise.resolve(new Response(bytes))]) {
    assert.throws(() => new UrnforestWorker({ wasm }), (e) => e instanceof TypeError && /wasm must be a URL/.test(e.message));
  }
  assert.throws(() => new UrnforestWorker({ wasmUrl: 'x' }), /unknown option 'wasmUrl' \(expected url, threads, wasm\)/);
});
