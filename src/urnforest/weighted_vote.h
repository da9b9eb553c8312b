#pragma once
// The ensemble's own combiner: plurality vote for bagging and random forests, the alpha-weighted
// vote for AdaBoost (Forest::tree_weights). PredictFull always counts votes unweighted.
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Weighted vote of every row.
struct WeightedVote {
  /// rows x classes, row-major: scores[r * num_classes + c] = sum of the weights of the trees
  /// voting c (weight 1 per tree for unweighted forests, so scores are then vote counts). Summed
  /// in tree order in double, so identical natively and in wasm.
  std::vector<double> scores;
  std::vector<int32_t> labels;  ///< argmax of the scores; ties go to the lowest class index.
};

/// The ensemble's prediction for every row of `data` (columns as for PredictFull:
/// kColumnMismatch; kInvalidArgument for a forest without trees).
Result<WeightedVote> PredictWeighted(const Forest& forest, const Dataset& data);

}  // namespace urnforest
