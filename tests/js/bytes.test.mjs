import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../dist/index.js';
import { datasetsDir, readDataset } from './helpers.mjs';

const uf = await init();

test('toBytes -> fromBytes gives identical predictions and identical bytes', () => {
  for (const name of ['iris', 'wine']) {
    const data = uf.Dataset.fromCSV(readDataset(name));
    const forest = uf.trainForest(data, { trees: 31, seed: 4 });
    const bytes = forest.toBytes();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 16);
    assert.deepEqual(Array.from(bytes.subarray(0, 4)), [...'URNF'].map((c) => c.charCodeAt(0)));
    const again = uf.Forest.fromBytes(bytes);
    assert.deepEqual(again.toBytes(), bytes);
    assert.equal(again.numTrees, 31);
    assert.deepEqual(again.classNames, forest.classNames);
    assert.equal(again.oobError, forest.oobError);
    const a = forest.predict(data);
    const b = again.predict(data);
    assert.deepEqual(b.classIndex, a.classIndex);
    assert.deepEqual(b.votes, a.votes);
    assert.deepEqual(b.labels, a.labels);
    for (const d of [again, forest, data]) d.dispose();
  }
});

test('bytes survive wasm memory growth (they are copies, not views)', () => {
  const data = uf.Dataset.fromCSV(readDataset('iris'));
  const forest = uf.trainForest(data, { trees: 5, seed: 1 });
  const bytes = forest.toBytes();
  const copy = bytes.slice();
  const big = uf.Dataset.fromArrays(new Float32Array(4_000_000), { rows: 1_000_000, cols: 4 });
  assert.deepEqual(bytes, copy);
  for (const d of [big, forest, data]) d.dispose();
});

test('same data, options and seed give identical bytes; another seed differs', () => {
  const data = uf.Dataset.fromCSV(readDataset('wine'));
  const opts = { ensemble: 'rf', trees: 21, seed: 12345 };
  const f1 = uf.trainForest(data, opts);
  const f2 = uf.trainForest(data, { ...opts });
  const f3 = uf.trainForest(data, { ...opts, seed: 12346 });
  assert.deepEqual(f1.toBytes(), f2.toBytes());
  assert.notDeepEqual(f1.toBytes(), f3.toBytes());
  for (const d of [f1, f2, f3, data]) d.dispose();
});

// Determinism across builds (DESIGN contract 5): the native CLI's `train --out` must write the same
// bytes as the wasm build. Skipped when the CLI is not built.
test('native CLI and wasm write byte-identical models', (t) => {
  const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
  if (!existsSync(cli)) return t.skip('build/urnforest not built');
  const dir = mkdtempSync(join(tmpdir(), 'urnforest-'));
  try {
    const out = join(dir, 'iris.urnf');
    const data = fileURLToPath(new URL('iris.csv', datasetsDir));
    const run = spawnSync(cli, ['train', '--data', data, '--target', 'class', '--ensemble', 'rf',
      '--trees', '21', '--seed', '9', '--out', out, '--json'], { encoding: 'utf8' });
    if (run.status !== 0 || !existsSync(out)) return t.skip(`CLI train --out not available yet (exit ${run.status})`);
    const nativeBytes = new Uint8Array(readFileSync(out));
    const dataset = uf.Dataset.fromCSV(readDataset('iris'), { target: 'class' });
    const forest = uf.trainForest(dataset, { ensemble: 'rf', trees: 21, seed: 9 });
    assert.deepEqual(forest.toBytes(), nativeBytes);
    const loaded = uf.Forest.fromBytes(nativeBytes);
    assert.deepEqual(loaded.predict(dataset).classIndex, forest.predict(dataset).classIndex);
    for (const d of [loaded, forest, dataset]) d.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
