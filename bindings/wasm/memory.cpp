// The wasm heap and the error channels outside embind's return values (see memory.h).
// docs/reliability.md "Out of memory" describes the whole path.
#include "memory.h"

#include <malloc.h>

#include <new>
#include <string>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"

namespace urnforest::wasm {
namespace {

int32_t g_allocation_failures = 0;

// The error of the last failed plain C call, for TakeLastError.
Status g_last_error;

/// Bytes of the wasm heap currently allocated by malloc (for leak checks).
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

/// Returns, and resets to 0, the number of allocations that failed since the last call (see
/// OnAllocationFailure). The JS side reads it after a failed call: > 0 means 'OutOfMemory'.
double TakeAllocationFailures() {
  const int32_t n = g_allocation_failures;
  g_allocation_failures = 0;
  return static_cast<double>(n);
}

/// The error object of the last failed plain C call (and forgets it); undefined when none.
val TakeLastError() {
  if (g_last_error.ok()) return val::undefined();
  val error = ErrorObject(g_last_error);
  g_last_error = Status::Ok();
  return error;
}

/// CodeName of every StatusCode after kOk, in the enum's order (for the test that the JS list of
/// error codes matches the core's). Stops at the first value past the enum, which CodeName names
/// "Internal" like kInternal, so codes appended to the enum are listed without a change here.
val CodeNames() {
  val out = val::array();
  for (int32_t c = static_cast<int32_t>(StatusCode::kOk) + 1;; ++c) {
    const std::string name = CodeName(static_cast<StatusCode>(c));
    if (name == CodeName(StatusCode::kInternal) && c != static_cast<int32_t>(StatusCode::kInternal)) {
      break;
    }
    out.call<void>("push", name);
  }
  return out;
}

}  // namespace

[[noreturn]] void OnAllocationFailure() {
  ++g_allocation_failures;
  val::global("Error").new_(val(kOutOfMemoryMessage)).throw_();
}

void SetLastError(const Status& status) { g_last_error = status; }

void RegisterMemory() {
  std::set_new_handler(&OnAllocationFailure);
  emscripten::function("_heapInUse", &HeapInUse);
  emscripten::function("_takeLastError", &TakeLastError);
  emscripten::function("_takeAllocationFailures", &TakeAllocationFailures);
  emscripten::function("_codeNames", &CodeNames);
}

}  // namespace urnforest::wasm
