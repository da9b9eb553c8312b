// Training in wasm against native, one thread each, alternating round by round: urnforest's trainForest in
// this Node process (dist/) and the CLI's train_ms (build/urnforest train --threads 1), CSV parsing excluded
// on both sides, same data, T and mtry, seed = round. Prints the per-round times and the ratio of medians.
// Not a test.
//
//   node bench/wasm_native_train.mjs [--rounds 5] [--rows 20000] [--features 50] [--mtry 7] [--trees 101]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.mjs';
import { median } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = numberOption;
const rounds = arg('rounds', 5);
const rows = arg('rows', 20000);
const features = arg('features', 50);
const mtry = arg('mtry', 7);
const trees = arg('trees', 101);
const { init, Dataset, trainForest } = await import(join(root, 'dist', 'index.js'));
await init();
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-wasm-native-'));
const load = [loadavg()[0]];
try {
  const csv = join(tmp, 'train.csv');
  execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), '7', csv, String(features)]);
  const data = Dataset.fromCSV(readFileSync(csv, 'utf8'));
  trainForest(data, { trees: 8, mtry, seed: 1 }).dispose(); // compiled and tiered up
  const wasm = [];
  const native = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    trainForest(data, { trees, mtry, seed: r + 1 }).dispose();
    wasm.push(performance.now() - start);
    const out = execFileSync(join(root, 'build', 'urnforest'), ['train', '--data', csv, '--trees', String(trees), '--mtry',
      String(mtry), '--seed', String(r + 1), '--threads', '1', '--out', join(tmp, 'm.urnf'), '--json']);
    native.push(JSON.parse(String(out).trim().split('\n').pop()).train_ms);
  }
  data.dispose();
  load.push(loadavg()[0]);
  const ms = (a) => a.map((x) => Math.round(x)).join(', ');
  console.log(`twonorm ${rows} x ${features}, T = ${trees}, mtry ${mtry}, ${rounds} rounds, load average ${load.map((x) => x.toFixed(2)).join(' -> ')}`);
  console.log(`wasm ms: ${ms(wasm)}\nnative ms: ${ms(native)}`);
  console.log(`wasm / native (medians): ${(median(wasm) / median(native)).toFixed(2)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
