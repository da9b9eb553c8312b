// RemoteForest: a model held in an UrnforestWorker's thread (a session). It keeps what a fresh thread
// (after an abort) needs to rebuild the session before the next job: its own copy of the model bytes, the
// options of each table stored, and the snapshot (snapshot.js, never the caller's object) of the latest
// data set of each name still live. Replacing or dropping a data set frees its snapshot, so what a
// session keeps is bounded by the data sets it holds now, and a rebuild replays only those.
import { disposedError } from './errors.js';
import { predictInParts, predictPartsFor } from './parallel_predict.js';

/** Passed by UrnforestWorker#load only: `new RemoteForest` is not public. */
export const INTERNAL = Symbol('internal');

// Session calls that change the model's state in the worker: their snapshots are recorded when they succeed.
const RECORDED = new Set(['addData', 'dropData', 'storeTable']);

/**
 * A model held in an UrnforestWorker (from `worker.load(bytes)`). Every method runs in the worker and
 * returns a promise; the last argument is the job control {signal?, onProgress?}. `data` arguments:
 * the name of a data set added with addData, or data loaded for that call only ({csv, options?,
 * rows?, schemaOfModel?} or {x, options, rows?}). Typed arrays in results are transferred.
 */
export class RemoteForest {
  constructor(token, jobs, id, model, info, pool = null) {
    if (token !== INTERNAL) throw new TypeError('RemoteForest: use `await worker.load(bytes)`');
    this._jobs = jobs; // the JobQueue of the UrnforestWorker that loaded it
    // {threads, helpers(n)}: the worker's thread count and its extra threads' job queues (a large
    // predict is split over them: parallel_predict.js); null: one thread.
    this._pool = pool;
    // What a helper thread holds of this session: the model and its stored tables, no data sets.
    this._helperView = { _restore: () => ({ model: this._model, log: this._restore().log.filter((e) => e.method === 'storeTable') }) };
    this._id = id;
    this._model = model; // the library's own copy of the model bytes
    this._data = new Map(); // name -> the data snapshot of the latest successful addData(name)
    this._tables = new Map(); // [rule, alpha, trees] as JSON -> storeTable options, in storage order
    this._info = info;
    this._disposed = false;
  }

  /**
   * What the model is, read once at load: {numTrees, numClasses, numFeatures, numNodes, oobError,
   * classNames, featureNames, featureTypes, learner, weighted, defaultOrder, storedTables}.
   * defaultOrder: forest.defaultOrder, the query order predict/trace use when options.order is not given.
   */
  get info() { return this._info; }

  /** True once dispose() has been called. */
  get disposed() { return this._disposed; }

