// The worker's `wasm` option: the same wasm sources as init({wasm}) that can be sent to a thread, so
// that every worker thread instantiates the wasm given (e.g. bytes the app already holds) instead of
// its init() default (the package's asset, wasmUrl()). Each thread gets it in its first message.
import { describe } from './checks.js';

const isBrowser = typeof process !== 'object' || process.versions?.node == null || typeof window !== 'undefined';

/**
 * `wasm` checked and made postable: undefined (init()'s default); a URL or string, as an absolute
 * URL string (a relative one resolved here, against the page, as init would; in Node a string may
 * be a file path, relative to the process's working directory, which threads share); bytes
 * (ArrayBuffer or typed array, copied to each thread); or a WebAssembly.Module (shared, not
 * recompiled). Throws a TypeError for anything else, such as a Response, which cannot be sent.
 */
export function workerWasm(wasm) {
  if (wasm === undefined) return undefined;
  if (wasm instanceof URL) return wasm.href;
  if (typeof wasm === 'string') {
    const base = typeof document === 'object' && document.baseURI ? document.baseURI : globalThis.location?.href;
    if (!isBrowser || base === undefined) return wasm;
    return new URL(wasm, base).href;
  }
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm) || wasm instanceof WebAssembly.Module) return wasm;
  throw new TypeError('UrnforestWorker: wasm must be a URL (string or URL), the .wasm bytes (ArrayBuffer or typed array) ' +
    `or a WebAssembly.Module (a Response cannot be sent to a thread), got ${describe(wasm)}`);
}
