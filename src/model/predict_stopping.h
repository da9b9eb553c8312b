#pragma once
// The run of a two-class randomised stopping strategy (rule "lp", or "auto" when it certified the
// LP) on prepared rows: private to src/model (Predict in predict_answer.cpp calls it).
#include "urnforest/binary_stopping.h"
#include "urnforest/predict_request.h"

namespace urnforest {
namespace internal {

/// Runs `strategy` on every row of `rows` in the plan's query order (random per row from the
/// plan's seed, as table rules draw it, or generation order): per row, the set is `first` when a
/// draw of the row's own stream (seeded from the plan's seed and the row) is below first_share,
/// else `second`; trees are queried until the set stops at (i, j) and the answer is the set's
/// answer there. Writes labels, trees_used, confidence (plan alpha), halted_early, tallies and
/// mean_trees into `out`; with plan.compare also full_labels, full_votes and disagreement (the
/// reference of an imported model's soft vote: its own prediction). The forest must have two
/// classes and strategy.first.num_trees == forest trees (kInvalidArgument).
Status PredictStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                       const BinaryStoppingStrategy& strategy, Prediction* out);

}  // namespace internal
}  // namespace urnforest
