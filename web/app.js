// The demo's shared state: the current data set and model, the rule bar's options, and the jobs every view
// sends to the model held in the library's worker (urnforest/worker: a RemoteForest per model). Views
// subscribe with app.onModel / app.onRule. The page's thread only keeps a copy of the model for cheap reads
// (names, sizes, out-of-bag votes, the full vote of the test rows); everything slow runs in the worker.
import { h } from './charts.js';
import { currentDelta, isCertifiedRule } from './certified_rule.js';
import { sentence } from './explain.js';
import { UrnforestWorker } from '/dist/worker.js';
import { MAX_POSTERIOR_TALLIES, numTallies } from './math.js';
import { isCancelled, startJob, withSignal } from './work.js';

const $ = (id) => document.getElementById(id);

export const app = {
  uf: null,
  text: null, // CSV text of the current data set (bundled, generated or the user's file)
  name: '',
  dataSource: null, // the bundled or generated data set's name (the dataset list's value); null for a file
  is2d: false,
  forest: null, // the page's copy of the model (metadata and the full vote of the test rows)
  remote: null, // the same model held in the worker (RemoteForest): every halting job runs there
  ensemble: 'rf', // how the current model was trained ('' for a model loaded from a file)
  version: 0, // bumped on every new model: results of jobs asked for an older one are dropped
  all: null, // Dataset of every row (page copy)
  testDs: null,
  trainDs: null,
  testRows: null,
  trainRows: null,
  testLabels: null,
  fullTest: null, // forest.predict(testDs): full vote of the test rows
  trainMs: 0,
  compute: new UrnforestWorker(), // holds the current model (RemoteForest)
  lanes: new Map(), // lane -> {running: boolean, waiting: job | null}
  modelListeners: [],
  ruleListeners: [],
  /** The rule bar's options as a HaltingOptions object. */
  haltingOptions() {
    const opts = { rule: $('rule').value, alpha: Number($('alpha').value) };
    if ($('order').value === 'random') { opts.order = 'random'; opts.seed = Number($('seed').value) || 0; }
    // auto and lp default to the random order: "as trained" is said explicitly, so that the urn's trace agrees.
    else if (isCertifiedRule(opts.rule)) opts.order = 'generation';
    if (opts.rule === 'auto') opts.delta = currentDelta();
    return opts;
  },
  /**
   * Runs `job(remote)` (a call on the current model in the worker) and resolves to its result, or to null
   * when the model changed meanwhile or the student cancelled it (the top bar's Cancel, work.js). In a
   * `lane`, one job runs at a time and a newer job replaces one that is still waiting (which then resolves
   * to null): clicking through rules never queues up stale work.
   */
  work(label, job, lane = null) {
    const version = this.version;
    const start = () => {
      if (version !== this.version || this.remote === null) return Promise.resolve(null);
      const running = startJob(label); // shown in the top bar, with Cancel (work.js)
      return job(withSignal(this.remote, running.signal)).finally(() => running.done())
        .then((value) => (version === this.version ? value : null), (e) => {
        if (version !== this.version || e?.code === 'RemoteDisposed' || isCancelled(e)) return null;
        throw e;
      });
    };
    if (lane === null) return start();
    let state = this.lanes.get(lane);
    if (state === undefined) this.lanes.set(lane, state = { running: false, waiting: null });
    return new Promise((resolve, reject) => {
      state.waiting?.resolve(null);
      state.waiting = { start, resolve, reject };
      const next = () => {
        if (state.running || state.waiting === null) return;
        const w = state.waiting;
        state.waiting = null;
        state.running = true;
        w.start().then(w.resolve, w.reject).finally(() => { state.running = false; next(); });
      };
      next();
    });
  },
  /** Shared results of worker jobs for the current model, by key (promises; cleared on a new model). */
  cache: new Map(),
  ask(key, label, job, lane = null) {
    if (!this.cache.has(key)) {
      const pending = this.work(label, job, lane).then((value) => {
        if (value === null && this.cache.get(key) === pending) this.cache.delete(key); // superseded: ask again next time
        return value;
      });
      this.cache.set(key, pending);
    }
    return this.cache.get(key);
  },
  /** The halting prediction of every test row under opts (HaltedPrediction); null when superseded. */
  predictHalting(opts) {
    return this.ask(`p:${JSON.stringify(opts)}`, 'building the halting table and predicting the test rows',
      (remote) => remote.predict('test', { ...opts, compare: true }), 'halting');
  },
  /** The trace of test row `row` under opts (VoteTrace), or null when superseded. */
  trace(row, opts) {
    return this.work('building the halting table', (remote) => remote.trace('test', row, opts), 'trace');
  },
  /** halts() of the (rule, alpha) table for each tally (Int32Array, n × classes): a Uint8Array, or null. */
  halts(opts, tallies, lane) {
    return this.work('reading the halting table', (remote) => remote.halts({ rule: opts.rule, alpha: opts.alpha }, tallies), lane);
  },
  /** forest.prior(rule) of the current model, computed once per model in the worker. */
  prior(rule) {
    return this.ask(`prior:${rule}`, 'fitting the prior', (remote) => remote.prior(rule));
  },
  /**
   * The urn posterior after the partial tally `tally` (Int32Array) under `rule`'s prior, computed by the
   * library in the worker (forest.posterior: {numClasses, numTrees, tallies, probability, win, leader}), as
   * {value}: value null when there are too many final tallies to list; null when superseded.
   */
  async posterior(rule, tally) {
    if (numTallies(this.forest.numClasses, this.forest.numTrees) > MAX_POSTERIOR_TALLIES) return { value: null };
    const value = await this.work('computing the posterior', (remote) => remote.posterior(tally, { rule }), 'posterior');
    return value === null ? null : { value };
  },
  /**
   * The prior over the final tallies of `rule` with explicit tallies: forest.posterior of the empty tally
   * (computed once per model in the worker), or null when superseded.
   */
  priorTallies(rule) {
    const empty = new Int32Array(this.forest.numClasses);
    return this.ask(`prior-tallies:${rule}`, 'listing the prior over final tallies', (remote) => remote.posterior(empty, { rule }));
  },
  clearCache() {
    this.cache.clear();
    for (const state of this.lanes.values()) {
      state.waiting?.resolve(null);
      state.waiting = null;
    }
  },
  onModel(fn) { this.modelListeners.push(fn); },
  onRule(fn) { this.ruleListeners.push(fn); },
  /**
   * The status line a student reads: `state` ('loading' | 'ready' | 'training' | 'ok' | 'error', also in
   * data-state for tests), a sentence, and optional machine-readable numbers as data-* attributes.
   */
  setStatus(state, text, data = {}) {
    const el = $('status');
    el.textContent = text;
    for (const key of Object.keys(el.dataset)) delete el.dataset[key];
    el.dataset.state = state;
    for (const [key, value] of Object.entries(data)) el.dataset[key] = String(value);
  },
};

/**
 * Renders an error into an alert box as sentences: `heading` (what failed, e.g. "mine.csv cannot be read"),
 * where (line and column of the file), the library's message, and its code in small print (to look up in
 * docs/api.md; also in data-code for tests).
 */
export function showError(box, e, heading = 'Something went wrong') {
  box.hidden = false;
  box.replaceChildren();
  const code = e?.code ?? e?.name ?? 'Error';
  box.dataset.code = code;
  const where = e?.line > 0 ? ` (line ${e.line}${e.column > 0 ? `, column ${e.column}` : ''})` : '';
  box.append(h('strong', { text: `${heading}${where}.` }), ' ', document.createTextNode(sentence(e)),
    h('span', { class: 'code', text: ` Error code: ${code}.` }));
}

export function clearError(box) {
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.code;
}
