#pragma once
// Vote-boosting tree growing; the behaviour is documented in urnforest/voteboost.h.
#include <vector>

#include "tree/cart.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// Grows options.num_trees vote-boosted trees into `forest` (schema, options, labels and zeroed OOB
/// votes already set up by Train). `row_major` holds the training rows (rows x features).
/// OOB votes count, for each tree, the rows its weighted sample did not draw. Fails with
/// kInvalidArgument (bad emphasis, cancelled) or kLimitExceeded.
Status GrowVoteBoost(const TrainingData& data, const std::vector<float>& row_major,
                     const TrainOptions& options, const ProgressFn& progress, Forest* forest);

}  // namespace internal
}  // namespace urnforest
