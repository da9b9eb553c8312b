// docs/benchmarks.md: the blocks `npm run bench` writes for the cost-per-tree targets (not a test).
// Each section that ran rewrites its own block, between <!-- suite:NAME:begin --> and
// <!-- suite:NAME:end -->, so a rerun of one part (`--only boosted`) leaves the others as they were;
// the summary against the targets is rewritten only by a run of every section it reads. A missing
// block is added at the end of the section "## Speed at the limit: `npm run bench` against the targets".
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const HEADING = '## Speed at the limit: `npm run bench` against the targets';
const f = (x, d = 2) => (x == null || Number.isNaN(x) ? 'n/a' : Number(x).toFixed(d));
const ms = (x) => (x == null ? 'n/a' : x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(x >= 10 ? 1 : 2) : x.toPrecision(3));
const loads = (a, b) => `${a.join(' / ')} → ${b.join(' / ')}`;
const yes = (ok) => (ok ? 'met' : '**not met**');

/** Replaces (or adds) the block `name` of `text` with `lines`. */
function replaceBlock(text, name, lines) {
  const begin = `<!-- suite:${name}:begin -->`;
  const end = `<!-- suite:${name}:end -->`;
  const body = `${begin}\n${lines.join('\n')}\n${end}`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) return text.slice(0, i) + body + text.slice(j + end.length);
  let h = text.indexOf(HEADING);
  if (h < 0) {
    text = `${text.trimEnd()}\n\n${HEADING}\n\nWritten by \`npm run bench\` (bench/run.mjs, bench/suite_docs.mjs): each block below ` +
      'is one run of the command it names; ratios are within that run. Load average: 1 / 5 / 15 min.\n';
    h = text.indexOf(HEADING);
  }
  const next = text.indexOf('\n## ', h + HEADING.length);
  const at = next < 0 ? text.length : next;
  return `${text.slice(0, at).trimEnd()}\n\n${body}\n${text.slice(at)}`;
}

function deepRf(r, stamp) {
  const p = r.prediction;
  return [`**Deep random-forest trees** (${stamp}; section \`prediction\`): ${p.case}, ns per tree per row, medians of ` +
    `${r.options.rounds} rounds with every peer in each round.`, '',
    '| urnforest wasm | urnforest native | scikit-learn | ranger | wasm / native | wasm / scikit-learn |', '|---|---|---|---|---|---|',
    `| ${f(p.ns_per_tree_row.wasm, 1)} | ${f(p.ns_per_tree_row.native, 1)} | ${f(p.ns_per_tree_row.sklearn, 1)} | ` +
    `${f(p.ns_per_tree_row.ranger, 1)} | ${f(p.ratios.wasm_over_native)} | ${f(p.ratios.wasm_over_sklearn)} |`];
}

function boosted(b, stamp) {
  const ns = b.ns_per_tree_row;
  return [`**Shallow boosted trees** (${stamp}; section \`boosted\`, bench/suite_boosted.mjs): ${b.case}, xgboost ` +
    `${b.xgboost_version}; ${b.rounds} rounds, the four peers in each round (order rotating), each call repeated ` +
    `for ≥ 200 ms; load average ${loads(b.load_start, b.load_end)}. ns per tree per row (medians) and medians of ` +
    'the per-round ratios.', '',
    '| urnforest wasm | onnxruntime-web (wasm, 1 thread) | urnforest native | xgboost `inplace_predict` (nthread 1) | ' +
    'wasm / onnxruntime-web | native / xgboost | wasm / native |', '|---|---|---|---|---|---|---|',
    `| ${f(ns.wasm)} | ${f(ns.onnxruntime_web)} | ${f(ns.native)} | ${f(ns.xgboost)} | ${f(b.ratios.wasm_over_onnxruntime_web)} | ` +
    `${f(b.ratios.native_over_xgboost)} | ${f(b.ratios.wasm_over_native)} |`, '',
    `Labels: urnforest wasm = onnxruntime-web on every row: ${b.labels.wasm_equals_onnxruntime_web ? 'yes' : '**no**'}; ` +
    `rows of class 1: wasm ${b.labels.class1_rows.wasm}, onnxruntime-web ${b.labels.class1_rows.onnxruntime_web}, ` +
    `xgboost ${b.labels.class1_rows.xgboost}.`];
}

