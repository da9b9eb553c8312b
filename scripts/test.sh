#!/usr/bin/env bash
# `npm test`: set-up if needed, build native + wasm, then every suite in order:
#   1. ctest (Catch2, native)    1b. the CLI's JSON contract, native and Node (bin/urnforest.mjs)
#   1c. Catch2 under ASan+UBSan (without the [slow] numerical sweeps: scripts/test-sanitize.sh says why),
#       built and run in the background during 1, 1b, 2 and 3
#   2. tsc --noEmit --strict on tests/js/types_check.ts (unchanged API) and types_additions_check.ts
#   3. node --test tests/js/     4. browser smoke test (tests/e2e, Debian Chromium via playwright-core)
# Each stage ends with a line "-- <stage>: W s wall, U+S s CPU" (CPU: user+sys of the stage and its
# children), so a CI log shows where the time goes.
# JOBS (default 2): build and ctest parallelism. TEST_CONCURRENCY (default: the number of cores): test
# files node --test runs at once (each in its own process; node's own default is one fewer than the cores,
# which is one file at a time on a 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
jobs="${JOBS:-2}"
node_jobs="${TEST_CONCURRENCY:-$(nproc 2>/dev/null || echo 2)}"

stage() {
  local name="$1" TIMEFORMAT
  shift
  echo "== $name"
  TIMEFORMAT="-- $name: %R s wall, %U+%S s CPU"
  time "$@"
}
# The native build and the wasm builds at the same time: each ends in steps that use one core (the
# test binary's link, emscripten's LTO links, Vite's bundles), which the other build's compiles fill.
# The wasm builds' output goes to build-wasm.log (printed if they fail).
builds() {
  local wasm_pid rc=0
  scripts/build.sh wasm node-cli > build-wasm.log 2>&1 &
  wasm_pid=$!
  scripts/build.sh native || rc=$?
  wait "$wasm_pid" || { echo "== the wasm build failed:"; tail -40 build-wasm.log; return 1; }
  return "$rc"
}
# The sanitizer suite (build and run, mostly compiles) goes in the background while the native,
# CLI, type and Node suites run (they leave a core idle much of the time); the browser tests start
# after it has finished, on an otherwise quiet machine (their layout checks are timing-sensitive).
sanitize_pid=""
sanitize_start() {
  (TIMEFORMAT="-- Catch2 suite under ASan + UBSan (in the background): %R s wall, %U+%S s CPU"
   time scripts/test-sanitize.sh > build-asan.log 2>&1) 2> build-asan.time &
  sanitize_pid=$!
}
sanitize_wait() {
  local rc=0
  wait "$sanitize_pid" || rc=$?
  cat build-asan.time
  if [[ $rc -ne 0 ]]; then
    tail -40 build-asan.log
    return 1
  fi
  tail -1 build-asan.log
}

stage "set-up" scripts/setup.sh
stage "build native, and wasm + node-cli beside it" builds
sanitize_start
stage "ctest" ctest --test-dir build --output-on-failure -j "$jobs"
stage "node --test tests/cli/ (native CLI contract)" node --test --test-concurrency="$node_jobs" tests/cli/
stage "node --test tests/cli/ (Node CLI contract, URNFOREST_CLI=node)" \
  env URNFOREST_CLI=node node --test --test-concurrency="$node_jobs" tests/cli/
stage "tsc" node_modules/.bin/tsc --noEmit --strict --target es2022 --module nodenext \
  --moduleResolution nodenext tests/js/types_check.ts tests/js/types_additions_check.ts
stage "node --test tests/js/" node --test --test-concurrency="$node_jobs" tests/js/
stage "wait for the Catch2 suite under ASan + UBSan" sanitize_wait
stage "browser smoke test" node --test tests/e2e/
