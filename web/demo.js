// urnforest demo: data & training (view 1) and the shared state the other views read.
// Uses only the public API of the built package (/dist/index.js). Every byte comes from the serving origin;
// a user's file is read with FileReader and stays in this page. Training runs in a module Web Worker
// (worker.js) which posts the model bytes back; this thread loads them with Forest.fromBytes.
import { init } from '/dist/index.js';
import { h, pct } from './charts.js';
import { GENERATED, generate, previewCSV, shuffledRows } from './math.js';
import { createUrnView } from './urn.js';
import { createTestView } from './testset.js';
import { createPriorView } from './prior.js';
import { createConceptsView } from './concepts.js';
import { createClassifyView } from './classify.js';

const $ = (id) => document.getElementById(id);

/** Shared state; views subscribe with app.onModel / app.onRule. */
export const app = {
  uf: null,
  text: null, // CSV text of the current data set (bundled, generated or the user's file)
  name: '',
  is2d: false,
  forest: null,
  all: null, // Dataset of every row (main-thread copy)
  testDs: null,
  testRows: null,
  trainRows: null,
  testLabels: null,
  fullTest: null, // forest.predict(testDs): full vote of the test rows
  trainMs: 0,
  modelListeners: [],
  ruleListeners: [],
  /** True when the loaded library has the halting API (forest.predict with options, trace, prior, ...). */
  get hasHalting() { return !!this.forest && typeof this.forest.trace === 'function' && typeof this.forest.prior === 'function'; },
  /** The rule bar's options as a HaltingOptions object. */
  haltingOptions() {
    const opts = { rule: $('rule').value, alpha: Number($('alpha').value) };
    if ($('order').value === 'random') { opts.order = 'random'; opts.seed = Number($('seed').value) || 0; }
    return opts;
  },
  cache: new Map(),
  /** Cached forest.predict(testDs, opts) (halting prediction of every test row). */
  predictHalting(opts) {
    return this.cached(`p:${JSON.stringify(opts)}`, () => this.forest.predict(this.testDs, opts));
  },
  /** Cached forest.prior(rule). */
  prior(rule) { return this.cached(`prior:${rule}`, () => this.forest.prior(rule)); },
  /** Cached forest.haltingTable(opts) (disposed when the model changes). */
  table(opts) {
    const o = { rule: opts.rule, alpha: opts.alpha };
    return this.cached(`t:${JSON.stringify(o)}`, () => this.forest.haltingTable(o));
  },
  cached(key, make) {
    if (!this.cache.has(key)) {
      try { this.cache.set(key, { value: make() }); } catch (error) { this.cache.set(key, { error }); }
    }
    const hit = this.cache.get(key);
    if (hit.error) throw hit.error;
    return hit.value;
  },
  clearCache() {
    for (const { value } of this.cache.values()) if (value && typeof value.dispose === 'function') value.dispose();
    this.cache.clear();
  },
  onModel(fn) { this.modelListeners.push(fn); },
  onRule(fn) { this.ruleListeners.push(fn); },
  setStatus(text) { $('status').textContent = text; },
};

// ---- errors ------------------------------------------------------------------------------------

/** Renders an error (UrnforestError code, line, column) into an alert box. */
export function showError(box, e, context = '') {
  box.hidden = false;
  box.replaceChildren();
  const code = e?.code ?? e?.name ?? 'Error';
  box.dataset.code = code;
  const where = e?.line > 0 ? ` at line ${e.line}${e.column > 0 ? `, column ${e.column}` : ''}` : '';
  // The library's message repeats the code and position ("CsvRaggedRow: line 3, column 3: ..."): show them once.
  const message = String(e?.message ?? e).replace(/^\w+: (line \d+(, column \d+)?: )?/, '');
  box.append(h('strong', { text: `${context}${code}${where}` }), h('br'), document.createTextNode(message));
}
export function clearError(box) {
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.code;
}

// ---- data --------------------------------------------------------------------------------------

function headerCells(text) {
  return (previewCSV(text, 0)[0] ?? []).map((c) => c.trim()).filter((c) => c !== '');
}

function renderPreview(text) {
  const rows = previewCSV(text, 8);
  const container = $('preview');
  if (!rows.length) { container.replaceChildren(); return; }
  const table = h('table', { class: 'data' });
  const head = table.createTHead().insertRow();
  for (const c of rows[0]) head.append(h('th', { scope: 'col', text: c }));
  const body = table.createTBody();
  for (const r of rows.slice(1)) {
    const tr = body.insertRow();
    for (const c of r) tr.append(h('td', { text: c }));
  }
  container.replaceChildren(table);
}

