// UrnforestWorker: the public face of urnforest/worker. Each method checks its arguments on the caller's
// side and queues one job (job_queue.js); results are plain data (a model comes back as bytes, to be loaded
// with `Forest.fromBytes`: wasm handles cannot cross threads).
import { checkModel, control, isArrays, isCsv } from './checks.js';
import { abortError } from './errors.js';
import { JobQueue } from './job_queue.js';
import { workerWasm } from './wasm_option.js';
import { partsFor, trainInParts } from './parallel_train.js';
import { INTERNAL, RemoteForest } from './remote_forest.js';
import { snapshot } from './snapshot.js';

// The threads a machine offers: navigator.hardwareConcurrency in browsers, os.availableParallelism() in
// Node (read synchronously, so that jobs stay in submission order), else 1.
function hardwareThreads() {
  let n = typeof navigator === 'object' && navigator !== null ? navigator.hardwareConcurrency : undefined;
  if (n === undefined && typeof process === 'object' && typeof process?.getBuiltinModule === 'function') {
    const os = process.getBuiltinModule('node:os');
    n = typeof os?.availableParallelism === 'function' ? os.availableParallelism() : os?.cpus?.().length;
  }
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** A worker that runs urnforest jobs one at a time. Call terminate() when done. */
export class UrnforestWorker {
  /**
   * `options.url`: the worker script (default: worker_thread.js next to this file).
   * `options.threads`: worker threads one `train` of a random forest or bagging, or one large
   * RemoteForest#predict, may use (1..256; default: the machine's hardware threads). The extra threads
   * start on the first such call and stay until terminate(); each holds its own copy of the data (and,
   * for predict, of the model). The model bytes and the predictions do not depend on it.
   * `options.wasm`: the wasm every thread instantiates, as init({wasm}) takes it (wasm_option.js).
   */
  constructor(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('UrnforestWorker: options must be an object');
    for (const key of Object.keys(options)) {
      if (!['url', 'threads', 'wasm'].includes(key)) throw new TypeError(`UrnforestWorker: unknown option '${key}' (expected url, threads, wasm)`);
    }
    if (options.url !== undefined && !(typeof options.url === 'string' || options.url instanceof URL)) {
      throw new TypeError('UrnforestWorker: url must be a string or a URL');
    }
    const threads = options.threads ?? Math.min(hardwareThreads(), 16);
    if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
      throw new RangeError(`UrnforestWorker: threads must be an integer in 1..256, got ${String(threads)}`);
    }
    this._url = options.url;
    this._wasm = workerWasm(options.wasm);
    this._threads = threads;
    this._jobs = new JobQueue(options.url, this._wasm);
    this._helpers = []; // job queues of the extra threads of parallel training and predict, started on demand
    this._nextSession = 1;
    // What a RemoteForest splits a large predict over: this worker's thread count and extra threads.
    this._pool = { threads, helpers: (n) => this._helperQueues(n) };
  }

  // The first `n` extra job queues (started on demand; all of those started when n is 0).
  _helperQueues(n) {
    while (this._helpers.length < n) this._helpers.push(new JobQueue(this._url, this._wasm));
    return n === 0 ? this._helpers.slice() : this._helpers.slice(0, n);
  }

  /** Worker threads a training run may use (the `threads` option). */
  get threads() { return this._threads; }

  /**
   * Trains a forest in the worker. `data`: {csv: string | Uint8Array | ArrayBuffer (what
   * Dataset.fromCSV reads), options?: FromCSVOptions} or
   * {x: Float32Array, options: FromArraysOptions}; `options`: TrainOptions without onProgress.
   * Resolves to {bytes: Uint8Array, oobError, numTrees}; load with Forest.fromBytes(bytes). A random forest or
   * bagging of 16 trees or more is grown by up to `threads` worker threads (8 trees each at least), with the
   * same bytes; progress stages 'train' (fraction of all trees) and 'merge'.
   */
  train(data, options = {}, ctl) {
    if (data === null || typeof data !== 'object' || (!isCsv(data.csv) && !isArrays(data.x))) {
      return Promise.reject(new TypeError('train: data must be {csv: string | Uint8Array | ArrayBuffer, options?} or {x, options} (x: a float array, number[][] or plain-object rows, as Dataset.fromArrays)'));
    }
    if (options === null || typeof options !== 'object') return Promise.reject(new TypeError('train: options must be an object'));
    if ('onProgress' in options) return Promise.reject(new TypeError("train: pass onProgress in the third argument ({onProgress, signal}), not in the training options"));
    const parts = this._jobs.terminated ? 1 : partsFor(options, this._threads);
    if (parts <= 1) return this._jobs.submit({ op: 'train', data, options }, ctl, 'train');
    const helpers = this._helperQueues(parts - 1);
    // One snapshot of the arguments, taken now and shared by the parts (each sent a copy).
    let own;
    try {
      const c = control(ctl, 'train');
      if (c.signal?.aborted) throw abortError(c.signal);
      own = snapshot({ data, options }, c.transfer === true, 'train').value;
    } catch (e) {
      return Promise.reject(e);
    }
    return trainInParts([this._jobs, ...helpers], own.data, own.options, ctl);
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
    return this._jobs.submit({ op: 'haltingTable', model: args.model, options: args.options }, ctl, 'haltingTable');
  }

  /** forest.expectedCost(options) in the worker, for `model` (forest bytes). Resolves to its result. */
  expectedCost(args, ctl) {
    if (args === null || typeof args !== 'object') return Promise.reject(new TypeError('expectedCost: arguments must be {model, options}'));
    try {
      checkModel(args.model, 'expectedCost');
    } catch (e) {
      return Promise.reject(e);
    }
    return this._jobs.submit({ op: 'expectedCost', model: args.model, options: args.options }, ctl, 'expectedCost');
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
      (isCsv(data.csv) || isArrays(data.x))))) {
      return Promise.reject(new TypeError('experiment: data must be a generator name, {csv: string | Uint8Array | ArrayBuffer, options?} or {x, options} (as Dataset.fromArrays)'));
    }
    return this._jobs.submit({ op: 'experiment', options }, ctl, 'experiment');
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
    const id = this._nextSession++;
    let own = null; // the snapshot of `model` the session keeps, to rebuild itself on a fresh thread
    return this._jobs.submit({ op: 'session', session: id, method: 'load', args: { model } }, ctl, 'load', {
      keep: true,
      onResult: (message) => { own = message.args.model; },
    }).then((info) => new RemoteForest(INTERNAL, this._jobs, id, own, info, this._pool));
  }

  /** Stops the worker (and its training threads); running and queued jobs reject with an AbortError. Idempotent. */
  terminate() {
    this._jobs.terminate();
    for (const helper of this._helpers) helper.terminate();
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
