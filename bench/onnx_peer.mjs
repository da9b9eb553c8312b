// urnforest vs onnxruntime-web on the same imported ONNX model, side by side in this Node process
// (Node's WebAssembly engine is V8's, the one Chromium runs). Not a test, but it asserts that both
// predict the same label on every row.
//
//   node bench/onnx_peer.mjs [--data vehicle] [--rounds 5] [--docs]
//
// bench/onnx_peer_models.py (/usr/bin/python3, scikit-learn, XGBoost) writes the models into
// bench/.cache/onnx_peer/<data>/ (gitignored): scikit-learn RandomForestClassifier with 100 and 500
// trees (skl2onnx's encoding) and XGBClassifier with 300 rounds (onnxmltools' encoding), trained on
// half the rows. Per model: time per row at batch 1,000 (the test rows tiled), time per single-row
// call, load time, and the labels of both on every batch row; ratios are urnforest / ORT (< 1:
// urnforest faster), the median over rounds of the ratio within a round. Both run on one thread
// (ort.env.wasm.numThreads = 1; urnforest has no threads).
// Prints one JSON report on stdout; --docs rewrites docs/benchmarks.md between
// <!-- onnx-peer:begin --> and <!-- onnx-peer:end -->. bench/run.mjs runs it as its last section.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { flag, numberOption, stringOption } from './args.mjs';
import { median, msPerCallWithin } from './timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BATCH = 1000;
const ALPHA = 0.99;
const SINGLE_ROWS = 200;  // distinct rows cycled through by the single-row calls

// Milliseconds per call of `f` after a warm-up (as timing.mjs's msPerCall: V8 tiers hot wasm up
// at calls), over at least MIN_MS of calls: longer than msPerCall's 20 ms, as on a shared machine
// a 20 ms window of a 100-tree model is often all one descheduled slice.
const MIN_MS = 100;
function msPerCallLong(f) {
  const warm = performance.now();
  for (let i = 0; i < 2 || performance.now() - warm < 50; i++) f();
  return msPerCallWithin(f, MIN_MS);
}

/** msPerCallLong for a function returning a promise (onnxruntime-web's session.run). */
async function msPerCallAsync(f) {
  const warm = performance.now();
  for (let i = 0; i < 2 || performance.now() - warm < 50; i++) await f();
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    await f();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < MIN_MS);
  return elapsed / calls;
}

/** gzip -9 size of a file (the gzip program; zlib level 9 when it is missing). */
function gzipBytes(path) {
  try {
    return execFileSync('gzip', ['-9c', path], { maxBuffer: 1 << 28 }).length;
  } catch {
    return gzipSync(readFileSync(path), { level: 9 }).length;
  }
}

function bundle(files) {
  const rows = files.map(([dir, name]) => {
    const path = join(dir, name);
    return { file: name, bytes: statSync(path).size, gzip: gzipBytes(path) };
  });
  return { files: rows, bytes: rows.reduce((s, r) => s + r.bytes, 0), gzip: rows.reduce((s, r) => s + r.gzip, 0) };
}

/** The models (generated when missing); null with a reason when python3/sklearn/xgboost is missing. */
function models(data, log) {
  try {
    const out = execFileSync('/usr/bin/python3', [join(root, 'bench/onnx_peer_models.py'), '--data', data],
      { cwd: root, maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
    const { dir, cached } = JSON.parse(String(out).trim().split('\n').pop());
    log(`models in ${dir}${cached ? ' (cached)' : ''}`);
    return { dir, meta: JSON.parse(readFileSync(join(dir, 'data.json'), 'utf8')) };
  } catch (e) {
    const why = (String(e.stderr ?? '').trim() || e.message).split('\n').pop();
    return { skipped: `bench/onnx_peer_models.py failed (needs /usr/bin/python3 with scikit-learn, xgboost, onnx): ${why}` };
  }
}

const ratio = (a, b) => (a == null || b == null || b === 0 ? null : a / b);
const medians = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, median(v)]));
// Ratio to ORT of each variant: the median over rounds of the ratio within a round (the two were
// timed seconds apart), steadier on a shared machine than the ratio of the medians.
const roundRatios = (o) => Object.fromEntries(Object.keys(o).filter((k) => k !== 'ort')
  .map((k) => [k, median(o[k].map((v, r) => ratio(v, o.ort[r])))]));

/**
 * Runs the comparison; returns the report (or {skipped} when the models cannot be generated).
 * Options: data (a data set of datasets/, default 'vehicle'), rounds (default 5), log.
 */
