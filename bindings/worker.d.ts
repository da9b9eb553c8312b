// Hand-written types for `urnforest/worker` (bindings/worker.js). Checked by tests/js/types_check.ts.
import type { CostEstimate, EmphasisSelection, ExperimentOptions, ExperimentReport, FromArraysOptions, FromCSVOptions, GeneratorName, HaltingOptions, HaltingTableOptions, RuleName, TrainOptions } from './index.js';

/** Data sent to the worker (copied; wasm objects cannot cross threads). */
export type WorkerData =
  | { csv: string; options?: FromCSVOptions & { schemaOf?: never } }
  | { x: Float32Array; options: FromArraysOptions };

/** A progress event: the current stage and the fraction of it done, in [0, 1]. */
export interface WorkerProgress {
  stage: 'load' | 'train' | 'serialize' | 'table' | 'expectedCost' | 'experiment';
  fraction: number;
}

/** Per-job control: cancellation and progress. */
export interface JobControl {
  /** Aborting rejects the job with `signal.reason` (by default a DOMException named 'AbortError'). */
  signal?: AbortSignal;
  /** Called on the caller's thread for each progress event of the job. */
  onProgress?: (progress: WorkerProgress) => void;
}

export interface TrainResult {
  /** The model: load it with `Forest.fromBytes(bytes)`. Same data, options and seed → same bytes as on the main thread. */
  bytes: Uint8Array;
  oobError: number;
  numTrees: number;
  /** With voteboost.a = 'cv': the cross-validated choice of a = b. */
  emphasisSelection?: EmphasisSelection;
}

export interface TableResult {
  /** The table: load it with `HaltingTable.fromBytes(bytes)`. */
  bytes: Uint8Array;
  rule: RuleName;
  alpha: number;
  numTrees: number;
  numClasses: number;
  /** Two classes: binaryThresholds(0), binaryThresholds(1); else null. */
  binaryThresholds: [Int32Array, Int32Array] | null;
}

/**
 * Runs urnforest jobs in a Web Worker (browsers, bundlers) or a Node `worker_threads` Worker, one at
 * a time. Aborting the running job terminates the worker; the next job starts a fresh one.
 * Failures reject with the same errors as the main-thread API (TypeError, RangeError, UrnforestError).
 */
export class UrnforestWorker {
  /** `url`: the worker script (default: `worker_thread.js` next to this module). */
  constructor(options?: { url?: string | URL });
  /** Trains in the worker. `options` are TrainOptions without onProgress (use `control.onProgress`). */
  train(data: WorkerData, options?: Omit<TrainOptions, 'onProgress'>, control?: JobControl): Promise<TrainResult>;
  /** forest.haltingTable(options) for `model` bytes, or haltingTable(options) without a model. */
  haltingTable(args: { model: Uint8Array; options: HaltingOptions } | { model?: undefined; options: HaltingTableOptions }, control?: JobControl): Promise<TableResult>;
  /** forest.expectedCost(options) for `model` bytes. */
  expectedCost(args: { model: Uint8Array; options: HaltingOptions & { samples?: number } }, control?: JobControl): Promise<CostEstimate>;
  /**
   * runExperiment(options) in the worker; `data` is a generator name or WorkerData (a Dataset cannot
   * cross threads). Progress: stage 'experiment', fraction = partitions done / total.
   */
  experiment(options: Omit<ExperimentOptions, 'data'> & { data: GeneratorName | WorkerData }, control?: JobControl): Promise<ExperimentReport>;
  /** Stops the worker; running and queued jobs reject with an AbortError. Idempotent. */
  terminate(): void;
}

/** Trains in a fresh worker, then terminates it. */
export function trainInWorker(data: WorkerData, options?: Omit<TrainOptions, 'onProgress'>, control?: JobControl): Promise<TrainResult>;
