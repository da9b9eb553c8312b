// Conversions between embind values (emscripten::val) and the core's types: error objects,
// array copies in and out, string arrays, 64-bit seeds, cost estimates and progress callbacks.
//
// Conventions shared by every adapter in bindings/wasm/:
// - Every embind name is internal (`_`-prefixed); the public API is bindings/js/index.js.
// - No C++ exception crosses the boundary: fallible calls return `undefined` on success (or their
//   result) and a plain error object {code, message, line, column} on failure, which the JS side
//   (bindings/js/errors.js callChecked) turns into an UrnforestError.
// - Arrays come in with one bulk copy (convertJSArrayToNumberVector) and go out as `.slice()`
//   copies, never as live views of wasm memory (they detach when memory grows).
// - Arguments are validated in JS first; embind would silently coerce bad ones.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <emscripten/val.h>

#include "urnforest/dataset.h"
#include "urnforest/expected_cost.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"

namespace urnforest::wasm {

using emscripten::val;

/// The error object {code (CodeName), message, line, column} of a failed `status`.
val ErrorObject(const Status& status);

/// ErrorObject of a kInvalidArgument status with `message`.
val InvalidArgument(const std::string& message);

/// A JS copy (typed array of T's kind) of `values`; never a view of wasm memory.
template <typename T>
val CopyOut(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

/// A JS array of `strings`.
val StringArray(const std::vector<std::string>& strings);

/// The strings of JS array `array`; empty for undefined or null.
std::vector<std::string> StringVector(const val& array);

/// The feature names of `schema`, in column order, as a JS array.
val FeatureNames(const Schema& schema);

/// 'numeric' or 'categorical' per feature of `schema`, as a JS array.
val FeatureTypes(const Schema& schema);

/// The 64-bit seed whose high and low 32-bit halves JS passes as two numbers.
uint64_t Seed64(double hi, double lo);

/// The entries of a typed array or array of integers `array`, one bulk copy.
std::vector<int32_t> IntVector(const val& array);

/// The vote options of query order `order` (0 generation, 1 random per row) with the seed's halves.
SequentialVoteOptions VoteOptions(int32_t order, double seed_hi, double seed_lo);

/// {exact, expectedTrees, disagreement, stopProbability, monteCarloTrees, monteCarloDisagreement,
/// monteCarloSamples}: exact values when available, else the Monte Carlo ones (stopProbability
/// null, plus exactUnavailable). An error object when `monte_carlo` failed, or when `exact` failed
/// and there is no Monte Carlo estimate.
val CostObject(const Result<CostEstimate>& exact, const Result<CostEstimate>* monte_carlo);

/// A progress callback (done, total) -> keep going that calls JS function `progress`, or an empty
/// function when `progress` is not a function. The JS side passes a wrapper that never throws (a
/// JS throw would skip C++ destructors).
std::function<bool(int32_t, int32_t)> ProgressFromJs(const val& progress);

}  // namespace urnforest::wasm
