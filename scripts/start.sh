#!/usr/bin/env bash
# `npm start`: set-up if needed (wasm only: no catch2, g++ or chromium), build what the demo needs (the
# wasm and the JS bundles, `scripts/build.sh wasm`; not the native suite), then serve the demo on
# http://127.0.0.1:${PORT:-8080}/web/. Says what it is doing and how long a first build usually takes;
# the build's own output goes to build-wasm/start.log and is shown only when the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
URNFOREST_SKIP_BROWSER=1 URNFOREST_SKIP_NATIVE=1 scripts/setup.sh
mkdir -p build-wasm
log=build-wasm/start.log
if [ -f dist/index.js ] && [ -f dist/urnforest.wasm ]; then
  echo "start: updating the wasm build (seconds when nothing changed)"
else
  echo "start: building the wasm core and the JS bundles (a first build takes minutes: 4 on a busy 2-core machine; docs/benchmarks.md)"
fi
started=$SECONDS
if ! scripts/build.sh wasm >"$log" 2>&1; then
  cat "$log" >&2
  echo "start: the build failed (log above, also in $log)" >&2
  exit 1
fi
echo "start: built in $((SECONDS - started)) s; serving the demo (PORT=${PORT:-8080}; set PORT to choose another)"
exec node scripts/serve.mjs
