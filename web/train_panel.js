// View 1, training: the form's TrainOptions, training in the library's worker (urnforest/worker, with
// progress and cancel), then the model's lifecycle: the page loads a copy of the bytes for cheap reads and
// the compute worker holds the model (a RemoteForest) with the test and training rows for every other view.
import { UrnforestWorker } from '/dist/worker.js';
import { h, pct } from './charts.js';
import { gridValue } from './emphasis.js';
import { shuffledRows } from './math.js';
import { app, clearError, showError } from './app.js';
import { linkCitations } from './cite.js';
import { sentence } from './explain.js';
import { useModelOrder } from './rule_bar.js';
import { checkForm } from './validate.js';
import { calibrateModel, showCalibration, splitHeldOut } from './calibration.js';

const $ = (id) => document.getElementById(id);

const trainer = new UrnforestWorker(); // only trains: cancelling terminates it, the compute worker goes on
let training = null; // AbortController of the running training

function finishTraining() {
  training = null;
  formChanged();
  $('cancel').hidden = true;
}

/**
 * The TrainOptions of the form. Random forests and vote-boosting's random trees use mtry (0 = the library's
 * default); AdaBoost uses the library's boosting by resampling; vote-boosting takes the emphasis a = b (or
 * 'cv': chosen by 10-fold cross-validation over the grid of [SMS18] §4) and the base learner.
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

/** The emphasis a = b of the slider, a point of the grid of [SMS18] §4. */
function emphasisValue() { return gridValue(app.uf, Number($('vb-a').value)); }

const ENSEMBLE_HELP = {
  rf: 'Breiman 2001 [Bre01]: each tree on a bootstrap sample, mtry random features tried per split; plain majority vote.',
  bagging: 'Breiman 1996 [Bre96]: each tree on a bootstrap sample with every feature; plain majority vote.',
  adaboost: 'Freund & Schapire 1997 [FS97] (SAMME [ZZRH09] beyond 2 classes): each tree on a resample weighted towards the rows the ' +
    'earlier trees got wrong; weighted vote. Halting counts unweighted votes.',
  voteboost: 'Sabzevari, Martínez-Muñoz & Suárez 2018 ([SMS18] §3): row weights g(p) = p^(a−1)(1−p)^(b−1) of the ' +
    'share p of earlier trees voting for the row\'s leading class; a = b = 1 is the random forest, a > 1 ' +
    'stresses uncertain rows, a < 1 confident ones. Majority vote.',
};

/**
 * Re-checks the form's numbers (validate.js) and enables Train only when the data set is readable and every
 * field can be used as typed.
 */
export function formChanged() {
  const form = checkForm(app.all?.numFeatures ?? 0);
  $('train').disabled = training !== null || app.all === null || !form.ok;
}

export function ensembleChanged() {
  const ensemble = $('ensemble').value;
  $('vb-options').hidden = ensemble !== 'voteboost';
  $('mtry').disabled = ensemble === 'bagging' || ensemble === 'adaboost' ||
    (ensemble === 'voteboost' && $('vb-base').value !== 'random');
  $('vb-a').disabled = $('vb-cv').checked;
  const a = emphasisValue();
  $('vb-a-out').textContent = $('vb-cv').checked ? 'chosen by CV' : String(a);
  $('vb-a').setAttribute('aria-valuetext', $('vb-cv').checked ? 'chosen by cross-validation' : `a = b = ${a}`);
  $('ensemble-help').textContent = ENSEMBLE_HELP[ensemble] ?? '';
  linkCitations($('ensemble-help'));
  formChanged();
}

const CV_FOLDS = 10; // SelectEmphasisByCV's stratified folds ([SMS18] §4.2)

