// Halting rules at scale in WebAssembly (Node): per rule, the first halted predict (which builds and
// caches the rule's table), a second one (table cached), memory, mean trees, disagreement. Not a test.
//
//   node bench/halting_scale_wasm.mjs [--cases vehicle:1001,wine:10001] [--rules siba,hyper,...]
//     [--alpha 0.99] [--seed 1] [--timeout 900] [--dist DIR] [--json]
//
// Each case NAME:T reads datasets/NAME.csv, trains T trees in wasm (trainForest, seed --seed) on the
// rows i % 3 != 2 and saves the model; the rows i % 3 == 2 are the test rows. Each rule (and 'full',
// no rule) then runs in its own Node process (this script with --child-rule), so that its memory
// figures are its own: load the model, one untimed full vote (warm-up), then
// predict({rule, alpha, compare: false}) twice (first: the table is built and cached, second: cached;
// for a failure, the time until it threw), then once with compare: true for the disagreement with the
// full vote of all T trees (untimed). Memory: the child's peak RSS (process.resourceUsage().maxRSS),
// the wasm linear memory before/after (memoryStats().heapBytes; it grows, never shrinks: the growth is
// the rule's high-water mark) and the growth of the bytes in use (memoryStats().inUse; the cached
// table stays, so it is about the table's size). A failure is recorded with err.code (err.name for a
// non-UrnforestError); a child that dies or times out is recorded with its signal/exit code.
// Prints a Markdown table (and, before it, the JSON report with --json). Progress on stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flag, stringOption } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const value = stringOption;
const cases = value('cases', 'vehicle:1001,wine:10001').split(',').map((c) => {
  const [name, trees] = c.split(':');
  return { name, trees: Number(trees) };
});
const rules = value('rules', 'siba,hyper,1dir,ndir,infinite,optimal,alpha1').split(',').filter(Boolean);
const alpha = Number(value('alpha', '0.99'));
const seed = Number(value('seed', '1'));
const dist = resolve(value('dist', join(root, 'dist')));
const asJson = flag('json');

const mod = await import(pathToFileURL(join(dist, 'index.js')).href);
const uf = await mod.init();
const MB = 1024 * 1024;
const rssMB = () => process.memoryUsage().rss / MB;
const maxRssMB = () => process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
const wasm = () => {
  const m = uf.memoryStats();
  return { heapMB: m.heapBytes / MB, inUseMB: m.inUse / MB };
};
const f = (x, d) => (x == null ? '' : x.toFixed(d));
const log = (s) => process.stderr.write(`[halting_scale_wasm] ${s}\n`);
const errorOf = (e) => {
  const code = e?.code ?? e?.name ?? 'Error';
  const message = String(e?.message ?? e);
  return { code, message: (message.startsWith(`${code}: `) ? message.slice(code.length + 2) : message).slice(0, 300) };
};

const accuracyOf = (classIndex, truth) =>
  classIndex.reduce((n, c, i) => n + (c === truth[i]), 0) / truth.length;
const testRows = (n) => [...Array(n).keys()].filter((i) => i % 3 === 2);

// Child mode: one rule ('full' = no rule) on a saved model, in a fresh process and wasm instance.
async function measureRule(rule, modelPath, name, trees) {
  const all = uf.Dataset.fromCSV(readFileSync(join(root, 'datasets', `${name}.csv`)));
  const test = all.subset(testRows(all.numRows));
  const truth = test.labels();
  const forest = uf.Forest.fromBytes(new Uint8Array(readFileSync(modelPath)));
  forest.predict(test); // warm-up: the full vote's code is compiled and optimised before timing
  const m0 = { rss: rssMB(), ...wasm() };
  const row = { rule, rssBeforeMB: m0.rss, heapBeforeMB: m0.heapMB, inUseBeforeMB: m0.inUseMB };
  let t0 = performance.now();
  try {
    if (rule === 'full') {
      const full = forest.predict(test);
      row.firstMs = performance.now() - t0;
      t0 = performance.now();
      forest.predict(test);
      row.secondMs = performance.now() - t0;
      Object.assign(row, { meanTrees: forest.numTrees, disagreement: 0, accuracy: accuracyOf(full.classIndex, truth) });
    } else {
      const options = { rule, alpha, compare: false };
      forest.predict(test, options);
      row.firstMs = performance.now() - t0;
      t0 = performance.now();
      forest.predict(test, options);
      row.secondMs = performance.now() - t0;
      const compared = forest.predict(test, { rule, alpha, compare: true });
      row.meanTrees = compared.meanTrees;
      row.disagreement = compared.disagreement;
      row.accuracy = accuracyOf(compared.classIndex, truth);
    }
  } catch (e) {
    row.failedAfterMs = performance.now() - t0;
    row.error = errorOf(e);
  }
  row.rssAfterMB = rssMB();
  row.peakRssMB = maxRssMB();
  try {
    Object.assign(row, { heapAfterMB: wasm().heapMB, inUseAfterMB: wasm().inUseMB });
  } catch { /* the instance aborted: its memory is gone */ }
  return row;
}

const childRule = value('child-rule', null);
if (childRule !== null) {
  const row = await measureRule(childRule, value('model'), value('dataset'), Number(value('trees')));
  console.log(JSON.stringify(row));
  process.exit(0);
}

