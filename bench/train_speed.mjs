// Training speed, side by side in one run: urnforest (wasm in Node, and the native CLI) versus
// scikit-learn (one thread) and ml-random-forest (npm), on Breiman's twonorm.
//
//   node bench/train_speed.mjs [--rows 5000] [--ml-rows 2000] [--trees 101] [--repeats 3]
//
// Prints one JSON report on stdout. Needs: dist/ (npm run build), build/urnforest
// (npm run build:native), /usr/bin/python3 with scikit-learn and the ml-random-forest devDependency
// (bench/setup.sh installs both).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, token, i, all) =>
    token.startsWith('--') ? [...pairs, [token.slice(2), all[i + 1]]] : pairs, []));
const rows = Number(args.rows ?? 5000);
const mlRows = Number(args['ml-rows'] ?? 2000);
const trees = Number(args.trees ?? 101);
const repeats = Number(args.repeats ?? 3);
const mtry = 4; // floor(sqrt(20))

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (...m) => console.error('[train_speed]', ...m);

const tmp = mkdtempSync(join(tmpdir(), 'urnforest-bench-'));
try {
  const big = join(tmp, 'twonorm_big.csv');
  const small = join(tmp, 'twonorm_small.csv');
  execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(rows), '7', big]);
  execFileSync('/usr/bin/python3', [join(root, 'bench/twonorm.py'), String(mlRows), '8', small]);

  // urnforest, wasm in Node.
  const { init } = await import(join(root, 'dist/index.js'));
  const uf = await init();
  const timeWasm = (file) => {
    const data = uf.Dataset.fromCSV(readFileSync(file, 'utf8'));
    const times = [];
    for (let r = 0; r < repeats; r++) {
      const start = performance.now();
      const forest = uf.trainForest(data, { ensemble: 'rf', trees, mtry, seed: r + 1 });
      times.push(performance.now() - start);
      forest.dispose();
    }
    data.dispose();
    return times;
  };
  log('urnforest wasm ...');
  const wasmBig = timeWasm(big);
  const wasmSmall = timeWasm(small);

  // urnforest, native CLI (train_ms is measured inside the tool, excluding CSV parsing).
  const native = (file) => {
    const times = [];
    for (let r = 0; r < repeats; r++) {
      const out = execFileSync(join(root, 'build/urnforest'), ['train', '--data', file, '--trees',
        String(trees), '--mtry', String(mtry), '--seed', String(r + 1), '--out', join(tmp, 'm.urnf'),
        '--json']);
      times.push(JSON.parse(out).train_ms);
    }
    return times;
  };
  log('urnforest native ...');
  const nativeBig = native(big);
  const nativeSmall = native(small);

  // scikit-learn, one thread.
  log('scikit-learn ...');
  const sk = (file) => JSON.parse(execFileSync('/usr/bin/python3',
    [join(root, 'bench/sklearn_train.py'), file, String(trees), String(mtry), String(repeats)])).fit_ms;
  const sklearnBig = sk(big);
  const sklearnSmall = sk(small);

  // ml-random-forest: features sampled per tree (its design), maxFeatures = mtry.
  log('ml-random-forest ...');
  const { RandomForestClassifier } = await import('ml-random-forest');
  const lines = readFileSync(small, 'utf8').trim().split('\n').slice(1);
  const X = lines.map((l) => l.split(',').slice(0, -1).map(Number));
  const y = lines.map((l) => (l.endsWith('c1') ? 1 : 0));
  const mlTimes = [];
  for (let r = 0; r < 1; r++) {
    const rf = new RandomForestClassifier({ nEstimators: trees, maxFeatures: mtry, seed: r + 1,
      replacement: true, useSampleBagging: true });
    const start = performance.now();
    rf.train(X, y);
    mlTimes.push(performance.now() - start);
  }

  const report = {
    problem: 'twonorm d=20', trees, mtry, repeats,
    rows_large: rows, rows_small: mlRows,
    ms: {
      wasm_large: median(wasmBig), native_large: median(nativeBig), sklearn_large: median(sklearnBig),
      wasm_small: median(wasmSmall), native_small: median(nativeSmall),
      sklearn_small: median(sklearnSmall), ml_random_forest_small: median(mlTimes),
    },
  };
  report.ratios = {
    wasm_over_sklearn_large: report.ms.wasm_large / report.ms.sklearn_large,
    native_over_sklearn_large: report.ms.native_large / report.ms.sklearn_large,
    wasm_over_native_large: report.ms.wasm_large / report.ms.native_large,
    ml_random_forest_over_wasm_small: report.ms.ml_random_forest_small / report.ms.wasm_small,
  };
  console.log(JSON.stringify(report, null, 1));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
