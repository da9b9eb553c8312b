#!/usr/bin/env bash
# Builds urnforest. Usage: scripts/build.sh [native] [cli] [wasm] [predict] [node-cli]   (no argument: native wasm node-cli)
#   native: build/ (Release): the core, the CLI build/urnforest and the Catch2 suite (ctest --test-dir build).
#   cli:    build/urnforest only (the core and the CLI; no Catch2 suite, no benchmark tools): `npm run cli`.
#   node-cli: build-wasm/ → dist/cli/urnforest_cli.mjs + .wasm, the CLI's C++ for Node (bin/urnforest.mjs,
#           `npx urnforest`); shipped in the package, not needed by the demo.
#   wasm:   build-wasm/ with emcmake → dist/urnforest_wasm.mjs (SINGLE_FILE, embind) and the same wasm as a
#           separate asset, dist/urnforest.wasm with its glue dist/urnforest.mjs (init({wasm})); writes the
#           core's rule table into bindings/js/generated/rule_table.js (scripts/rule_table.mjs); bundles the
#           JS API's modules bindings/js/*.js into the one file dist/index.js (init() loads the asset; it never
#           names the embedded glue), again into dist/single-file.js (the urnforest/single-file entry: init()
#           loads the embedded wasm), and the worker's modules
#           bindings/worker/*.js into dist/worker.js (Vite's library build, readable, not minified; the
#           wasm glue and, for the worker, the package's ./index.js stay external), concatenates the type
#           parts bindings/types/*.d.ts (one concept each, in name order; each part's first line, a
#           "// Part of dist/index.d.ts: ..." comment, is left out) into dist/index.d.ts, then copies
#           worker_thread.js, worker.d.ts into dist/ (the npm package's contents: one entry per package
#           export, so that dist/ holds no internal module files); then the predict target.
#   predict: the inference-only entry urnforest/predict: build-wasm/ → dist/urnforest_predict.mjs +
#           dist/urnforest_predict.wasm (plain C exports, the core compiled for size) and
#           dist/urnforest_predict_import.mjs + .wasm (also ONNX and XGBoost JSON), its JS modules
#           bindings/js/predict_entry*.js bundled and minified into dist/predict.js (the glues stay
#           external; the import build's is imported only by init({imports: true})), and bindings/predict.d.ts copied to dist/predict.d.ts.
# All build output goes to stderr, so callers (e.g. `npm run cli`) keep stdout clean.
# JOBS (default 2) sets the parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 1>&2
export NODE_PATH=/usr/share/nodejs  # Debian's acorn, needed by emscripten's optimiser (DESIGN.md)
jobs="${JOBS:-2}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(native wasm node-cli)

build_predict() {
  mkdir -p dist
  [ -f build-wasm/CMakeCache.txt ] || emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release
  cmake --build build-wasm -j "$jobs" --target urnforest_predict_wasm urnforest_predict_import_wasm
  # Minified (whitespace too: output.minify): the entry is measured by the bytes a page loads.
  node --input-type=module -e "
    import { build } from 'vite';
    await build({ configFile: false, logLevel: 'error', publicDir: false, build: {
      outDir: 'dist', emptyOutDir: false, minify: true, target: 'es2022', reportCompressedSize: false,
      lib: { entry: 'bindings/js/predict_entry.js', formats: ['es'], fileName: () => 'predict.js' },
      rollupOptions: { external: ['./urnforest_predict.mjs', './urnforest_predict_import.mjs'], output: { minify: true } } } });"
  # As for dist/index.js: keep new URL('./x.wasm', import.meta.url) and the import build's import('./x.mjs')
  # in the forms bundlers recognise (the minifier writes template literals).
  sed -i -E 's#new URL\([`"]\./(urnforest_predict(_import)?\.wasm)[`"], *(``|"") *\+ *import\.meta\.url\)#new URL("./\1",import.meta.url)#g' dist/predict.js
  sed -i -E 's#import\(`\./urnforest_predict_import\.mjs`\)#import("./urnforest_predict_import.mjs")#' dist/predict.js
  grep -q 'import("./urnforest_predict_import.mjs")' dist/predict.js ||
    { echo "build.sh: dist/predict.js lost import('./urnforest_predict_import.mjs')"; exit 1; }
  for w in urnforest_predict urnforest_predict_import; do
    grep -q "new URL(\"./$w.wasm\",import.meta.url)" dist/predict.js ||
      { echo "build.sh: dist/predict.js lost new URL('./$w.wasm', import.meta.url)"; exit 1; }
  done
  ! grep -q 'urnforest_wasm\|urnforest\.wasm' dist/predict.js ||
    { echo "build.sh: dist/predict.js names the full module's wasm"; exit 1; }
  cp bindings/predict.d.ts dist/predict.d.ts
}

