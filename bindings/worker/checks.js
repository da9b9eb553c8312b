// Argument checks on the caller's side, before a job is queued: the job control {signal?, onProgress?,
// transfer?} and model bytes.
const JOB_CONTROL = ['signal', 'onProgress', 'transfer'];

/** A short description of a value for error messages ("Uint8Array", "number 3"). */
export function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor ? value.constructor.name : 'object';
  return `${typeof value} ${String(value)}`;
}

/** `options` checked as a job control {signal?, onProgress?, transfer?} ({} when undefined); throws a TypeError. */
export function control(options, what) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${what}: control must be an object {signal?, onProgress?, transfer?}`);
  for (const key of Object.keys(options)) {
    if (!JOB_CONTROL.includes(key)) throw new TypeError(`${what}: unknown control option '${key}' (expected signal, onProgress, transfer)`);
  }
  if (options.transfer !== undefined && typeof options.transfer !== 'boolean') {
    throw new TypeError(`${what}: transfer must be a boolean, got ${describe(options.transfer)}`);
  }
  if (options.signal !== undefined && !(typeof AbortSignal === 'function' && options.signal instanceof AbortSignal)) {
    throw new TypeError(`${what}: signal must be an AbortSignal, got ${describe(options.signal)}`);
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError(`${what}: onProgress must be a function, got ${describe(options.onProgress)}`);
  }
  return options;
}

/** Throws a TypeError unless `model` is forest bytes (a Uint8Array). */
export function checkModel(model, what) {
  if (!(model instanceof Uint8Array)) throw new TypeError(`${what}: model must be a Uint8Array (forest.toBytes()), got ${describe(model)}`);
}

/** True for CSV input Dataset.fromCSV reads: a string, a Uint8Array or an ArrayBuffer. */
export function isCsv(csv) {
  return typeof csv === 'string' || csv instanceof Uint8Array || csv instanceof ArrayBuffer;
}

/** True for the `x` of worker data: a float typed array, or an array (number[][] or plain-object rows), as Dataset.fromArrays takes. */
export function isArrays(x) {
  return x instanceof Float32Array || x instanceof Float64Array || Array.isArray(x);
}
