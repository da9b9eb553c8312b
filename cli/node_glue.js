// --extern-pre-js of the Node build of the CLI (dist/cli/urnforest_cli.mjs, run by bin/urnforest.mjs):
// emscripten 3.1.6's EXPORT_ES6 glue still calls CommonJS `require` (fs, path) and reads `__dirname`
// (where urnforest_cli.wasm lies) when it runs in Node. This module is for Node only, so both are
// defined synchronously here, before the factory runs.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const __dirname = dirname(fileURLToPath(import.meta.url));
