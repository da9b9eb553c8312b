// Training over threads: wall-clock time of one random-forest training with 1 and N threads, natively
// (build/urnforest train --threads) and in JS (UrnforestWorker({threads}) in Node worker_threads), rounds
// interleaved, with the model bytes compared across thread counts. Also the serial part (merging the
// parts, loading the data in each worker) that bounds the speed-up on more cores. Not a test.
//
//   node bench/train_threads.mjs [--rounds 5] [--threads 2] [--rows 20000] [--features 50] [--trees 101]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.mjs';
import { median } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = numberOption;
const rounds = arg('rounds', 5);
const threads = arg('threads', availableParallelism());
const rows = arg('rows', 20000);
const features = arg('features', 50);
const trees = arg('trees', 101);
const uf = await import(join(root, 'dist', 'index.js')).then((m) => m.init());
const { UrnforestWorker } = await import(join(root, 'dist', 'worker.js'));

const tmp = mkdtempSync(join(tmpdir(), 'urnforest-threads-'));
const load = [loadavg()[0]];
try {
  const csvPath = join(tmp, 'train.csv');
  execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), '7', csvPath, String(features)]);
  const csv = readFileSync(csvPath, 'utf8');
  const cli = join(root, 'build', 'urnforest');
  const nativeRun = (n) => {
    const out = join(tmp, `native${n}.urnf`);
    const start = performance.now();
    execFileSync(cli, ['train', '--data', csvPath, '--trees', String(trees), '--seed', '1', '--threads', String(n), '--out', out, '--json']);
    return { ms: performance.now() - start, bytes: readFileSync(out) };
  };
  const workers = new Map([[1, new UrnforestWorker({ threads: 1 })], [threads, new UrnforestWorker({ threads })]]);
  const jsRun = async (n) => {
    const start = performance.now();
    const r = await workers.get(n).train({ csv }, { trees, seed: 1 });
    return { ms: performance.now() - start, bytes: r.bytes };
  };
  // Warm-up: each worker started, its wasm compiled and tiered up, the extra threads spawned.
  for (const n of [1, threads]) await jsRun(n);
  const times = { native1: [], nativeN: [], js1: [], jsN: [] };
  let same = true;
  let reference = null;
  for (let r = 0; r < rounds; r++) {
    for (const [key, run] of [['native1', () => nativeRun(1)], ['nativeN', () => nativeRun(threads)],
      ['js1', () => jsRun(1)], ['jsN', () => jsRun(threads)]]) {
      const { ms, bytes } = await run();
      times[key].push(ms);
      reference ??= Buffer.from(bytes);
      same &&= reference.equals(Buffer.from(bytes));
    }
  }
  // The serial part of a JS run: parsing the CSV once (each worker does it), and merging the parts.
  const data = uf.Dataset.fromCSV(csv);
  let start = performance.now();
  const parsed = uf.Dataset.fromCSV(csv);
  const parseMs = performance.now() - start;
  parsed.dispose();
  const half = Math.floor(trees / 2);
  const parts = [[0, half], [half, trees - half]].map(([first, count]) => {
    const p = uf.trainForestPart(data, { trees, seed: 1 }, { first, count });
    const b = p.toBytes();
    p.dispose();
    return b;
  });
  start = performance.now();
  const merged = uf.Forest.mergeParts(parts);
  const mergeMs = performance.now() - start;
  same &&= Buffer.from(merged.toBytes()).equals(reference);
  merged.dispose();
  data.dispose();
  for (const w of workers.values()) w.terminate();
  load.push(loadavg()[0]);

  const f = (x, d = 0) => x.toFixed(d);
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  console.log(`twonorm ${rows} x ${features}, T = ${trees}, ${rounds} rounds, ${threads} threads, ` +
    `load average ${load.map((x) => f(x, 2)).join(' -> ')}, identical bytes: ${same}`);
  console.log('| side | 1 thread ms | ' + threads + ' threads ms | speed-up |');
  console.log('|---|---|---|---|');
  console.log(`| native (CLI train, whole process) | ${f(m.native1)} | ${f(m.nativeN)} | ${f(m.native1 / m.nativeN, 2)} |`);
  console.log(`| JS (UrnforestWorker.train) | ${f(m.js1)} | ${f(m.jsN)} | ${f(m.js1 / m.jsN, 2)} |`);
  console.log(`serial parts of a JS run: parsing the CSV ${f(parseMs)} ms (in every worker, in parallel), ` +
    `merging 2 parts ${f(mergeMs, 1)} ms; per tree ${f(m.js1 / trees, 1)} ms (JS, 1 thread)`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
