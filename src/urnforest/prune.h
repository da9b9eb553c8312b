#pragma once
// Static pruning: a real, smaller Forest made of the first k trees of an ordering.
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// A new forest holding trees order[0], ..., order[keep - 1] of `forest`, in that order (so its
/// generation order is the pruned order and tree i of the result is tree order[i] of the input).
/// Only the nodes and categorical bit sets of kept trees are copied, so the model serialises
/// smaller. Kept: schema, options (num_trees = keep), training labels, the kept trees' weights
/// (AdaBoost), and source_trees() (the kept trees' generation indices, composing over repeated
/// pruning).
///
/// Out-of-bag votes: with `training_data` (the exact training set: same rows and labels, else
/// kShapeMismatch) and a random forest or bagging model, they are recomputed exactly for the kept
/// trees by replaying each kept tree's bootstrap draw from (seed, generation index). Otherwise
/// (no data, or AdaBoost or vote-boosting, whose weighted draws cannot be replayed) they are all 0: oob_error() is
/// then 0 and prior-based halting rules (hyper, 1dir, ndir, optimal) need the full model's votes
/// (BuildForestTable on the full forest with num_trees = keep).
///
/// `order` lists distinct tree ids (usually a permutation of all T from OrderTrees; at least
/// `keep` of them). Fails with kInvalidArgument (keep outside 1..order.size(), a bad or repeated
/// id, a forest without trees, nodes shared between trees, which no trainer produces, or an
/// imported forest).
Result<Forest> PruneForest(const Forest& forest, const std::vector<int32_t>& order, int32_t keep,
                           const Dataset* training_data = nullptr);

}  // namespace urnforest
