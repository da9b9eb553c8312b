#!/usr/bin/env bash
# `npm run --silent cli -- <command> [options]`: builds the native tool if needed (quietly; build
# output goes to stderr, and only when something fails) and runs build/urnforest with the arguments,
# passing its exit code through. stdout carries only the tool's output.
set -uo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
log="$(mktemp)"
if ! scripts/build.sh native >"$log" 2>&1; then
  cat "$log" >&2; rm -f "$log"
  echo "cli: the native build failed" >&2
  exit 2
fi
rm -f "$log"
cd "${INIT_CWD:-$root}"  # npm sets INIT_CWD to where the user ran `npm run`: relative paths work.
exec "$root/build/urnforest" "$@"
