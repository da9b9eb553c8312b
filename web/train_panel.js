// View 1, training: the form's TrainOptions, training in the library's worker (urnforest/worker, with
// progress and cancel), then the model's lifecycle: the page loads a copy of the bytes for cheap reads and
// the compute worker holds the model (a RemoteForest) with the test and training rows for every other view.
import { UrnforestWorker } from '/dist/worker.js';
import { pct } from './charts.js';
import { gridValue } from './emphasis.js';
import { shuffledRows } from './math.js';
import { app, clearError, showError } from './app.js';
import { useModelOrder } from './rule_bar.js';

const $ = (id) => document.getElementById(id);

const trainer = new UrnforestWorker(); // only trains: cancelling terminates it, the compute worker goes on
let training = null; // AbortController of the running training

function finishTraining() {
  training = null;
  $('train').disabled = false;
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
  rf: 'Breiman 2001: each tree on a bootstrap sample, mtry random features tried per split; plain majority vote.',
  bagging: 'Breiman 1996: each tree on a bootstrap sample with every feature; plain majority vote.',
  adaboost: 'Freund & Schapire 1997 (SAMME beyond 2 classes): each tree on a resample weighted towards the rows the ' +
    'earlier trees got wrong; weighted vote. Halting counts unweighted votes.',
  voteboost: 'Sabzevari, Martínez-Muñoz & Suárez 2018 ([SMS18] §3): row weights g(p) = p^(a−1)(1−p)^(b−1) of the ' +
    'share p of earlier trees voting for the row\'s leading class; a = b = 1 is the random forest, a > 1 ' +
    'stresses uncertain rows, a < 1 confident ones. Majority vote.',
};

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
}

/** Trains on the training rows of the current data set in the worker, then installs the model. */
export async function train() {
  const { all } = app;
  if (!all || training) return;
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
  const testRows = Uint32Array.from(order.subarray(0, nTest)).sort();
  const trainRows = Uint32Array.from(order.subarray(nTest)).sort();
  const options = trainOptions({ trees, seed, mtry });
  const text = app.text;
  const target = $('target').value || undefined;

  const controller = new AbortController();
  training = controller;
  $('train').disabled = true;
  $('cancel').hidden = false;
  $('progress').value = 0;
  $('progress-text').textContent = 'starting the worker…';
  clearError($('data-error'));
  app.setStatus('training');
  const started = performance.now();
  let trainStart = null;
  let trainEnd = null;
  let last = 0;
  const onProgress = ({ stage, fraction }) => {
    const now = performance.now();
    if (stage === 'train' && trainStart === null) trainStart = now;
    if (stage === 'serialize' && trainEnd === null) trainEnd = now;
    if (stage !== 'train' || (now - last < 40 && fraction < 1)) return;
    last = now;
    $('progress').value = fraction;
    $('progress-text').textContent = `${Math.round(fraction * trees)} / ${trees} trees`;
  };
  let result;
  try {
    result = await trainer.train({ csv: text, options: target ? { target } : {}, rows: trainRows }, options,
      { signal: controller.signal, onProgress });
  } catch (e) {
    if (training !== controller) return; // cancelled
    finishTraining();
    $('progress-text').textContent = 'failed';
    showError($('data-error'), e, 'Training failed: ');
    app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
    return;
  }
  finishTraining();
  const roundTrip = performance.now() - started;
  const trainMs = (trainEnd ?? performance.now()) - (trainStart ?? started);
  $('progress').value = 1;
  $('progress-text').textContent = `done: ${trees} trees`;
  try {
    await useModel(result.bytes, { trainMs, roundTrip, ensemble: options.ensemble, testRows, trainRows, text, target });
  } catch (e) {
    showError($('data-error'), e, 'Loading the model failed: ');
    app.setStatus(`error ${e.code ?? e.name} ${e.message}`);
  }
}

export function cancelTraining() {
  const controller = training;
  if (!controller) return;
  finishTraining();
  controller.abort();
  $('progress-text').textContent = 'cancelled';
  app.setStatus('ready');
}

const ENSEMBLE_NAMES = { rf: 'Random forest', bagging: 'Bagging', adaboost: 'AdaBoost', voteboost: 'Vote-boosting' };

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

/** Installs a trained model: metrics on the held-out rows, then every view redraws. */
async function useModel(bytes, { trainMs, roundTrip, ensemble, testRows, trainRows, text, target }) {
  const size = bytes.length;
  if (!await replaceModel(bytes, ensemble, { text, target, testRows, trainRows })) return;
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
  $('m-accuracy').textContent = `${pct(accuracy)} (${app.testLabels.length} rows)`;
  // Boosted trees are drawn with weights set by the earlier trees' votes on every row, out-of-bag rows
  // included, so their OOB votes are not an unbiased error estimate (docs/voteboost.md).
  const boosted = ensemble === 'adaboost' || ensemble === 'voteboost';
  $('m-oob').textContent = pct(forest.oobError) + (boosted ? ' (not unbiased for boosting)' : '');
  $('m-time').textContent = `${trainMs.toFixed(0)} ms`;
  $('m-time').title = `train ${trainMs.toFixed(1)} ms; with parsing and messaging ${roundTrip.toFixed(1)} ms`;
  $('m-time').dataset.ms = trainMs.toFixed(1);
  $('m-time').dataset.roundTripMs = roundTrip.toFixed(1);
  $('m-model').textContent = `${ENSEMBLE_NAMES[ensemble] ?? ensemble}: ${forest.numTrees} trees, ${forest.numNodes} nodes, ` +
    `${(size / 1024).toFixed(0)} KiB (${app.name})`;
  app.setStatus(`ok trees=${forest.numTrees} accuracy=${accuracy.toFixed(4)} oob=${forest.oobError.toFixed(4)} ` +
    `ms=${trainMs.toFixed(1)} ensemble=${ensemble}`);
  modelReady();
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
  const { weighted } = app.remote.info;
  app.ensemble = weighted ? 'adaboost' : '';
  $('m-accuracy').textContent = '— (loaded model)';
  $('m-oob').textContent = pct(app.forest.oobError);
  $('m-time').textContent = '—';
  $('m-model').textContent = `${app.forest.numTrees} trees, ${app.forest.numNodes} nodes (loaded)`;
  modelReady();
}
