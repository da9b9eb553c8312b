#!/usr/bin/env bash
# Builds the Catch2 suite with AddressSanitizer + UndefinedBehaviorSanitizer (g++ by default) in
# build-asan/ and runs it once. Any sanitizer report aborts the run and fails the script, as does
# any failing test.
#
#   scripts/test-sanitize.sh [catch2 test spec...]     e.g. scripts/test-sanitize.sh "[csv]"
#
# Without a spec it runs every test except those tagged [slow] ("~[slow]"; `scripts/test-sanitize.sh
# "*"` runs them all). [slow] marks the large numerical sweeps (100k-row generator statistics, the
# largest exhaustive or brute-force oracle sizes) whose code paths the untagged tests already run under
# the sanitizers at smaller sizes: more rows or a larger N repeat the same memory accesses, so the
# sanitizers learn nothing from them, and ctest runs them natively on every CI run.
#
# Environment: SANITIZE_JOBS (build parallelism, default 2), SANITIZE_BUILD_DIR (default
# build-asan), CXX (compiler for a fresh build directory; default g++).
# Built -O1 -g1 without NDEBUG, so the library's asserts are checked too (-g1: reports keep function
# names and line numbers, without local variables; it compiles about a quarter faster than -g).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SANITIZE_BUILD_DIR:-$root/build-asan}"
jobs="${SANITIZE_JOBS:-2}"

cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="${CXX:-g++}" -DURNFOREST_SANITIZE=ON \
  -DURNFOREST_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" >/dev/null
cmake --build "$build" -j "$jobs" --target urnforest_tests

# halt_on_error + abort: the first report ends the run with a non-zero status (UBSan is also
# compiled with -fno-sanitize-recover=all). detect_leaks: a leak is a report too.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
log="$build/sanitize.log"
set +e
spec=("$@")
[[ ${#spec[@]} -gt 0 ]] || spec=("~[slow]")
"$build/urnforest_tests" "${spec[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
  echo "test-sanitize.sh: sanitizer report (see $log)" >&2
  exit 1
fi
if [[ $rc -ne 0 ]]; then
  echo "test-sanitize.sh: the suite failed under ASan+UBSan (exit $rc; see $log)" >&2
  exit "$rc"
fi
echo "test-sanitize.sh: suite passed under ASan+UBSan with zero reports"
