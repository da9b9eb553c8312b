// urnforest vs YDF's own WebAssembly port (npm ydf-training 0.0.1, ydf-inference 0.0.4), side by side
// in this Node process (both are wasm in V8), on twonorm. Not a test.
//
//   node bench/ydf_peer.mjs [--rounds 3] [--wide-rounds 1] [--no-wide] [--docs]
//
// ydf-training 0.0.1 exposes no hyperparameter: `new RandomForestLearner(label, task).train(data)` runs
// YDF's defaults (num_trees 300, max_depth 16 = 15 levels below the root, min_examples 5,
// num_candidate_attributes 0 = sqrt of the features, bootstrap, winner_take_all, OOB evaluation). So
// urnforest trains twice per round: `rf101` = bench/run.mjs's forest (101 trees, mtry floor(sqrt M),
// grown out, minLeaf 1) and `rf300` = YDF's settings (300 trees, same mtry, maxDepth 15, minLeaf 5).
// Per round, interleaved: each trainer's time on a Dataset already in memory (YDF: the public
// train(columns), which includes its JS -> wasm column copy), the test error, and prediction time on the
// 5,000 test rows: urnforest's full vote (`predict(test)`) and the README's halted call
// (`predict(test, {rule: 'hyper', alpha: 0.99})`), YDF's `predict(columns)` in ydf-training and in
// ydf-inference (the model saved by ydf-training and loaded with loadModelFromZipBlob). Reported:
// medians over rounds; ratios are medians of the same run (urnforest / YDF < 1: urnforest faster).
// Prints one JSON report; --docs rewrites docs/benchmarks.md between <!-- ydf-peer:begin --> and
// <!-- ydf-peer:end -->. bench/run.mjs runs it as a section (skipped when the packages are missing).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { commandLineArgs, flag, numberOption } from './args.mjs';
import { median, msPerCall } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALPHA = 0.99;
const YDF_TREES = 300;  // ydf-training's fixed num_trees
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const ratio = (a, b) => (a == null || b == null || b === 0 ? null : a / b);

/** The two YDF modules, or null with the reason when the packages are missing. */
async function loadYdf() {
  const require = createRequire(join(root, 'package.json'));
  try {
    // YDF logs every 10 trees on stderr. Each module gets its own object: Emscripten's factory makes
    // the object it is given into the module, and two modules on one object clash.
    const quiet = () => ({ print: () => {}, printErr: () => {} });
    const training = await require('ydf-training')(quiet());
    const inference = await require('ydf-inference')(quiet());
    // Model.save() and loadModelFromZipBlob use a global JSZip (a <script> in their browser examples).
    globalThis.JSZip ??= require('jszip');
    return { training, inference };
  } catch (e) {
    return { skipped: `ydf-training / ydf-inference not installed (bench/setup.sh installs them): ${e.message.split('\n')[0]}` };
  }
}

/** CSV text -> { columns: {name: number[] | string[]}, features: {name: number[]}, labels, x32 } */
function columnsOf(text) {
  const [header, ...rows] = text.trim().split('\n');
  const names = header.split(',');
  const label = names[names.length - 1];
  const columns = Object.fromEntries(names.map((n) => [n, []]));
  const d = names.length - 1;
  const x32 = new Float32Array(rows.length * d);
  rows.forEach((r, i) => {
    const v = r.split(',');
    for (let j = 0; j < d; j++) {
      columns[names[j]].push(Number(v[j]));
      x32[i * d + j] = Number(v[j]);
    }
    columns[label].push(v[d]);
  });
  const { [label]: labels, ...features } = columns;
  return { label, columns, features, labels, x32, rows: rows.length, cols: d, featureNames: names.slice(0, d) };
}

/** Milliseconds of CPU (user + system) and wall clock of f(). */
function timed(f) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = f();
  const wall = performance.now() - start;
  const c = process.cpuUsage(cpu);
  return { value, ms: wall, cpu_ms: (c.user + c.system) / 1000 };
}

/** Awaits f() with console.log muted: YDF's save() and loadModelFromZipBlob() print file names. */
async function muted(f) {
  const log = console.log;
  console.log = () => {};
  try {
    return await f();
  } finally {
    console.log = log;
  }
}

