// urnforest/worker: long work (training, halting-table building, expected cost) off the main thread,
// in a Web Worker (browsers, bundlers) or a Node `worker_threads` Worker, with progress events and
// cancellation by AbortSignal. Results are plain data: a model comes back as bytes, to be loaded on
// the caller's side with `Forest.fromBytes` (wasm handles cannot cross threads).
//
// Cancellation: the core is synchronous inside the worker, so aborting the running job terminates
// the worker (immediately, wherever it is) and the next job starts a fresh one. Jobs run one at a
// time, in submission order; aborting a queued job just removes it.
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

  _submit(message, ctl, what) {
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
      const job = { id: this._nextId++, message, onProgress, resolve, reject, signal, onAbort: null };
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
      spawn(this._url, onMessage, onFailure).then((w) => { spawned = w; }, onFailure);
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
      w.busy(true);
      w.post({ id: job.id, ...job.message });
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
    if (m.type === 'result') job.resolve(m.value);
    else job.reject(reviveError(m.error));
    this._pump();
  }
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
