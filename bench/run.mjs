// `npm run bench`: every speed benchmark, side by side in one run, one JSON report on stdout,
// and the generated part of docs/benchmarks.md (between <!-- bench:begin --> and <!-- bench:end -->).
//
//   node bench/run.mjs [--rounds 3] [--wide-rounds 1] [--halted-rounds 7] [--trees 101] [--no-setup] [--no-ml]
//                      [--no-docs] [--wide-rows 20000] [--wide-features 50] [--onnx-rounds 5] [--no-onnx-peer]
//                      [--ydf-rounds 3] [--no-ydf-wide] [--no-ydf-peer] [--only a,b] [--skip a,b] [--quick]
//                      [--ref REF] [--keep-ref] [--no-speed-docs] [--no-build]
//
// Sections (names for --only / --skip): training, prediction, halting, tables, onnx, ydf (the
// peers, below), then the figures of the cost-per-tree targets: boosted (XGBoost depth 6: urnforest
// wasm and native, onnxruntime-web, xgboost's own predict; bench/suite_boosted.mjs), workers (a
// 200,000-row predict on 1 and 2 worker threads; bench/predict_worker_threads.mjs), entry
// (urnforest/predict's gzip size and first prediction in Chromium; bench/predict_entry.mjs),
// imported (halted modes against the full prediction on imported models; bench/suite_imported.mjs),
// regression (this build against --ref's wasm, built in a temporary worktree, kept for the next run
// with --keep-ref; bench/regression.mjs).
// --quick: fewer rounds everywhere, no ml-random-forest, no wide YDF case (a rerun of one part:
// `--only boosted --quick`). The targets' figures go to their own blocks of docs/benchmarks.md
// (bench/suite_docs.mjs); --no-speed-docs leaves the peers' blocks as they are (bench:begin/end below
// "## Speed", onnx-peer, ydf-peer) and writes only the targets' blocks.
//
// Peers: urnforest in WebAssembly (this Node process, dist/), urnforest native (build/urnforest,
// build/bench_native), scikit-learn (/usr/bin/python3, n_jobs=1), ranger (Rscript, num.threads=1),
// ml-random-forest (npm, 2,000 rows only: it needs ~36 s there). Every timing is taken inside the
// peer's process (no start-up, no CSV parsing), round by round with all peers in each round, and
// reported as the median over rounds; ratios compare medians of the same run. Last section:
// urnforest vs onnxruntime-web on the same imported ONNX models (bench/onnx_peer.mjs, in this
// process; skipped with a message when python3 with scikit-learn/xgboost is missing), then urnforest vs
// YDF's WebAssembly port (bench/ydf_peer.mjs, npm ydf-training / ydf-inference, in this process; skipped
// with a message when those packages are missing). Not a test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, msPerCall } from './timing.mjs';
import { onnxPeer, writeOnnxPeerDocs } from './onnx_peer.mjs';
import { ydfPeer, writeYdfPeerDocs } from './ydf_peer.mjs';
import { commandLineArgs, flag, numberOption, stringOption } from './args.mjs';
import { boosted } from './suite_boosted.mjs';
import { imported } from './suite_imported.mjs';
import { predictEntry, workerSplit } from './suite_scripts.mjs';
import { regression, defaultRef } from './regression.mjs';
import { writeSuiteDocs } from './suite_docs.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = flag('quick');
const opt = (name, full, short = full) => numberOption(name, quick ? short : full);
const SECTIONS = ['training', 'prediction', 'halting', 'tables', 'onnx', 'ydf', 'boosted', 'workers', 'entry',
  'imported', 'regression'];
const listOption = (name) => (stringOption(name, '') || '').split(',').map((x) => x.trim()).filter(Boolean);
for (const s of [...listOption('only'), ...listOption('skip')]) {
  if (!SECTIONS.includes(s)) throw new Error(`unknown section '${s}' (sections: ${SECTIONS.join(', ')})`);
}
const only = listOption('only');
const skip = listOption('skip');
const wanted = (s) => (only.length === 0 || only.includes(s)) && !skip.includes(s) &&
  !(s === 'onnx' && flag('no-onnx-peer')) && !(s === 'ydf' && flag('no-ydf-peer'));
