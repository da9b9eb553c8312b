#!/usr/bin/env bash
# `npm run --silent cli -- <command> [options]`: runs the native tool build/urnforest with the
# arguments, passing its exit code through; stdout carries only the tool's output. The tool is built
# first (only its own target, `scripts/build.sh cli`: the core and cli/, not the Catch2 suite or the
# benchmark tools) when it is missing or older than a source (src/, cli/, CMakeLists.txt); otherwise
# it runs at once, without asking cmake. Build output goes to stderr, and only when something fails.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
tool="$root/build/urnforest"
if [ ! -x "$tool" ] || [ -n "$(find src cli CMakeLists.txt \( -name "*.cpp" -o -name "*.h" -o -name CMakeLists.txt \) -newer "$tool" -print -quit)" ]; then
  echo "cli: building the native command-line tool (build/urnforest; a first build takes about 3 minutes on 2 cores)" >&2
  log="$(mktemp)"
  if ! scripts/build.sh cli >"$log" 2>&1; then
    cat "$log" >&2; rm -f "$log"
    echo "cli: the native build failed" >&2
    exit 2
  fi
  rm -f "$log"
  touch "$tool"  # up to date even when the build had nothing to relink
fi
cd "${INIT_CWD:-$root}"  # npm sets INIT_CWD to where the user ran `npm run`: relative paths work.
exec "$tool" "$@"
