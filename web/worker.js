// Module Web Worker of the demo: everything that can take more than a frame runs here, never on the page's
// thread (training, halting-table builds, the expected cost, the error-versus-alpha sweep, the heat map,
// static pruning's orderings). It imports the same public API as the page (/dist/index.js, wasm embedded: no
// extra request). The CSV text it is given was read locally by the page and never leaves the browser.
//
// The page runs two instances: one that only trains (terminated to cancel a training) and one "compute"
// instance that holds the current model and its train/test split ('load') and answers the other jobs.
//   in:  {id, op: 'train', csv, target, rows (Uint32Array | null), options (TrainOptions without onProgress)}
//   out: {id, type: 'progress', done, total} … then {id, type: 'done', bytes, trainMs, parseMs}
//   in:  {id, op: 'load', bytes, csv | null, target, trainRows, testRows}        out: {id, type: 'done'}
// The halting jobs below build the rule's table once per model (forest.storeTable) and then only look it up:
//   in:  {id, op: 'halting', opts}                   out: {id, type: 'done', value: HaltedPrediction of the test rows}
//   in:  {id, op: 'trace', row, opts}                out: {id, type: 'done', value: VoteTrace of test row `row`}
//   in:  {id, op: 'halts', opts, tallies, l}         out: {id, type: 'done', halts: Uint8Array} (tallies: n × l, row-major)
//   in:  {id, op: 'prior', rule}                     out: {id, type: 'done', value: PriorInfo without finalTallyMass,
//        marginal: its mass by class 0's votes (2 classes) or the winner's votes, 0..T (null if too many tallies)}
//   in:  {id, op: 'posterior', rule, tally}          out: {id, type: 'done', value: finalTallyPosterior(…) | null}
//   in:  {id, op: 'classify', csv, opts | null}      out: {id, type: 'done', full: Prediction, halting: HaltedPrediction | null,
//        haltingError: {code, message} | null, numRows} of the rows of `csv` read against the model's columns (csv null: the test rows)
//   in:  {id, op: 'cost', rule, alpha}               out: {id, type: 'done', value: CostEstimate}
//   in:  {id, op: 'sweep', opts, alphas}             out: {id, type: 'done', rows: [{alpha, error, disagreement, meanTrees}]}
//   in:  {id, op: 'grid', x, cols, opts}             out: {id, type: 'done', treesUsed, fullClassIndex}
//   in:  {id, op: 'pruning', ordering}               out: {id, type: 'done', order, train, test, trainBase, testBase, ms}
//   any failure:                                     {id, type: 'error', code, message, line, column}
import { init } from '/dist/index.js';
import { finalTallyPosterior, MAX_POSTERIOR_TALLIES, numTallies, prepareTallies, priorMarginal } from './math.js';

const ready = init();

/** The compute instance's current model and data (wasm handles, owned here). */
const state = { forest: null, all: null, train: null, test: null, testLabels: null, tables: new Map(), posteriors: new Map() };

function dropState() {
  for (const table of state.tables.values()) table.dispose();
  state.tables.clear();
  state.posteriors.clear();
  state.forest?.dispose();
  if (state.train && state.train !== state.all) state.train.dispose();
  state.test?.dispose();
  state.all?.dispose();
  Object.assign(state, { forest: null, all: null, train: null, test: null, testLabels: null });
}

function needForest() {
  if (!state.forest) throw Object.assign(new Error('no model loaded in the compute worker'), { code: 'InvalidArgument' });
  return state.forest;
}

function needTest() {
  if (!state.test) throw Object.assign(new Error('this model has no test rows (it was loaded from a file)'), { code: 'InvalidArgument' });
  return state.test;
}

function errorRate(classIndex, labels) {
  let wrong = 0;
  for (let i = 0; i < labels.length; i++) if (classIndex[i] !== labels[i]) wrong++;
  return wrong / labels.length;
}

/** Builds and stores the table of (opts.rule, opts.alpha) unless the model has it: later calls are lookups. */
function ensureStored(forest, { rule, alpha }) {
  const T = forest.numTrees;
  if (!forest.storedTables().some((t) => t.rule === rule && t.alpha === alpha && t.trees === T)) forest.storeTable({ rule, alpha });
}

/** The HaltingTable object of (rule, alpha), kept until the model changes. */
function tableFor(forest, { rule, alpha }) {
  const key = `${rule}|${alpha}`;
  if (!state.tables.has(key)) {
    ensureStored(forest, { rule, alpha });
    state.tables.set(key, forest.haltingTable({ rule, alpha }));
  }
  return state.tables.get(key);
}

/** A Dataset of `csv` read against the model's columns, with or without its class column. */
function readAgainst(uf, forest, csv) {
  try {
    return uf.Dataset.fromCSV(csv, { schemaOf: forest });
  } catch (e) {
    if (e.code !== 'TargetNotFound') throw e;
    return uf.Dataset.fromCSV(csv, { schemaOf: forest, target: null });
  }
}

