// urnforest/worker: long work (training, halting-table building, expected cost) off the main thread,
// in a Web Worker (browsers, bundlers) or a Node `worker_threads` Worker, with progress events and
// cancellation by AbortSignal. Results are plain data: a model comes back as bytes, to be loaded on
// the caller's side with `Forest.fromBytes` (wasm handles cannot cross threads).
//
// Cancellation: the core is synchronous inside the worker, so aborting the running job terminates
// the worker (immediately, wherever it is) and the next job starts a fresh one. Jobs run one at a
// time, in submission order; aborting a queued job just removes it.
//
// Sessions: `await worker.load(bytes)` keeps a model in the worker and returns a RemoteForest whose
// methods run there (predict, trace, prior, ...). The remote keeps a copy of the bytes and of the
// calls that changed the model's state (addData, dropData, storeTable): a fresh worker (after an
// abort) gets them with the next job and rebuilds the session before running it.
// Keep in sync with bindings/worker_thread.js and bindings/worker.d.ts.
import { UrnforestError } from './index.js';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null &&
  typeof window === 'undefined';

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor ? value.constructor.name : 'object';
  return `${typeof value} ${String(value)}`;
}

function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  return new DOMException('The operation was aborted', 'AbortError');
}

function reviveError(error) {
  if (error.name === 'UrnforestError') {
    return new UrnforestError(error.code, error.message, { line: error.line ?? 0, column: error.column ?? 0 });
  }
  const Kind = { TypeError, RangeError }[error.name] ?? Error;
  const e = new Kind(error.message);
  if (Kind === Error && error.name) e.name = error.name;
  return e;
}

// A started worker behind one small interface: post(message), terminate(), busy(flag).
async function spawn(url, onMessage, onFailure) {
  if (isNode) {
    const { Worker } = await import(/* @vite-ignore */ 'node:worker_threads');
    // Not the `new URL('literal', import.meta.url)` form: bundlers would copy the file as an asset.
    const worker = new Worker(url ?? new URL(NODE_WORKER_FILE, import.meta.url));
    worker.on('message', onMessage);
    worker.on('error', onFailure);
    worker.on('exit', (code) => onFailure(new Error(`urnforest worker exited (code ${code})`)));
    return {
      post: (message, transfer) => worker.postMessage(message, transfer),
      terminate: () => { worker.removeAllListeners('exit'); worker.terminate(); },
      busy: (flag) => (flag ? worker.ref() : worker.unref()),
    };
  }
  // The literal `new Worker(new URL(..., import.meta.url), {type: 'module'})` lets bundlers (Vite,
  // webpack 5) find and emit the worker script.
  const worker = url !== undefined
    ? new Worker(url, { type: 'module' })
    : new Worker(new URL('./worker_thread.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => onMessage(event.data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    onFailure(new Error(`urnforest worker failed: ${event.message ?? 'script error'}`));
  };
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    terminate: () => worker.terminate(),
    busy: () => {},
  };
}

const NODE_WORKER_FILE = './worker_thread.js';

const JOB_CONTROL = ['signal', 'onProgress'];

