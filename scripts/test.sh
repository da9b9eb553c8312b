#!/usr/bin/env bash
# `npm test`: set-up if needed, build native + wasm, then every suite in order:
#   1. ctest (Catch2, native)    1b. the CLI's JSON contract, native and Node (bin/urnforest.mjs)
#   1c. Catch2 under ASan+UBSan
#   2. tsc --noEmit --strict on tests/js/types_check.ts (unchanged API) and types_additions_check.ts
#   3. node --test tests/js/     4. browser smoke test (tests/e2e, Debian Chromium via playwright-core)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
scripts/setup.sh
scripts/build.sh native wasm node-cli
echo "== ctest" && ctest --test-dir build --output-on-failure -j "${JOBS:-2}"
echo "== node --test tests/cli/ (native CLI contract)" && node --test tests/cli/
echo "== node --test tests/cli/ (Node CLI contract, URNFOREST_CLI=node)" && URNFOREST_CLI=node node --test tests/cli/
echo "== Catch2 suite under ASan + UBSan" && scripts/test-sanitize.sh > build-asan.log 2>&1 \
  || { tail -40 build-asan.log; exit 1; }
tail -1 build-asan.log
echo "== tsc" && node_modules/.bin/tsc --noEmit --strict --target es2022 --module nodenext \
  --moduleResolution nodenext tests/js/types_check.ts tests/js/types_additions_check.ts
echo "== node --test tests/js/" && node --test tests/js/
echo "== browser smoke test" && node --test tests/e2e/
