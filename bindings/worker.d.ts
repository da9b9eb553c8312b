// Hand-written types for `urnforest/worker` (bindings/worker/, built into dist/worker.js). Checked by tests/js/types_check.ts.
import type { FloatArray, FromMatrixOptions, FromRowsOptions, RowObject, CostEstimate, EmphasisSelection, ExperimentOptions, ExperimentReport, FeatureType, FixedOrderOptions, FromArraysOptions, FromCSVOptions, GeneratorName, HaltedOnlyPrediction, HaltedPrediction, HaltingOptions, HaltingTableOptions, LearnerInfo, OrderOptions, PosteriorOptions, Prediction, PriorInfo, RuleName, StoreTableOptions, StoredTableInfo, TallyPosterior, TrainOptions, VoteTrace } from './index.js';

/**
 * Data sent to the worker (wasm objects cannot cross threads). Every argument of a worker call is read
 * when the call is made: copied then (or moved, with `JobControl.transfer`), so changing an array after
 * the call, even before the job runs, does not change the job.
 */
export type WorkerData =
  | { csv: string | Uint8Array | ArrayBuffer; options?: FromCSVOptions & { schemaOf?: never }; rows?: RowIndices }
  | { x: Float32Array; options: FromArraysOptions; rows?: RowIndices }
  /** Any shape Dataset.fromArrays accepts: other float arrays, number[][], plain-object rows (then sent by structured clone). */
  | { x: FloatArray | number[][] | RowObject[]; options?: FromMatrixOptions & FromRowsOptions; rows?: RowIndices };

/** `rows`: only these rows of the data (Dataset#subset: indices, repeats allowed), read after the whole text. */
export type RowIndices = Uint32Array | Int32Array | number[];

/** A progress event: the current stage and the fraction of it done, in [0, 1]. */
export interface WorkerProgress {
  stage: 'load' | 'train' | 'serialize' | 'table' | 'expectedCost' | 'experiment';
  fraction: number;
}

/** Per-job control: cancellation, progress and how the arguments are handed over. */
export interface JobControl {
  /** Aborting rejects the job with `signal.reason` (by default a DOMException named 'AbortError'). */
  signal?: AbortSignal;
  /** Called on the caller's thread for each progress event of the job. */
  onProgress?: (progress: WorkerProgress) => void;
  /**
   * false (default): the call's arguments are copied when the call is made. true: the ArrayBuffers
   * behind the typed arrays and ArrayBuffers among the arguments (and their plain-object properties)
   * are moved to the worker instead, without a copy: when the call returns they are detached (length 0)
   * on your side, the whole buffer behind each view. Arrays on a SharedArrayBuffer are always copied.
   * A buffer that cannot be moved (e.g. a wasm memory's) rejects the call with a TypeError.
   */
  transfer?: boolean;
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
  /**
   * `url`: the worker script (default: `worker_thread.js` next to this module). `threads`: worker threads
   * one `train` of a random forest or bagging may use (1..256; default: navigator.hardwareConcurrency, at
   * most 16): its trees are split into blocks grown in parallel and merged into the same bytes as one thread;
   * also the threads one large RemoteForest#predict is split over (the same answer as one thread).
   * `wasm`: the wasm every worker thread instantiates, as `init({wasm})` takes it (e.g. `wasmUrl()`, so that
   * an app loads one wasm, streamed and cached, for the page and its workers): a URL (string or URL; a
   * relative string resolves against the page, in Node a path against the working directory), the .wasm
   * bytes (copied to each thread) or a WebAssembly.Module. Default: each thread's init() default, the
   * package's asset `urnforest.wasm` (wasmUrl() of the module the thread script imports).
   * A source the thread cannot instantiate rejects the job with UrnforestError 'InvalidArgument'.
   */
  constructor(options?: { url?: string | URL; threads?: number; wasm?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module });
  /** The `threads` option. */
  readonly threads: number;
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
  /** Loads `model` (forest bytes) into the worker and keeps it there (progress stage 'load'). */
  load(model: Uint8Array, control?: JobControl): Promise<RemoteForest>;
  /** Stops the worker; running and queued jobs reject with an AbortError. Idempotent. */
  terminate(): void;
}

/** Data for a RemoteForest call: WorkerData, or CSV text read against the session model's columns. */
export type SessionData =
  | WorkerData
  | { csv: string; schemaOfModel: true; options?: { target?: string | null }; rows?: RowIndices };

/** A data argument of a RemoteForest call: the name given to addData, or data loaded for that call only. */
export type DataRef = string | SessionData;

/** What a RemoteForest's model is, read once when it was loaded. */
export interface RemoteInfo {
  numTrees: number;
  numClasses: number;
  numFeatures: number;
  numNodes: number;
  oobError: number;
  classNames: string[];
  featureNames: string[];
  featureTypes: FeatureType[];
  learner: LearnerInfo;
  /** True when the trees carry vote weights (AdaBoost). */
  weighted: boolean;
  /** forest.defaultOrder: the query order predict/trace use when `options.order` is not given. */
  defaultOrder: 'generation' | 'random';
  /** The halting tables stored with the model when it was loaded. */
  storedTables: StoredTableInfo[];
}