function control(options, what) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${what}: control must be an object {signal?, onProgress?}`);
  for (const key of Object.keys(options)) {
    if (!JOB_CONTROL.includes(key)) throw new TypeError(`${what}: unknown control option '${key}' (expected signal, onProgress)`);
  }
  if (options.signal !== undefined && !(typeof AbortSignal === 'function' && options.signal instanceof AbortSignal)) {
    throw new TypeError(`${what}: signal must be an AbortSignal, got ${describe(options.signal)}`);
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError(`${what}: onProgress must be a function, got ${describe(options.onProgress)}`);
  }
  return options;
}

function disposedError(what) {
  const e = new Error(`${what}: this RemoteForest has been disposed; load the model again`);
  e.code = 'RemoteDisposed';
  return e;
}

function checkModel(model, what) {
  if (!(model instanceof Uint8Array)) throw new TypeError(`${what}: model must be a Uint8Array (forest.toBytes()), got ${describe(model)}`);
}

/** A worker that runs urnforest jobs one at a time. Call terminate() when done. */
export class UrnforestWorker {
  /** `options.url`: the worker script (default: worker_thread.js next to this file). */
  constructor(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('UrnforestWorker: options must be an object');
    for (const key of Object.keys(options)) {
      if (key !== 'url') throw new TypeError(`UrnforestWorker: unknown option '${key}' (expected url)`);
    }
    if (options.url !== undefined && !(typeof options.url === 'string' || options.url instanceof URL)) {
      throw new TypeError('UrnforestWorker: url must be a string or a URL');
    }
    this._url = options.url;
    this._worker = null; // Promise of a spawned worker that said 'ready'.
    this._queue = [];
    this._active = null;
    this._nextId = 1;
    this._nextSession = 1;
    this._terminated = false;
  }

  /**
   * Trains a forest in the worker. `data`: {csv: string, options?: FromCSVOptions} or
   * {x: Float32Array, options: FromArraysOptions}; `options`: TrainOptions without onProgress.
   * Resolves to {bytes: Uint8Array, oobError, numTrees}; load with Forest.fromBytes(bytes).
   */
  train(data, options = {}, ctl) {
    if (data === null || typeof data !== 'object' || (typeof data.csv !== 'string' && !(data.x instanceof Float32Array))) {
      return Promise.reject(new TypeError('train: data must be {csv: string, options?} or {x: Float32Array, options}'));
    }
    if (options === null || typeof options !== 'object') return Promise.reject(new TypeError('train: options must be an object'));
    if ('onProgress' in options) return Promise.reject(new TypeError("train: pass onProgress in the third argument ({onProgress, signal}), not in the training options"));
    return this._submit({ op: 'train', data, options }, ctl, 'train');
  }

  /**
   * Builds a halting table in the worker: with `model` (forest bytes) as forest.haltingTable(options),
   * without it as haltingTable(options). Resolves to {bytes, rule, alpha, numTrees, numClasses,
   * binaryThresholds: [Int32Array, Int32Array] | null}; load with HaltingTable.fromBytes(bytes).
   */
  haltingTable(args, ctl) {
    if (args === null || typeof args !== 'object') return Promise.reject(new TypeError('haltingTable: arguments must be {model?, options}'));
    try {
      if (args.model !== undefined) checkModel(args.model, 'haltingTable');
    } catch (e) {
      return Promise.reject(e);
    }
    return this._submit({ op: 'haltingTable', model: args.model, options: args.options }, ctl, 'haltingTable');
  }

  /** forest.expectedCost(options) in the worker, for `model` (forest bytes). Resolves to its result. */
  expectedCost(args, ctl) {
    if (args === null || typeof args !== 'object') return Promise.reject(new TypeError('expectedCost: arguments must be {model, options}'));
    try {
      checkModel(args.model, 'expectedCost');
    } catch (e) {
      return Promise.reject(e);
    }
    return this._submit({ op: 'expectedCost', model: args.model, options: args.options }, ctl, 'expectedCost');
  }

  /**
   * runExperiment(options) in the worker. `options.data`: a generator name, or {csv, options?} /
   * {x, options} for a data set (a Dataset handle cannot cross threads); the other options as
   * runExperiment's. Progress: stage 'experiment', fraction = partitions done / total. Resolves to
   * the experiment report (the CLI's `experiment --json` document).
   */
  experiment(options, ctl) {
    if (options === null || typeof options !== 'object') return Promise.reject(new TypeError('experiment: options must be an object with data'));
    const data = options.data;
    if (!(typeof data === 'string' || (data !== null && typeof data === 'object' &&
      (typeof data.csv === 'string' || data.x instanceof Float32Array)))) {
      return Promise.reject(new TypeError('experiment: data must be a generator name, {csv: string, options?} or {x: Float32Array, options}'));
    }
    return this._submit({ op: 'experiment', options }, ctl, 'experiment');
  }

  /**
   * Loads `model` (forest bytes) into the worker and keeps it there: resolves to a RemoteForest whose
   * methods run in the worker. Progress: stage 'load'.
   */
  load(model, ctl) {
    try {
      checkModel(model, 'load');
    } catch (e) {
      return Promise.reject(e);
    }
    const remote = new RemoteForest(INTERNAL, this, this._nextSession++, model.slice());
    return this._submit({ op: 'session', session: remote._id, method: 'load', args: { model: remote._model } }, ctl, 'load')
      .then((info) => {
        remote._info = info;
        return remote;
      });
  }

  /** Stops the worker; running and queued jobs reject with an AbortError. Idempotent. */
  terminate() {
    if (this._terminated) return;
    this._terminated = true;
    const error = new DOMException('The worker was terminated', 'AbortError');
    for (const job of this._queue) job.reject(error);
    this._queue = [];
    if (this._active !== null) {
      this._active.reject(error);
      this._active = null;
    }
    this._kill();
  }

  _submit(message, ctl, what, extra = {}) {
    let c;
    try {
      c = control(ctl, what);
    } catch (e) {
      return Promise.reject(e);
    }
    if (this._terminated) return Promise.reject(new Error('UrnforestWorker has been terminated'));
    const { signal, onProgress } = c;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const job = { id: this._nextId++, message, what, onProgress, resolve, reject, signal, onAbort: null, ...extra };
      if (signal) {
        job.onAbort = () => this._abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      const finish = (fn) => (value) => {
        if (signal) signal.removeEventListener('abort', job.onAbort);
        fn(value);
      };
      job.resolve = finish(resolve);
      job.reject = finish(reject);
      this._queue.push(job);
      this._pump();
    });
  }

  _abort(job) {
    const error = abortError(job.signal);
    if (this._active === job) {
      this._active = null;
      this._kill();
      job.reject(error);
      this._pump();
    } else {
      const i = this._queue.indexOf(job);
      if (i >= 0) {
        this._queue.splice(i, 1);
        job.reject(error);
      }
    }
  }

  _kill() {
    const worker = this._worker;
    this._worker = null;
    if (worker !== null) worker.then((w) => w.terminate(), () => {});
  }

  _ensureWorker() {
    if (this._worker === null) {
      let ready;
      let failed;
      const promise = new Promise((res, rej) => { ready = res; failed = rej; });
      let spawned = null;
      const onMessage = (m) => {
        if (m.type === 'ready') {
          ready(spawned);
          return;
        }
        if (m.type === 'failed') {
          onFailure(reviveError(m.error));
          return;
        }
        this._onMessage(m);
      };
      const onFailure = (e) => {
        failed(e);
        if (this._worker === promise) {
          this._worker = null;
          const job = this._active;
          this._active = null;
          if (job !== null) job.reject(e);
          this._pump();
        }
      };
      spawn(this._url, onMessage, onFailure).then((w) => {
        w.sessions = new Set(); // ids of the RemoteForests this worker holds
        spawned = w;
      }, onFailure);
      this._worker = promise;
      promise.catch(() => {});
    }
    return this._worker;
  }

  _pump() {
    if (this._active !== null || this._queue.length === 0 || this._terminated) return;
    const job = this._queue.shift();
    this._active = job;
    this._ensureWorker().then((w) => {
      if (this._active !== job) return;
      const message = { id: job.id, ...job.message };
      const sid = message.session;
      if (sid !== undefined && !w.sessions.has(sid)) {
        if (message.op === 'release') {
          this._active = null;
          job.resolve(undefined);
          this._pump();
          return;
        }
        if (message.method !== 'load') message.restore = job.remote._restore();
      }
      try {
        w.post(message);
      } catch (e) {
        // Not structured-cloneable (a function, a Dataset, ...): this job fails, the worker is fine.
        this._active = null;
        job.reject(new TypeError(`${job.what}: its arguments cannot be sent to the worker (${e.message})`));
        this._pump();
        return;
      }
      if (sid !== undefined) {
        if (message.op === 'release') w.sessions.delete(sid);
        else w.sessions.add(sid);
      }
      job.opens = sid !== undefined && (message.method === 'load' || message.restore !== undefined) ? w : null;
      w.busy(true);
    }, (e) => {
      if (this._active === job) {
        this._active = null;
        job.reject(e);
        this._pump();
      }
    });
  }

  _onMessage(m) {
    const job = this._active;
    if (job === null || m.id !== job.id) return;
    if (m.type === 'progress') {
      if (job.onProgress) {
        try {
          job.onProgress({ stage: m.stage, fraction: m.fraction });
        } catch (e) {
          queueMicrotask(() => { throw e; });
        }
      }
      return;
    }
    this._active = null;
    this._worker?.then((w) => w.busy(false));
    // After a failed load or restore the session may be missing: the next call sends the restore again.
    if (m.type !== 'result' && job.opens) job.opens.sessions.delete(job.message.session);
    if (m.type === 'result') {
      job.onResult?.();
      job.resolve(m.value);
    } else {
      job.reject(reviveError(m.error));
    }
    this._pump();
  }
}

const INTERNAL = Symbol('internal');

// Session calls that change the model's state in the worker, replayed on a fresh worker.
const LOGGED = new Set(['addData', 'dropData', 'storeTable']);

/**
 * A model held in an UrnforestWorker (from `worker.load(bytes)`). Every method runs in the worker and
 * returns a promise; the last argument is the job control {signal?, onProgress?}. `data` arguments:
 * the name of a data set added with addData, or data loaded for that call only ({csv, options?,
 * rows?, schemaOfModel?} or {x, options, rows?}). Typed arrays in results are transferred.
 */
export class RemoteForest {
  constructor(token, worker, id, model) {
    if (token !== INTERNAL) throw new TypeError('RemoteForest: use `await worker.load(bytes)`');
    this._worker = worker;
    this._id = id;
    this._model = model;
    this._log = [];
    this._info = null;
    this._disposed = false;
  }

  /**
   * What the model is, read once at load: {numTrees, numClasses, numFeatures, numNodes, oobError,
   * classNames, featureNames, featureTypes, learner, weighted, defaultOrder, storedTables}.
   * defaultOrder: the query order predict/trace use when options.order is not given.
   */
  get info() { return this._info; }

  /** True once dispose() has been called. */
  get disposed() { return this._disposed; }

  /** Loads `data` in the worker under `name` (replacing one of that name). → {numRows, numFeatures, hasLabels, classNames} */
  addData(name, data, ctl) { return this._call('addData', { name, data }, ctl); }
  /** Frees the data set `name` (no-op when there is none). */
  dropData(name, ctl) { return this._call('dropData', { name }, ctl); }
  /** forest.predict(data, options?) in the worker. */
  predict(data, options, ctl) { return this._call('predict', { data, options }, ctl); }
  /** forest.trace(data, row, options?) in the worker. */
  trace(data, row, options, ctl) { return this._call('trace', { data, row, options }, ctl); }
  /** forest.prior(rule, options?) in the worker. */
  prior(rule, options, ctl) { return this._call('prior', { rule, options }, ctl); }
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
    const w = this._worker;
    for (const job of w._queue.filter((j) => j.remote === this)) {
      w._queue.splice(w._queue.indexOf(job), 1);
      job.reject(disposedError(job.what));
    }
    if (!w._terminated) w._submit({ op: 'release', session: this._id }, undefined, 'dispose').catch(() => {});
  }

  _call(method, args, ctl) {
    if (this._disposed) return Promise.reject(disposedError(method));
    const extra = { remote: this };
    if (LOGGED.has(method)) extra.onResult = () => { this._log.push({ method, args }); };
    return this._worker._submit({ op: 'session', session: this._id, method, args }, ctl, method, extra);
  }

  _restore() { return { model: this._model, log: this._log }; }
}

/** One-shot helper: trains in a fresh worker and terminates it. Same arguments as UrnforestWorker#train. */
export async function trainInWorker(data, options, ctl) {
  const worker = new UrnforestWorker();
  try {
    return await worker.train(data, options, ctl);
  } finally {
    worker.terminate();
  }
}