export async function onnxPeer({ data = 'vehicle', rounds = 5, log = (...m) => console.error('[onnx-peer]', ...m) } = {}) {
  const got = models(data, log);
  if (got.skipped) {
    log(`skipped: ${got.skipped}`);
    return { skipped: got.skipped };
  }
  const { dir, meta } = got;
  let ort;
  try {
    ort = await import('onnxruntime-web');
  } catch (e) {
    const skipped = `onnxruntime-web is not installed (npm devDependency): ${e.message}`;
    log(`skipped: ${skipped}`);
    return { skipped };
  }
  ort.env.wasm.numThreads = 1;
  const { init, Dataset, Forest } = await import(pathToFileURL(join(root, 'dist/index.js')).href);
  await init();

  const F = meta.feature_names.length;
  const featureNames = meta.feature_names;
  const toF32 = (xs) => Float32Array.from(xs, (v) => (v == null ? NaN : v));
  const test = toF32(meta.test);
  const nTest = meta.test_rows;
  const batch = new Float32Array(BATCH * F);
  for (let r = 0; r < BATCH; r++) batch.set(test.subarray((r % nTest) * F, (r % nTest + 1) * F), r * F);
  const singles = Array.from({ length: SINGLE_ROWS }, (_, i) => batch.slice(i * F, (i + 1) * F));
  const batchData = Dataset.fromArrays(batch, { rows: BATCH, cols: F, featureNames });
  const calibData = Dataset.fromArrays(toF32(meta.calib), { rows: meta.calib_rows, cols: F, featureNames });
  const singleData = singles.map((x) => Dataset.fromArrays(x, { rows: 1, cols: F, featureNames }));

  const report = {
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, v8: process.versions.v8,
      load_start: loadavg().map((x) => Number(x.toFixed(2))) },
    options: { data, rounds, batch: BATCH, alpha: ALPHA, ort: ort.env.versions?.web ?? '1.30.0', ort_threads: 1,
      train_rows: meta.train_rows, test_rows: nTest, calib_rows: meta.calib_rows, features: F,
      classes: meta.labels.length },
    models: [],
  };

  for (const [name, info] of Object.entries(meta.models)) {
    log(`${name}: ${info.trees} trees, ${rounds} rounds ...`);
    const bytes = new Uint8Array(readFileSync(join(dir, info.file)));
    const forest = Forest.fromONNX(bytes, { featureNames });
    const session = await ort.InferenceSession.create(bytes);
    const voting = forest.imported.kind === 'voting';
    if (voting) forest.calibrate(calibData);
    const ortRun = (x, rows) => session.run({ X: new ort.Tensor('float32', x, [rows, F]) });

    // Agreement on every batch row: ORT's label, urnforest's soft prediction and exact early exit.
    const ortOut = await ortRun(batch, BATCH);
    const ortLabels = Array.from(ortOut.label.data, (v) => String(v));
    const full = forest.predict(batchData);
    const halted = { alpha1: forest.predict(batchData, { rule: 'alpha1', compare: false }) };
    if (voting) {
      halted.hyper = forest.predict(batchData, { rule: 'hyper', alpha: ALPHA, compare: false });
      halted.margin = forest.predict(batchData, { rule: 'margin', alpha: ALPHA, compare: false });
    }
    const differ = (a, b) => a.reduce((n, x, i) => n + (x !== b[i]), 0);
    const sourceLabels = meta.source_predict[name].map(String);
    const agreement = {
      rows: BATCH,
      urnforest_vs_ort_differ: differ(full.labels, ortLabels),
      alpha1_vs_ort_differ: differ(halted.alpha1.labels, ortLabels),
      urnforest_vs_source_differ_test_rows: differ(full.labels.slice(0, nTest), sourceLabels),
      ort_vs_source_differ_test_rows: differ(ortLabels.slice(0, nTest), sourceLabels),
    };
    const rules = {};
    for (const [rule, h] of Object.entries(halted)) {
      rules[rule] = { mean_trees: h.meanTrees, tree_share: h.meanTrees / info.trees,
        disagreement_vs_full: differ(h.labels, full.labels) / BATCH };
    }

    // Timings, every variant once per round.
    const batchMs = { urnforest_full: [], urnforest_proba: [], ort: [] };
    for (const rule of Object.keys(halted)) batchMs[`urnforest_${rule}`] = [];
    const singleMs = { urnforest_with_dataset: [], urnforest_reused_dataset: [], urnforest_proba_reused_dataset: [],
      urnforest_alpha1_reused_dataset: [], ort: [] };
    const loadMs = { urnforest: [], ort: [] };
    const haltOpts = { alpha1: { rule: 'alpha1', compare: false }, hyper: { rule: 'hyper', alpha: ALPHA, compare: false },
      margin: { rule: 'margin', alpha: ALPHA, compare: false } };
    let k = 0;
    const next = () => (k = (k + 1) % SINGLE_ROWS);
    for (let r = 0; r < rounds; r++) {
      batchMs.urnforest_full.push(msPerCallLong(() => forest.predict(batchData)));
      batchMs.urnforest_proba.push(msPerCallLong(() => forest.predictProba(batchData)));
      for (const rule of Object.keys(halted)) {
        batchMs[`urnforest_${rule}`].push(msPerCallLong(() => forest.predict(batchData, haltOpts[rule])));
      }
      batchMs.ort.push(await msPerCallAsync(() => ortRun(batch, BATCH)));
      singleMs.urnforest_with_dataset.push(msPerCallLong(() => {
        const d = Dataset.fromArrays(singles[next()], { rows: 1, cols: F, featureNames });
        forest.predict(d);
        d.dispose();
      }));
      singleMs.urnforest_reused_dataset.push(msPerCallLong(() => forest.predict(singleData[next()])));
      singleMs.urnforest_proba_reused_dataset.push(msPerCallLong(() => forest.predictProba(singleData[next()])));
      singleMs.urnforest_alpha1_reused_dataset.push(msPerCallLong(() => forest.predict(singleData[next()], haltOpts.alpha1)));
      singleMs.ort.push(await msPerCallAsync(() => ortRun(singles[next()], 1)));
      loadMs.urnforest.push(msPerCallLong(() => Forest.fromONNX(bytes, { featureNames }).dispose()));
      loadMs.ort.push(await msPerCallAsync(async () => (await ort.InferenceSession.create(bytes)).release()));
    }
    forest.dispose();
    await session.release();

    const b = medians(batchMs);
    const s = medians(singleMs);
    const l = medians(loadMs);
    const usPerRow = Object.fromEntries(Object.entries(b).map(([key, v]) => [key, (1000 * v) / BATCH]));
    const entry = {
      model: name, source: info.source, trees: info.trees, onnx_bytes: info.bytes, kind: voting ? 'voting' : 'additive',
      agreement, rules,
      batch_us_per_row: usPerRow,
      batch_ratio_over_ort: roundRatios(batchMs),
      single_us_per_call: Object.fromEntries(Object.entries(s).map(([key, v]) => [key, 1000 * v])),
      single_ratio_over_ort: roundRatios(singleMs),
      load_ms: l, load_ratio_over_ort: roundRatios(loadMs).urnforest,
      runs: { batch_ms: batchMs, single_ms: singleMs, load_ms: loadMs },
    };
    report.models.push(entry);
    if (agreement.urnforest_vs_ort_differ || agreement.alpha1_vs_ort_differ) {
      throw new Error(`${name}: urnforest and onnxruntime-web labels differ: ${JSON.stringify(agreement)}`);
    }
  }
  batchData.dispose();
  calibData.dispose();
  for (const d of singleData) d.dispose();

  const ortDist = join(root, 'node_modules/onnxruntime-web/dist');
  const ufDist = join(root, 'dist');
  report.bundle = {
    urnforest: bundle([[ufDist, 'urnforest_wasm.mjs'], [ufDist, 'index.js']]),
    // import 'onnxruntime-web/wasm' in a bundler: the wasm-only entry with the Emscripten glue
    // inlined, plus the .wasm it fetches.
    ort_wasm: bundle([[ortDist, 'ort.wasm.bundle.min.mjs'], [ortDist, 'ort-wasm-simd-threaded.wasm']]),
  };
  report.bundle.ratio_gzip = ratio(report.bundle.urnforest.gzip, report.bundle.ort_wasm.gzip);
  report.machine.load_end = loadavg().map((x) => Number(x.toFixed(2)));
  return report;
}

