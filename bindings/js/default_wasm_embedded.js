// init()'s wasm when no `wasm` option is given, for the single-file entry (dist/single-file.js, built
// with this module in place of default_wasm.js): the wasm embedded (base64) in the glue
// dist/urnforest_wasm.mjs, so that the entry needs no separate .wasm file (file: pages, scripts
// copied on their own). Its glue is larger and slower to start than the streamed asset.

/**
 * A function that instantiates the embedded wasm: it imports the glue on demand and resolves to the
 * emscripten module (rejects as the glue does when the wasm cannot be instantiated).
 */
export function defaultWasm() {
  return async () => {
    const { default: createUrnforestModule } = await import('./urnforest_wasm.mjs');
    return createUrnforestModule();
  };
}
