// Training on every core, against peers on every core, in one run: urnforest native (`train --threads 0`),
// urnforest in JS (UrnforestWorker with every hardware thread), scikit-learn (n_jobs = -1) and ranger
// (num.threads = every core; skipped when Rscript or ranger is missing), rounds interleaved. Times are
// taken inside each process for the fit alone (urnforest native: the CLI's train_ms), except the JS worker
// (the whole job: sending the CSV, parsing it in each worker, training, merging). Not a test.
//
//   node bench/train_all_cores.mjs [--rounds 3] [--trees 101]
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
const rounds = arg('rounds', 3);
const trees = arg('trees', 101);
const cores = availableParallelism();
const json = (cmd, args) => JSON.parse(String(execFileSync(cmd, args, { cwd: root, maxBuffer: 1 << 28 })).trim().split('\n').pop());
const { UrnforestWorker } = await import(join(root, 'dist', 'worker.js'));
let ranger = true;
try {
  execFileSync('Rscript', ['-e', 'library(ranger)'], { stdio: 'ignore' });
} catch {
  ranger = false;
}
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-cores-'));
const load = [loadavg()[0]];
const report = [];
const worker = new UrnforestWorker({ threads: cores });
try {
  for (const [rows, features, mtry] of [[5000, 20, 4], [20000, 50, 7]]) {
    const csv = join(tmp, `twonorm_${rows}x${features}.csv`);
    execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), '7', csv, String(features)]);
    const text = readFileSync(csv, 'utf8');
    await worker.train({ csv: text }, { trees, mtry, seed: 1 }); // starts and warms every worker
    const ms = { native: [], js: [], sklearn: [], ranger: [] };
    for (let r = 0; r < rounds; r++) {
      const seed = r + 1;
      ms.native.push(json(join(root, 'build/urnforest'), ['train', '--data', csv, '--trees', String(trees), '--mtry',
        String(mtry), '--seed', String(seed), '--threads', '0', '--out', join(tmp, 'm.urnf'), '--json']).train_ms);
      const start = performance.now();
      await worker.train({ csv: text }, { trees, mtry, seed });
      ms.js.push(performance.now() - start);
      ms.sklearn.push(json('/usr/bin/python3', ['bench/sklearn_bench.py', 'train', csv, String(trees), String(mtry),
        String(seed), '-1']).fit_ms);
      if (ranger) {
        ms.ranger.push(json('Rscript', ['bench/ranger_bench.R', 'train', csv, String(trees), String(mtry), String(seed), '0']).fit_ms);
      }
    }
    report.push({ case: `twonorm ${rows} x ${features} (mtry ${mtry})`, ...Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)])) });
  }
} finally {
  worker.terminate();
  rmSync(tmp, { recursive: true, force: true });
}
load.push(loadavg()[0]);
const f = (x, d = 0) => (x == null ? 'n/a' : x.toFixed(d));
const ratio = (a, b) => (a == null || b == null ? null : a / b);
console.log(`${cores} cores, T = ${trees}, ${rounds} rounds, load average ${load.map((x) => f(x, 2)).join(' -> ')}` +
  (ranger ? '' : ' (ranger not installed: bench/setup.sh)'));
console.log('| case | native ms | JS worker ms | scikit-learn ms | ranger ms | native / sklearn | native / ranger | JS / sklearn | JS / ranger |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of report) {
  console.log(`| ${r.case} | ${f(r.native)} | ${f(r.js)} | ${f(r.sklearn)} | ${f(r.ranger)} | ${f(ratio(r.native, r.sklearn), 2)} | ` +
    `${f(ratio(r.native, r.ranger), 2)} | ${f(ratio(r.js, r.sklearn), 2)} | ${f(ratio(r.js, r.ranger), 2)} |`);
}
