#pragma once
// The run of a two-class randomised stopping strategy (rule "lp", or "auto" when it certified the
// LP) on prepared rows: private to src/model (Predict in predict_answer.cpp calls it).
#include <cstddef>

#include "urnforest/binary_stopping.h"
#include "urnforest/halting_table.h"
#include "urnforest/predict_request.h"
#include "urnforest/stratified_stopping.h"

namespace urnforest {
namespace internal {

/// The table whose QueryOrderForRow draws a stopping strategy's per-row query orders: the same
/// permutations as table rules draw (only its T is read). Fails like BuildHaltingTable.
Result<HaltingTable> StoppingOrderTable(int32_t num_trees);

/// True when row `r` of the call (row plan.order.first_row + r of the batch) runs a randomised
/// strategy's first set: a draw of the row's own stream, seeded from the plan's seed scrambled so
/// that it is not the stream of the row's query order, below first_share. One stream for every
/// number of classes, so a row draws the same way whatever the strategy.
bool DrawsFirstSet(const PredictPlan& plan, size_t r, double first_share);

/// With plan.compare: the full prediction of `rows` (an imported model's soft vote when the plan
/// asks for it, else the hard vote) into out->full_labels and out->full_votes, and the share of
/// out->labels that differ from it into out->disagreement. Without compare: nothing.
Status CompareStoppedWithFull(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                              Prediction* out);

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

/// PredictStopping with the strategy of each row's surrogate bucket (rule "stratified"): the
/// bucket of row r is model.BucketOfRow on its prepared values; the draw between the bucket's two
/// sets and the query order are PredictStopping's. kInvalidArgument when the model does not fit
/// the forest (classes, features, trees).
Status PredictStratifiedStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                                 const StratifiedModel& model, Prediction* out);

}  // namespace internal
}  // namespace urnforest
