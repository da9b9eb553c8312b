#pragma once
// Internal: the trainer's tree-pruning options as the tree layer's cost-complexity parameters.
#include "tree/cost_complexity_pruning.h"
#include "urnforest/forest.h"

namespace urnforest {
namespace internal {

/// CostComplexityParams of `pruning`: enabled unless the mode is TreePruning::kNone.
inline CostComplexityParams CostComplexityOf(const TreePruningOptions& pruning) {
  CostComplexityParams params;
  params.enabled = pruning.mode != TreePruning::kNone;
  params.cv_folds = pruning.cv_folds;
  params.se_rule = pruning.se_rule;
  return params;
}

}  // namespace internal
}  // namespace urnforest
