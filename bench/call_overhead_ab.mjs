// One-row halted predict (hyper, alpha 0.99, the README's call) of this checkout's dist/ against
// another build's, in one process, alternating windows of calls: the CPU time per call
// (process.cpuUsage, user + system: the time this process ran, not the time other processes took
// the cores of a shared machine) and the wall time per call. Not a test.
//
//   node bench/call_overhead_ab.mjs --base OTHER/dist/index.js [--rounds 16] [--calls 20000]
//
// Build the other checkout first (e.g. `git worktree add /tmp/base <commit>` and, there,
// `scripts/build.sh wasm`). The model is trained with this checkout's build/urnforest (101 trees,
// seed 1, even rows of wdbc); the row is wdbc's first odd row.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numberOption, stringOption } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const base = stringOption('base', undefined);
if (base === undefined) throw new Error('--base OTHER/dist/index.js is required');
const rounds = numberOption('rounds', 16);
const calls = numberOption('calls', 20000);
const libs = { base: pathToFileURL(resolve(base)).href, this: pathToFileURL(join(root, 'dist/index.js')).href };

const tmp = mkdtempSync(join(tmpdir(), 'urnforest-ab-'));
try {
  const [header, ...body] = readFileSync(join(root, 'datasets/wdbc.csv'), 'utf8').trim().split(/\r?\n/);
  writeFileSync(join(tmp, 'train.csv'), [header, ...body.filter((_, i) => i % 2 === 0)].join('\n') + '\n');
  execFileSync(join(root, 'build/urnforest'), ['train', '--data', join(tmp, 'train.csv'), '--trees', '101',
    '--seed', '1', '--out', join(tmp, 'm.urnf'), '--json']);
  const bytes = new Uint8Array(readFileSync(join(tmp, 'm.urnf')));
  const row = body.filter((_, i) => i % 2 === 1)[0];
  const halted = { rule: 'hyper', alpha: 0.99 };
  const subjects = {};
  for (const [name, url] of Object.entries(libs)) {
    const uf = await (await import(url)).init();
    const forest = uf.Forest.fromBytes(bytes);
    const data = uf.Dataset.fromCSV(`${header}\n${row}\n`);
    subjects[name] = () => forest.predict(data, halted);
    for (let i = 0; i < calls; i++) subjects[name](); // warm-up (the optimising compiler)
  }
  const cpu = { base: [], this: [] };
  const wall = { base: [], this: [] };
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? ['this', 'base'] : ['base', 'this']) {
      const f = subjects[name];
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      for (let i = 0; i < calls; i++) f();
      const c = process.cpuUsage(c0);
      cpu[name].push((c.user + c.system) / calls);
      wall[name].push(((performance.now() - w0) * 1000) / calls);
    }
  }
  const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.round(p * (xs.length - 1))];
  const fmt = (xs) => `median ${q(xs, 0.5).toFixed(3)} µs (q25 ${q(xs, 0.25).toFixed(3)}, q75 ${q(xs, 0.75).toFixed(3)})`;
  for (const name of ['base', 'this']) console.log(`${name.padEnd(5)} cpu ${fmt(cpu[name])} | wall ${fmt(wall[name])}`);
  const ratios = cpu.this.map((x, i) => x / cpu.base[i]);
  console.log(`this/base cpu: ratio of medians ${(q(cpu.this, 0.5) / q(cpu.base, 0.5)).toFixed(3)}, ` +
    `per-alternation ratios median ${q(ratios, 0.5).toFixed(3)} (q25 ${q(ratios, 0.25).toFixed(3)}, q75 ${q(ratios, 0.75).toFixed(3)})`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