const timeoutS = Number(value('timeout', '900'));
const started = performance.now();
const load = [loadavg()[0]];
const report = [];
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-scale-'));
try {
  for (const { name, trees } of cases) {
    const all = uf.Dataset.fromCSV(readFileSync(join(root, 'datasets', `${name}.csv`)));
    const train = all.subset([...Array(all.numRows).keys()].filter((i) => i % 3 !== 2));
    log(`${name}: training ${trees} trees on ${train.numRows} rows ...`);
    const before = { rss: rssMB(), ...wasm() };
    const t0 = performance.now();
    let lastShown = t0;
    const forest = uf.trainForest(train, {
      trees, seed, onProgress: (done, total) => {
        if (performance.now() - lastShown >= 10000) { // a line every 10 s
          lastShown = performance.now();
          log(`  ${done}/${total} trees, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        }
      },
    });
    const trainMs = performance.now() - t0;
    const bytes = forest.toBytes();
    const modelPath = join(tmp, `${name}_${trees}.urnf`);
    writeFileSync(modelPath, bytes);
    const entry = {
      dataset: name, classes: forest.numClasses, trees, trainRows: train.numRows,
      testRows: testRows(all.numRows).length, trainMs, modelBytes: bytes.length, nodes: forest.numNodes,
      trainMemory: { rssBeforeMB: before.rss, rssAfterMB: rssMB(), heapBeforeMB: before.heapMB, heapAfterMB: wasm().heapMB },
      rules: [],
    };
    forest.dispose();
    train.dispose();
    all.dispose();
    report.push(entry);
    log(`${name}: trained in ${(trainMs / 1000).toFixed(1)} s, ${bytes.length} model bytes`);
    for (const rule of ['full', ...rules]) {
      const args = [fileURLToPath(import.meta.url), '--child-rule', rule, '--model', modelPath, '--dataset', name,
        '--trees', String(trees), '--alpha', String(alpha), '--dist', dist];
      const t1 = performance.now();
      const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26, timeout: timeoutS * 1000 });
      const processMs = performance.now() - t1;
      let row;
      try {
        row = JSON.parse(child.stdout.trim().split('\n').pop());
      } catch {
        const why = child.error?.code === 'ETIMEDOUT' ? { code: 'Timeout', message: `killed after ${timeoutS} s` }
          : { code: child.signal ?? `Exit${child.status}`, message: String(child.stderr).trim().slice(-300) };
        row = { rule, error: why };
      }
      row.processMs = processMs;
      log(`  ${rule}: ${row.error ? row.error.code : `${row.meanTrees.toFixed(2)} trees`}, first predict ` +
        `${f(row.firstMs ?? row.failedAfterMs, 1)} ms, peak RSS ${f(row.peakRssMB, 0)} MB`);
      entry.rules.push(row);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
load.push(loadavg()[0]);

const lines = [
  `alpha ${alpha}, seed ${seed}, rows i % 3 != 2 train, i % 3 == 2 test; load average (1 min) ` +
    `${load.map((x) => x.toFixed(2)).join(' -> ')}; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
  '',
  '| data set | classes | T | rule | first predict ms | second predict ms | mean trees | disagreement % | accuracy | ' +
    'peak RSS MB | wasm heap before → after MB | wasm in use Δ MB | error |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const e of report) {
  for (const r of e.rules) {
    const first = r.error ? (r.failedAfterMs == null ? '' : `(failed after ${f(r.failedAfterMs, 1)})`) : f(r.firstMs, 2);
    const heap = r.heapBeforeMB == null ? '' : `${f(r.heapBeforeMB, 0)} → ${f(r.heapAfterMB, 0)}`;
    const inUse = r.inUseAfterMB == null || r.inUseBeforeMB == null ? '' : f(r.inUseAfterMB - r.inUseBeforeMB, 2);
    lines.push(`| ${e.dataset} | ${e.classes} | ${e.trees} | ${r.rule} | ${first} | ${f(r.secondMs, 2)} | ` +
      `${f(r.meanTrees, 2)} | ${r.disagreement == null ? '' : f(100 * r.disagreement, 2)} | ${f(r.accuracy, 4)} | ` +
      `${f(r.peakRssMB, 0)} | ${heap} | ${inUse} | ` +
      `${r.error ? `${r.error.code}: ${r.error.message.slice(0, 120).replaceAll('|', '/')}` : ''} |`);
  }
}
lines.push('');
lines.push('Training (wasm, trainForest): ' + report.map((e) =>
  `${e.dataset} T = ${e.trees}: ${(e.trainMs / 1000).toFixed(1)} s, model ${(e.modelBytes / MB).toFixed(1)} MB, ` +
  `wasm heap ${f(e.trainMemory.heapAfterMB, 0)} MB`).join('; ') + ` (heap sizes cumulative over the cases); ` +
  `peak RSS of the training process ${f(maxRssMB(), 0)} MB`);
lines.push('');
if (asJson) {
  console.log(JSON.stringify({ alpha, seed, rules, loadAverage: load, totalMs: performance.now() - started, results: report }, null, 1));
}
console.log(lines.join('\n'));