for t in "${targets[@]}"; do
  case "$t" in
    native)
      [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
      cmake --build build -j "$jobs"
      ;;
    cli)
      [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
      cmake --build build -j "$jobs" --target urnforest_cli
      ;;
    node-cli)
      mkdir -p dist
      [ -f build-wasm/CMakeCache.txt ] || emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release
      cmake --build build-wasm -j "$jobs" --target urnforest_node_cli
      ;;
    wasm)
      mkdir -p dist
      [ -f build-wasm/CMakeCache.txt ] || emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release
      cmake --build build-wasm -j "$jobs" --target urnforest_wasm urnforest_wasm_asset
      # The JS API's rule table (rules, ruleInfo: usable before init()) from the core's, through the new wasm.
      node scripts/rule_table.mjs dist/urnforest_wasm.mjs bindings/js/generated/rule_table.js
      # Vite warns that new URL('./urnforest.wasm', import.meta.url) does not exist at build time: it is
      # meant for run time (dist/urnforest.wasm sits next to dist/index.js) and for consumers' bundlers.
      # That one expected warning is dropped; every other warning and error is printed.
      node --input-type=module -e "
        import { build, createLogger } from 'vite';
        const logger = createLogger('warn');
        const expected = (msg) => msg.includes('./urnforest.wasm') && msg.includes(\"doesn't exist at build time\");
        for (const level of ['warn', 'warnOnce', 'info']) {
          const log = logger[level].bind(logger);
          logger[level] = (msg, options) => { if (!expected(msg)) log(msg, options); };
        }
        await build({ configFile: false, logLevel: 'warn', customLogger: logger, publicDir: false, build: {
          outDir: 'dist', emptyOutDir: false, minify: false, target: 'esnext', reportCompressedSize: false,
          lib: { entry: 'bindings/js/index.js', formats: ['es'], fileName: () => 'index.js' },
          rollupOptions: { external: ['./urnforest_wasm.mjs', './urnforest.mjs'] } } });"
      # The single-file entry dist/single-file.js: the same API, bundled again whole, with init()'s default
      # wasm the one embedded in dist/urnforest_wasm.mjs (default_wasm_embedded.js in place of
      # default_wasm.js). Its new URL('./urnforest.wasm', ...) keeps Vite's runtime form, so bundlers of
      # an app using this entry do not copy the asset as well.
      node --input-type=module -e "
        import { build } from 'vite';
        import { resolve } from 'node:path';
        await build({ configFile: false, logLevel: 'error', publicDir: false,
          resolve: { alias: [{ find: /^\\.\\/default_wasm\\.js\$/, replacement: resolve('bindings/js/default_wasm_embedded.js') }] },
          build: { outDir: 'dist', emptyOutDir: false, minify: false, target: 'esnext', reportCompressedSize: false,
          lib: { entry: 'bindings/js/index.js', formats: ['es'], fileName: () => 'single-file.js' },
          rollupOptions: { external: ['./urnforest_wasm.mjs', './urnforest.mjs'] } } });"
      grep -q "import(\"./urnforest_wasm.mjs\")" dist/single-file.js ||
        { echo "build.sh: dist/single-file.js does not load the embedded glue"; exit 1; }
      # Vite's library build rewrites wasm_source.js's new URL('./urnforest.wasm', import.meta.url) to a
      # runtime form ("" + import.meta.url) that consumers' bundlers no longer recognise: restore it.
      sed -i 's|new URL("./urnforest.wasm", "" + import.meta.url)|new URL("./urnforest.wasm", import.meta.url)|' dist/index.js
      grep -q 'new URL("./urnforest.wasm", import.meta.url)' dist/index.js ||
        { echo "build.sh: dist/index.js lost new URL('./urnforest.wasm', import.meta.url)"; exit 1; }
      ! grep -q 'urnforest_wasm' dist/index.js ||
        { echo "build.sh: dist/index.js names the embedded glue (a bundler would emit a second wasm)"; exit 1; }
      # The worker as an ssr build: Vite's client worker plugin would turn the literal
      # new Worker(new URL('./worker_thread.js', import.meta.url)) into an asset; consumers' bundlers need it as is.
      node --input-type=module -e "
        import { build } from 'vite';
        await build({ configFile: false, logLevel: 'warn', publicDir: false, build: {
          outDir: 'dist', emptyOutDir: false, minify: false, target: 'esnext', reportCompressedSize: false, ssr: true,
          lib: { entry: 'bindings/worker/index.js', formats: ['es'] },
          rollupOptions: { external: ['urnforest'], output: { entryFileNames: 'worker.js', paths: { urnforest: './index.js' } } } } });"
      for part in bindings/types/*.d.ts; do sed '1{/^\/\/ Part of dist\/index.d.ts:/d}' "$part"; done > dist/index.d.ts
      cp bindings/worker_thread.js bindings/worker.d.ts dist/
      build_predict
      ;;
    predict) build_predict ;;
    *) echo "build.sh: unknown target '$t' (expected native, cli, wasm, predict or node-cli)"; exit 2 ;;
  esac
done
