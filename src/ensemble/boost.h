#pragma once
// AdaBoost (M1 / SAMME) tree growing; the behaviour is in docs/design.md, "Training".
#include <vector>

#include "tree/cart.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// Grows options.num_trees boosted trees into `forest` (schema, options, labels and zeroed OOB
/// votes already set up by Train) and fills the forest's tree weights. `row_major` holds the
/// training rows (rows x features). Fails with kInvalidArgument (learner no better than chance,
/// cancelled) or kLimitExceeded.
Status GrowAdaBoost(const TrainingData& data, const std::vector<float>& row_major,
                    const TrainOptions& options, const ProgressFn& progress, Forest* forest);

}  // namespace internal
}  // namespace urnforest