/** A data set loaded into a session (RemoteForest#addData). */
export interface RemoteDataInfo {
  numRows: number;
  numFeatures: number;
  hasLabels: boolean;
  classNames: string[];
}

/**
 * A model kept in an UrnforestWorker (`await worker.load(bytes)`); every method runs in the worker.
 * Jobs queue with the worker's other jobs and take the same JobControl. After dispose(), calls reject
 * with an Error whose `code` is 'RemoteDisposed'. Arguments that cannot be structured-cloned (e.g. a
 * function) reject that call with a TypeError; the worker goes on. After an aborted job the next call
 * rebuilds the session in a fresh worker from the library's own copies: the model bytes, the tables
 * stored with storeTable and the latest data set of each name given to addData (not dropped since);
 * those copies are all a RemoteForest keeps on the caller's thread.
 */
export class RemoteForest {
  private constructor();
  readonly info: RemoteInfo;
  readonly disposed: boolean;
  addData(name: string, data: SessionData, control?: JobControl): Promise<RemoteDataInfo>;
  dropData(name: string, control?: JobControl): Promise<void>;
  /**
   * forest.predict(data, options) in the worker. On a worker of N threads, a large batch given as
   * `{x: Float32Array, options: {rows, cols, featureNames?}}` (rows x trees at least twice 250,000) is
   * split into up to N contiguous parts, each predicted in its own thread (which keeps the model from its
   * first part on) with `firstRow` set to the part's first row, and the answers joined in row order: the
   * same answer, field for field, as one thread (but `table`, the first part's). The rows are copied
   * once, or moved with `transfer: true`. `onProgress` sees the first part's events; aborting stops
   * every part; a refused request rejects as on one thread. Other data is predicted by one thread.
   */
  predict(data: DataRef, options?: undefined, control?: JobControl): Promise<Prediction>;
  predict(data: DataRef, options: HaltingOptions & { compare: true; firstRow?: number }, control?: JobControl): Promise<HaltedPrediction>;
  predict(data: DataRef, options: HaltingOptions & { compare?: false; firstRow?: number }, control?: JobControl): Promise<HaltedOnlyPrediction>;
  predict(data: DataRef, options: FixedOrderOptions, control?: JobControl): Promise<HaltedPrediction>;
  trace(data: DataRef, row: number, options: HaltingOptions, control?: JobControl): Promise<VoteTrace>;
  prior(rule: RuleName, options?: { trees?: number }, control?: JobControl): Promise<PriorInfo>;
  /** forest.posterior(tally, options): the urn posterior over final tallies (arrays transferred). */
  posterior(tally: ArrayLike<number>, options: PosteriorOptions, control?: JobControl): Promise<TallyPosterior>;
  expectedCost(options: HaltingOptions & { samples?: number }, control?: JobControl): Promise<CostEstimate>;
  order(data: DataRef, options?: OrderOptions, control?: JobControl): Promise<Int32Array>;
  errorCurve(data: DataRef, order: Int32Array | readonly number[], control?: JobControl): Promise<Float64Array>;
  storeTable(options: StoreTableOptions, control?: JobControl): Promise<void>;
  storedTables(control?: JobControl): Promise<StoredTableInfo[]>;
  /** forest.haltingTable(options), built once per session and kept for the tally queries below. */
  haltingTable(options: HaltingOptions, control?: JobControl): Promise<TableResult>;
  /** Per tally (`tallies`: n x classes, row-major): 1 if the table halts, else 0. */
  halts(options: HaltingOptions, tallies: Int32Array, control?: JobControl): Promise<Uint8Array>;
  /** Per tally: the table's confidence for the strict leader (0 without one). */
  confidence(options: HaltingOptions, tallies: Int32Array, control?: JobControl): Promise<Float64Array>;
  /** Per tally: the strict leader's class index, -1 on a tie for first place. */
  leader(options: HaltingOptions, tallies: Int32Array, control?: JobControl): Promise<Int32Array>;
  oobVotes(control?: JobControl): Promise<Uint32Array>;
  trainLabels(control?: JobControl): Promise<Int32Array>;
  treeWeights(control?: JobControl): Promise<Float64Array>;
  /** The model's bytes, with the tables stored so far. */
  toBytes(control?: JobControl): Promise<Uint8Array>;
  /** Frees the model in the worker; queued calls reject ('RemoteDisposed'). Idempotent. */
  dispose(): void;
}

/** Trains in a fresh worker, then terminates it. */
export function trainInWorker(data: WorkerData, options?: Omit<TrainOptions, 'onProgress'>, control?: JobControl): Promise<TrainResult>;
