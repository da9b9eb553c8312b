// --extern-pre-js for emscripten 3.1.6 (see notes/style-anchors.md §6): the EXPORT_ES6 glue still uses
// CommonJS `require` and `__dirname` when it runs in Node. This defines both at module top level, before
// the factory, and does nothing in browsers and workers. Delete when the toolchain moves past 3.1.2x.
let require, __dirname;
if (typeof process === 'object' && process.versions && process.versions.node) {
  const { createRequire } = await import('node:module');
  const { fileURLToPath } = await import('node:url');
  require = createRequire(import.meta.url);
  __dirname = fileURLToPath(new URL('.', import.meta.url));
}
