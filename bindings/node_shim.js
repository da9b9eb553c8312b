// --extern-pre-js for emscripten 3.1.6, Node support of the module: the EXPORT_ES6 glue still uses
// CommonJS `require` and `__dirname` when it runs in Node. This defines both at module top level, before
// the factory, and does nothing in browsers and workers. Delete when the toolchain moves past 3.1.2x.
// No top-level await: bundlers build workers as classic scripts (Vite's default worker format is iife),
// which cannot hold one. With SINGLE_FILE the glue never calls `require` (the wasm is a data URI) and
// uses `__dirname` only as a base path, so `require` may arrive asynchronously.
let require, __dirname;
if (typeof process === 'object' && process.versions && process.versions.node) {
  // (Not `new URL('.', import.meta.url)`: bundlers would resolve '.' to dist/index.js and copy it.)
  const here = new URL(import.meta.url.slice(0, import.meta.url.lastIndexOf('/') + 1));
  __dirname = here.protocol === 'file:' ? decodeURIComponent(here.pathname).replace(/^\/([A-Za-z]:)/, '$1') : '.';
  require = (id) => { throw new Error(`urnforest: require('${id}') before node:module loaded`); };
  import(/* @vite-ignore */ 'node:module').then((m) => { require = m.createRequire(import.meta.url); }, () => {});
}