  /** Loads `data` in the worker under `name` (replacing one of that name). → {numRows, numFeatures, hasLabels, classNames} */
  addData(name, data, ctl) { return this._call('addData', { name, data }, ctl); }
  /** Frees the data set `name` (no-op when there is none). */
  dropData(name, ctl) { return this._call('dropData', { name }, ctl); }
  /**
   * forest.predict(data, options?) in the worker. A large batch given as {x: Float32Array, options:
   * {rows, cols, featureNames?}} is split over the worker's threads in contiguous parts (the same
   * answer, field for field, as one thread: parallel_predict.js).
   */
  predict(data, options, ctl) {
    const parts = this._disposed || this._pool === null || this._jobs.terminated ? 1
      : predictPartsFor(data, options, this._pool.threads, this._info.numTrees);
    if (parts <= 1) return this._call('predict', { data, options }, ctl);
    let queues;
    try {
      queues = [this._jobs, ...this._pool.helpers(parts - 1)];
    } catch (e) {
      return Promise.reject(e);
    }
    const submit = (queue, part, partCtl, i) => queue.submit({ op: 'session', session: this._id, method: 'predict', args: part },
      partCtl, 'predict', { owned: true, remote: i === 0 ? this : this._helperView });
    return predictInParts(queues, data, options, ctl, submit);
  }
  /** forest.trace(data, row, options?) in the worker. */
  trace(data, row, options, ctl) { return this._call('trace', { data, row, options }, ctl); }
  /** forest.prior(rule, options?) in the worker. */
  prior(rule, options, ctl) { return this._call('prior', { rule, options }, ctl); }
  /**
   * forest.posterior(tally, {rule, trees?}) in the worker: {numClasses, numTrees, tallies, probability,
   * win, leader} (the arrays transferred).
   */
  posterior(tally, options, ctl) { return this._call('posterior', { tally, options }, ctl); }
  /** forest.expectedCost(options) in the worker. */
  expectedCost(options, ctl) { return this._call('expectedCost', { options }, ctl); }
  /** forest.order(data, options?) in the worker. */
  order(data, options, ctl) { return this._call('order', { data, options }, ctl); }
  /** forest.errorCurve(data, order) in the worker. */
  errorCurve(data, order, ctl) { return this._call('errorCurve', { data, order }, ctl); }
  /** forest.storeTable(options) in the worker (kept across worker restarts). */
  storeTable(options, ctl) { return this._call('storeTable', { options }, ctl); }
  /** forest.storedTables() in the worker. */
  storedTables(ctl) { return this._call('storedTables', {}, ctl); }
  /** The HaltingTable of forest.haltingTable(options), built once per session: {bytes, rule, alpha, numTrees, numClasses, binaryThresholds}. */
  haltingTable(options, ctl) { return this._call('haltingTable', { options }, ctl); }
  /** table.halts(tally) of the (options) table for each tally; `tallies`: Int32Array, n x classes, row-major. → Uint8Array (1 = halts) */
  halts(options, tallies, ctl) { return this._call('halts', { options, tallies }, ctl); }
  /** table.confidence(tally) for each tally, as halts(). → Float64Array */
  confidence(options, tallies, ctl) { return this._call('confidence', { options, tallies }, ctl); }
  /** table.leader(tally) for each tally, as halts(). → Int32Array (-1: no strict leader) */
  leader(options, tallies, ctl) { return this._call('leader', { options, tallies }, ctl); }
  /** forest.oobVotes() in the worker. */
  oobVotes(ctl) { return this._call('oobVotes', {}, ctl); }
  /** forest.trainLabels() in the worker. */
  trainLabels(ctl) { return this._call('trainLabels', {}, ctl); }
  /** forest.treeWeights() in the worker. */
  treeWeights(ctl) { return this._call('treeWeights', {}, ctl); }
  /** forest.toBytes() in the worker: the model with the tables stored so far. */
  toBytes(ctl) { return this._call('toBytes', {}, ctl); }

  /**
   * Frees the model in the worker. Queued calls and later calls reject with an Error whose code is
   * 'RemoteDisposed'; a running one finishes. Idempotent.
   */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    this._jobs.dropQueued(this, disposedError);
    if (!this._jobs.terminated) this._jobs.submit({ op: 'release', session: this._id }, undefined, 'dispose').catch(() => {});
    this._releaseHelpers();
  }

  // Frees this session in the helper threads running (those that do not hold it skip the job: job_queue.js).
  _releaseHelpers() {
    if (this._pool === null) return;
    for (const queue of this._pool.helpers(0)) {
      if (queue.started) queue.submit({ op: 'release', session: this._id }, undefined, 'dispose', { remote: this._helperView }).catch(() => {});
    }
  }

  _call(method, args, ctl) {
    if (this._disposed) return Promise.reject(disposedError(method));
    const extra = { remote: this };
    if (RECORDED.has(method)) {
      extra.keep = true;
      extra.onResult = (message) => this._record(method, message.args);
    }
    return this._jobs.submit({ op: 'session', session: this._id, method, args }, ctl, method, extra);
  }

  // Records a successful state-changing call from its snapshot `args`.
  _record(method, args) {
    if (method === 'addData') {
      this._data.delete(args.name);
      this._data.set(args.name, args.data);
    } else if (method === 'dropData') {
      this._data.delete(args.name);
    } else {
      const key = JSON.stringify([args.options.rule, args.options.alpha, args.options.trees]);
      if (!this._tables.has(key)) this._tables.set(key, args.options);
      this._releaseHelpers(); // rebuilt with the table on their next part
    }
  }

  /**
   * What a fresh thread needs to rebuild this session: the model bytes and the calls to replay, the
   * stored tables first (in storage order), then one addData per live data set.
   */
  _restore() {
    const log = [];
    for (const options of this._tables.values()) log.push({ method: 'storeTable', args: { options } });
    for (const [name, data] of this._data) log.push({ method: 'addData', args: { name, data } });
    return { model: this._model, log };
  }
}
