// Cost per tree on shallow boosted trees, every peer in each round (not a test): XGBoost depth 6
// (bench/boosted_kernel.py: 300 trees on twonorm 5,000 x 20, 5,000 test rows), predicted by
//   - urnforest in WebAssembly (Forest.fromXGBoost, predict on a Dataset; this Node process),
//   - onnxruntime-web, wasm backend, one thread, on the same model's ONNX (this process),
//   - urnforest natively (build/bench_native scores: PredictScoresRows of the `urnforest import` model),
//   - xgboost's own Booster.inplace_predict, nthread 1 (bench/xgboost_time.py, /usr/bin/python3).
// Each timing repeats the call for >= 200 ms; the peers run one after the other in each round, their
// order rotating between rounds; figures are medians over rounds and ratios medians of the per-round
// ratios. Labels are compared: urnforest wasm = onnxruntime-web on every row, the class-1 count of
// each peer printed.
//
//   node bench/suite_boosted.mjs [--rounds 5] [--trees 300] [--json]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { flag, numberOption } from './args.mjs';
import { median } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (...m) => console.error('[boosted]', ...m);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const lastJson = (out) => JSON.parse(String(out).trim().split('\n').pop());

async function msPerCall(f) {
  for (let i = 0; i < 2; i++) await f(); // warm-up: V8 tiers wasm up at calls
  let calls = 0;
  const start = performance.now();
  let elapsed;
  do {
    await f();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < 200);
  return elapsed / calls;
}

/** The section's report (see the file's comment). */
export async function boosted({ rounds = 5, trees = 300 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'urnforest-boosted-'));
  try {
    log(`XGBoost depth 6, ${trees} trees: training and writing the model ...`);
    const py = lastJson(execFileSync('/usr/bin/python3', [join(root, 'bench/boosted_kernel.py'), dir, String(trees), '1']));
    const urnf = join(dir, 'xgb.urnf');
    execFileSync(join(root, 'build/urnforest'), ['import', '--xgboost', join(dir, 'xgb.model.json'), '--out', urnf]);
    const { init, Dataset, Forest } = await import(pathToFileURL(join(root, 'dist/index.js')).href);
    await init();
    const csv = readFileSync(join(dir, 'test.csv'), 'utf8');
    const forest = Forest.fromXGBoost(readFileSync(join(dir, 'xgb.model.json'), 'utf8'));
    const test = Dataset.fromCSV(csv, { target: null });
    const rows = test.numRows;
    const T = forest.numTrees;
    const ort = await import('onnxruntime-web');
    ort.env.wasm.numThreads = 1;
    const session = await ort.InferenceSession.create(readFileSync(join(dir, 'xgb.onnx')));
    const lines = csv.trim().split('\n').slice(1);
    const F = lines[0].split(',').length;
    const x = new Float32Array(lines.length * F);
    lines.forEach((line, r) => line.split(',').forEach((v, f) => { x[r * F + f] = Number(v); }));
    const ortRun = () => session.run({ X: new ort.Tensor('float32', x, [rows, F]) });
    const ours = Array.from(forest.predict(test).classIndex);
    const theirs = Array.from((await ortRun()).label.data, Number);
    const peers = {
      wasm: () => msPerCall(() => forest.predict(test)),
      onnxruntime_web: () => msPerCall(ortRun),
      native: async () => lastJson(execFileSync(join(root, 'build/bench_native'),
        ['scores', urnf, join(dir, 'test.csv'), '1'])).soft_ms[0],
      xgboost: async () => lastJson(execFileSync('/usr/bin/python3', [join(root, 'bench/xgboost_time.py'), dir, '1']))
        .xgboost_ms[0],
    };
    const names = Object.keys(peers);
    const ms = Object.fromEntries(names.map((n) => [n, []]));
    const loadStart = load();
    for (let r = 0; r < rounds; r++) {
      log(`round ${r + 1} / ${rounds} ...`);
      const order = names.map((_, i) => names[(i + r) % names.length]);
      for (const n of order) ms[n].push(await peers[n]());
    }
    const xgbPositive = lastJson(execFileSync('/usr/bin/python3', [join(root, 'bench/xgboost_time.py'), dir, '1'])).positive;
    forest.dispose();
    test.dispose();
    const ns = Object.fromEntries(names.map((n) => [n, (1e6 * median(ms[n])) / (T * rows)]));
    const perRound = (a, b) => median(ms[a].map((v, i) => v / ms[b][i]));
    return {
      case: `XGBoost depth 6, ${T} trees, twonorm 5,000 x 20, ${rows} test rows`, trees: T, rows,
      xgboost_version: py.xgboost, load_start: loadStart, load_end: load(), rounds,
      ns_per_tree_row: ns, runs_ms: ms,
      ratios: { wasm_over_onnxruntime_web: perRound('wasm', 'onnxruntime_web'), native_over_xgboost: perRound('native', 'xgboost'),
        wasm_over_native: perRound('wasm', 'native'), wasm_over_xgboost: perRound('wasm', 'xgboost') },
      labels: { wasm_equals_onnxruntime_web: ours.every((v, i) => v === theirs[i]),
        class1_rows: { wasm: ours.filter((v) => v === 1).length, onnxruntime_web: theirs.filter((v) => v === 1).length,
          xgboost: xgbPositive } },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await boosted({ rounds: numberOption('rounds', 5), trees: numberOption('trees', 300) });
  if (flag('json')) console.log(JSON.stringify(report));
  else console.log(JSON.stringify(report, null, 1));
}
