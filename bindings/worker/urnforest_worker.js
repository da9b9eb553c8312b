// UrnforestWorker: the public face of urnforest/worker. Each method checks its arguments on the caller's
// side and queues one job (job_queue.js); results are plain data (a model comes back as bytes, to be loaded
// with `Forest.fromBytes`: wasm handles cannot cross threads).
import { checkModel, isCsv } from './checks.js';
import { JobQueue } from './job_queue.js';
import { INTERNAL, RemoteForest } from './remote_forest.js';

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
    this._jobs = new JobQueue(options.url);
    this._nextSession = 1;
  }

  /**
   * Trains a forest in the worker. `data`: {csv: string | Uint8Array | ArrayBuffer (what
   * Dataset.fromCSV reads), options?: FromCSVOptions} or
   * {x: Float32Array, options: FromArraysOptions}; `options`: TrainOptions without onProgress.
   * Resolves to {bytes: Uint8Array, oobError, numTrees}; load with Forest.fromBytes(bytes).
   */
  train(data, options = {}, ctl) {
    if (data === null || typeof data !== 'object' || (!isCsv(data.csv) && !(data.x instanceof Float32Array))) {
      return Promise.reject(new TypeError('train: data must be {csv: string | Uint8Array | ArrayBuffer, options?} or {x: Float32Array, options}'));
    }
    if (options === null || typeof options !== 'object') return Promise.reject(new TypeError('train: options must be an object'));
    if ('onProgress' in options) return Promise.reject(new TypeError("train: pass onProgress in the third argument ({onProgress, signal}), not in the training options"));
    return this._jobs.submit({ op: 'train', data, options }, ctl, 'train');
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
      (isCsv(data.csv) || data.x instanceof Float32Array)))) {
      return Promise.reject(new TypeError('experiment: data must be a generator name, {csv: string | Uint8Array | ArrayBuffer, options?} or {x: Float32Array, options}'));
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
    const remote = new RemoteForest(INTERNAL, this._jobs, this._nextSession++, model.slice());
    return this._jobs.submit({ op: 'session', session: remote._id, method: 'load', args: { model: remote._model } }, ctl, 'load')
      .then((info) => {
        remote._info = info;
        return remote;
      });
  }

  /** Stops the worker; running and queued jobs reject with an AbortError. Idempotent. */
  terminate() { this._jobs.terminate(); }
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
