// Snapshots of a job's arguments, taken when the call is made: a job runs later (after the jobs queued
// before it), so it must not read the caller's arrays then, when they may hold other rows. A snapshot is
// the library's own structured clone of the arguments; with the caller's `transfer: true` its buffers are
// moved out of the caller's arrays instead of copied. The snapshot goes to the thread (transferred, no
// second copy) or, for the calls a session replays on a fresh thread, is kept (remote_forest.js).

const isShared = (v) => typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer;
const isBuffer = (v) => ArrayBuffer.isView(v) || v instanceof ArrayBuffer || isShared(v);

// How deep forEachBuffer looks: job arguments nest a few levels (message, args, data, x, row, value).
const MAX_DEPTH = 8;

/**
 * Calls `visit(holder, key, value)` for every typed array, DataView, ArrayBuffer or SharedArrayBuffer
 * `value` held by a property or element of `value` or of the plain objects and arrays inside it, down to
 * MAX_DEPTH levels (the shapes job arguments have: options, {csv, x, rows}, number[][], row objects).
 * Other objects are not entered.
 */
function forEachBuffer(value, visit, depth = 0) {
  if (depth > MAX_DEPTH) return;
  const isArray = Array.isArray(value);
  if (!isArray) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return;
  }
  const keys = isArray ? null : Object.keys(value);
  const n = isArray ? value.length : keys.length;
  for (let i = 0; i < n; i++) {
    const key = isArray ? i : keys[i];
    const v = value[key];
    if (v === null || typeof v !== 'object') continue;
    if (isBuffer(v)) visit(value, key, v);
    else forEachBuffer(v, visit, depth + 1);
  }
}

/** The distinct ArrayBuffers (not SharedArrayBuffers) behind the buffers in `value` (forEachBuffer). */
export function buffersIn(value) {
  const buffers = new Set();
  forEachBuffer({ value }, (holder, key, v) => {
    const buffer = v instanceof ArrayBuffer ? v : v.buffer;
    if (buffer instanceof ArrayBuffer) buffers.add(buffer);
  });
  return [...buffers];
}

/** True when `value` holds a SharedArrayBuffer or a view on one (forEachBuffer). */
export function hasShared(value) {
  let shared = false;
  forEachBuffer({ value }, (holder, key, v) => {
    if (isShared(v) || isShared(v.buffer)) shared = true;
  });
  return shared;
}

/**
 * The library's own copy of `value` (a job's arguments), taken now: a structured clone, so that later
 * changes to the caller's arrays and objects do not reach the job. `transfer`: move the ArrayBuffers
 * behind the typed arrays and ArrayBuffers in `value` (buffersIn) into the copy instead of copying them;
 * they are detached (length 0) on the caller's side when this returns. A typed array on a
 * SharedArrayBuffer is always copied into a buffer of its own (shared memory could still change).
 * Returns {value: the copy, buffers: buffersIn(the copy)}, the buffers to transfer to the thread.
 * Throws a TypeError naming `what` when `value` cannot be cloned (a function, a buffer that cannot be
 * transferred, such as a wasm memory's).
 */
export function snapshot(value, transfer, what) {
  let copy;
  try {
    copy = structuredClone(value, transfer ? { transfer: buffersIn(value) } : undefined);
  } catch (e) {
    throw new TypeError(`${what}: its arguments cannot be sent to the worker (${e.message})`);
  }
  const box = { copy };
  const buffers = new Set();
  forEachBuffer(box, (holder, key, v) => {
    if (isShared(v)) {
      holder[key] = new Uint8Array(v).slice().buffer;
    } else if (ArrayBuffer.isView(v) && isShared(v.buffer)) {
      holder[key] = new v.constructor(new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice().buffer);
    }
    const own = holder[key];
    buffers.add(own instanceof ArrayBuffer ? own : own.buffer);
  });
  return { value: box.copy, buffers: [...buffers] };
}
