// Part of dist/index.d.ts: memoryStats, the Urnforest API object and init().
export interface MemoryStats {
  /** Size of the wasm linear memory in bytes (grows, never shrinks). */
  heapBytes: number;
  /** Bytes currently allocated inside it. */
  inUse: number;
}
export function memoryStats(): MemoryStats;

export interface Urnforest {
  Dataset: typeof Dataset;
  Forest: typeof Forest;
  HaltingTable: typeof HaltingTable;
  trainForest: typeof trainForest;
  trainForestPart: typeof trainForestPart;
  haltingTable: typeof haltingTable;
  pstar: typeof pstar;
  rules: typeof rules;
  ruleInfo: typeof ruleInfo;
  UrnforestError: typeof UrnforestError;
  memoryStats: typeof memoryStats;
  init: typeof init;
  orderings: typeof orderings;
  runExperiment: typeof runExperiment;
  generators: typeof generators;
  emphasisWeights: typeof emphasisWeights;
  emphasisGrid: typeof emphasisGrid;
  confusionMatrix: typeof confusionMatrix;
  wasmUrl: typeof wasmUrl;
  defaultKeep: typeof defaultKeep;
}

/**
 * Where init() takes the wasm from instead of its default (the package's asset `dist/urnforest.wasm` next to
 * the module; for the `urnforest/single-file` entry, the copy embedded in `dist/urnforest_wasm.mjs`): the
 * asset's bytes from elsewhere, as
 * - a URL (`string` or `URL`; e.g. `wasmUrl()`): fetched and, when served with `Content-Type: application/wasm`,
 *   compiled while it downloads (`WebAssembly.instantiateStreaming`; the browser caches the compiled code for
 *   the next load). In Node a `file:` URL or a plain path string is read from disk (Node's fetch reads no files);
 * - a `Response` or a promise of one (e.g. `fetch(url)`), streamed the same way;
 * - the file's bytes (`ArrayBuffer` or a typed array);
 * - a compiled `WebAssembly.Module` (e.g. from `WebAssembly.compileStreaming`, or posted to a worker).
 */
export type WasmSource = string | URL | Response | PromiseLike<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

export interface InitOptions {
  /**
   * The wasm asset; omitted: `wasmUrl()`, the package's `urnforest.wasm` next to the module (streamed in browsers,
   * read from the file in Node); from `urnforest/single-file`, the wasm embedded in its glue (no file to serve).
   */
  wasm?: WasmSource;
}

/**
 * Loads the WebAssembly module; every call resolves to the same API. Without options it instantiates the
 * package's separate asset, `init({ wasm: wasmUrl() })` (a bundler copies that one file into the app's output;
 * the page must serve it, as application/wasm to stream it); from the `urnforest/single-file` entry, the wasm
 * embedded in its glue (no request, no file to serve). With `{wasm}` it instantiates that source (see
 * WasmSource) and never downloads the embedded copy. Only the call that instantiates the module reads
 * `wasm`; later calls resolve to the same object. Rejects with a TypeError for a bad option, and with
 * UrnforestError 'InvalidArgument' (message names the cause: HTTP status, not wasm, another build's wasm) when
 * the source cannot be loaded, compiled or linked; a later init() may then try again. A URL or Response
 * served as application/wasm is compiled while it downloads (WebAssembly.instantiateStreaming). After an
 * abort inside wasm (UrnforestError 'ModuleReset'), resolves once the fresh module instance is ready.
 */
export function init(options?: InitOptions): Promise<Urnforest>;

/**
 * The URL of the package's `urnforest.wasm` next to `index.js`, written as
 * `new URL('./urnforest.wasm', import.meta.url)`: bundlers (Vite, webpack) copy the asset and rewrite it, and a
 * page importing `dist/index.js` over HTTP resolves it beside that file. `init({ wasm: wasmUrl() })`.
 */
export function wasmUrl(): URL;