function workers(w, stamp) {
  const out = [`**Worker batch prediction** (${stamp}; section \`workers\`, bench/predict_worker_threads.mjs): ` +
    `${w.rows.toLocaleString('en')} twonorm rows, T = 101, a 1-thread and a ${w.threads}-thread UrnforestWorker, ` +
    `${w.rounds} rounds interleaved; load average (1 min) ${w.load.map((x) => f(x)).join(' → ')}. Answers identical ` +
    `for 1 and ${w.threads} threads: ${w.identical ? 'yes' : '**no**'}.`, '',
    `| call | 1 thread ms | ${w.threads} threads ms | speed-up | CPU ratio (${w.threads} / 1) |`, '|---|---|---|---|---|'];
  for (const [name, c] of Object.entries(w.calls)) {
    out.push(`| ${name} | ${ms(c.one_ms)} | ${ms(c.many_ms)} | ${f(c.speedup)} | ${f(c.cpu_ratio)} |`);
  }
  return out;
}

function entry(e, stamp) {
  const out = [`**Inference-only entry** (${stamp}; section \`entry\`, bench/predict_entry.mjs): headless Chromium, ` +
    `${e.rounds} rounds × ${e.reloads} reloads, model ${e.modelBytes.toLocaleString('en')} B (wdbc, 101 trees, siba ` +
    `table stored); load average (1 min) ${f(e.loadAverage1m.min)}–${f(e.loadAverage1m.max)}.`, '',
    '| entry | JS + wasm, gzip -9 | navigation → first prediction, reload (median) | first load (median) |', '|---|---|---|---|'];
  for (const [name, v] of Object.entries(e.variants)) {
    out.push(`| ${name === 'predict' ? '`urnforest/predict`' : '`urnforest` (full)'} | ${f(v.gzipKiB, 1)} KiB | ` +
      `${f(v.reloadMs, 1)} ms | ${f(v.firstLoadMs, 1)} ms |`);
  }
  return out;
}

function imported(m, stamp) {
  const out = [`**Halted modes on imported models** (${stamp}; section \`imported\`, bench/suite_imported.mjs → ` +
    `bench/imported_halting.mjs): wasm, CPU time, ${m.rows} rows, ${m.rounds} rounds alternating the order; ratio = ` +
    'halted / full of the same model (median of the per-round ratios, quartiles in brackets; ≤ 1: at least as fast); ' +
    'saving share = (1 − ratio) / (1 − tree share), where the tree share is under one half; alpha 0.99 for `margin`. ' +
    `Load average ${loads(m.load_start, m.load_end)}.`, '',
    '| model (trees) | mode | tree share | full ms | ratio | at least as fast | saving share | labels ≠ full |',
    '|---|---|---|---|---|---|---|---|'];
  for (const x of m.models) {
    for (const [mode, v] of Object.entries(x.modes)) {
      out.push(`| ${x.model} (${x.trees}) | \`${mode}\` | ${f(v.tree_share)} | ${ms(x.full_ms)} | ${f(v.ratio)} ` +
        `[${f(v.quartiles[0])}, ${f(v.quartiles[1])}] | ${v.at_least_as_fast ? 'yes' : '**no**'} | ` +
        `${v.saving_share == null ? '–' : f(v.saving_share)} | ${v.labels_differ_from_full} |`);
    }
  }
  return out;
}

function regression(g, stamp) {
  const out = [`**No regression against ${g.ref}** (\`${g.sha.slice(0, 9)}\`; ${stamp}; section \`regression\`, ` +
    `bench/regression.mjs): that ref's wasm built in a temporary worktree (${g.build_seconds} s), both builds in one ` +
    `Node process, ${g.rounds} rounds alternating their order; new / old = median of the per-round ratios, flagged ` +
    `above ${g.threshold}. Load average ${loads(g.load_start, g.load_end)}. Same model bytes from the same seed: ` +
    `${g.checks.same_trained_model_bytes ? 'yes' : 'no'}; same halted labels and trees used: ` +
    `${g.checks.same_halted_labels_and_trees ? 'yes' : 'no'}.`, '',
    '| group | case | unit | old | new | new / old | |', '|---|---|---|---|---|---|---|'];
  for (const c of g.cases) {
    out.push(`| ${c.group} | ${c.case} | ${c.unit} | ${c.old.toPrecision(3)} | ${c.new.toPrecision(3)} | ` +
      `${f(c.new_over_old, 3)} | ${c.flagged ? '**regression**' : ''} |`);
  }
  return out;
}