/** Markdown tables of a report (the generated part of the docs section). */
export function onnxPeerMarkdown(r) {
  if (r.skipped) return [`Skipped: ${r.skipped}`];
  const f = (x, d = 2) => (x == null ? 'n/a' : Number(x).toFixed(d));
  const us = (x) => (x == null ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const kb = (x) => `${(x / 1024).toFixed(0)} KiB`;
  const o = r.options;
  const out = [];
  out.push(`Generated on ${new Date().toISOString().slice(0, 10)}: ${r.machine.cpus} × ${r.machine.cpu}, ` +
    `Node ${r.machine.node} (V8 ${r.machine.v8}, the WebAssembly engine Chromium runs), onnxruntime-web ${o.ort} ` +
    `(wasm backend, numThreads = 1), load average ${r.machine.load_start.join(' / ')} at the start and ` +
    `${r.machine.load_end.join(' / ')} at the end. Data: ${o.data} (${o.features} features, ${o.classes} classes); ` +
    `models trained on ${o.train_rows} rows, calibration on ${o.calib_rows} others, batch = the ${o.test_rows} ` +
    `test rows tiled to ${o.batch}. ${o.rounds} round${o.rounds === 1 ? '' : 's'}, every variant timed in every round (warm-up, then calls over >= 100 ms). ` +
    'Times are medians; ratios urnforest / ORT (< 1: urnforest faster) are the medians over rounds of the ' +
    'ratio within a round.', '');
  out.push('**Time per row at batch 1,000 (µs / row)**', '');
  out.push('| model (trees) | ORT `session.run` | urnforest `predict` (soft, all trees) | `predictProba` | ' +
    '`alpha1` (exact exit) | `hyper` 0.99 | `margin` 0.99 |');
  out.push('|---|---|---|---|---|---|---|');
  for (const m of r.models) {
    const c = (key) => {
      const v = m.batch_us_per_row[key];
      if (v == null) return '—';
      const rule = key.replace('urnforest_', '');
      const trees = m.rules[rule] ? `, ${f(100 * m.rules[rule].tree_share, 0)} % of trees` : '';
      return `${us(v)} (${f(m.batch_ratio_over_ort[key])}${trees})`;
    };
    out.push(`| ${m.model} (${m.trees}) | ${us(m.batch_us_per_row.ort)} | ${c('urnforest_full')} | ` +
      `${c('urnforest_proba')} | ${c('urnforest_alpha1')} | ${c('urnforest_hyper')} | ${c('urnforest_margin')} |`);
  }
  out.push('', '**Time per single-row call (µs)**', '');
  out.push('| model (trees) | ORT `session.run` [1, F] | urnforest `fromArrays` + `predict` + `dispose` | ' +
    '`predict` on a reused 1-row Dataset | `predictProba` (reused) | `alpha1` (reused) |');
  out.push('|---|---|---|---|---|---|');
  for (const m of r.models) {
    const c = (key) => `${us(m.single_us_per_call[key])} (${f(m.single_ratio_over_ort[key])})`;
    out.push(`| ${m.model} (${m.trees}) | ${us(m.single_us_per_call.ort)} | ${c('urnforest_with_dataset')} | ` +
      `${c('urnforest_reused_dataset')} | ${c('urnforest_proba_reused_dataset')} | ${c('urnforest_alpha1_reused_dataset')} |`);
  }
  out.push('', '**Load time (ms) and agreement**', '');
  out.push('| model (trees) | .onnx bytes | ORT `InferenceSession.create` | urnforest `Forest.fromONNX` (ratio) | ' +
    'labels differ from ORT (of 1,000) | halted disagreement with the full prediction |');
  out.push('|---|---|---|---|---|---|');
  for (const m of r.models) {
    const dis = Object.entries(m.rules).map(([k, v]) => `${k} ${f(100 * v.disagreement_vs_full, 1)} %`).join(', ');
    out.push(`| ${m.model} (${m.trees}) | ${m.onnx_bytes.toLocaleString('en-US')} | ${f(m.load_ms.ort)} | ` +
      `${f(m.load_ms.urnforest)} (${f(m.load_ratio_over_ort)}) | ${m.agreement.urnforest_vs_ort_differ} ` +
      `(alpha1: ${m.agreement.alpha1_vs_ort_differ}) | ${dis} |`);
  }
  const b = r.bundle;
  const files = (x) => x.files.map((e) => `\`${e.file}\` ${kb(e.gzip)}`).join(' + ');
  out.push('', `**Bundle (gzip -9)**: urnforest ${kb(b.urnforest.gzip)} (${files(b.urnforest)}; ` +
    `${kb(b.urnforest.bytes)} raw) vs onnxruntime-web's wasm backend ${kb(b.ort_wasm.gzip)} ` +
    `(${files(b.ort_wasm)}; ${kb(b.ort_wasm.bytes)} raw): ratio ${f(b.ratio_gzip, 3)}.`);
  return out;
}

/** Replaces the generated block of docs/benchmarks.md. */
export function writeOnnxPeerDocs(r) {
  const path = join(root, 'docs/benchmarks.md');
  const begin = '<!-- onnx-peer:begin -->';
  const end = '<!-- onnx-peer:end -->';
  let text = readFileSync(path, 'utf8');
  const body = `${begin}\n${onnxPeerMarkdown(r).join('\n')}\n${end}`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + body + text.slice(j + end.length)
    : `${text.trimEnd()}\n\n## Imported models: urnforest vs onnxruntime-web\n\n${body}\n`;
  writeFileSync(path, text);
}

if (process.argv[1] && existsSync(process.argv[1]) && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await onnxPeer({ data: stringOption('data', 'vehicle'), rounds: numberOption('rounds', 5) });
  console.log(JSON.stringify(report, null, 1));
  console.error(onnxPeerMarkdown(report).join('\n'));
  if (flag('docs') && !report.skipped) writeOnnxPeerDocs(report);
}
