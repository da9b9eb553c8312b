// Ownership of embind handles: each public wrapper (Dataset, Forest, HaltingTable) owns exactly one
// handle, freed by an idempotent dispose(), with a FinalizationRegistry as a leak net only; and
// withNewHandle, which fills a fresh handle and frees it when filling fails.
import { callChecked, callTranslated, UrnforestError } from './errors.js';
import { generation } from './module.js';

// What makes each kind of wrapper, for the error on an object that no factory made.
const FACTORIES = {
  Dataset: 'Dataset.fromCSV() or Dataset.fromArrays()',
  Forest: 'trainForest() or Forest.fromBytes()',
  HaltingTable: 'haltingTable() or HaltingTable.fromBytes()',
};

/** The token that public constructors require (users go through the factories). */
export const INTERNAL = Symbol('internal');

// Leak net only: a wrapper that is garbage-collected without dispose() frees its handle. Never rely on it.
// Held values are {generation, handle}: handles of a dropped (aborted) instance are left alone.
const leakNet = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((held) => {
    if (held.generation === generation && !held.handle.isDeleted()) held.handle.delete();
  })
  : null;

// A wrapper's embind handle (null once disposed) and its ownership record {kind, generation (of the
// instance that made the handle), address (of the handle; 0 until asked)}.
const HANDLE = Symbol('handle');
const OWNED = Symbol('owned');
// The call (e.g. 'runExperiment') using a wrapper while it runs user callbacks; see whileInUse.
const BUSY = Symbol('busy');

/** Makes `wrapper` (a `kind`: 'Dataset', 'Forest', 'HaltingTable') the owner of embind `handle`. */
export function adopt(wrapper, handle, kind) {
  wrapper[HANDLE] = handle;
  wrapper[OWNED] = { kind, generation, address: 0 };
  if (leakNet) leakNet.register(wrapper, { generation, handle }, wrapper);
}

/**
 * Frees `resource` ({isDeleted(), delete()}, e.g. a wrapper's cache of handles) when `wrapper` is
 * garbage-collected without dispose(). Leak net only.
 */
export function adoptExtra(wrapper, resource) {
  if (leakNet) leakNet.register(wrapper, { generation, handle: resource }, wrapper);
}

/** True when `value` is a wrapper of `kind` (disposed or not). */
export function isOwned(value, kind) {
  return value !== null && typeof value === 'object' && value[OWNED]?.kind === kind;
}

/** True while the instance that made `wrapper` is the current one (it has not aborted since). */
export function current(wrapper) {
  return wrapper[OWNED]?.generation === generation;
}

/** True once `wrapper` (a `kind`) was disposed; throws as made() for an object no factory made. */
export function disposed(wrapper, kind) {
  made(wrapper, kind);
  return wrapper[HANDLE] === null;
}

/**
 * Runs `fn()` with `wrappers` (wrappers or undefined) marked as used by the call `what`: a
 * callback of that call (onProgress) that disposes one of them gets an Error naming the call
 * instead of freeing memory the call is still reading.
 */
export function whileInUse(wrappers, what, fn) {
  const marked = wrappers.filter((w) => w !== undefined && w !== null && w[BUSY] === undefined);
  for (const w of marked) w[BUSY] = what;
  try {
    return fn();
  } finally {
    for (const w of marked) delete w[BUSY];
  }
}

/**
 * Throws a TypeError unless `wrapper` is a `kind` made by a factory (an object such as
 * Object.create(Dataset.prototype) never owned a handle).
 */
export function made(wrapper, kind) {
  if (wrapper === null || typeof wrapper !== 'object' || wrapper[OWNED]?.kind !== kind) {
    throw new TypeError(`this ${kind} was not created by urnforest (make one with ${FACTORIES[kind]})`);
  }
}

/**
 * Frees the handle of `wrapper` (a `kind`; idempotent). Throws while a call uses it (whileInUse),
 * and as made() for an object no factory made.
 */
export function release(wrapper, kind) {
  made(wrapper, kind);
  const handle = wrapper[HANDLE];
  if (handle === null) return;
  if (wrapper[BUSY] !== undefined) {
    throw new Error(`${wrapper[OWNED].kind} cannot be disposed while ${wrapper[BUSY]} is using it; dispose it after the call returns`);
  }
  wrapper[HANDLE] = null;
  if (leakNet) leakNet.unregister(wrapper);
  if (wrapper[OWNED].generation === generation) handle.delete();
}

/**
 * The handle of `wrapper`; throws when it was disposed or its module instance aborted, and a
 * TypeError when it was never made by urnforest (e.g. Object.create(Dataset.prototype)).
 */
export function live(wrapper, kind) {
  made(wrapper, kind);
  const handle = wrapper[HANDLE];
  if (handle === null) throw new Error(`${kind} has been disposed; it cannot be used any more`);
  if (wrapper[OWNED].generation !== generation) {
    throw new UrnforestError('ModuleReset', `ModuleReset: this ${kind} belonged to a wasm module instance that aborted; create it again`);
  }
  return handle;
}

/** The wasm address of the handle of live `wrapper` (asked from wasm once). */
export function addressOf(wrapper) {
  const owned = wrapper[OWNED];
  return owned.address || (owned.address = wrapper[HANDLE]._address());
}

/**
 * A new handle of embind class `Handle`, filled by `fill(handle)` (a call into wasm, checked by
 * callChecked). When filling fails the handle is deleted (unless its module instance aborted
 * meanwhile) and the failure rethrown. The caller owns the result.
 */
export function withNewHandle(Handle, fill) {
  const madeIn = generation;
  // The embind constructor allocates in wasm: at the heap cap it fails like any other call.
  const handle = callTranslated(() => new Handle());
  try {
    callChecked(() => fill(handle));
  } catch (e) {
    if (madeIn === generation) handle.delete();
    throw e;
  }
  return handle;
}
