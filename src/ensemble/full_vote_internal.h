#pragma once
// Internal: the helpers of the full vote (full_vote.cpp) that halted prediction
// (model/predict.cpp) shares, so that both split a batch and label its rows the same way.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/full_vote.h"

namespace urnforest {
namespace internal {

/// Per row, the class with the most votes (`votes`: num_rows x k, row-major); ties go to the
/// lowest class index. Returns num_rows labels.
std::vector<int32_t> PluralityLabels(const std::vector<uint32_t>& votes, size_t num_rows,
                                     size_t k);

/// The number of contiguous parts (one thread each) a batch of `num_rows` rows is split into as
/// `execution` says: one per min_rows_per_thread rows (at least 1, at most 4,096), never more than
/// the threads `execution.threads` resolves to (ResolveThreads; 1 in WebAssembly builds).
int32_t PartsFor(size_t num_rows, const PredictExecution& execution);

}  // namespace internal
}  // namespace urnforest