const errorRate = (predicted, truth) => predicted.reduce((s, p, i) => s + (p !== truth[i] ? 1 : 0), 0) / truth.length;

/**
 * Runs the comparison; returns the report ({skipped} when the packages are missing).
 * options: rounds (5,000 x 20), wideRounds (20,000 x 50), wide (false: skip that case), log.
 */
export async function ydfPeer({ rounds = 3, wideRounds = 1, wide = true, log = () => {} } = {}) {
  const ydf = await loadYdf();
  if (ydf.skipped) return { skipped: ydf.skipped };
  const { init, Dataset } = await import(join(root, 'dist/index.js'));
  const uf = await init();
  const report = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, load_start: load() },
    packages: Object.fromEntries(['ydf-training', 'ydf-inference'].map((p) => [p,
      JSON.parse(readFileSync(join(root, 'node_modules', p, 'package.json'), 'utf8')).version])),
    options: { rounds, wide_rounds: wideRounds, alpha: ALPHA, ydf_trees: YDF_TREES },
    cases: [],
  };
  const tmp = mkdtempSync(join(tmpdir(), 'urnforest-ydf-'));
  try {
    const twonorm = (rows, seed, d) => {
      const out = join(tmp, `twonorm_${rows}_${seed}_${d}.csv`);
      execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), String(seed), out, String(d)]);
      return readFileSync(out, 'utf8');
    };
    // The training rows of bench/run.mjs (same generator arguments); test rows from other generator seeds.
    const cases = [{ name: 'twonorm 5000 x 20', train: [5000, 7, 20], test: [5000, 9, 20], rounds }];
    if (wide) cases.push({ name: 'twonorm 20000 x 50', train: [20000, 10, 50], test: [5000, 11, 50], rounds: wideRounds });
    for (const c of cases) {
      log(`ydf peer: ${c.name}, ${c.rounds} round(s) ...`);
      const trainText = twonorm(...c.train);
      const testText = twonorm(...c.test);
      const train = columnsOf(trainText);
      const test = columnsOf(testText);
      const data = Dataset.fromCSV(trainText);
      const testData = Dataset.fromCSV(testText);
      const mtry = Math.floor(Math.sqrt(train.cols));
      const settings = {
        rf101: { ensemble: 'rf', trees: 101, mtry },
        rf300: { ensemble: 'rf', trees: YDF_TREES, mtry, maxDepth: 15, minLeaf: 5 },
      };
      const runs = { ydf: [] };
      for (const k of Object.keys(settings)) runs[k] = [];
      for (let r = 0; r < c.rounds; r++) {
        for (const [k, s] of Object.entries(settings)) {
          const t = timed(() => uf.trainForest(data, { ...s, seed: r + 1 }));
          const forest = t.value;
          const error = errorRate(forest.predict(testData).labels, test.labels);
          const full = msPerCall(() => forest.predict(testData));
          const halted = msPerCall(() => forest.predict(testData, { rule: 'hyper', alpha: ALPHA }));
          const meanTrees = forest.predict(testData, { rule: 'hyper', alpha: ALPHA }).meanTrees;
          // The caller's rows as a typed array: conversion to a Dataset + full vote + dispose.
          const withConversion = msPerCall(() => {
            const ds = Dataset.fromArrays(test.x32, { rows: test.rows, cols: test.cols, featureNames: test.featureNames });
            forest.predict(ds);
            ds.dispose();
          });
          runs[k].push({ train_ms: t.ms, train_cpu_ms: t.cpu_ms, nodes: forest.numNodes, error,
            full_ms: full, halted_ms: halted, halted_mean_trees: meanTrees, full_with_conversion_ms: withConversion });
          forest.dispose();
        }
        const t = timed(() => new ydf.training.RandomForestLearner(train.label, 'CLASSIFICATION').train(train.columns));
        const model = t.value;
        const classes = model.getLabelClasses();  // binary: predict() gives P(classes[1]) per row
        const nodes = Number(/Total number of nodes: (\d+)/.exec(model.describe())?.[1] ?? NaN);
        const proba = model.predict(test.features);
        const error = errorRate(proba.map((p) => (p > 0.5 ? classes[1] : classes[0])), test.labels);
        const trainingPredict = msPerCall(() => model.predict(test.features));
        const zip = Buffer.from(await (await muted(() => model.save())).arrayBuffer());
        model.unload();
        const l = performance.now();
        const served = await muted(() => ydf.inference.loadModelFromZipBlob(zip));
        const loadMs = performance.now() - l;
        const servedProba = served.predict(test.features);
        const inferencePredict = msPerCall(() => served.predict(test.features));
        const agree = servedProba.every((p, i) => Math.abs(p - proba[i]) < 1e-6);
        served.unload();
        runs.ydf.push({ train_ms: t.ms, train_cpu_ms: t.cpu_ms, nodes, error, training_predict_ms: trainingPredict,
          inference_predict_ms: inferencePredict, inference_load_ms: loadMs, model_zip_bytes: zip.length,
          inference_equals_training: agree });
        log(`  round ${r + 1}: ydf ${t.ms.toFixed(0)} ms, urnforest rf300 ${runs.rf300[r].train_ms.toFixed(0)} ms, ` +
          `rf101 ${runs.rf101[r].train_ms.toFixed(0)} ms`);
      }
      data.dispose();
      testData.dispose();
      const med = (list, key) => median(list.map((x) => x[key]));
      const summary = (k) => Object.fromEntries(Object.keys(runs[k][0]).filter((key) => typeof runs[k][0][key] === 'number')
        .map((key) => [key, med(runs[k], key)]));
      const m = { rf101: summary('rf101'), rf300: summary('rf300'), ydf: summary('ydf') };
      const ratios = {};
      for (const k of ['rf101', 'rf300']) {
        const x = runs[k];
        const y = runs.ydf;
        // Ratio within each round, then the median (as onnx_peer.mjs).
        const within = (fx, fy) => median(x.map((e, i) => ratio(fx(e), fy(y[i]))));
        const trees = settings[k].trees;
        ratios[k] = {
          train_over_ydf: within((e) => e.train_ms, (e) => e.train_ms),
          train_per_tree_over_ydf: within((e) => e.train_ms / trees, (e) => e.train_ms / YDF_TREES),
          full_over_ydf_inference: within((e) => e.full_ms, (e) => e.inference_predict_ms),
          halted_over_ydf_inference: within((e) => e.halted_ms, (e) => e.inference_predict_ms),
          full_with_conversion_over_ydf_inference: within((e) => e.full_with_conversion_ms, (e) => e.inference_predict_ms),
          full_over_ydf_training_predict: within((e) => e.full_ms, (e) => e.training_predict_ms),
        };
      }
      const nsPerTreeRow = (ms, trees) => (1e6 * ms) / (trees * test.rows);
      report.cases.push({
        case: c.name, test_rows: test.rows, mtry, settings, rounds: c.rounds, medians: m, ratios,
        ns_per_tree_row: {
          rf101_full: nsPerTreeRow(m.rf101.full_ms, 101), rf300_full: nsPerTreeRow(m.rf300.full_ms, YDF_TREES),
          ydf_inference: nsPerTreeRow(m.ydf.inference_predict_ms, YDF_TREES),
          ydf_training_predict: nsPerTreeRow(m.ydf.training_predict_ms, YDF_TREES),
        },
        inference_equals_training: runs.ydf.every((e) => e.inference_equals_training),
        runs,
      });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  report.machine.load_end = load();
  return report;
}

