#pragma once
// Scores and soft votes: the prediction a forest's source library makes (the summed class
// distributions of a scikit-learn forest, the transformed margins of XGBoost) for imported
// forests, vote fractions for forests trained here, and the exact early exit that stops querying
// trees once the remaining ones cannot change that prediction.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/imported_model.h"
#include "urnforest/status.h"

namespace urnforest {

class Forest;

/// The full prediction of every row, with its per-class scores.
struct ScorePrediction {
  std::vector<int32_t> labels;  ///< Per row: the predicted class index.
  /// rows x classes, row-major. Soft vote of an imported forest: the scores ONNX Runtime returns
  /// (summed leaf values plus base values, after the model's transform; for scikit-learn and
  /// XGBoost models these are predict_proba). Hard vote: each class's fraction of the votes.
  std::vector<double> scores;
  /// rows x classes: each row's hard votes (trees whose leaf's top class is c), counted in the
  /// same walk. Empty for additive models, whose trees do not vote.
  std::vector<uint32_t> votes;
};

/// Full prediction of `num_rows` rows in the forest's layout (ModelRows; borrowed) with `vote`:
/// kHard counts the trees' votes (ties to the lowest class), kSoft is the source's own prediction
/// of an imported forest (largest score, ties to the lowest class; for a binary model stored with
/// one score, ONNX Runtime's threshold). A forest trained here has one class per leaf, so its soft
/// vote is its hard vote. kInvalidArgument for a forest without trees, or kSoft on an additive
/// model asked for kHard (its trees do not vote).
Result<ScorePrediction> PredictScoresRows(const Forest& forest, const float* rows,
                                          size_t num_rows, VoteKind vote);

/// The exact early exit for the soft prediction of an imported forest: trees are queried in
/// generation order and a row stops once the smallest and largest values the remaining trees'
/// leaves hold (per class, computed once per forest) cannot change the predicted class. The label
/// always equals PredictScoresRows(kSoft)'s.
struct ExactHaltResult {
  std::vector<int32_t> labels;      ///< Per row: the predicted class index.
  std::vector<int32_t> trees_used;  ///< Per row: trees queried (1..T).
  double mean_trees = 0.0;          ///< Mean of trees_used (0 for no rows).
};

/// ExactHaltResult for `num_rows` rows in the forest's layout (borrowed). kInvalidArgument for a
/// forest that was not imported (use the alpha1 halting rule: it is the same exit for votes).
Result<ExactHaltResult> PredictSoftExact(const Forest& forest, const float* rows, size_t num_rows);

}  // namespace urnforest