const rounds = opt('rounds', 3, 2);
const wideRounds = opt('wide-rounds', 1);
// Halted prediction: full and halted calls alternate, round by round, for at least 7 rounds: the
// small sets' calls take microseconds, and a slow spell of the machine between a full and a halted
// measurement moves their ratio (the share) unless the median covers several rounds.
const haltedRounds = opt('halted-rounds', Math.max(rounds, 7), 3);
const trees = opt('trees', 101);
const wideRows = opt('wide-rows', 20000);
const wideFeatures = opt('wide-features', 50);
const onnxRounds = opt('onnx-rounds', 5, 2);
const ydfRounds = opt('ydf-rounds', rounds);
const ALPHA = 0.99;
const RULES = ['alpha1', 'siba', 'hyper', '1dir', 'ndir', 'infinite', 'optimal'];

const log = (...m) => console.error('[bench]', ...m);
const ratio = (a, b) => (a == null || b == null || b === 0 ? null : a / b);
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: root, maxBuffer: 1 << 28, ...opts });
const json = (cmd, args) => JSON.parse(String(run(cmd, args)).trim().split('\n').pop());
const load = () => loadavg().map((x) => Number(x.toFixed(2)));
// A peer that is not installed (no Rscript, no npm package; bench/setup.sh installs them) gives null
// and is named once in the log and in report.missing_peers, instead of stopping the run.
const missingPeers = new Set();
const peerJson = (peer, cmd, args) => {
  if (missingPeers.has(peer)) return null;
  try {
    return json(cmd, args);
  } catch (e) {
    log(`${peer} did not run (${String(e.message).split('\n')[0]}): left out of this run`);
    missingPeers.add(peer);
    return null;
  }
};

// ---- set-up and builds -----------------------------------------------------------------------
if (!flag('no-setup')) run('bash', ['bench/setup.sh'], { stdio: ['ignore', 2, 2] });
if (!flag('no-build')) run('bash', ['scripts/build.sh', 'native', 'wasm'], { stdio: ['ignore', 2, 2] });
const CLI = join(root, 'build/urnforest');
const NATIVE = join(root, 'build/bench_native');
const { init, Dataset, Forest } = await import(join(root, 'dist/index.js'));
const uf = await init();

const report = {
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, load_start: load() },
  options: { rounds, wide_rounds: wideRounds, halted_rounds: haltedRounds, trees, alpha: ALPHA, quick,
    sections: SECTIONS.filter(wanted) },
  seconds: {},
};
const started = performance.now();
// Runs section `name` when wanted, recording its wall-clock seconds.
async function section(name, body) {
  if (!wanted(name)) return;
  const t0 = performance.now();
  await body();
  report.seconds[name] = Number(((performance.now() - t0) / 1000).toFixed(1));
  log(`${name}: ${report.seconds[name]} s`);
}

// Milliseconds per call, repeating until >= 20 ms (as bench_native and the peer scripts do).

