#!/usr/bin/env bash
# Set-up for `npm start` / `npm test` (DESIGN contract 1). Idempotent; fast when nothing is missing.
# - Debian packages: em++ (emscripten), Catch2 v2 (catch2), /usr/bin/chromium (chromium), cmake, g++.
#   As root they are installed with apt-get; otherwise the exact sudo command is printed and we exit 1.
# - node_modules: `npm ci` when missing or when package-lock.json changed since the last install.
# Environment: URNFOREST_SKIP_BROWSER=1 does not require chromium (e.g. `npm run build`);
#              URNFOREST_SKIP_NATIVE=1 does not require catch2 and g++ (`npm start`, `npm pack`: wasm only);
#              URNFOREST_WITH_FUZZ=1 also requires clang and its sanitizer runtimes (CI's fuzzing).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
# The native build (Catch2 suite, build/urnforest) needs catch2 and g++; the wasm alone does not.
if [ "${URNFOREST_SKIP_NATIVE:-0}" != 1 ]; then
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
fi
if [ "${URNFOREST_SKIP_BROWSER:-0}" != 1 ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
# The fuzz targets (scripts/fuzz.sh, run by .ci/run) need clang with its sanitizer runtimes.
if [ "${URNFOREST_WITH_FUZZ:-0}" = 1 ]; then
  command -v clang++ >/dev/null 2>&1 || missing+=(clang)
  [ -d /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux ] || missing+=(libclang-rt-14-dev)
fi
# Debian's emscripten needs acorn from /usr/share/nodejs for optimised links (NODE_PATH, see DESIGN.md).
if command -v em++ >/dev/null 2>&1 && [ ! -d /usr/share/nodejs/acorn ]; then missing+=(node-acorn); fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${missing[*]} (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run this, then try again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# npm ci when node_modules is missing or stale (stamp = hash of package-lock.json).
stamp=node_modules/.urnforest-setup-stamp
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund >&2
  echo "$want" > "$stamp"
fi