/** A duration for a student: "3.5 ms", "840 ms", "12.3 s". */
export function duration(ms) {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The progress bar and its sentence. `phase`: 'read' | 'cv' | 'train' | 'done' | 'failed' |
 * 'cancelled' (also in data-phase); every update bumps data-updates (the tests count them).
 */
function showProgress(phase, fraction, text) {
  const bar = $('progress');
  if (fraction !== null) bar.value = Math.min(1, Math.max(0, fraction));
  $('progress-text').textContent = text;
  bar.dataset.phase = phase;
  bar.dataset.updates = String(Number(bar.dataset.updates ?? 0) + 1);
}

/**
 * Runs one training job in the trainer worker; `onTrees(fraction, now)` gets the library's per-tree
 * progress. Resolves to {result, trainMs, treesMs} (trainMs: from the training's start to serialising, in the
 * worker; treesMs: the time all its trees took, from the progress of the trees, or null).
 */
async function trainJob(data, options, signal, onTrees) {
  let trainStart = null;
  let trainEnd = null;
  let last = 0;
  let first = null; // [time, fraction] of the first tree reported, and of the latest
  let latest = null;
  const onProgress = ({ stage, fraction }) => {
    const now = performance.now();
    if (stage === 'train' && trainStart === null) trainStart = now;
    if (stage === 'train' && fraction > 0) {
      if (first === null) first = [now, fraction];
      latest = [now, fraction];
    }
    if (stage === 'serialize' && trainEnd === null) trainEnd = now;
    if (stage !== 'train' || (now - last < 40 && fraction < 1)) return;
    last = now;
    onTrees(fraction, now);
  };
  const started = performance.now();
  const result = await trainer.train(data, options, { signal, onProgress });
  const trainMs = (trainEnd ?? performance.now()) - (trainStart ?? started);
  // Time per tree from the trees' own progress (a fresh worker's start-up is not in it).
  const span = first !== null && latest[1] > first[1] ? (latest[0] - first[0]) / (latest[1] - first[1]) : null;
  return { result, trainMs, treesMs: span };
}

/**
 * Vote-boosting with a = b chosen by cross-validation: the library trains grid × folds ensembles before
 * the final one and reports progress only for the final one's trees (SelectEmphasisByCV takes no progress
 * callback). So the page first times a few trees of the same kind, estimates the cross-validation's time
 * from them, moves the bar by that estimate (saying so) while it runs, then follows the final trees.
 */
async function trainWithCV(data, options, signal, trees) {
  const grid = app.uf.emphasisGrid().length;
  // The library's progress counts the cross-validation's trees first (folds x grid values x trees per
  // ensemble), then the final forest's: one fraction for the whole job.
  const cvTrees = grid * CV_FOLDS * (options.voteboost?.cvTrees ?? trees);
  const cvShare = cvTrees / (cvTrees + trees);
  const ensembles = grid * CV_FOLDS;
  showProgress('cv', 0, `Cross-validating a = b: ${grid} values × ${CV_FOLDS} folds = ${ensembles} ensembles of ${trees} trees…`);
  return trainJob(data, options, signal, (fraction) => {
    if (fraction < cvShare) {
      showProgress('cv', fraction, `Cross-validating a = b: ${grid} values × ${CV_FOLDS} folds = ${ensembles} ensembles` +
        ` of ${trees} trees, ${Math.round((fraction / cvShare) * 100)}\u00a0% done.`);
    } else {
      const done = Math.round(((fraction - cvShare) / (1 - cvShare)) * trees);
      showProgress('train', fraction, `Training the final forest: ${done} / ${trees} trees`);
    }
  });
}

/** Trains on the training rows of the current data set in the worker, then installs the model. */
export async function train() {
  const { all } = app;
  if (!all || training) return;
  const form = checkForm(all.numFeatures); // refused values keep Train disabled; adjusted ones say so
  if (!form.ok) return;
  const { trees, seed, mtry } = form;
  const holdout = Number($('holdout').value);
  const n = all.numRows;
  const order = shuffledRows(n, seed + 1);
  const nTest = Math.max(1, Math.round(n * holdout));
  const testRows = Uint32Array.from(order.subarray(0, nTest)).sort();
  const trainRows = Uint32Array.from(order.subarray(nTest)).sort();
  const options = trainOptions({ trees, seed, mtry });
  const text = app.text;
  const target = $('target').value || undefined;
  const data = { csv: text, options: target ? { target } : {}, rows: trainRows };

  const controller = new AbortController();
  training = controller;
  $('train').disabled = true;
  $('cancel').hidden = false;
  $('progress').dataset.updates = '0';
  showProgress('read', 0, 'Reading the data in the background…');
  clearError($('data-error'));
  app.setStatus('training', `Training ${trees} trees in the background; the page stays usable.`);
  const started = performance.now();
  let job;
  try {
    if (options.voteboost?.a === 'cv') {
      job = await trainWithCV(data, options, controller.signal, trees);
    } else {
      job = await trainJob(data, options, controller.signal,
        (fraction) => showProgress('train', fraction, `${Math.round(fraction * trees)} / ${trees} trees`));
    }
  } catch (e) {
    if (training !== controller) return; // cancelled
    finishTraining();
    showProgress('failed', null, 'Training failed.');
    showError($('data-error'), e, 'Training failed');
    app.setStatus('error', `Training failed: ${sentence(e)}`);
    return;
  }
  finishTraining();
  const roundTrip = performance.now() - started;
  const { result } = job;
  const { trainMs } = job; // with cross-validation: from its start (the worker's first progress event)
  showProgress('done', 1, `Done: ${trees} trees.`);
  try {
    await useModel(result.bytes, { trainMs, roundTrip, ensemble: options.ensemble, testRows, trainRows, text, target,
      chosen: result.emphasisSelection?.chosen });
  } catch (e) {
    showError($('data-error'), e, 'The trained model could not be loaded');
    app.setStatus('error', `The trained model could not be loaded: ${sentence(e)}`);
  }
}

export function cancelTraining() {
  const controller = training;
  if (!controller) return;
  finishTraining();
  controller.abort();
  showProgress('cancelled', null, 'Cancelled.');
  app.setStatus('ready', 'Training cancelled. Change the options and train again when you like.');
}

const ENSEMBLE_NAMES = { rf: 'Random forest', bagging: 'Bagged ensemble', adaboost: 'AdaBoost ensemble', voteboost: 'Vote-boosted ensemble' };

/**
 * Drops the previous model and everything computed for it, then loads `bytes` on the page and in the compute
 * worker (with the test and training rows when `rows` are given); resolves once the RemoteForest is ready.
 */
async function replaceModel(bytes, ensemble, rows = null) {
  const version = ++app.version;
  app.clearCache();
  app.remote?.dispose();
  app.remote = null;
  app.forest?.dispose();
  app.testDs?.dispose();
  app.trainDs?.dispose();
  Object.assign(app, { forest: null, testDs: null, trainDs: null, testLabels: null, fullTest: null });
  const forest = app.uf.Forest.fromBytes(bytes);
  app.forest = forest;
  app.ensemble = ensemble;
  const remote = await app.compute.load(bytes);
  if (rows !== null) {
    const data = { csv: rows.text, options: rows.target ? { target: rows.target } : {} };
    await Promise.all([remote.addData('test', { ...data, rows: rows.testRows }), remote.addData('train', { ...data, rows: rows.trainRows })]);
  }
  if (version !== app.version) { remote.dispose(); return false; }
  app.remote = remote;
  useModelOrder(remote.info.defaultOrder);
  return true;
}

const TREE_NOUNS = { rf: 'random-forest trees', bagging: 'bagged trees', adaboost: 'AdaBoost trees', voteboost: 'vote-boosted trees' };

/** Installs a trained model: metrics on the held-out rows, then every view redraws. */
async function useModel(bytes, info) {
  app.trained = { bytes, info, all: app.all }; // for recalibrate()
  const { trainMs, roundTrip, ensemble, trainRows, text, target, chosen } = info;
  const size = bytes.length;
  // Calibration rows for rules auto and lp: a share of the held-out rows, left out of the test rows.
  const split = splitHeldOut(info.testRows, Number($('calibrate').value));
  const calibrated = calibrateModel(app.uf, bytes, app.all, split.calRows, Number($('alpha').value));
  const testRows = calibrated.report ? split.testRows : info.testRows; // a refused calibration keeps every held-out row
  showCalibration(calibrated, split.calRows, testRows);
  $('calibrate').disabled = false;
  if (!await replaceModel(calibrated.bytes, ensemble, { text, target, testRows, trainRows })) return;
  const forest = app.forest;
  app.testRows = testRows;
  app.trainRows = trainRows;
  app.trainMs = trainMs;
  app.testDs = app.all.subset(testRows);
  app.trainDs = app.all.subset(trainRows);
  app.testLabels = app.testDs.labels();
  app.fullTest = forest.predict(app.testDs);
  let correct = 0;
  for (let i = 0; i < app.testLabels.length; i++) if (app.fullTest.classIndex[i] === app.testLabels[i]) correct++;
  const accuracy = correct / app.testLabels.length;
  $('m-accuracy').replaceChildren(pct(accuracy), h('small', { text: ` on ${app.testLabels.length} rows` }));
  // Boosted trees are drawn with weights set by the earlier trees' votes on every row, out-of-bag rows
  // included, so their OOB votes are not an unbiased error estimate (docs/voteboost.md).
  const boosted = ensemble === 'adaboost' || ensemble === 'voteboost';
  $('m-oob').replaceChildren(pct(forest.oobError), boosted ? h('small', { text: ' biased for boosting' }) : '');
  $('m-time').textContent = duration(trainMs);
  $('m-time').title = `Training ${duration(trainMs)}; with reading the data and messaging ${duration(roundTrip)}.`;
  $('m-time').dataset.ms = trainMs.toFixed(1);
  $('m-time').dataset.roundTripMs = roundTrip.toFixed(1);
  const kib = size / 1024;
  $('m-model').textContent = `${ENSEMBLE_NAMES[ensemble] ?? ensemble} of ${forest.numTrees} trees` +
    `${chosen !== undefined ? ` (a = b = ${chosen}, chosen by cross-validation)` : ''} · ` +
    `${forest.numNodes.toLocaleString('en-GB')} nodes · ${kib < 1024 ? `${kib.toFixed(0)} KiB` : `${(kib / 1024).toFixed(1)} MiB`} · ` +
    `trained on ${trainRows.length} rows of ${app.name}`;
  app.setStatus('ok', `Trained ${forest.numTrees} ${TREE_NOUNS[ensemble] ?? 'trees'} in ${duration(trainMs)}. ` +
    `Test accuracy ${pct(accuracy)}, out-of-bag error ${pct(forest.oobError)}` +
    `${boosted ? ' (optimistic for boosting)' : ''}.` +
    `${chosen !== undefined ? ` Cross-validation chose a = b = ${chosen}.` : ''}`,
  { trees: forest.numTrees, accuracy: accuracy.toFixed(4), oob: forest.oobError.toFixed(4), ms: trainMs.toFixed(1), ensemble });
  modelReady();
}

/** Installs the model trained last again, calibrated as the rule bar's "Calibration rows" now says. */
export async function recalibrate() {
  if (!app.trained) return;
  if (app.trained.all !== app.all) {
    $('calibrate-note').textContent = 'Another data set is loaded now: train a forest on it, then choose its calibration rows.';
    return;
  }
  await useModel(app.trained.bytes, app.trained.info);
}

/** Every view redraws; each asks the compute worker for what it shows (the rule's table is built there). */
function modelReady() {
  for (const fn of app.modelListeners) fn();
}

/** Installs a model loaded from a file (view 6): no data set, so only classification uses it. */
export async function useLoadedModel(bytes) {
  const forest = app.uf.Forest.fromBytes(bytes); // throws on a bad file before the current model is dropped
  forest.dispose();
  if (!await replaceModel(bytes, '')) return;
  app.trained = null;
  $('calibrate').disabled = true; // no held-out rows to calibrate on
  $('calibrate-note').textContent = 'A model loaded from a file has no held-out rows here: it is not calibrated in this page.';
  const { weighted } = app.remote.info;
  app.ensemble = weighted ? 'adaboost' : '';
  $('m-accuracy').textContent = '—';
  $('m-oob').textContent = pct(app.forest.oobError);
  $('m-time').textContent = '—';
  $('m-model').textContent = `A model loaded from a file: ${app.forest.numTrees} trees, ` +
    `${app.forest.numNodes.toLocaleString('en-GB')} nodes. Classify rows with it in view 6.`;
  app.setStatus('ok', `Loaded a model of ${app.forest.numTrees} trees from a file.`, { trees: app.forest.numTrees });
  modelReady();
}
