// Errors: UrnforestError, the translation of every failure that comes out of wasm into one, and
// callChecked, the one helper every call into wasm goes through.
//
// The error channels between wasm and JS (bindings/wasm/convert.h, memory.h):
// 1. Error objects. A fallible embind call returns, in place of its result, a plain object
//    {code, message, line, column} (a result never has a `code` key). callChecked throws it as an
//    UrnforestError with that code.
// 2. The last error of a plain C call. urnforest_predict returns 0 and keeps its error for
//    _takeLastError, which returns the error object of channel 1 (or undefined).
// 3. Out of memory. A failed allocation throws the JS Error OOM_MARKER from the new-handler (the
//    module is built with wasm exceptions): the C++ frames unwind and free what they held, and the
//    call throws UrnforestError 'OutOfMemory'; the module stays usable. _takeAllocationFailures
//    counts the failures, so that an abort caused by one is reported as 'OutOfMemory' too.
// 4. Exceptions. Every embind function and method is wrapped (module.js guardModule) so that what
//    it throws goes through wasmFailure: a C++ exception reaching JS (a WebAssembly.Exception) is a
//    bug, 'Internal', and the module stays usable; a trap or abort() (WebAssembly.RuntimeError, or
//    the engine's stack overflow inside wasm) leaves the instance in an unknown state: it is
//    dropped, a fresh one is instantiated at once, and the call throws 'OutOfMemory' (if an
//    allocation had failed) or 'Internal'. Objects made by the dropped instance then throw
//    'ModuleReset', as do calls before the fresh instance is ready (`await init()` waits for it).
// docs/reliability.md "Out of memory" describes the whole path.

/** Failure reported by the urnforest core (bad CSV, corrupt model bytes, ...). */
export class UrnforestError extends Error {
  constructor(code, message, where) {
    const { line = 0, column = 0 } = where ?? {};
    super(message);
    this.name = 'UrnforestError';
    /** Stable code, e.g. 'CsvRaggedRow', 'CorruptModel'. */
    this.code = code;
    /** 1-based CSV line (0 when not applicable). */
    this.line = line;
    /** 1-based CSV column (0 when not applicable). */
    this.column = column;
  }
}

/** The message of the JS Error a failed allocation throws (bindings/wasm/memory.h). */
export const OOM_MARKER = 'urnforest: out of wasm memory';

/** The UrnforestError of an error object {code, message, line, column} (channel 1). */
export function errorFromObject(result) {
  const where = result.line > 0 ? `line ${result.line}${result.column > 0 ? `, column ${result.column}` : ''}: ` : '';
  return new UrnforestError(result.code, `${result.code}: ${where}${result.message}`,
    { line: result.line, column: result.column });
}

// Translates an exception thrown by a call into wasm (channels 3 and 4); module.js installs
// wasmFailure for the current instance.
let translateFailure = (e) => e;

/** Sets the translation of exceptions that callChecked applies (module.js, once). */
export function setFailureTranslator(translate) {
  translateFailure = translate;
}

/**
 * Runs `fn` (a call into wasm whose result is never an error object, e.g. an embind constructor)
 * and returns its result; throws the translated exception when it throws (an allocation failure
 * is UrnforestError 'OutOfMemory', as from callChecked).
 */
export function callTranslated(fn) {
  try {
    return fn();
  } catch (e) {
    throw translateFailure(e);
  }
}

/**
 * Runs `fn` (a call into wasm) and returns its result; throws the translated exception when it
 * throws, and the UrnforestError of an error object when it returns one.
 */
export function callChecked(fn) {
  let out;
  try {
    out = fn();
  } catch (e) {
    throw translateFailure(e);
  }
  if (out !== null && typeof out === 'object' && out.code !== undefined) throw errorFromObject(out);
  return out;
}

/**
 * A progress callback for wasm that never throws: a JS exception must not unwind through wasm
 * frames (C++ destructors would not run). `relay.fn` returns false (cancel) when `onProgress`
 * returns false or throws; `relay.rethrow()`, called once the core has returned, throws what it
 * threw. `relay.fn` is undefined when `onProgress` is.
 */
export function progressRelay(onProgress) {
  let callbackError = null;
  return {
    fn: onProgress === undefined ? undefined : (done, total) => {
      try {
        return onProgress(done, total) !== false;
      } catch (e) {
        callbackError = e;
        return false;
      }
    },
    rethrow() {
      if (callbackError !== null) throw callbackError;
    },
  };
}
