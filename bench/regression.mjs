// No regression, one run against a previous build (not a test): builds another git ref's wasm in a
// temporary worktree (bench/.cache/regression-<sha>/: `git worktree add --detach`, `scripts/build.sh
// wasm`; removed afterwards unless --keep) and measures both builds in this Node process, round by
// round, the order of the two builds alternating between rounds:
//
//   - training: trainForest, T = 101 (rf, one thread), on wdbc and vehicle (real data);
//   - full vote: predict() of 5,000 twonorm rows by a 101-tree forest (ns per tree per row);
//   - halted share: trees used / T, the halted call's time, and halted ms / full ms of the same build in
//     the same round (rules siba and hyper at alpha 0.99, wdbc and vehicle: even rows train, odd rows
//     test); when the full vote got faster and the halted call did not as much, the last rises while
//     the halted call is no slower: both are printed and flagged;
//   - table building: haltingTable({rule, alpha: 0.99}) for hyper and siba, wdbc at T = 101 and 1001,
//     vehicle at T = 101.
//
// The forests of the prediction, halting and table cases are trained once by the new build and loaded
// into both (Forest.fromBytes), so both builds walk and tabulate the same trees. Each figure is
// the median over rounds of the per-round ratio new / old; a ratio above --threshold (default 1.10) is
// flagged as a regression. Also reported: whether both builds train byte-identical models from the
// same seed and give the same halted labels and trees used (behaviour is meant to stay as it was).
//
//   node bench/regression.mjs [--ref REF] [--rounds 7] [--threshold 1.10] [--keep] [--json]
//
// REF: a commit, tag or branch; default: the newest tag reachable from HEAD, else HEAD~8 (first
// parents). Needs emcmake (emscripten) and /usr/bin/python3 (bench/twonorm.py); JOBS sets the build's
// parallelism as for scripts/build.sh. Exit code 1 when a figure is flagged.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { flag, numberOption, stringOption } from './args.mjs';
import { cpuMsPerCall, median } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALPHA = 0.99;
const RULES = ['siba', 'hyper'];
const log = (...m) => console.error('[regression]', ...m);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const git = (...args) => String(execFileSync('git', args, { cwd: root })).trim();

/** The ref to compare with: `ref` when given, else the newest tag reachable from HEAD, else HEAD~8. */
export function defaultRef(ref) {
  if (ref) return ref;
  try {
    return git('describe', '--tags', '--abbrev=0', 'HEAD');
  } catch {
    return 'HEAD~8';
  }
}

/** Builds `sha`'s wasm in a worktree under bench/.cache; returns its folder (dist/ inside). */
function buildRef(sha, dir) {
  if (existsSync(join(dir, 'dist/index.js'))) {
    log(`reusing ${dir}`);
    return;
  }
  mkdirSync(dirname(dir), { recursive: true });
  if (!existsSync(dir)) git('worktree', 'add', '--detach', dir, sha);
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) symlinkSync(resolve(root, 'node_modules'), modules);
  const launcher = process.env.CMAKE_CXX_COMPILER_LAUNCHER ?? 'ccache';
  const opts = { cwd: dir, stdio: ['ignore', 2, 2] };
  log(`building ${sha.slice(0, 9)}'s wasm in ${dir} (a few minutes) ...`);
  execFileSync('emcmake', ['cmake', '-S', '.', '-B', 'build-wasm', '-DCMAKE_BUILD_TYPE=Release',
    `-DCMAKE_CXX_COMPILER_LAUNCHER=${launcher}`], opts);
  execFileSync('bash', ['scripts/build.sh', 'wasm'], opts);
}

function removeWorktree(dir) {
  try {
    git('worktree', 'remove', '--force', dir);
  } catch (e) {
    log(`git worktree remove failed (${e.message.split('\n')[0]}); removing the folder`);
    rmSync(dir, { recursive: true, force: true });
    git('worktree', 'prune');
  }
}

/** Even rows (train) and odd rows (test) of datasets/<name>.csv, as CSV texts. */
function halves(name) {
  const [header, ...body] = readFileSync(join(root, 'datasets', `${name}.csv`), 'utf8').trim().split(/\r?\n/);
  const part = (k) => [header, ...body.filter((_, i) => i % 2 === k)].join('\n') + '\n';
  return { all: [header, ...body].join('\n') + '\n', train: part(0), test: part(1) };
}

