#!/usr/bin/env bash
# Rewrites tests/fixtures/onnx/crafted/ (the crafted ONNX files of docs/import.md's "Cases decided
# against ONNX Runtime", from tests/cpp/onnx_crafted_cases.h, and their manifest.json) with the native
# tool build/write_crafted_onnx (built by `scripts/build.sh native`). tests/js/onnx_oracle.test.mjs
# runs them through onnxruntime-web and Forest.fromONNX. Deterministic: rerunning changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target write_crafted_onnx -j "${JOBS:-2}" >&2
rm -rf tests/fixtures/onnx/crafted
mkdir -p tests/fixtures/onnx/crafted
build/write_crafted_onnx tests/fixtures/onnx/crafted
ls tests/fixtures/onnx/crafted | wc -l