function summary(r, stamp, command) {
  const p = r.prediction.ns_per_tree_row;
  const w = r.workers.calls.full;
  const v = r.entry.variants.predict;
  const modes = r.imported.models.flatMap((x) => Object.entries(x.modes).map(([mode, m]) => ({ name: `${x.model} \`${mode}\``, ...m })));
  const slow = modes.filter((m) => !m.at_least_as_fast);
  const short = modes.filter((m) => m.saving_share != null && m.saving_share < 0.8);
  const rows = [
    ['deep RF, wasm', '≤ 10 ns per tree per row', `${f(p.wasm, 1)}`, p.wasm <= 10],
    ['deep RF, native', '≤ 8', `${f(p.native, 1)}`, p.native <= 8],
    ['XGBoost depth 6, wasm', '≤ 4 ns per tree per row', `${f(r.boosted.ns_per_tree_row.wasm)} (onnxruntime-web ` +
      `${f(r.boosted.ns_per_tree_row.onnxruntime_web)}; native ${f(r.boosted.ns_per_tree_row.native)}, xgboost ` +
      `${f(r.boosted.ns_per_tree_row.xgboost)})`, r.boosted.ns_per_tree_row.wasm <= 4],
    ['worker predict, 200,000 rows, 2 threads', '≥ 1.8 ×, same answers', `${f(w.speedup)} ×, same answers: ` +
      `${r.workers.identical ? 'yes' : 'no'} (load ${r.workers.load.map((x) => f(x)).join(' → ')})`,
    w.speedup >= 1.8 && r.workers.identical],
    ['urnforest/predict size', '≤ 120 KiB gzip with its wasm', `${f(v.gzipKiB, 1)} KiB`, v.gzipKiB <= 120],
    ['urnforest/predict first prediction', '≤ 50 ms after navigation, reload', `${f(v.reloadMs, 1)} ms`, v.reloadMs <= 50],
    ['halted modes on imported models', 'ratio ≤ 1 for every mode', slow.length ? `above 1: ${slow.map((m) =>
      `${m.name} ${f(m.ratio)}`).join('; ')}` : 'all ≤ 1', slow.length === 0],
    ['… where under half the trees', 'saving share ≥ 0.8', short.length ? `below: ${short.map((m) =>
      `${m.name} ${f(m.saving_share)}`).join('; ')}` : 'all ≥ 0.8', short.length === 0],
    [`no regression against ${r.regression.ref}`, `new / old ≤ ${r.regression.threshold}`, r.regression.flagged.length
      ? `flagged: ${r.regression.flagged.join('; ')}` : `none flagged (largest ${f(Math.max(...r.regression.cases.map((c) =>
        c.new_over_old)), 3)})`, r.regression.flagged.length === 0],
  ];
  const secs = Object.entries(r.seconds).map(([k, s]) => `${k} ${s} s`).join(', ');
  return [`**Against the targets** (${stamp}: \`${command}\`; ${r.machine.cpus} × ${r.machine.cpu}, Node ` +
    `${r.machine.node}; load average ${loads(r.machine.load_start, r.machine.load_end)}; wall time ${secs}).`, '',
    '| figure | target | measured | |', '|---|---|---|---|',
    ...rows.map(([a, b, c, ok]) => `| ${a} | ${b} | ${c} | ${yes(ok)} |`)];
}

/** Rewrites the blocks of the sections `r` (bench/run.mjs's report) holds; `command` is its command line. */
export function writeSuiteDocs(r, command) {
  const path = join(root, 'docs/benchmarks.md');
  const stamp = `${new Date().toISOString().slice(0, 10)}, \`${command}\``;
  let text = readFileSync(path, 'utf8');
  const parts = { prediction: () => deepRf(r, stamp), boosted: () => boosted(r.boosted, stamp),
    workers: () => workers(r.workers, stamp), entry: () => entry(r.entry, stamp),
    imported: () => imported(r.imported, stamp), regression: () => regression(r.regression, stamp) };
  if (Object.keys(parts).every((name) => r[name])) {
    text = replaceBlock(text, 'summary', summary(r, new Date().toISOString().slice(0, 10), command));
  }
  for (const [name, render] of Object.entries(parts)) if (r[name]) text = replaceBlock(text, name, render());
  writeFileSync(path, text);
  console.error(`[bench] wrote the suite's blocks of ${path}`);
}
