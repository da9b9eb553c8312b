#pragma once
// Threads of the native build: how many a request means, and a batch of rows split into
// contiguous parts that run side by side. WebAssembly builds have no threads: everything runs on
// the calling thread there, with the same results.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// The number of threads a `requested` value means: 0 = every hardware thread; never more than
/// `tasks`, never less than 1; always 1 where the build has no threads (WebAssembly).
int32_t ResolveThreads(int32_t requested, int32_t tasks);

/// Splits rows [0, num_rows) into `parts` contiguous parts of near-equal size (parts >= 1; part p
/// is [p * num_rows / parts, (p + 1) * num_rows / parts)) and calls part(begin, end) for each, part
/// 0 on the calling thread and the others on threads of their own (all on the calling thread in
/// builds without threads). Waits for every part; returns the status of the first part in row
/// order that failed, else Ok. `part` must only write what its rows own.
Status RunRowParts(size_t num_rows, int32_t parts, const std::function<Status(size_t, size_t)>& part);

}  // namespace internal
}  // namespace urnforest