const jobs = {
  train(uf, { id, csv, target, rows, options }, post) {
    let all = null;
    let train = null;
    let forest = null;
    try {
      const t0 = performance.now();
      all = uf.Dataset.fromCSV(csv, target ? { target } : {});
      train = rows ? all.subset(rows) : all;
      const parseMs = performance.now() - t0;
      let last = 0;
      const t1 = performance.now();
      forest = uf.trainForest(train, {
        ...options,
        onProgress: (done, total) => {
          const now = performance.now();
          if (now - last > 40 || done === total) {
            last = now;
            post({ id, type: 'progress', done, total });
          }
        },
      });
      const trainMs = performance.now() - t1;
      const bytes = forest.toBytes();
      post({ id, type: 'done', bytes, trainMs, parseMs }, [bytes.buffer]);
    } finally {
      forest?.dispose();
      if (train && train !== all) train.dispose();
      all?.dispose();
    }
  },

  load(uf, { id, bytes, csv, target, trainRows, testRows }, post) {
    dropState();
    state.forest = uf.Forest.fromBytes(bytes);
    if (csv !== null) {
      state.all = uf.Dataset.fromCSV(csv, target ? { target } : {});
      state.train = state.all.subset(trainRows);
      state.test = state.all.subset(testRows);
      state.testLabels = state.test.labels();
    }
    post({ id, type: 'done' });
  },

  halting(uf, { id, opts }, post) {
    const forest = needForest();
    ensureStored(forest, opts);
    post({ id, type: 'done', value: forest.predict(needTest(), opts) });
  },

  trace(uf, { id, row, opts }, post) {
    const forest = needForest();
    ensureStored(forest, opts);
    post({ id, type: 'done', value: forest.trace(needTest(), row, opts) });
  },

  halts(uf, { id, opts, tallies, l }, post) {
    const table = tableFor(needForest(), opts);
    const n = tallies.length / l;
    const halts = new Uint8Array(n);
    for (let i = 0; i < n; i++) halts[i] = table.halts(tallies.subarray(i * l, (i + 1) * l)) ? 1 : 0;
    post({ id, type: 'done', halts }, [halts.buffer]);
  },

  prior(uf, { id, rule }, post) {
    const forest = needForest();
    const value = forest.prior(rule);
    const l = forest.numClasses;
    const marginal = value.finalTallyMass && numTallies(l, forest.numTrees) <= MAX_POSTERIOR_TALLIES
      ? priorMarginal(value.finalTallyMass, forest.numTrees, l) : null;
    post({ id, type: 'done', value: { ...value, finalTallyMass: null }, marginal });
  },

  posterior(uf, { id, rule, tally }, post) {
    const forest = needForest();
    const l = forest.numClasses;
    const T = forest.numTrees;
    if (!state.posteriors.has(rule)) {
      let prep = null;
      if (numTallies(l, T) <= MAX_POSTERIOR_TALLIES) {
        const mass = forest.prior(rule).finalTallyMass;
        if (mass) prep = prepareTallies(mass, l, T);
      }
      state.posteriors.set(rule, prep);
    }
    const prep = state.posteriors.get(rule);
    post({ id, type: 'done', value: prep ? finalTallyPosterior(prep, tally) : null });
  },

  classify(uf, { id, csv, opts }, post) {
    const forest = needForest();
    const ds = csv === null ? null : readAgainst(uf, forest, csv);
    try {
      const rows = ds ?? needTest();
      let halting = null;
      let haltingError = null; // e.g. a rule beyond its class limit: the full vote is still given
      if (opts) {
        try {
          ensureStored(forest, opts);
          halting = forest.predict(rows, opts);
        } catch (e) {
          haltingError = { code: e.code ?? e.name, message: e.message };
        }
      }
      post({ id, type: 'done', full: forest.predict(rows), halting, haltingError, numRows: rows.numRows });
    } finally {
      ds?.dispose();
    }
  },

  cost(uf, { id, rule, alpha }, post) {
    post({ id, type: 'done', value: needForest().expectedCost({ rule, alpha }) });
  },

  sweep(uf, { id, opts, alphas }, post) {
    const forest = needForest();
    const test = needTest();
    const rows = [];
    for (const alpha of alphas) {
      try {
        ensureStored(forest, { rule: opts.rule, alpha });
        const p = forest.predict(test, { ...opts, alpha });
        rows.push({ alpha, error: errorRate(p.classIndex, state.testLabels), disagreement: p.disagreement, meanTrees: p.meanTrees });
      } catch { /* e.g. an alpha the rule cannot use: the point is left out */ }
    }
    post({ id, type: 'done', rows });
  },

  grid(uf, { id, x, cols, opts }, post) {
    const forest = needForest();
    ensureStored(forest, opts);
    const ds = uf.Dataset.fromArrays(x, { rows: x.length / cols, cols, featureNames: forest.featureNames });
    try {
      const p = forest.predict(ds, opts);
      post({ id, type: 'done', treesUsed: p.treesUsed, fullClassIndex: p.fullClassIndex }, [p.treesUsed.buffer, p.fullClassIndex.buffer]);
    } finally {
      ds.dispose();
    }
  },

  pruning(uf, { id, ordering }, post) {
    const forest = needForest();
    if (!state.train) needTest();
    const t0 = performance.now();
    const order = forest.order(state.train, { ordering });
    const train = forest.errorCurve(state.train, order);
    const test = forest.errorCurve(needTest(), order);
    const ms = performance.now() - t0;
    // The same curves in training order, the reference every ordering is compared with.
    const asTrained = Int32Array.from({ length: forest.numTrees }, (_, i) => i);
    const trainBase = forest.errorCurve(state.train, asTrained);
    const testBase = forest.errorCurve(state.test, asTrained);
    post({ id, type: 'done', order, train, test, trainBase, testBase, ms },
      [order.buffer, train.buffer, test.buffer, trainBase.buffer, testBase.buffer]);
  },
};

self.onmessage = async (event) => {
  const msg = event.data;
  const post = (m, transfer) => self.postMessage(m, transfer ?? []);
  try {
    const uf = await ready;
    if (!Object.hasOwn(jobs, msg.op)) throw new TypeError(`unknown demo worker operation '${msg.op}'`);
    jobs[msg.op](uf, msg, post);
  } catch (e) {
    post({ id: msg.id, type: 'error', code: e.code ?? e.name, message: e.message, line: e.line ?? 0, column: e.column ?? 0 });
  }
};
