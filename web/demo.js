// urnforest demo: data & training (view 1) and the shared state the other views read.
// Uses only the public API of the built package (/dist/index.js). Every byte comes from the serving origin;
// a user's file is read with FileReader and stays in this page. Nothing slow runs on this thread: training
// runs in a module Web Worker (worker.js) which posts the model bytes back, and a second instance of it (the
// compute worker, compute.js) builds the halting tables and stores them with the model, whose bytes this
// thread then loads with Forest.fromBytes: predict/trace here are table lookups only.
import { init } from '/dist/index.js';
import { h, pct } from './charts.js';
import { EMPHASIS_GRID, GENERATED, generate, previewCSV, shuffledRows } from './math.js';
import { createCompute, isAbort } from './compute.js';
import { createUrnView } from './urn.js';
import { createTestView } from './testset.js';
import { createPriorView } from './prior.js';
import { createConceptsView } from './concepts.js';
import { createPruningView } from './pruning.js';
import { createEmphasisView } from './emphasis.js';
import { createClassifyView } from './classify.js';

const $ = (id) => document.getElementById(id);

/** The query order halting must use for a model: vote-boosted and AdaBoost trees are not exchangeable. */
export function needsRandomOrder(ensemble) { return ensemble === 'adaboost' || ensemble === 'voteboost'; }

