#!/usr/bin/env bash
# Builds urnforest. Usage: scripts/build.sh [native] [wasm]   (no argument: both)
#   native: build/ (Release): the core, the CLI build/urnforest and the Catch2 suite (ctest --test-dir build).
#   wasm:   build-wasm/ with emcmake → dist/urnforest_wasm.mjs (SINGLE_FILE, embind), then copies
#           bindings/index.js, index.d.ts, worker.js, worker_thread.js, worker.d.ts into dist/
#           (the npm package's contents).
# All build output goes to stderr, so callers (e.g. `npm run cli`) keep stdout clean.
# JOBS (default 2) sets the parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 1>&2
export NODE_PATH=/usr/share/nodejs  # Debian's acorn, needed by emscripten's optimiser (DESIGN.md)
jobs="${JOBS:-2}"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(native wasm)

for t in "${targets[@]}"; do
  case "$t" in
    native)
      [ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
      cmake --build build -j "$jobs"
      ;;
    wasm)
      mkdir -p dist
      [ -f build-wasm/CMakeCache.txt ] || emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release
      cmake --build build-wasm -j "$jobs" --target urnforest_wasm
      cp bindings/index.js bindings/index.d.ts bindings/worker.js bindings/worker_thread.js bindings/worker.d.ts dist/
      ;;
    *) echo "build.sh: unknown target '$t' (expected native or wasm)"; exit 2 ;;
  esac
done
