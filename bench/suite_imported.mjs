// Halted modes of imported models against the full prediction of the same model, in wasm (not a test):
// bench/imported_halting.mjs (CPU time, 1,000 rows, rounds alternating the order; median of the
// per-round ratio halted / full) on the imported benchmark models:
//   - the 26-class forest with soft leaves (bench/many_classes_csv.py, `urnforest train --trees 100`,
//     `urnforest export --onnx`: every class weight of every leaf, as skl2onnx writes a forest);
//   - scikit-learn gradient boosting (bench/sklearn_gb_onnx.py, 100 stages, depth 3) on vehicle, wdbc, wine;
//   - the ONNX fixtures soybean (19 classes), iris, and XGBoost vehicle / wdbc (tests/fixtures/onnx).
// Modes: `alpha1` (the exact exit, every model) and `margin` at alpha 0.99 (voting forests, calibrated
// on half the data rows). Per mode: tree share (trees used / T), time ratio (halted / full; <= 1 is
// "at least as fast"), and where the share is under one half, time saving / tree saving
// ((1 - ratio) / (1 - share); >= 0.8 asked).
//
//   node bench/suite_imported.mjs [--rounds 7] [--json]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flag, numberOption } from './args.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (...m) => console.error('[imported]', ...m);
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, maxBuffer: 1 << 26 });
const fixture = (name) => join(root, 'tests/fixtures/onnx', `${name}.onnx`);
const dataset = (name) => join(root, 'datasets', `${name}.csv`);

/** The models (name, ONNX path, data path), written into `dir` where they are generated. */
function models(dir) {
  log('the 26-class forest: data, training (100 trees), export ...');
  const letters = join(dir, 'letters.csv');
  run('/usr/bin/python3', ['bench/many_classes_csv.py', letters]);
  run(join(root, 'build/urnforest'), ['train', '--data', letters, '--target', 'letter', '--trees', '100', '--seed', '1',
    '--out', join(dir, 'letters.urnf')]);
  run(join(root, 'build/urnforest'), ['export', '--model', join(dir, 'letters.urnf'), '--onnx', join(dir, 'letters.onnx')]);
  const list = [{ name: '26-class forest (soft leaves)', onnx: join(dir, 'letters.onnx'), data: letters }];
  for (const d of ['vehicle', 'wdbc', 'wine']) {
    log(`scikit-learn gradient boosting on ${d} ...`);
    const onnx = join(dir, `gb_${d}.onnx`);
    run('/usr/bin/python3', ['bench/sklearn_gb_onnx.py', dataset(d), onnx]);
    list.push({ name: `scikit-learn GB ${d}`, onnx, data: dataset(d) });
  }
  list.push({ name: 'sk_rf_soybean_19class', onnx: fixture('sk_rf_soybean_19class'), data: dataset('soybean') },
    { name: 'sk_rf_iris_nozipmap', onnx: fixture('sk_rf_iris_nozipmap'), data: dataset('iris') },
    { name: 'xgb_vehicle_softprob_missing', onnx: fixture('xgb_vehicle_softprob_missing'), data: dataset('vehicle') },
    { name: 'xgb_wdbc_binary_missing', onnx: fixture('xgb_wdbc_binary_missing'), data: dataset('wdbc') });
  return list;
}

/** The section's report (see the file's comment). */
export async function imported({ rounds = 7 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'urnforest-imported-'));
  try {
    const loadStart = load();
    const out = [];
    for (const m of models(dir)) {
      log(`${m.name}: ${rounds} rounds ...`);
      const r = JSON.parse(String(run(process.execPath, ['bench/imported_halting.mjs', '--model', m.onnx, '--data', m.data,
        '--rounds', String(rounds)])));
      const b = r.builds.after;
      const modes = {};
      for (const [mode, x] of Object.entries(b.modes)) {
        const ratio = x.ratio[1];
        const share = x.tree_share;
        modes[mode] = { tree_share: share, ratio, quartiles: [x.ratio[0], x.ratio[2]],
          labels_differ_from_full: x.labels_differ_from_full, at_least_as_fast: ratio <= 1,
          saving_share: share < 0.5 ? (1 - ratio) / (1 - share) : null };
      }
      out.push({ model: m.name, trees: b.trees, full_ms: b.full_ms[1], modes });
    }
    return { rounds, rows: 1000, alpha: 0.99, load_start: loadStart, load_end: load(), models: out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await imported({ rounds: numberOption('rounds', 7) });
  console.log(flag('json') ? JSON.stringify(report) : JSON.stringify(report, null, 1));
}