/** Rewrites the block between <!-- ydf-peer:begin --> and <!-- ydf-peer:end --> of docs/benchmarks.md. */
export function writeYdfPeerDocs(r, command = 'node bench/ydf_peer.mjs --docs') {
  const f = (x, d = 2) => (x == null ? 'n/a' : Number(x).toFixed(d));
  const ms = (x) => (x == null ? 'n/a' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const pct = (x) => (x == null ? 'n/a' : `${(100 * x).toFixed(2)} %`);
  const out = [];
  out.push(`Generated by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${r.machine.cpus} × ` +
    `${r.machine.cpu}, Node ${r.machine.node}, load average ${r.machine.load_start.join(' / ')} at the start and ` +
    `${r.machine.load_end.join(' / ')} at the end (1 / 5 / 15 min); ydf-training ${r.packages['ydf-training']}, ` +
    `ydf-inference ${r.packages['ydf-inference']}. Medians over rounds, every trainer in each round; ratios ` +
    'are medians of the per-round ratios (< 1: urnforest faster). One thread on both sides (YDF\'s CPU time ' +
    'is within its wall time below).', '');
  out.push('| case (rounds) | trainer | nodes | train ms (CPU ms) | ms / tree | test error | full vote ms | ns / tree / row | ' +
    'halted hyper ms (mean trees) | train / YDF | per tree / YDF | full / YDF-inference | halted / YDF-inference |');
  out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const n = (x) => (x == null || Number.isNaN(x) ? 'n/a' : Math.round(x).toLocaleString('en-US'));
  for (const c of r.cases) {
    const y = c.medians.ydf;
    out.push(`| ${c.case} (${c.rounds}) | YDF RF, 300 trees (fixed defaults) | ${n(y.nodes)} | ${ms(y.train_ms)} (${ms(y.train_cpu_ms)}) | ` +
      `${f(y.train_ms / 300, 1)} | ${pct(y.error)} | ${ms(y.inference_predict_ms)} (ydf-inference), ` +
      `${ms(y.training_predict_ms)} (ydf-training) | ${f(c.ns_per_tree_row.ydf_inference, 1)} | - | 1 | 1 | 1 | - |`);
    for (const k of ['rf300', 'rf101']) {
      const u = c.medians[k];
      const q = c.ratios[k];
      const label = k === 'rf300' ? 'urnforest, 300 trees, YDF\'s settings' : 'urnforest, 101 trees, grown out';
      out.push(`| | ${label} | ${n(u.nodes)} | ${ms(u.train_ms)} (${ms(u.train_cpu_ms)}) | ${f(u.train_ms / c.settings[k].trees, 1)} | ` +
        `${pct(u.error)} | ${ms(u.full_ms)} | ${f(c.ns_per_tree_row[`${k}_full`], 1)} | ` +
        `${ms(u.halted_ms)} (${f(u.halted_mean_trees, 1)}) | ${f(q.train_over_ydf)} | ${f(q.train_per_tree_over_ydf)} | ` +
        `${f(q.full_over_ydf_inference)} | ${f(q.halted_over_ydf_inference)} |`);
    }
  }
  const c0 = r.cases[0];
  out.push('', `Test error on 5,000 rows of other seeds. The YDF model saved by ydf-training loads in ydf-inference ` +
    `(zip ${(c0.medians.ydf.model_zip_bytes / 1e6).toFixed(1)} MB on ${c0.case}, load ${ms(c0.medians.ydf.inference_load_ms)} ms) ` +
    `and predicts the same probabilities: ${r.cases.every((c) => c.inference_equals_training) ? 'yes' : 'NO'}. ` +
    'YDF\'s `predict(columns)` copies the rows value by value into wasm inside the call; urnforest\'s ' +
    '`predict(test)` reads a `Dataset` already in wasm. With the conversion in the call ' +
    '(`Dataset.fromArrays(Float32Array)` + full vote + `dispose()`), urnforest 300 trees / YDF-inference = ' +
    r.cases.map((c) => `${f(c.ratios.rf300.full_with_conversion_over_ydf_inference)} (${c.case})`).join(', ') + '.');
  const path = join(root, 'docs/benchmarks.md');
  const text = readFileSync(path, 'utf8');
  const begin = '<!-- ydf-peer:begin -->';
  const end = '<!-- ydf-peer:end -->';
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/benchmarks.md lacks ${begin} ... ${end}`);
  writeFileSync(path, text.slice(0, i) + `${begin}\n${out.join('\n')}\n${end}` + text.slice(j + end.length));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await ydfPeer({ rounds: numberOption('rounds', 3), wideRounds: numberOption('wide-rounds', 1),
    wide: !flag('no-wide'), log: (...m) => console.error('[ydf]', ...m) });
  console.log(JSON.stringify(report, null, 1));
  if (!report.skipped && flag('docs')) writeYdfPeerDocs(report, `node bench/ydf_peer.mjs ${commandLineArgs().join(' ')}`);
}
