// A/B timing of halted prediction only: the wall-clock share (halted speed-up / tree-count
// speed-up) of siba and hyper on wdbc, sonar and twonorm, for one or more builds side by side, the
// builds interleaved round by round on the same rows and models. Not a test. The wasm call is the
// README's as written, `forest.predict(test, {rule, alpha: 0.99})` (second call on: the table is
// cached), and the same call writing into caller-owned arrays (`{out}`, reused across calls).
//
//   node bench/halted_share.mjs [--rounds 7] [--stat median|min] [--build LABEL:DIST_DIR:BENCH_NATIVE ...]
//
// --stat min (wasm only): each measurement is the fastest of 8 windows of at least 2.5 ms (after
// the same warm-up), and the rounds' minimum is reported; on a machine shared with other jobs the
// minimum is what a call costs when it is not preempted, where medians carry the other jobs' load.
//
// Without --build: this worktree's dist/ and build/bench_native. Models are trained once with
// build/urnforest (101 trees, seed 1) exactly as bench/run.mjs does; wasm timings use run.mjs's
// warm-up and repeat-until-20-ms; native timings come from bench_native predict (one round each).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, msPerCall, msPerCallWithin } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const values = (name) => argv.flatMap((a, i) => (a === `--${name}` ? [argv[i + 1]] : []));
const rounds = Number(values('rounds')[0] ?? 7);
const stat = values('stat')[0] ?? 'median';
if (stat !== 'median' && stat !== 'min') throw new Error(`--stat must be median or min, got ${stat}`);
// Milliseconds per call of `f`: msPerCall, or with --stat min the fastest of 8 short windows.
const timeCall = stat === 'median' ? msPerCall : (f) => {
  msPerCall(f); // warm-up (tier-up) as msPerCall does
  let best = Infinity;
  for (let w = 0; w < 8; w++) best = Math.min(best, msPerCallWithin(f, 2.5));
  return best;
};
const summary = stat === 'median' ? median : (xs) => Math.min(...xs.filter((x) => x != null));
const specs = values('build').length > 0 ? values('build')
  : [`this:${join(root, 'dist')}:${join(root, 'build/bench_native')}`];
const ALPHA = 0.99;
const RULES = ['siba', 'hyper'];
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, maxBuffer: 1 << 28 });
const json = (cmd, args) => JSON.parse(String(run(cmd, args)).trim().split('\n').pop());

const builds = [];
for (const spec of specs) {
  const [label, dist, native] = spec.split(':');
  const mod = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  builds.push({ label, native: resolve(native), uf: await mod.init() });
}
const load = [loadavg()[0]];
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-share-'));
const report = [];
try {
  const file = (name) => join(tmp, name);
  run('/usr/bin/python3', ['bench/twonorm.py', '5000', '7', file('twonorm_train.csv'), '20']);
  run('/usr/bin/python3', ['bench/twonorm.py', '5000', '9', file('twonorm_test.csv'), '20']);
  for (const name of ['wdbc', 'sonar']) {
    const [header, ...body] = readFileSync(join(root, 'datasets', `${name}.csv`), 'utf8').trim().split(/\r?\n/);
    writeFileSync(file(`${name}_train.csv`), [header, ...body.filter((_, i) => i % 2 === 0)].join('\n') + '\n');
    writeFileSync(file(`${name}_test.csv`), [header, ...body.filter((_, i) => i % 2 === 1)].join('\n') + '\n');
  }
  for (const name of ['wdbc', 'sonar', 'twonorm']) {
    const model = file(`${name}.urnf`);
    const testCsv = file(`${name}_test.csv`);
    json(join(root, 'build/urnforest'), ['train', '--data', file(`${name}_train.csv`), '--trees', '101',
      ...(name === 'twonorm' ? ['--mtry', '4'] : []), '--seed', '1', '--out', model, '--json']);
    const bytes = new Uint8Array(readFileSync(model));
    const csv = readFileSync(testCsv, 'utf8');
    const per = builds.map((b) => {
      const forest = b.uf.Forest.fromBytes(bytes);
      const test = b.uf.Dataset.fromCSV(csv);
      const meanTrees = {};
      for (const rule of RULES) meanTrees[rule] = forest.predict(test, { rule, alpha: ALPHA }).meanTrees;
      const n = test.numRows;
      const out = { classIndex: new Int32Array(n), treesUsed: new Int32Array(n), confidence: new Float64Array(n) };
      return { b, forest, test, meanTrees, out, wasm: { full: [], siba: [], hyper: [] }, into: { full: [], siba: [], hyper: [] },
        native: { full: [], siba: [], hyper: [] } };
    });
    for (let r = 0; r < rounds; r++) {
      for (const p of per) {
        p.wasm.full.push(timeCall(() => p.forest.predict(p.test)));
        for (const rule of RULES) {
          p.wasm[rule].push(timeCall(() => p.forest.predict(p.test, { rule, alpha: ALPHA })));
          p.into[rule].push(timeCall(() => p.forest.predict(p.test, { rule, alpha: ALPHA }, { out: p.out })));
        }
        const n = json(p.b.native, ['predict', model, testCsv, '1', ...RULES]);
        p.native.full.push(n.full_ms[0]);
        for (const rule of RULES) p.native[rule].push(n.rules[rule].ms[0]);
      }
    }
    for (const p of per) {
      for (const rule of RULES) {
        const treeSpeedup = 101 / p.meanTrees[rule];
        const pick = (k) => (k === 'native' ? median : summary);
        const share = (k) => pick(k)(p[k === 'into' ? 'wasm' : k].full) / pick(k)(p[k][rule]) / treeSpeedup;
        report.push({ build: p.b.label, dataset: name, rows: p.test.numRows, rule, mean_trees: p.meanTrees[rule],
          wasm_full_ms: summary(p.wasm.full), wasm_halted_ms: summary(p.wasm[rule]), wasm_share: share('wasm'),
          wasm_out_ms: summary(p.into[rule]), wasm_out_share: share('into'),
          native_full_ms: median(p.native.full), native_halted_ms: median(p.native[rule]), native_share: share('native') });
      }
      p.forest.dispose();
      p.test.dispose();
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
load.push(loadavg()[0]);
const f = (x, d = 3) => x.toFixed(d);
console.log(`rounds ${rounds}, wasm ${stat}, alpha ${ALPHA}, load average (1 min) ${load.map((x) => f(x, 2)).join(' -> ')}`);
console.log('build | data (rows) | rule | mean trees | wasm full ms | wasm halted ms | wasm share | wasm {out} ms | wasm {out} share | native full ms | native halted ms | native share');
for (const x of report) {
  console.log(`${x.build} | ${x.dataset} (${x.rows}) | ${x.rule} | ${f(x.mean_trees, 2)} | ${f(x.wasm_full_ms)} | ${f(x.wasm_halted_ms, 4)} | ` +
    `${f(x.wasm_share, 2)} | ${f(x.wasm_out_ms, 4)} | ${f(x.wasm_out_share, 2)} | ${f(x.native_full_ms)} | ${f(x.native_halted_ms, 4)} | ${f(x.native_share, 2)}`);
}
