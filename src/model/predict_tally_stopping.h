#pragma once
// The run of a full-tally randomised stopping strategy (rule "lp" on three or more classes) on
// prepared rows: private to src/model (PredictLpPath in predict_answer.cpp calls it).
#include "urnforest/predict_request.h"
#include "urnforest/tally_stopping.h"

namespace urnforest {
namespace internal {

/// Runs `strategy` on every row of `rows` as PredictStopping (model/predict_stopping.h) runs a
/// two-class one: the same per-row query orders and the same per-row draw between `first` and
/// `second`; trees are queried until the set stops at the tally x and the answer is x's leader
/// (TallyLeader). Writes labels, trees_used, confidence (plan alpha), halted_early, tallies
/// (row-major, K per row) and mean_trees; with plan.compare also full_labels, full_votes and
/// disagreement. kInvalidArgument when the strategy's T or K differ from the forest's.
Status PredictTallyStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                            const TallyStoppingStrategy& strategy, Prediction* out);

}  // namespace internal
}  // namespace urnforest