function twonormCsv(rows, seed) {
  const dir = mkdtempSync(join(tmpdir(), 'urnforest-regression-'));
  try {
    const path = join(dir, 't.csv');
    execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), String(seed), path, '20']);
    return readFileSync(path, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sameArray = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Measures `builds` ({old: distDir, new: distDir}) round by round; returns the report (see the file's
 * comment). `rounds` >= 1.
 */
export async function measure({ builds, rounds, threshold }) {
  const api = {};
  for (const [name, dist] of Object.entries(builds)) {
    api[name] = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
    await api[name].init();
  }
  const names = Object.keys(builds);
  const data = { wdbc: halves('wdbc'), vehicle: halves('vehicle') };
  const tn = { train: twonormCsv(5000, 7), test: twonormCsv(5000, 9) };
  const sets = {}; // per build: Dataset handles
  for (const b of names) {
    const D = api[b].Dataset;
    sets[b] = { wdbc: D.fromCSV(data.wdbc.all), vehicle: D.fromCSV(data.vehicle.all),
      wdbcTest: D.fromCSV(data.wdbc.test), vehicleTest: D.fromCSV(data.vehicle.test), tnTest: D.fromCSV(tn.test) };
  }
  // The shared forests, trained by the new build, loaded into both.
  const N = api.new;
  const trainOn = (csv, trees) => {
    const d = N.Dataset.fromCSV(csv);
    const f = N.trainForest(d, { ensemble: 'rf', trees, seed: 1 });
    const bytes = f.toBytes();
    f.dispose();
    d.dispose();
    return bytes;
  };
  log('training the shared forests ...');
  const bytes = { tn: trainOn(tn.train, 101), wdbcHalf: trainOn(data.wdbc.train, 101),
    vehicleHalf: trainOn(data.vehicle.train, 101), wdbc101: trainOn(data.wdbc.all, 101),
    wdbc1001: trainOn(data.wdbc.all, 1001), vehicle101: trainOn(data.vehicle.all, 101) };
  const forests = {};
  for (const b of names) {
    forests[b] = Object.fromEntries(Object.entries(bytes).map(([k, v]) => [k, api[b].Forest.fromBytes(v)]));
  }
  const report = { builds, rounds, alpha: ALPHA, threshold, load_start: load(), checks: {}, cases: [] };
  // Behaviour checks: same model bytes from the same seed, same halted answers.
  const modelBytes = {};
  for (const b of names) {
    const f = api[b].trainForest(sets[b].wdbc, { ensemble: 'rf', trees: 101, seed: 1 });
    modelBytes[b] = f.toBytes();
    f.dispose();
  }
  report.checks.same_trained_model_bytes = sameArray(modelBytes.old, modelBytes.new);
  const halted = [];
  for (const [set, model] of [['wdbcTest', 'wdbcHalf'], ['vehicleTest', 'vehicleHalf']]) {
    for (const rule of RULES) {
      const out = names.map((b) => forests[b][model].predict(sets[b][set], { rule, alpha: ALPHA }));
      halted.push(sameArray(Array.from(out[0].labels), Array.from(out[1].labels)) &&
        sameArray(Array.from(out[0].treesUsed), Array.from(out[1].treesUsed)));
    }
  }
  report.checks.same_halted_labels_and_trees = halted.every(Boolean);

  // The cases: each a function of the build giving one number per round (lower is better), or, with
  // `parts`, an object of them (one row each: measured together, as halted and full time in one round).
  const cases = [];
  for (const name of ['wdbc', 'vehicle']) {
    cases.push({ group: 'training', name: `${name}, T = 101`, unit: 'CPU ms', f: (b) =>
      cpuMsPerCall(() => api[b].trainForest(sets[b][name], { ensemble: 'rf', trees: 101, seed: 1 }).dispose(), 200) });
  }
  cases.push({ group: 'full vote', name: 'twonorm 5,000 rows, T = 101', unit: 'CPU ns per tree per row',
    f: (b) => (1e6 * cpuMsPerCall(() => forests[b].tn.predict(sets[b].tnTest))) / (101 * 5000) });
  for (const [name, set, model] of [['wdbc', 'wdbcTest', 'wdbcHalf'], ['vehicle', 'vehicleTest', 'vehicleHalf']]) {
    for (const rule of RULES) {
      const opts = { rule, alpha: ALPHA };
      for (const b of names) forests[b][model].predict(sets[b][set], opts); // builds and caches the table
      const meanTrees = forests.new[model].predict(sets.new[set], opts).meanTrees;
      const share = (meanTrees / 101).toFixed(3);
      cases.push({ group: 'halted share', tree_share: meanTrees / 101, parts: {
        halted: { name: `${name} ${rule}: halted call (trees used ${share} of T)`, unit: 'CPU ms' },
        share: { name: `${name} ${rule}: halted ms / full ms of the same build`, unit: 'ratio' },
      }, f: (b) => {
        const full = cpuMsPerCall(() => forests[b][model].predict(sets[b][set]));
        const haltedMs = cpuMsPerCall(() => forests[b][model].predict(sets[b][set], opts));
        return { halted: haltedMs, share: haltedMs / full };
      } });
    }
  }
  for (const [name, model] of [['wdbc', 'wdbc101'], ['wdbc', 'wdbc1001'], ['vehicle', 'vehicle101']]) {
    for (const rule of RULES) {
      cases.push({ group: 'table building', name: `${name} ${rule}, T = ${model.replace(/\D+/, '')}`, unit: 'CPU ms',
        f: (b) => cpuMsPerCall(() => forests[b][model].haltingTable({ rule, alpha: ALPHA }).dispose()) });
    }
  }
  // One row per case, or per part of a case with parts.
  const rows = cases.flatMap((c) => (c.parts ? Object.entries(c.parts).map(([key, p]) => ({ c, key, ...p }))
    : [{ c, name: c.name, unit: c.unit }]));
  const values = rows.map(() => ({ old: [], new: [], ratio: [] }));
  for (let r = 0; r < rounds; r++) {
    log(`round ${r + 1} / ${rounds} (load ${load()[0]}) ...`);
    for (const c of cases) {
      const got = {};
      for (const b of r % 2 ? [...names].reverse() : names) got[b] = c.f(b);
      rows.forEach((row, i) => {
        if (row.c !== c) return;
        const at = (b) => (row.key === undefined ? got[b] : got[b][row.key]);
        values[i].old.push(at('old'));
        values[i].new.push(at('new'));
        values[i].ratio.push(at('new') / at('old'));
      });
    }
  }
  rows.forEach((row, i) => {
    const ratio = median(values[i].ratio);
    report.cases.push({ group: row.c.group, case: row.name, unit: row.unit, old: median(values[i].old),
      new: median(values[i].new), new_over_old: ratio, per_round: values[i].ratio.map((x) => Number(x.toFixed(3))),
      ...(row.c.tree_share === undefined ? {} : { tree_share: row.c.tree_share }), flagged: ratio > threshold });
  });
  for (const b of names) {
    for (const f of Object.values(forests[b])) f.dispose();
    for (const d of Object.values(sets[b])) d.dispose();
  }
  report.load_end = load();
  report.flagged = report.cases.filter((c) => c.flagged).map((c) => `${c.group}: ${c.case}`);
  return report;
}

/** Builds `ref` (see the file's comment), measures it against this checkout's dist/, cleans up. */
export async function regression({ ref, rounds = 7, threshold = 1.1, keep = false } = {}) {
  const given = defaultRef(ref);
  const sha = git('rev-parse', '--verify', `${given}^{commit}`);
  const dir = join(root, 'bench/.cache', `regression-${sha.slice(0, 12)}`);
  const started = performance.now();
  try {
    buildRef(sha, dir);
    const buildSeconds = (performance.now() - started) / 1000;
    const report = await measure({ builds: { old: join(dir, 'dist'), new: join(root, 'dist') }, rounds, threshold });
    return { ref: given, sha, head: git('rev-parse', 'HEAD'), build_seconds: Number(buildSeconds.toFixed(1)), ...report };
  } finally {
    if (!keep) removeWorktree(dir);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await regression({ ref: stringOption('ref', undefined), rounds: numberOption('rounds', 7),
    threshold: numberOption('threshold', 1.1), keep: flag('keep') });
  if (flag('json')) {
    console.log(JSON.stringify(report));
  } else {
    console.log(`new (${report.head.slice(0, 9)}) against ${report.ref} (${report.sha.slice(0, 9)}), ${report.rounds} rounds, ` +
      `load average ${report.load_start.join(' / ')} -> ${report.load_end.join(' / ')}`);
    for (const c of report.cases) {
      console.log(`${c.group} | ${c.case} | old ${c.old.toPrecision(4)} | new ${c.new.toPrecision(4)} ${c.unit} | ` +
        `new / old ${c.new_over_old.toFixed(3)}${c.flagged ? ' REGRESSION' : ''}`);
    }
    console.log(`checks: ${JSON.stringify(report.checks)}`);
  }
  if (report.flagged.length) {
    log(`flagged (> ${report.threshold}): ${report.flagged.join('; ')}`);
    process.exitCode = 1;
  }
}
