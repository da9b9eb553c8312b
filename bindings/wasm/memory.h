// The wasm heap and the error channels outside embind's return values: the out-of-memory marker
// and its failure count, heap accounting, the last error of a plain C call, handle addresses, and
// the core's error-code names.
#pragma once

#include <cstdint>

#include <emscripten/val.h>

#include "urnforest/status.h"

namespace urnforest::wasm {

/// The message of the JS Error thrown on a failed allocation (bindings/js/module.js OOM_MARKER).
inline constexpr const char* kOutOfMemoryMessage = "urnforest: out of wasm memory";

/// The new-handler, also called by plain C entry points whose malloc returns null: counts the
/// failure and throws the JS Error kOutOfMemoryMessage. Built with -fwasm-exceptions and
/// ABORTING_MALLOC=0, the throw unwinds the C++ frames (their destructors free what they held; no
/// C++ exception object is left behind, which an uncaught std::bad_alloc would leak) and reaches
/// the JS side, which throws UrnforestError 'OutOfMemory'. The count tells the JS side that an
/// abort (a failure inside a noexcept function terminates) was one too. Allocates nothing from the
/// wasm heap.
[[noreturn]] void OnAllocationFailure();

/// Keeps `status` for TakeLastError (the error channel of the plain C entry points).
void SetLastError(const Status& status);

/// The wasm address of an embind handle, for the plain C entry points (urnforest_predict).
/// Valid while the handle lives (embind objects never move).
template <class Handle>
double AddressOf(const Handle& handle) {
  return static_cast<double>(reinterpret_cast<uintptr_t>(&handle));
}


}  // namespace urnforest::wasm