/** Shared state; views subscribe with app.onModel / app.onRule. */
export const app = {
  uf: null,
  text: null, // CSV text of the current data set (bundled, generated or the user's file)
  name: '',
  is2d: false,
  forest: null, // main-thread copy of the model, carrying the halting tables the compute worker built
  ensemble: 'rf', // how the current model was trained ('' for a model loaded from a file)
  orderForced: false, // the rule bar's order was switched to random for a boosted model (restored after)
  version: 0, // bumped on every new model: results of jobs asked for an older one are dropped
  all: null, // Dataset of every row (main-thread copy)
  testDs: null,
  trainDs: null,
  testRows: null,
  trainRows: null,
  testLabels: null,
  fullTest: null, // forest.predict(testDs): full vote of the test rows
  trainMs: 0,
  compute: null,
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
  /**
   * A job for the compute worker about the current model: resolves to its 'done' message, or to null when
   * a newer job in the same `lane` replaced it or the model changed before it finished.
   */
  async work(message, lane = null, transfer = []) {
    const version = this.version;
    try {
      const msg = await this.compute.run(message, { lane, transfer });
      return version === this.version ? msg : null;
    } catch (e) {
      if (isAbort(e)) return null;
      throw e;
    }
  },
  /** Shared results of worker jobs for the current model, by key (promises; cleared on a new model). */
  cache: new Map(),
  ask(key, message, lane = null) {
    if (!this.cache.has(key)) {
      const job = this.work(message, lane).then((msg) => {
        if (msg === null && this.cache.get(key) === job) this.cache.delete(key); // superseded: ask again next time
        return msg;
      });
      this.cache.set(key, job);
    }
    return this.cache.get(key);
  },
  /**
   * The halting prediction of every test row under opts (HaltedPrediction), computed in the worker, which
   * builds the rule's table on first use; null when superseded by a newer rule.
   */
  async predictHalting(opts) {
    const msg = await this.ask(`p:${JSON.stringify(opts)}`, { op: 'halting', opts }, 'halting');
    return msg?.value ?? null;
  },
  /** The trace of test row `row` under opts (VoteTrace), or null when superseded. */
  async trace(row, opts) {
    const msg = await this.work({ op: 'trace', row, opts }, 'trace');
    return msg?.value ?? null;
  },
  /** halts() of the (rule, alpha) table for each tally (Int32Array, n × classes): a Uint8Array, or null. */
  async halts(opts, tallies, lane) {
    const l = this.forest.classNames.length;
    const msg = await this.work({ op: 'halts', opts: { rule: opts.rule, alpha: opts.alpha }, tallies, l }, lane, [tallies.buffer]);
    return msg?.halts ?? null;
  },
  clearCache() {
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
  $('train').disabled = true; // until the new data set is read (describeData enables it)
  app.setStatus('loading');
  const response = await fetch(`../datasets/${value}.csv`);
  if (!response.ok) throw new Error(`${value}.csv: HTTP ${response.status}`);
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

/**
 * The TrainOptions of the form. Random forests and vote-boosting's random trees use mtry (0 = the library's
 * default); AdaBoost uses the library's boosting by resampling; vote-boosting takes the emphasis a = b (or
 * 'cv': chosen by 10-fold cross-validation over the paper's grid) and the base learner.
 */
function trainOptions({ trees, seed, mtry }) {
  const ensemble = $('ensemble').value;
  const options = { ensemble, trees, seed };
  if (mtry > 0 && (ensemble === 'rf' || (ensemble === 'voteboost' && $('vb-base').value === 'random'))) options.mtry = mtry;
  if (ensemble === 'voteboost') {
    options.voteboost = { a: $('vb-cv').checked ? 'cv' : emphasisValue(), base: $('vb-base').value };
  }
  return options;
}

/** The emphasis a = b of the slider, a point of the paper's grid. */
function emphasisValue() { return EMPHASIS_GRID[Number($('vb-a').value)] ?? 1; }

/**
 * Offers vote-boosting only when the loaded library trains it (a one-tree model of four rows; the option is
 * disabled, with the reason, otherwise).
 */
function detectVoteBoosting() {
  const option = $('ensemble').querySelector('option[value="voteboost"]');
  let ds = null;
  try {
    ds = app.uf.Dataset.fromArrays(Float32Array.from([0, 1, 2, 3]), { rows: 4, cols: 1, labels: ['a', 'a', 'b', 'b'] });
    app.uf.trainForest(ds, { ensemble: 'voteboost', trees: 1, voteboost: { a: 1 } }).dispose();
  } catch (e) {
    option.disabled = true;
    option.textContent += ' (not in this build of the library)';
    option.title = e.message;
  } finally {
    ds?.dispose();
  }
}

function ensembleChanged() {
  const ensemble = $('ensemble').value;
  $('vb-options').hidden = ensemble !== 'voteboost';
  $('mtry').disabled = ensemble === 'bagging' || ensemble === 'adaboost' ||
    (ensemble === 'voteboost' && $('vb-base').value !== 'random');
  $('vb-a').disabled = $('vb-cv').checked;
  const a = emphasisValue();
  $('vb-a-out').textContent = $('vb-cv').checked ? 'chosen by CV' : String(a);
  $('vb-a').setAttribute('aria-valuetext', $('vb-cv').checked ? 'chosen by cross-validation' : `a = b = ${a}`);
  $('ensemble-help').textContent = ENSEMBLE_HELP[ensemble] ?? '';
}

const ENSEMBLE_HELP = {
  rf: 'Breiman 2001: each tree on a bootstrap sample, mtry random features tried per split; plain majority vote.',
  bagging: 'Breiman 1996: each tree on a bootstrap sample with every feature; plain majority vote.',
  adaboost: 'Freund & Schapire 1997 (SAMME beyond 2 classes): each tree on a resample weighted towards the rows the ' +
    'earlier trees got wrong; weighted vote. Halting counts unweighted votes in a random order per row.',
  voteboost: 'Sabzevari, Martínez-Muñoz & Suárez 2018 (seed 004): row weights g(p) = p^(a−1)(1−p)^(b−1) of the ' +
    'share p of earlier trees voting for the row\'s leading class; a = b = 1 is the random forest, a > 1 ' +
    'stresses uncertain rows, a < 1 confident ones. Majority vote.',
};

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
  const options = trainOptions({ trees, seed, mtry });

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
        useModel(app.uf.Forest.fromBytes(msg.bytes), { trainMs: msg.trainMs, roundTrip, bytes: msg.bytes, ensemble: options.ensemble });
      } catch (e) {
        showError($('data-error'), e, 'Loading the model failed: ');
        app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
      }
    }
  };
  w.postMessage({ id, op: 'train', csv: app.text, target: $('target').value || undefined, rows: app.trainRows, options });
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
function useModel(forest, { trainMs, roundTrip, bytes, ensemble }) {
  replaceModel(forest, ensemble);
  app.trainMs = trainMs;
  app.testDs = app.all.subset(app.testRows);
  app.trainDs = app.all.subset(app.trainRows);
  app.testLabels = app.testDs.labels();
  app.fullTest = forest.predict(app.testDs);
  let correct = 0;
  for (let i = 0; i < app.testLabels.length; i++) if (app.fullTest.classIndex[i] === app.testLabels[i]) correct++;
  const accuracy = correct / app.testLabels.length;
  $('m-accuracy').textContent = `${pct(accuracy)} (${app.testLabels.length} rows)`;
  // Boosted trees are drawn with weights set by the earlier trees' votes on every row, out-of-bag rows
  // included, so their OOB votes are not an unbiased error estimate (docs/voteboost.md).
  $('m-oob').textContent = pct(forest.oobError) + (needsRandomOrder(ensemble) ? ' (not unbiased for boosting)' : '');
  $('m-time').textContent = `${trainMs.toFixed(0)} ms`;
  $('m-time').title = `train ${trainMs.toFixed(1)} ms; with parsing and messaging ${roundTrip.toFixed(1)} ms`;
  $('m-time').dataset.ms = trainMs.toFixed(1);
  $('m-time').dataset.roundTripMs = roundTrip.toFixed(1);
  $('m-model').textContent = `${ENSEMBLE_NAMES[ensemble] ?? ensemble}: ${forest.numTrees} trees, ${forest.numNodes} nodes, ` +
    `${(bytes.length / 1024).toFixed(0)} KiB (${app.name})`;
  app.setStatus(`ok trees=${forest.numTrees} accuracy=${accuracy.toFixed(4)} oob=${forest.oobError.toFixed(4)} ` +
    `ms=${trainMs.toFixed(1)} halting=${app.hasHalting ? 'yes' : 'no'} ensemble=${ensemble}`);
  const target = $('target').value || undefined;
  app.compute.run({ op: 'load', bytes, csv: app.text, target, trainRows: app.trainRows, testRows: app.testRows },
    { transfer: [bytes.buffer] }).catch(() => {});
  modelReady();
}