const tmp = mkdtempSync(join(tmpdir(), 'urnforest-bench-'));
try {
  // ---- data ------------------------------------------------------------------------------------
  const file = (name) => join(tmp, name);
  const twonorm = (rows, seed, name, d = 20) =>
    run('/usr/bin/python3', ['bench/twonorm.py', String(rows), String(seed), file(name), String(d)]);
  twonorm(5000, 7, 'twonorm_train.csv');
  twonorm(5000, 9, 'twonorm_test.csv');
  twonorm(2000, 8, 'twonorm_2000.csv');
  if (wanted('training')) twonorm(wideRows, 10, 'wide_train.csv', wideFeatures);
  // Real data: even rows train, odd rows test (the halting benchmarks need unseen rows).
  const split = (name) => {
    const lines = readFileSync(join(root, 'datasets', `${name}.csv`), 'utf8').trim().split(/\r?\n/);
    const [header, ...body] = lines;
    writeFileSync(file(`${name}_train.csv`), [header, ...body.filter((_, i) => i % 2 === 0)].join('\n') + '\n');
    writeFileSync(file(`${name}_test.csv`), [header, ...body.filter((_, i) => i % 2 === 1)].join('\n') + '\n');
  };
  for (const name of ['wdbc', 'sonar']) split(name);
  // One thread, as every peer here (the CLI's default is every core: bench/train_all_cores.mjs).
  const trainNative = (csv, model, t = trees, mtry = 0, seed = 1) => json(CLI, ['train', '--data', csv,
    '--trees', String(t), ...(mtry ? ['--mtry', String(mtry)] : []), '--seed', String(seed), '--threads', '1',
    '--out', model, '--json']);

  // ---- 1. training -------------------------------------------------------------------------------
  await section('training', async () => {
    const cases = [
      { name: `twonorm 5000 x 20`, csv: file('twonorm_train.csv'), mtry: 4, rounds },
      { name: `twonorm ${wideRows} x ${wideFeatures}`, csv: file('wide_train.csv'),
        mtry: Math.floor(Math.sqrt(wideFeatures)), rounds: wideRounds },
    ];
    report.training = [];
    for (const c of cases) {
      log(`training: ${c.name}, ${c.rounds} round(s) ...`);
      const data = Dataset.fromCSV(readFileSync(c.csv, 'utf8'));
      const ms = { wasm: [], native: [], sklearn: [], ranger: [] };
      for (let r = 0; r < c.rounds; r++) {
        const seed = r + 1;
        let start = performance.now();
        const forest = uf.trainForest(data, { ensemble: 'rf', trees, mtry: c.mtry, seed });
        ms.wasm.push(performance.now() - start);
        forest.dispose();
        ms.native.push(trainNative(c.csv, file('m.urnf'), trees, c.mtry, seed).train_ms);
        ms.sklearn.push(peerJson('scikit-learn', '/usr/bin/python3', ['bench/sklearn_bench.py', 'train', c.csv,
          String(trees), String(c.mtry), String(seed)])?.fit_ms ?? null);
        ms.ranger.push(peerJson('ranger', 'Rscript', ['bench/ranger_bench.R', 'train', c.csv, String(trees),
          String(c.mtry), String(seed)])?.fit_ms ?? null);
      }
      data.dispose();
      const med = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)]));
      report.training.push({
        case: c.name, trees, mtry: c.mtry, ms: med, runs_ms: ms,
        ratios: {
          wasm_over_sklearn: ratio(med.wasm, med.sklearn), wasm_over_ranger: ratio(med.wasm, med.ranger),
          native_over_sklearn: ratio(med.native, med.sklearn), native_over_ranger: ratio(med.native, med.ranger),
          wasm_over_native: ratio(med.wasm, med.native),
        },
      });
    }
    // ml-random-forest at 2,000 rows (one run; its own default tree options, maxFeatures = mtry).
    {
      const csv = file('twonorm_2000.csv');
      const data = Dataset.fromCSV(readFileSync(csv, 'utf8'));
      const wasm = [];
      const native = [];
      for (let r = 0; r < rounds; r++) {
        const start = performance.now();
        uf.trainForest(data, { ensemble: 'rf', trees, mtry: 4, seed: r + 1 }).dispose();
        wasm.push(performance.now() - start);
        native.push(trainNative(csv, file('m.urnf'), trees, 4, r + 1).train_ms);
      }
      data.dispose();
      let ml = null;
      if (!flag('no-ml') && !quick) {
        log('training: ml-random-forest, 2000 x 20 (about a minute) ...');
        ml = peerJson('ml-random-forest', process.execPath, ['bench/ml_random_forest.mjs', csv, String(trees), '4', '1'])
          ?.train_ms ?? null;
      }
      report.training_ml_random_forest = {
        case: 'twonorm 2000 x 20', trees, mtry: 4,
        ms: { wasm: median(wasm), native: median(native), ml_random_forest: ml },
        ratios: { ml_random_forest_over_wasm: ratio(ml, median(wasm)),
          ml_random_forest_over_native: ratio(ml, median(native)) },
      };
    }
  });

  // ---- 2. full-vote prediction, 5,000 rows ---------------------------------------------------------
  const tnModel = file('twonorm.urnf');
  if (wanted('prediction') || wanted('halting')) trainNative(file('twonorm_train.csv'), tnModel, trees, 4, 1);
  await section('prediction', async () => {
    log('full-vote prediction: twonorm, 5000 rows ...');
    const forest = Forest.fromBytes(new Uint8Array(readFileSync(tnModel)));
    const test = Dataset.fromCSV(readFileSync(file('twonorm_test.csv'), 'utf8'));
    const rows = test.numRows;
    const ms = { wasm: [], native: [], sklearn: [], ranger: [] };
    for (let r = 0; r < rounds; r++) {
      ms.wasm.push(msPerCall(() => forest.predict(test)));
      ms.native.push(median(json(NATIVE, ['predict', tnModel, file('twonorm_test.csv'), '1']).full_ms));
      const peerArgs = ['predict', file('twonorm_train.csv'), file('twonorm_test.csv'), String(trees), '4', '1'];
      ms.sklearn.push(median(peerJson('scikit-learn', '/usr/bin/python3', ['bench/sklearn_bench.py', ...peerArgs])
        ?.predict_ms ?? []));
      ms.ranger.push(median(peerJson('ranger', 'Rscript', ['bench/ranger_bench.R', ...peerArgs])?.predict_ms ?? []));
    }
    forest.dispose();
    test.dispose();
    const ns = Object.fromEntries(Object.entries(ms).map(([k, v]) =>
      [k, median(v) == null ? null : (1e6 * median(v)) / (trees * rows)]));
    report.prediction = {
      case: 'twonorm 5000 x 20 model, 5000 test rows', trees, rows, ns_per_tree_row: ns, runs_ms: ms,
      ratios: {
        wasm_over_sklearn: ratio(ns.wasm, ns.sklearn), wasm_over_ranger: ratio(ns.wasm, ns.ranger),
        native_over_sklearn: ratio(ns.native, ns.sklearn), native_over_ranger: ratio(ns.native, ns.ranger),
        wasm_over_native: ratio(ns.wasm, ns.native),
      },
    };
  });

  // ---- 3. halted prediction ------------------------------------------------------------------------
  await section('halting', async () => {
    report.halting = [];
    for (const name of ['wdbc', 'sonar', 'twonorm']) {
      log(`halted prediction: ${name} ...`);
      const trainCsv = file(`${name}_train.csv`);
      const testCsv = file(`${name}_test.csv`);
      const model = name === 'twonorm' ? tnModel : file(`${name}.urnf`);
      if (name !== 'twonorm') trainNative(trainCsv, model);
      const forest = Forest.fromBytes(new Uint8Array(readFileSync(model)));
      const test = Dataset.fromCSV(readFileSync(testCsv, 'utf8'));
      const rules = ['siba', 'hyper'];
      const wasm = { full: [], siba: [], hyper: [] };
      const native = { full: [], siba: [], hyper: [] };
      const meanTrees = {};
      for (const rule of rules) {  // builds and caches the tables outside the timings
        meanTrees[rule] = forest.predict(test, { rule, alpha: ALPHA }).meanTrees;
      }
      for (let r = 0; r < haltedRounds; r++) {
        wasm.full.push(msPerCall(() => forest.predict(test)));
        for (const rule of rules) {
          wasm[rule].push(msPerCall(() => forest.predict(test, { rule, alpha: ALPHA })));
        }
        const n = json(NATIVE, ['predict', model, testCsv, '1', ...rules]);
        native.full.push(n.full_ms[0]);
        for (const rule of rules) native[rule].push(n.rules[rule].ms[0]);
      }
      const rows = test.numRows;
      forest.dispose();
      test.dispose();
      const entry = { dataset: name, rows, trees, rules: {} };
      for (const rule of rules) {
        const treeSpeedup = trees / meanTrees[rule];
        const w = median(wasm.full) / median(wasm[rule]);
        const nat = median(native.full) / median(native[rule]);
        entry.rules[rule] = {
          mean_trees: meanTrees[rule], tree_speedup: treeSpeedup,
          wasm: { full_ms: median(wasm.full), halted_ms: median(wasm[rule]), wall_speedup: w, share: w / treeSpeedup },
          native: { full_ms: median(native.full), halted_ms: median(native[rule]), wall_speedup: nat,
            share: nat / treeSpeedup },
          wasm_over_native_halted: ratio(median(wasm[rule]), median(native[rule])),
        };
      }
      report.halting.push(entry);
    }
  });

  // ---- 4. table building and model size ------------------------------------------------------------
  await section('tables', async () => {
    report.tables = [];
    for (const name of ['wdbc', 'wine', 'vehicle']) {
      log(`table building: ${name} ...`);
      const model = file(`${name}_full.urnf`);
      trainNative(join(root, 'datasets', `${name}.csv`), model);
      const n = json(NATIVE, ['tables', model, String(rounds), ...RULES]);
      const forest = Forest.fromBytes(new Uint8Array(readFileSync(model)));
      const entry = { dataset: name, classes: n.classes, trees: n.trees, nodes: n.nodes, model_bytes: n.model_bytes,
        bytes_per_node: n.model_bytes / n.nodes, rules: {} };
      for (const rule of RULES) {
        if (n.rules[rule].error) {
          entry.rules[rule] = { error: n.rules[rule].error };
          continue;
        }
        const ms = [];
        for (let r = 0; r < rounds; r++) {
          ms.push(msPerCall(() => forest.haltingTable({ rule, alpha: ALPHA }).dispose()));
        }
        const w = median(ms);
        const nat = median(n.rules[rule].ms);
        entry.rules[rule] = { native_ms: nat, wasm_ms: w, wasm_over_native: ratio(w, nat) };
      }
      forest.dispose();
      report.tables.push(entry);
    }
  });
  report.wasm_bytes = statSync(join(root, 'dist/urnforest_wasm.mjs')).size;

  // ---- 5. imported models: urnforest vs onnxruntime-web --------------------------------------------
  await section('onnx', async () => {
    log('imported models: urnforest vs onnxruntime-web ...');
    report.onnx_peer = await onnxPeer({ rounds: onnxRounds, log });
  });

  // ---- 6. YDF's WebAssembly port: urnforest vs ydf-training / ydf-inference ---------------------------
  await section('ydf', async () => {
    log("YDF's WebAssembly port (ydf-training, ydf-inference) ...");
    report.ydf_peer = await ydfPeer({ rounds: ydfRounds, wideRounds, wide: !flag('no-ydf-wide') && !quick, log });
    if (report.ydf_peer.skipped) log(`YDF peer skipped: ${report.ydf_peer.skipped}`);
  });

  // ---- 7-11. the figures of the cost-per-tree targets ----------------------------------------------
  await section('boosted', async () => {
    log('shallow boosted trees: urnforest wasm / native, onnxruntime-web, xgboost ...');
    report.boosted = await boosted({ rounds: opt('boosted-rounds', 5, 2) });
  });
  await section('workers', async () => {
    log('worker split of a 200,000-row predict, 1 vs 2 threads ...');
    report.workers = workerSplit({ rounds: opt('worker-rounds', 5, 2) });
  });
  await section('entry', async () => {
    log('urnforest/predict: size and first prediction in Chromium ...');
    report.entry = predictEntry({ rounds: opt('entry-rounds', 5, 2), reloads: opt('entry-reloads', 5, 3) });
  });
  await section('imported', async () => {
    log('imported models: halted modes against the full prediction ...');
    report.imported = await imported({ rounds: opt('imported-rounds', 7, 3) });
  });
  await section('regression', async () => {
    const ref = defaultRef(stringOption('ref', undefined));
    log(`no regression: this build against ${ref}'s wasm ...`);
    report.regression = await regression({ ref, rounds: opt('regression-rounds', 7, 3), threshold: opt('threshold', 1.1),
      keep: flag('keep-ref') });
  });
  report.missing_peers = [...missingPeers];
  report.machine.load_end = load();
  report.seconds.total = Number(((performance.now() - started) / 1000).toFixed(1));
  console.log(JSON.stringify(report, null, 1));
  if (!flag('no-docs')) {
    const legacy = ['training', 'prediction', 'halting', 'tables'];
    if (!flag('no-speed-docs') && legacy.every(wanted)) writeDocs(report);
    writeSuiteDocs(report, `node bench/run.mjs ${commandLineArgs().join(' ')}`.trim());
    if (!flag('no-speed-docs')) {
      if (report.onnx_peer && !report.onnx_peer.skipped) writeOnnxPeerDocs(report.onnx_peer);
      if (report.ydf_peer && !report.ydf_peer.skipped) writeYdfPeerDocs(report.ydf_peer, 'npm run bench');
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// ---- docs/benchmarks.md ------------------------------------------------------------------------
function writeDocs(r) {
  const f = (x, d = 2) => (x == null ? 'n/a' : Number(x).toFixed(d));
  // Three significant digits below 1 ms (a halted call on wdbc takes about 0.02 ms).
  const ms = (x) => (x == null ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(x >= 10 ? 1 : 2) : x.toPrecision(3));
  const out = [];
  out.push(`Generated by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}: ` +
    `${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node}, load average ${r.machine.load_start.join(' / ')} ` +
    `at the start and ${r.machine.load_end.join(' / ')} at the end (1 / 5 / 15 min). T = ${r.options.trees}, ` +
    `one thread everywhere, medians of ${r.options.rounds} rounds (wide case: ${r.options.wide_rounds}; halted ` +
    `prediction: ${r.options.halted_rounds}) with every ` +
    `peer in each round. Ratios < 1 mean urnforest is faster. wasm = ${(r.wasm_bytes / 1024).toFixed(0)} KiB ` +
    '(`dist/urnforest_wasm.mjs`, SINGLE_FILE).', '');
  out.push('### 1. Training time (ms)', '');
  out.push('| case | wasm | native | scikit-learn | ranger | wasm / sklearn | wasm / ranger | native / sklearn | native / ranger | wasm / native |');
  out.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const t of r.training) {
    out.push(`| ${t.case} (mtry ${t.mtry}) | ${ms(t.ms.wasm)} | ${ms(t.ms.native)} | ${ms(t.ms.sklearn)} | ` +
      `${ms(t.ms.ranger)} | ${f(t.ratios.wasm_over_sklearn)} | ${f(t.ratios.wasm_over_ranger)} | ` +
      `${f(t.ratios.native_over_sklearn)} | ${f(t.ratios.native_over_ranger)} | ${f(t.ratios.wasm_over_native)} |`);
  }
  const ml = r.training_ml_random_forest;
  out.push('', `ml-random-forest (npm), ${ml.case}: ${ms(ml.ms.ml_random_forest)} ms vs urnforest wasm ` +
    `${ms(ml.ms.wasm)} ms (${f(ml.ratios.ml_random_forest_over_wasm, 0)}× faster) and native ${ms(ml.ms.native)} ms ` +
    `(${f(ml.ratios.ml_random_forest_over_native, 0)}× faster). Not run on the larger cases (minutes per fit).`, '');
  const p = r.prediction;
  out.push('### 2. Full-vote prediction (ns per tree per row)', '', `${p.case}.`, '');
  out.push('| wasm | native | scikit-learn | ranger | wasm / sklearn | wasm / ranger | native / sklearn | wasm / native |');
  out.push('|---|---|---|---|---|---|---|---|');
  out.push(`| ${f(p.ns_per_tree_row.wasm, 1)} | ${f(p.ns_per_tree_row.native, 1)} | ${f(p.ns_per_tree_row.sklearn, 1)} | ` +
    `${f(p.ns_per_tree_row.ranger, 1)} | ${f(p.ratios.wasm_over_sklearn)} | ${f(p.ratios.wasm_over_ranger)} | ` +
    `${f(p.ratios.native_over_sklearn)} | ${f(p.ratios.wasm_over_native)} |`, '');
  out.push('### 3. Halted prediction: wall-clock speed-up vs tree-count speed-up', '',
    `alpha = ${r.options.alpha}, generation order, \`predict(data, {rule, alpha})\` (wasm; the README's call as written: halted predictions skip the full vote by default) and ` +
    '`PredictHaltedRows` (native) against the full vote of the same build (`predict(data)`, `PredictFullRows`); ' +
    'both sides reuse the rows converted to the model layout, as a JS `Dataset` keeps them between predictions ' +
    '(bench_native reports the conversion apart as convert_ms). share = wall-clock speed-up / tree-count ' +
    'speed-up (1 = every saved tree is saved time). wdbc and sonar: even rows train, odd rows test.', '');
  out.push('| data (test rows) | rule | mean trees | tree speed-up | wasm full ms | wasm halted ms | wasm wall speed-up | wasm share | native wall speed-up | native share | wasm / native (halted) |');
  out.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const h of r.halting) {
    for (const [rule, x] of Object.entries(h.rules)) {
      out.push(`| ${h.dataset} (${h.rows}) | ${rule} | ${f(x.mean_trees)} | ${f(x.tree_speedup)} | ${ms(x.wasm.full_ms)} | ` +
        `${ms(x.wasm.halted_ms)} | ${f(x.wasm.wall_speedup)} | ${f(x.wasm.share)} | ${f(x.native.wall_speedup)} | ` +
        `${f(x.native.share)} | ${f(x.wasm_over_native_halted)} |`);
    }
  }
  out.push('', '### 4. Halting-table building (ms, prior from the OOB votes + table, alpha = 0.99) and model size', '');
  out.push('| data (l) | model bytes / node | ' + RULES.map((x) => `${x} native / wasm (ratio)`).join(' | ') + ' |');
  out.push('|---|---|' + RULES.map(() => '---').join('|') + '|');
  for (const t of r.tables) {
    out.push(`| ${t.dataset} (${t.classes}) | ${f(t.bytes_per_node, 1)} | ` + RULES.map((x) => {
      const e = t.rules[x];
      return e.error ? e.error : `${ms(e.native_ms)} / ${ms(e.wasm_ms)} (${f(e.wasm_over_native)})`;
    }).join(' | ') + ' |');
  }
  out.push('', 'Model bytes per node: the serialized model (header, schema, 16-byte nodes, OOB votes and training ' +
    'labels) over its node count; the node table itself is 16 bytes per node.');
  const path = join(root, 'docs/benchmarks.md');
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '# Benchmarks\n\nSpeed is measured as ratios against peers in the same run; see bench/README.md.\n\n' +
      '## Speed\n\n<!-- bench:begin -->\n<!-- bench:end -->\n';
  }
  const begin = '<!-- bench:begin -->';
  const end = '<!-- bench:end -->';
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  const body = `${begin}\n${out.join('\n')}\n${end}`;
  text = i >= 0 && j > i ? text.slice(0, i) + body + text.slice(j + end.length)
    : `${text.trimEnd()}\n\n## Speed\n\n${body}\n`;
  writeFileSync(path, text);
  log(`wrote ${path}`);
}
