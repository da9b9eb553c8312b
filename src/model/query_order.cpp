// The query-order policy: random order for sequentially grown ensembles that need it.
#include "urnforest/query_order.h"

namespace urnforest {

QueryOrder DefaultQueryOrder(EnsembleKind kind) {
  // Random forest and bagging trees are i.i.d. given the data: generation order is already a
  // uniformly random order. AdaBoost keeps its generation order (the thesis's IB-SEQ, measured
  // better than a per-row permutation); vote-boosting has no such measurement and is exchangeable
  // only in a random order. docs/halting.md, "Query order".
  return kind == EnsembleKind::kVoteBoost ? QueryOrder::kRandomPerRow : QueryOrder::kGeneration;
}

QueryOrder DefaultQueryOrder(const Forest& forest) {
  return DefaultQueryOrder(forest.options().ensemble);
}

}  // namespace urnforest
