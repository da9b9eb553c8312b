// urnforest/worker: long work (training, halting-table building, expected cost) off the main thread,
// in a Web Worker (browsers, bundlers) or a Node `worker_threads` Worker, with progress events and
// cancellation by AbortSignal. Results are plain data: a model comes back as bytes, to be loaded on
// the caller's side with `Forest.fromBytes` (wasm handles cannot cross threads).
//
// Cancellation: the core is synchronous inside the worker, so aborting the running job terminates
// the worker (immediately, wherever it is) and the next job starts a fresh one. Jobs run one at a
// time, in submission order; aborting a queued job just removes it (job_queue.js).
//
// Sessions: `await worker.load(bytes)` keeps a model in the worker and returns a RemoteForest whose
// methods run there (predict, trace, prior, ...); remote_forest.js.
//
// scripts/build.sh bundles this folder into dist/worker.js; the thread's script, worker_thread.js, is
// copied beside it, and 'urnforest' (errors.js) becomes the package's own ./index.js.
// Keep in sync with bindings/worker_thread.js and bindings/worker.d.ts.
export { UrnforestWorker, trainInWorker } from './urnforest_worker.js';
export { RemoteForest } from './remote_forest.js';
