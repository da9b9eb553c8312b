// Halted soft modes of an imported forest against its full soft prediction, in wasm (not a test).
//
//   node bench/imported_halting.mjs --model M.onnx --data D.csv [--rounds 7] [--alpha 0.99]
//        [--dist dist] [--before DIR]
//
// D.csv: a header, then rows whose first cells are the model's inputs in order (quotes stripped;
// an empty or non-numeric cell reads -1, as the fixtures' missing codes), tiled to 1,000 rows; a
// voting forest is calibrated on the first half of the data rows. Per round, alternating the
// order: forest.predict (full soft vote), rule 'alpha1' (the exact early exit) and rule 'margin'
// at --alpha, each timed in this process's CPU time (process.cpuUsage) over >= 30 ms of calls.
// With --before DIR (another build's dist/), both builds run in this process, round by round, so
// their ratios are measured under the same load. Prints one JSON report: per build and mode the
// median and quartiles over rounds of (mode's CPU time / full prediction's CPU time in the round),
// the mean trees used and the labels' agreement with the full prediction.
import { readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { numberOption, stringOption } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = 1000;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU milliseconds per call of f after a warm-up (V8 tiers wasm up at calls), over >= 30 ms. */
function cpuMsPerCall(f) {
  for (let i = 0; i < 3; i++) f();
  let calls = 0;
  const start = cpuMs();
  let elapsed = 0;
  do {
    f();
    calls++;
    elapsed = cpuMs() - start;
  } while (elapsed < 30);
  return elapsed / calls;
}

const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.round(q * (s.length - 1))];
  return [at(0.25), at(0.5), at(0.75)].map((x) => Number(x.toFixed(3)));
};

function csvRows(path, width) {
  const lines = readFileSync(path, 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '');
  const out = new Float32Array(lines.length * width);
  lines.forEach((line, r) => {
    const cells = line.split(',');
    for (let f = 0; f < width; f++) {
      const cell = (cells[f] ?? '').replaceAll('"', '').trim();
      const v = Number(cell);
      out[r * width + f] = cell === '' || !Number.isFinite(v) ? -1 : v;
    }
  });
  return { values: out, rows: lines.length };
}

async function setUp(dist, bytes, dataPath) {
  const api = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
  await api.init();
  const forest = api.Forest.fromONNX(bytes);
  const width = forest.numFeatures ?? forest.featureNames.length;
  const data = csvRows(dataPath, width);
  const batch = new Float32Array(ROWS * width);
  for (let r = 0; r < ROWS; r++) batch.set(data.values.subarray((r % data.rows) * width, (r % data.rows + 1) * width), r * width);
  const featureNames = forest.featureNames;
  const batchData = api.Dataset.fromArrays(batch, { rows: ROWS, cols: width, featureNames });
  const voting = forest.imported.kind === 'voting';
  if (voting) {
    const calibRows = Math.max(1, Math.floor(Math.min(ROWS, data.rows) / 2));
    forest.calibrate(api.Dataset.fromArrays(batch.subarray(0, calibRows * width), { rows: calibRows, cols: width, featureNames }));
  }
  return { forest, batchData, voting, trees: forest.numTrees };
}

async function main() {
  const model = stringOption('model', undefined);
  const dataPath = stringOption('data', undefined);
  if (!model || !dataPath) throw new Error('usage: --model M.onnx --data D.csv [--rounds N] [--alpha A] [--dist DIR] [--before DIR]');
  const rounds = numberOption('rounds', 7);
  const alpha = numberOption('alpha', 0.99);
  const bytes = new Uint8Array(readFileSync(model));
  const builds = { after: stringOption('dist', join(root, 'dist')) };
  const before = stringOption('before', undefined);
  if (before) builds.before = before;
  const report = { model, data: dataPath, rows: ROWS, alpha, rounds, builds: {} };
  const runs = {};
  for (const [name, dist] of Object.entries(builds)) {
    const s = await setUp(dist, bytes, dataPath);
    const full = s.forest.predict(s.batchData);
    const modes = { alpha1: { rule: 'alpha1', compare: false } };
    if (s.voting) modes.margin = { rule: 'margin', alpha, compare: false };
    const info = { trees: s.trees, modes: {} };
    for (const [mode, opts] of Object.entries(modes)) {
      const h = s.forest.predict(s.batchData, opts);
      info.modes[mode] = { tree_share: Number((h.meanTrees / s.trees).toFixed(4)),
        labels_differ_from_full: h.labels.reduce((n, x, i) => n + (x !== full.labels[i]), 0),
        trees_used_sum: Array.from(h.treesUsed ?? []).reduce((a, b) => a + b, 0), ratio: [] };
    }
    report.builds[name] = info;
    runs[name] = { s, modes, info };
  }
  const names = Object.keys(runs);
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      const { s, modes, info } = runs[name];
      const order = Object.keys(modes);
      const ms = {};
      const steps = [['full', () => s.forest.predict(s.batchData)], ...order.map((m) => [m, () => s.forest.predict(s.batchData, modes[m])])];
      for (const [key, f] of r % 2 ? steps.reverse() : steps) ms[key] = cpuMsPerCall(f);
      for (const m of order) info.modes[m].ratio.push(ms[m] / ms.full);
      (info.full_ms ??= []).push(ms.full);
    }
  }
  for (const { info } of Object.values(runs)) {
    info.full_ms = quartiles(info.full_ms);
    for (const m of Object.values(info.modes)) m.ratio = quartiles(m.ratio);
  }
  console.log(JSON.stringify(report, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