function useText(text, name, { is2d = false } = {}) {
  app.text = text;
  app.name = name;
  app.is2d = is2d;
  const target = $('target');
  target.replaceChildren(...headerCells(text).map((c) => new Option(c, c)));
  target.selectedIndex = target.options.length - 1;
  target.disabled = target.options.length === 0;
  renderPreview(text);
  describeData();
}

function describeData() {
  const { uf, text } = app;
  if (!uf || text === null) return;
  const box = $('data-error');
  app.all?.dispose();
  app.all = null;
  try {
    const data = uf.Dataset.fromCSV(text, { target: $('target').value || undefined });
    app.all = data;
    const categorical = data.featureTypes.filter((t) => t === 'categorical').length;
    $('data-summary').textContent = `${app.name}: ${data.numRows} rows, ${data.numFeatures} features` +
      `${categorical ? ` (${categorical} categorical)` : ''}, ${data.classNames.length} classes ` +
      `(${data.classNames.slice(0, 6).join(', ')}${data.classNames.length > 6 ? ', …' : ''})`;
    $('mtry').max = String(data.numFeatures);
    clearError(box);
    $('train').disabled = false;
    app.setStatus('ready');
  } catch (e) {
    $('data-summary').textContent = `${app.name}: cannot be read.`;
    showError(box, e, `${app.name}: `);
    $('train').disabled = true;
    app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
  }
}

async function loadChoice(value) {
  $('file').value = '';
  if (value.startsWith('gen:')) {
    const kind = value.slice(4);
    useText(generate(kind, 600, Number($('seed').value) || 1), `${GENERATED[kind].label}`, { is2d: true });
    return;
  }
  $('data-summary').textContent = `Loading ${value}…`;
  const response = await fetch(`datasets/${value}.csv`);
  if (!response.ok) throw new Error(`datasets/${value}.csv: HTTP ${response.status}`);
  useText(await response.text(), `${value}.csv`);
}

function readLocalFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    const text = String(reader.result);
    const head = headerCells(text);
    useText(text, file.name, { is2d: head.length === 3 });
  };
  reader.onerror = () => showError($('data-error'), { code: 'FileRead', message: reader.error?.message ?? 'cannot read the file' });
  reader.readAsText(file);
}

// ---- training (in the worker) --------------------------------------------------------------------

let worker = null;
let jobId = 0;

function getWorker() {
  if (!worker) {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onerror = (e) => {
      e.preventDefault();
      finishTraining();
      showError($('data-error'), { code: 'Worker', message: e.message || 'the training worker failed to start' });
      app.setStatus(`error Worker ${e.message}`);
    };
  }
  return worker;
}

function finishTraining() {
  $('train').disabled = false;
  $('cancel').hidden = true;
}

function train() {
  const { all } = app;
  if (!all) return;
  let trees = Math.round(Number($('trees').value) || 101);
  trees = Math.min(1001, Math.max(1, trees));
  if (trees % 2 === 0) trees += 1; // odd: no ties between two classes
  $('trees').value = String(trees);
  const seed = Math.max(0, Math.round(Number($('seed').value) || 0));
  const mtry = Math.max(0, Math.min(all.numFeatures, Math.round(Number($('mtry').value) || 0)));
  const holdout = Number($('holdout').value);
  const n = all.numRows;
  const order = shuffledRows(n, seed + 1);
  const nTest = Math.max(1, Math.round(n * holdout));
  app.testRows = Uint32Array.from(order.subarray(0, nTest)).sort();
  app.trainRows = Uint32Array.from(order.subarray(nTest)).sort();
  const options = { ensemble: $('ensemble').value, trees, seed };
  if (options.ensemble === 'rf' && mtry > 0) options.mtry = mtry;

  const id = ++jobId;
  $('train').disabled = true;
  $('cancel').hidden = false;
  $('progress').value = 0;
  $('progress-text').textContent = 'starting the worker…';
  clearError($('data-error'));
  app.setStatus('training');
  const started = performance.now();
  const w = getWorker();
  w.onmessage = (event) => {
    const msg = event.data;
    if (msg.id !== id) return;
    if (msg.type === 'progress') {
      $('progress').value = msg.done / msg.total;
      $('progress-text').textContent = `${msg.done} / ${msg.total} trees`;
    } else if (msg.type === 'error') {
      finishTraining();
      $('progress-text').textContent = 'failed';
      showError($('data-error'), msg, 'Training failed: ');
      app.setStatus(`error ${msg.code} ${msg.message}`);
    } else if (msg.type === 'done') {
      finishTraining();
      const roundTrip = performance.now() - started;
      $('progress').value = 1;
      $('progress-text').textContent = `done: ${trees} trees`;
      try {
        useModel(app.uf.Forest.fromBytes(msg.bytes), { trainMs: msg.trainMs, roundTrip, bytes: msg.bytes.length });
      } catch (e) {
        showError($('data-error'), e, 'Loading the model failed: ');
        app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
      }
    }
  };
  w.postMessage({ id, csv: app.text, target: $('target').value || undefined, rows: app.trainRows, options });
}

