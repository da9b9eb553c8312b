#pragma once
// The query-order policy: which ensembles must be queried in a random order when they halt early.
#include "urnforest/forest.h"
#include "urnforest/sequential_vote.h"

namespace urnforest {

/// The query order an ensemble of kind `kind` is halted in when the caller names none:
/// QueryOrder::kRandomPerRow for vote-boosting, QueryOrder::kGeneration for random forests,
/// bagging and AdaBoost. The one place that decides it (CLI predict, JS predict/trace, the
/// experiment harness); the argument is in docs/halting.md, "Query order".
QueryOrder DefaultQueryOrder(EnsembleKind kind);

/// DefaultQueryOrder of the forest's ensemble kind (forest.options().ensemble). A pruned forest
/// keeps its kind's order: generation order is then the pruning order.
QueryOrder DefaultQueryOrder(const Forest& forest);

}  // namespace urnforest
