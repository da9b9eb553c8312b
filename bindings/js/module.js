// The wasm module's lifecycle: instantiating it (from init's `wasm` option, wasm_source.js, or else
// from the entry's default, default_wasm.js: the package's separate asset, or for the single-file
// entry the wasm embedded in urnforest_wasm.mjs), wrapping its entry points so that failures become
// UrnforestErrors (errors.js, channel 4), and dropping an instance that aborted for a fresh one.
// The glue is imported on demand; the default entry never names the embedded glue, so a bundler
// emits the wasm once.
import { OOM_MARKER, UrnforestError, setFailureTranslator } from './errors.js';
import { instantiateHook } from './wasm_source.js';
import { defaultWasm } from './default_wasm.js';

let modulePromise = null;
let M = null; // The instantiated embind module, once init() resolved.
let resolvedValue; // What loadModule's promise resolves to (the public api).
/** Module instances dropped after an abort so far; objects remember the generation that made them. */
export let generation = 0;
let resetting = false; // True from an abort until the fresh instance is ready.
// Where the wasm comes from: init's `wasm` option, or the entry's defaultWasm() (a source, or a
// function that instantiates the embedded glue); once instantiated from a source, its compiled
// WebAssembly.Module (a re-instantiation after an abort fetches nothing).
let wasmSource;

/** The current module instance; throws when init() has not resolved (or the instance aborted). */
export function requireModule() {
  if (M === null) {
    if (resetting) {
      throw new UrnforestError('ModuleReset', 'ModuleReset: the wasm module aborted and is being re-instantiated; `await init()` before the next call');
    }
    throw new Error('urnforest: call `await init()` before using the library');
  }
  return M;
}

/** The current module instance, or null. */
export function currentModule() {
  return M;
}

/**
 * Instantiates the module (once; again after an abort) and returns the promise of `value`: the
 * same promise on every call until an abort. `wasm` (a checked init option, or undefined for the
 * entry's default, defaultWasm()) only counts for the call that starts the first instantiation.
 */
export function loadModule(value, wasm) {
  resolvedValue = value;
  if (modulePromise === null) {
    if (M === null && !resetting && generation === 0) wasmSource = wasm ?? defaultWasm();
    modulePromise = instantiate(wasmSource).then((module) => {
      M = guardModule(module);
      resetting = false;
      return resolvedValue;
    }, (e) => {
      modulePromise = null;
      throw e;
    });
  }
  return modulePromise;
}

// A fresh module instance from `source` (see wasmSource).
async function instantiate(source) {
  if (typeof source === 'function') return source();
  const { overrides, failed, compiled } = instantiateHook(source);
  const { default: createUrnforestModule } = await import('./urnforest.mjs');
  const module = await Promise.race([createUrnforestModule(overrides), failed]);
  wasmSource = await compiled;
  return module;
}

/** The Error to throw for exception `e` raised by a call into module instance `m`. */
export function wasmFailure(e, m) {
  if (typeof e === 'number') {
    return new UrnforestError('Internal', `Internal: a C++ exception (${e}) escaped the urnforest core`);
  }
  if (e instanceof Error && e.message === OOM_MARKER) {
    if (m !== null) m._takeAllocationFailures();
    return new UrnforestError('OutOfMemory', 'OutOfMemory: a wasm allocation failed (the heap is capped at 2 GiB); ' +
      'nothing was created and the library stays usable');
  }
  const wasmException = typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception;
  const aborted = e instanceof WebAssembly.RuntimeError ||
    (e instanceof RangeError && /call stack/i.test(e.message));
  if (!wasmException && !aborted) return e;
  let failures = 0;
  try {
    failures = m === null ? 0 : m._takeAllocationFailures();
  } catch { /* an aborted instance may not answer */ }
  const code = failures > 0 ? 'OutOfMemory' : 'Internal';
  if (wasmException) return new UrnforestError('Internal', 'Internal: a C++ exception escaped the urnforest core');
  dropModule(m);
  return new UrnforestError(code, `${code}: the wasm module aborted (${e.message}); it is being re-instantiated: ` +
    'objects created before are unusable (ModuleReset), and the next call needs `await init()`');
}

setFailureTranslator((e) => wasmFailure(e, M));

// Forgets aborted instance `m` (unless already done) and starts instantiating a fresh one.
function dropModule(m) {
  if (m !== M || m === null) return;
  generation++;
  M = null;
  modulePromise = null;
  resetting = true;
  loadModule(resolvedValue).catch(() => { /* init() retries on the next call */ });
}

// Wraps every embind function and method of instance `m` so that its failures become wasmFailure().
function guardModule(m) {
  const guard = (fn) => function guarded(...args) {
    try {
      return fn.apply(this, args);
    } catch (e) {
      throw wasmFailure(e, m);
    }
  };
  const classes = ['_DatasetHandle', '_ForestHandle', '_HaltingTableHandle', '_PredictRequestHandle'];
  for (const name of classes) {
    const proto = m[name].prototype;
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key.startsWith('_') && typeof proto[key] === 'function') proto[key] = guard(proto[key]);
    }
  }
  for (const key of Object.keys(m)) {
    if (key.startsWith('_') && !classes.includes(key) && typeof m[key] === 'function') m[key] = guard(m[key]);
  }
  return m;
}
