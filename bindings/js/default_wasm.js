// init()'s wasm when no `wasm` option is given, for the package's default entry (dist/index.js): the
// separate asset dist/urnforest.wasm (wasmUrl()), streamed in browsers and read from the file in
// Node. This entry names no other wasm, so that a bundler's output holds the wasm once. The
// single-file entry's build replaces this module with default_wasm_embedded.js.
import { wasmUrl } from './wasm_source.js';

/** The default wasm source: the URL of the package's wasm asset next to this module. */
export function defaultWasm() {
  return wasmUrl();
}