function cancelTraining() {
  worker?.terminate();
  worker = null;
  jobId++;
  finishTraining();
  $('progress-text').textContent = 'cancelled';
  app.setStatus('ready');
}

/** Installs a trained model: metrics on the held-out rows, then every view redraws. */
function useModel(forest, { trainMs, roundTrip, bytes }) {
  app.clearCache();
  app.forest?.dispose();
  app.testDs?.dispose();
  app.forest = forest;
  app.trainMs = trainMs;
  app.testDs = app.all.subset(app.testRows);
  app.testLabels = app.testDs.labels();
  app.fullTest = forest.predict(app.testDs);
  let correct = 0;
  for (let i = 0; i < app.testLabels.length; i++) if (app.fullTest.classIndex[i] === app.testLabels[i]) correct++;
  const accuracy = correct / app.testLabels.length;
  $('m-accuracy').textContent = `${pct(accuracy)} (${app.testLabels.length} rows)`;
  $('m-oob').textContent = pct(forest.oobError);
  $('m-time').textContent = `${trainMs.toFixed(0)} ms`;
  $('m-time').title = `train ${trainMs.toFixed(1)} ms; with parsing and messaging ${roundTrip.toFixed(1)} ms`;
  $('m-time').dataset.ms = trainMs.toFixed(1);
  $('m-time').dataset.roundTripMs = roundTrip.toFixed(1);
  $('m-model').textContent = `${forest.numTrees} trees, ${forest.numNodes} nodes, ${(bytes / 1024).toFixed(0)} KiB (${app.name})`;
  app.setStatus(`ok trees=${forest.numTrees} accuracy=${accuracy.toFixed(4)} oob=${forest.oobError.toFixed(4)} ` +
    `ms=${trainMs.toFixed(1)} halting=${app.hasHalting ? 'yes' : 'no'}`);
  for (const fn of app.modelListeners) fn();
}

/** Installs a model loaded from a file (view 6): no data set, so only classification uses it. */
export function useLoadedModel(forest) {
  app.clearCache();
  app.forest?.dispose();
  app.testDs?.dispose();
  app.testDs = null;
  app.testLabels = null;
  app.fullTest = null;
  app.forest = forest;
  $('m-accuracy').textContent = '— (loaded model)';
  $('m-oob').textContent = pct(forest.oobError);
  $('m-time').textContent = '—';
  $('m-model').textContent = `${forest.numTrees} trees, ${forest.numNodes} nodes (loaded)`;
  for (const fn of app.modelListeners) fn();
}

// ---- wiring ------------------------------------------------------------------------------------

const RULE_HELP = {
  siba: 'Urn model with a uniform prior over final tallies (= SIBA, Hernández-Lobato et al. 2009). Depends only on T, the number of classes and α.',
  hyper: 'Urn model with the smoothed histogram of out-of-bag votes as prior (HYPER, seed 000): one table per class.',
  '1dir': 'Urn model with one Dirichlet distribution fitted to the out-of-bag vote fractions.',
  ndir: 'Urn model with a mixture of Dirichlets, one fitted per training class.',
  optimal: 'The table with the fewest expected trees whose average disagreement under the OOB prior is at most 1 − α.',
  alpha1: 'Stop only when the leader\'s lead exceeds the votes left: the answer can no longer change (no statistics).',
  infinite: 'Stop when the leader is the winner of an infinitely large forest with probability > α (Dirichlet posterior, seed 002).',
};

function ruleChanged() {
  $('rule-help').textContent = RULE_HELP[$('rule').value] ?? '';
  for (const fn of app.ruleListeners) fn();
}

async function main() {
  $('dataset').addEventListener('change', (e) => loadChoice(e.target.value).catch((err) => showError($('data-error'), err)));
  $('file').addEventListener('change', (e) => { if (e.target.files[0]) readLocalFile(e.target.files[0]); });
  $('target').addEventListener('change', describeData);
  $('train').addEventListener('click', train);
  $('cancel').addEventListener('click', cancelTraining);
  for (const id of ['rule', 'alpha', 'order']) $(id).addEventListener('change', ruleChanged);
  $('rule-help').textContent = RULE_HELP[$('rule').value];

  createConceptsView(app);
  createUrnView(app);
  createTestView(app);
  createPriorView(app);
  createClassifyView(app, { useLoadedModel, showError, clearError });

  try {
    app.uf = await init();
    await loadChoice($('dataset').value);
  } catch (e) {
    app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
    showError($('data-error'), e);
  }
}

main();