const ENSEMBLE_NAMES = { rf: 'Random forest', bagging: 'Bagging', adaboost: 'AdaBoost', voteboost: 'Vote-boosting' };

/** Drops the previous model and everything computed for it; queued worker jobs for it are cancelled. */
function replaceModel(forest, ensemble) {
  app.version++;
  app.compute.clear();
  app.clearCache();
  app.forest?.dispose();
  app.testDs?.dispose();
  app.trainDs?.dispose();
  app.testDs = null;
  app.trainDs = null;
  app.testLabels = null;
  app.fullTest = null;
  app.forest = forest;
  app.ensemble = ensemble;
  // AdaBoost and vote-boosted trees are generated sequentially, each depending on the earlier ones: asking
  // them in training order is biased, so halting asks them in a random order per row (docs/voteboost.md).
  const forced = needsRandomOrder(ensemble);
  if (forced && $('order').value !== 'random') { $('order').value = 'random'; app.orderForced = true; }
  if (!forced && app.orderForced) { $('order').value = 'generation'; app.orderForced = false; }
  $('order').querySelector('option[value="generation"]').disabled = forced;
  $('order-note').hidden = !forced;
  showRuleHelp();
}

/** Every view redraws; each asks the compute worker for what it shows (the rule's table is built there). */
function modelReady() {
  for (const fn of app.modelListeners) fn();
}

const WORK_LABELS = {
  halting: 'building the halting table and predicting the test rows', trace: 'building the halting table',
  halts: 'reading the halting table', prior: 'fitting the prior', cost: 'predicting the cost from training data',
  sweep: 'sweeping α (one table per value)', grid: 'predicting the heat-map grid', pruning: 'ordering the trees',
  classify: 'classifying', load: 'loading the model',
};

/** Says what the compute worker is doing (the page itself stays usable meanwhile). */
function showWork(busy, op) {
  document.body.dataset.computing = busy ? 'yes' : 'no';
  $('work').textContent = busy ? `Working in the background: ${WORK_LABELS[op] ?? op}…` : '';
}

/** Installs a model loaded from a file (view 6): no data set, so only classification uses it. */
export function useLoadedModel(forest) {
  replaceModel(forest, forest.treeWeights().length ? 'adaboost' : '');
  $('m-accuracy').textContent = '— (loaded model)';
  $('m-oob').textContent = pct(forest.oobError);
  $('m-time').textContent = '—';
  $('m-model').textContent = `${forest.numTrees} trees, ${forest.numNodes} nodes (loaded)`;
  const bytes = forest.toBytes();
  app.compute.run({ op: 'load', bytes, csv: null }, { transfer: [bytes.buffer] }).catch(() => {});
  modelReady();
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

/** The rule's one-line explanation, with a warning where its assumptions do not hold for this model. */
function showRuleHelp() {
  const rule = $('rule').value;
  let text = RULE_HELP[rule] ?? '';
  if (rule === 'infinite' && needsRandomOrder(app.ensemble)) {
    text += ' Caution: it models the trees as independent draws, which boosted trees are not (vote-boosting with a = b = 1 excepted).';
  }
  $('rule-help').textContent = text;
}

function ruleChanged() {
  showRuleHelp();
  for (const fn of app.ruleListeners) fn();
}

async function main() {
  $('dataset').addEventListener('change', (e) => loadChoice(e.target.value).catch((err) => showError($('data-error'), err)));
  $('file').addEventListener('change', (e) => { if (e.target.files[0]) readLocalFile(e.target.files[0]); });
  $('target').addEventListener('change', describeData);
  $('train').addEventListener('click', train);
  for (const id of ['ensemble', 'vb-a', 'vb-cv', 'vb-base']) $(id).addEventListener('input', ensembleChanged);
  ensembleChanged();
  app.compute = createCompute({ onBusy: showWork });
  $('cancel').addEventListener('click', cancelTraining);
  for (const id of ['rule', 'alpha', 'order']) $(id).addEventListener('change', ruleChanged);
  showRuleHelp();

  createConceptsView(app);
  createPruningView(app);
  createEmphasisView(app);
  createUrnView(app);
  createTestView(app);
  createPriorView(app);
  createClassifyView(app, { useLoadedModel, showError, clearError });

  try {
    app.uf = await init();
    detectVoteBoosting();
    await loadChoice($('dataset').value);
  } catch (e) {
    app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
    showError($('data-error'), e);
  }
}

main();
