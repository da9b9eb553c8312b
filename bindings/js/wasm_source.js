// The wasm source of init({wasm}): the module's wasm as a separate asset (dist/urnforest.wasm, the
// same bytes as the wasm embedded in dist/urnforest_wasm.mjs) given as a URL to stream, a Response,
// bytes or a compiled WebAssembly.Module, and the emscripten instantiateWasm hook that instantiates
// it for the glue dist/urnforest.mjs. A source that cannot be loaded, compiled or linked is
// UrnforestError 'InvalidArgument'.
import { UrnforestError } from './errors.js';
import { describe } from './validate.js';

/**
 * The URL of the package's wasm asset, dist/urnforest.wasm next to dist/index.js. Written as
 * `new URL('./x', import.meta.url)` so that bundlers (Vite, webpack, Rollup, esbuild plugins) copy
 * the file into their output and rewrite the URL.
 */
export function wasmUrl() {
  return new URL('./urnforest.wasm', import.meta.url);
}

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

/** `wasm` (the init option) when its type is one init accepts; else throws a TypeError. */
export function checkWasmSource(wasm) {
  const ok = typeof wasm === 'string' || wasm instanceof URL || wasm instanceof WebAssembly.Module ||
    wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm) ||
    (typeof Response === 'function' && wasm instanceof Response) ||
    (wasm !== null && typeof wasm === 'object' && typeof wasm.then === 'function');
  if (!ok) {
    throw new TypeError('init: wasm must be a URL (string or URL), a Response or a promise of one, the .wasm bytes ' +
      `(ArrayBuffer or typed array) or a WebAssembly.Module, got ${describe(wasm)}`);
  }
  return wasm;
}

/**
 * Emscripten module overrides that instantiate `source` (a checked wasm option) instead of the
 * glue's own loading, and the promise `failed` that rejects with an UrnforestError when the source
 * cannot be loaded, compiled or linked (the glue's ready promise then never settles, so the caller
 * races the two). `compiled` resolves to the WebAssembly.Module once instantiated, for re-use.
 */
export function instantiateHook(source) {
  let fail;
  let compiledResolve;
  const failed = new Promise((_, reject) => { fail = reject; });
  const compiled = new Promise((resolve) => { compiledResolve = resolve; });
  const overrides = {
    instantiateWasm(imports, receiveInstance) {
      instantiate(source, imports).then(({ module, instance }) => {
        try {
          receiveInstance(instance, module);
        } catch (e) {
          throw invalid(`${label(source)} is not urnforest's wasm (it instantiates, but its exports are not the module's: ${e.message})`);
        }
        compiledResolve(module);
      }).catch((e) => fail(e instanceof UrnforestError ? e : invalid(`${label(source)}: ${e && e.message ? e.message : e}`)));
      return {};
    },
  };
  return { overrides, failed, compiled };
}

// {module, instance} of `source` instantiated with `imports`, streaming when the source is fetched.
async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) {
    return { module: source, instance: await link(() => WebAssembly.instantiate(source, imports), source) };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return compileBytes(source, imports, source);
  if (typeof source === 'string' || source instanceof URL) {
    const url = asUrl(source);
    if (url === null || url.protocol === 'file:') return compileBytes(await readFile(url ?? source), imports, source);
    let response;
    try {
      response = await fetch(url, { credentials: 'same-origin' });
    } catch (e) {
      throw invalid(`could not fetch ${url.href}: ${e.message}`);
    }
    return fromResponse(response, imports, source);
  }
  let response;
  try {
    response = await source;
  } catch (e) {
    throw invalid(`the Response promise rejected: ${e && e.message ? e.message : e}`);
  }
  if (typeof Response !== 'function' || !(response instanceof Response)) {
    throw new TypeError(`init: wasm: the promise must resolve to a Response, got ${describe(response)}`);
  }
  return fromResponse(response, imports, response);
}

// Streams `response` into a module when it is served as application/wasm (compiling while it
// downloads); otherwise compiles its bytes (instantiateStreaming refuses other MIME types).
async function fromResponse(response, imports, source) {
  if (!response.ok) throw invalid(`${label(source)} answered HTTP ${response.status} ${response.statusText}`.trimEnd());
  const type = (response.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/wasm' && typeof WebAssembly.instantiateStreaming === 'function') {
    return link(() => WebAssembly.instantiateStreaming(response, imports), source);
  }
  let bytes;
  try {
    bytes = await response.arrayBuffer();
  } catch (e) {
    throw invalid(`could not read ${label(source)}: ${e.message}`);
  }
  return compileBytes(bytes, imports, source);
}

function compileBytes(bytes, imports, source) {
  return link(() => WebAssembly.instantiate(bytes, imports), source);
}

// Runs a WebAssembly instantiation; a CompileError or LinkError says which source was refused.
async function link(run, source) {
  try {
    return await run();
  } catch (e) {
    if (e instanceof WebAssembly.CompileError) throw invalid(`${label(source)} is not a valid wasm module (${e.message})`);
    if (e instanceof WebAssembly.LinkError) throw invalid(`${label(source)} is not urnforest's wasm, or from another version (${e.message})`);
    throw e;
  }
}

// The absolute URL of a string or URL source; null for a string that is not one (a file path in Node,
// or relative to the page, resolved against document.baseURI / self.location).
function asUrl(source) {
  if (source instanceof URL) return source;
  try {
    return new URL(source);
  } catch {
    if (isNode) return null;
    const base = typeof document === 'object' && document.baseURI ? document.baseURI : globalThis.location?.href;
    return new URL(source, base);
  }
}

// The bytes of a file: URL or a path, in Node (Node's fetch does not read file: URLs).
async function readFile(where) {
  if (!isNode) throw invalid(`cannot read ${String(where)} outside Node; serve the .wasm over HTTP(S)`);
  try {
    const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ 'node:fs/promises');
    return await fs.readFile(where);
  } catch (e) {
    throw invalid(`could not read ${String(where)}: ${e.message}`);
  }
}

function label(source) {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return source.href;
  if (typeof Response === 'function' && source instanceof Response) return `the Response from ${source.url || '(no URL)'}`;
  if (source instanceof WebAssembly.Module) return 'the WebAssembly.Module';
  return `the ${source.constructor?.name ?? 'buffer'} of wasm bytes`;
}

function invalid(what) {
  return new UrnforestError('InvalidArgument', `InvalidArgument: init({wasm}): ${what}`);
}
