// Cost per tree on shallow boosted trees in WebAssembly (not a test): XGBoost depth 6 imported with
// Forest.fromXGBoost, predict() on 5,000 rows, beside onnxruntime-web (1 thread) on the same model,
// round by round; each timing repeats the call until >= 200 ms. One JSON line on stdout.
//
//   /usr/bin/python3 bench/boosted_kernel.py DIR 300 5      (model, ONNX, test rows, xgboost's own time)
//   node bench/boosted_kernel.mjs DIR [ROUNDS] [DIST...]    (DIST: a dist/ folder; default ./dist; the
//                                                            first is the baseline of the ratios)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [dir, roundsArg = '5', ...distArgs] = process.argv.slice(2);
const rounds = Number(roundsArg);
const dists = distArgs.length ? distArgs : ['dist'];
const msPerCall = async (f) => {
  let calls = 0;
  const start = performance.now();
  let elapsed;
  do { await f(); calls++; elapsed = performance.now() - start; } while (elapsed < 200);
  return elapsed / calls;
};
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

const csv = readFileSync(join(dir, 'test.csv'), 'utf8');
const model = readFileSync(join(dir, 'xgb.model.json'), 'utf8');
const peers = [];
for (const d of dists) {
  const { init, Dataset, Forest } = await import(pathToFileURL(resolve(d, 'index.js')).href);
  await init();
  const forest = Forest.fromXGBoost(model);
  const test = Dataset.fromCSV(csv, { target: null });
  peers.push({ name: d, trees: forest.numTrees, rows: test.numRows, run: () => forest.predict(test), ms: [] });
}
const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
const session = await ort.InferenceSession.create(readFileSync(join(dir, 'xgb.onnx')));
const lines = csv.trim().split('\n').slice(1);
const F = lines[0].split(',').length;
const x = new Float32Array(lines.length * F);
lines.forEach((line, r) => line.split(',').slice(0, F).forEach((v, f) => { x[r * F + f] = Number(v); }));
const ortRun = () => session.run({ X: new ort.Tensor('float32', x, [lines.length, F]) });
peers.push({ name: 'onnxruntime-web', trees: peers[0].trees, rows: lines.length, run: ortRun, ms: [] });

const labels = peers.slice(0, -1).map((p) => Array.from(p.run().classIndex));
const ortLabels = Array.from((await ortRun()).label.data, Number);
for (let r = 0; r < rounds; r++) for (const p of peers) p.ms.push(await msPerCall(p.run));
const base = median(peers[0].ms);
console.log(JSON.stringify({
  case: `XGBoost depth 6, ${peers[0].trees} trees, ${peers[0].rows} rows`, load: loadavg().map((v) => +v.toFixed(2)),
  same_labels: labels.every((l) => l.every((v, i) => v === labels[0][i])),
  labels_unlike_ort: labels[0].filter((v, i) => v !== ortLabels[i]).length,
  peers: peers.map((p) => ({ name: p.name, median_ms: +median(p.ms).toFixed(3),
    ns_per_tree_row: +((1e6 * median(p.ms)) / (p.trees * p.rows)).toFixed(2), over_first: +(median(p.ms) / base).toFixed(3),
    ms: p.ms.map((v) => +v.toFixed(2)) })),
}));
