#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang + ASan + UBSan in build-fuzz/ and runs each
# for a fixed time. Exits non-zero if a target crashes, leaks, times out on one input, or fails to
# build.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#     SECONDS_PER_TARGET  default 60 (CI); use 600 for a release-quality run
#     TARGET              fuzz_csv, fuzz_model, fuzz_train, fuzz_onnx, fuzz_xgboost, js_boundary (default: all six)
#
# js_boundary is the JS-boundary fuzzer (tests/fuzz/js_boundary.mjs: random arguments against every public
# function of dist/, in Node; needs `scripts/build.sh wasm` first); it runs for SECONDS_PER_TARGET too
# (URNFOREST_FUZZ_SECONDS) with seed URNFOREST_FUZZ_SEED (default: the clock; printed) and logs to
# build-fuzz/logs/js_boundary.log.
#
# Environment: FUZZ_JOBS (build parallelism, default 2), FUZZ_BUILD_DIR (default build-fuzz),
#              FUZZ_ARGS (extra libFuzzer flags, e.g. "-seed=1"), FUZZ_PARALLEL (targets run at once,
#              default the number of cores; each still gets SECONDS_PER_TARGET on its own core).
# Each target runs in one process on one core, starting from the checked-in seed corpus
# tests/fuzz/corpus/<target>/ (fuzz_onnx: the ONNX fixtures tests/fixtures/onnx/*.onnx and crafted/*.onnx, copied to
# build-fuzz/seeds/fuzz_onnx/; fuzz_xgboost: the model files of tests/fixtures/xgboost/ under 64 KB, copied to
# build-fuzz/seeds/fuzz_xgboost/); fuzz_onnx also gets the dictionary tests/fuzz/fuzz_onnx.dict (attribute names,
# op types and domains; scripts/fuzz_onnx_dict.py writes it; FUZZ_NO_DICT=1 leaves it out, to measure
# what it adds); inputs it discovers go to build-fuzz/corpus/<target>/ (kept between
# runs, never committed). Logs: build-fuzz/logs/<target>.log. A crashing input is written to
# build-fuzz/artifacts/<target>/crash-* and the script prints the command that reproduces it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_csv fuzz_model fuzz_train fuzz_onnx fuzz_xgboost js_boundary)
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${FUZZ_JOBS:-2}"

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [[ "$seconds" -lt 1 ]]; then
  echo "fuzz.sh: SECONDS_PER_TARGET must be a positive integer, got '$seconds'" >&2
  exit 2
fi
for t in "${targets[@]}"; do
  case "$t" in fuzz_csv|fuzz_model|fuzz_train|fuzz_onnx|fuzz_xgboost|js_boundary) ;; *) echo "fuzz.sh: unknown target '$t'" >&2; exit 2;; esac
done
native=()
for t in "${targets[@]}"; do [[ $t == js_boundary ]] || native+=("$t"); done
if [[ ${#native[@]} -gt 0 ]]; then
  if ! command -v clang++ >/dev/null; then
    echo "fuzz.sh: clang++ not found; install it with: apt-get install -y clang libclang-rt-14-dev" >&2
    exit 2
  fi
  cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DURNFOREST_FUZZ=ON \
    -DURNFOREST_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" >/dev/null   # without NDEBUG: asserts stay on; -g1: line numbers
  cmake --build "$build" -j "$jobs" --target "${native[@]}"
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
mkdir -p "$build/logs"

# One target's run: its log in $build/logs/<target>.log, its exit status in $build/logs/<target>.rc.
run_target() {
  local t="$1" rc
  if [[ $t == js_boundary ]]; then
    rc=0
    URNFOREST_FUZZ_SECONDS="$seconds" node "$root/tests/fuzz/js_boundary.mjs" >"$build/logs/$t.log" 2>&1 || rc=$?
    echo "$rc" >"$build/logs/$t.rc"
    return
  fi
  local seeds="$root/tests/fuzz/corpus/$t"
  if [[ $t == fuzz_onnx ]]; then  # the ONNX fixtures (only the .onnx files) are its seeds
    seeds="$build/seeds/$t"
    mkdir -p "$seeds"
    cp "$root"/tests/fixtures/onnx/*.onnx "$root"/tests/fixtures/onnx/crafted/*.onnx "$seeds/"
  fi
  if [[ $t == fuzz_xgboost ]]; then  # the XGBoost fixtures' model files within -max_len are its seeds
    seeds="$build/seeds/$t"
    mkdir -p "$seeds"
    find "$root/tests/fixtures/xgboost" -name '*.model.json' -size -64k -exec cp {} "$seeds/" \;
  fi
  local work="$build/corpus/$t"
  local dict=()
  if [[ -f "$root/tests/fuzz/$t.dict" && -z "${FUZZ_NO_DICT:-}" ]]; then dict=(-dict="$root/tests/fuzz/$t.dict"); fi
  local artifacts="$build/artifacts/$t/"
  mkdir -p "$work" "$artifacts"
  rc=0
  # shellcheck disable=SC2086
  "$build/$t" "$work" "$seeds" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$artifacts" "${dict[@]}" ${FUZZ_ARGS:-} \
    >"$build/logs/$t.log" 2>&1 || rc=$?
  echo "$rc" >"$build/logs/$t.rc"
}

# Each target is one process on one core for the same SECONDS_PER_TARGET whatever the pool size, so a
# pool of FUZZ_PARALLEL (default: the number of cores) runs the same fuzzing in less wall time.
parallel="${FUZZ_PARALLEL:-$(nproc 2>/dev/null || echo 1)}"
[[ "$parallel" =~ ^[1-9][0-9]*$ ]] || parallel=1
running=0
for t in "${targets[@]}"; do
  if [[ $running -ge $parallel ]]; then wait -n || true; running=$((running - 1)); fi
  echo "== $t: ${seconds}s"
  rm -f "$build/logs/$t.rc"
  run_target "$t" &
  running=$((running + 1))
done
wait || true

# The reports, in the order the targets were given.
failed=()
for t in "${targets[@]}"; do
  rc="$(cat "$build/logs/$t.rc" 2>/dev/null || echo 127)"
  if [[ $t == js_boundary ]]; then
    if [[ $rc -eq 0 ]]; then
      tail -1 "$build/logs/$t.log"
    else
      echo "!! js_boundary failed; log: $build/logs/js_boundary.log" >&2
      tail -25 "$build/logs/js_boundary.log" >&2
      failed+=(js_boundary)
    fi
    continue
  fi
  echo "-- $t"
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+.*DONE' "$build/logs/$t.log" || true
  if [[ $rc -ne 0 ]]; then
    echo "!! $t failed (exit $rc); log: $build/logs/$t.log" >&2
    grep -E 'ERROR|SUMMARY|oracle failed|Test unit written' "$build/logs/$t.log" | head -20 >&2 || true
    echo "   reproduce: $build/$t <crash file>" >&2
    failed+=("$t")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} target(s) ran ${seconds}s each (${parallel} at a time) without a crash"
