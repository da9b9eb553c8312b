// PredictStopping: a two-class randomised stopping strategy run on prepared rows
// (src/model/predict_stopping.h).
#include "model/predict_stopping.h"

#include <utility>
#include <vector>

#include "base/random.h"
#include "urnforest/predict_scores.h"

namespace urnforest {
namespace internal {
namespace {

// Scrambles the seed of the per-row choice between a strategy's two sets, so that this stream is
// not the stream of the row's query order.
constexpr uint64_t kMixingStream = 0x5851F42D4C957F2DULL;

}  // namespace

Result<HaltingTable> StoppingOrderTable(int32_t num_trees) {
  HaltingTableOptions lead;
  lead.rule = HaltingRule::kAlpha1;
  lead.num_trees = num_trees;
  lead.num_classes = 2;
  return BuildHaltingTable(lead);
}

bool DrawsFirstSet(const PredictPlan& plan, size_t r, double first_share) {
  DetRng mixing = DetRng::ForItem(plan.order.seed ^ kMixingStream, plan.order.first_row + r);
  return mixing.Uniform() < first_share;
}

Status CompareStoppedWithFull(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                              Prediction* out) {
  if (!plan.compare) return Status::Ok();
  const size_t n = rows.num_rows;
  const bool soft = forest.imported() != nullptr && plan.vote == VoteKind::kSoft;
  Result<ScorePrediction> full = PredictScoresRows(forest, rows.values.data(), n, soft ? VoteKind::kSoft : VoteKind::kHard);
  if (!full.ok()) return full.status();
  out->full_labels = std::move(full.value().labels);
  out->full_votes = std::move(full.value().votes);
  size_t differ = 0;
  for (size_t r = 0; r < n; ++r) differ += out->labels[r] != out->full_labels[r] ? 1 : 0;
  out->disagreement = n == 0 ? 0.0 : static_cast<double>(differ) / static_cast<double>(n);
  return Status::Ok();
}

namespace {

// Runs, per row r, the randomised strategy strategy_of(r) (two sets of T trees) in the plan's
// query order; the per-row choice between its sets is DrawsFirstSet's.
template <typename StrategyOf>
Status RunStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan, StrategyOf&& strategy_of,
                   Prediction* out) {
  const int32_t T = forest.num_trees();
  Result<HaltingTable> table = StoppingOrderTable(T);
  if (!table.ok()) return table.status();
  const size_t n = rows.num_rows;
  const size_t m = static_cast<size_t>(forest.num_features());
  out->labels.assign(n, 0);
  out->trees_used.assign(n, 0);
  out->confidence.assign(n, plan.alpha);
  out->halted_early.assign(n, 0);
  out->tallies.assign(n * 2, 0);
  double total = 0.0;
  for (size_t r = 0; r < n; ++r) {
    Result<std::vector<int32_t>> order = QueryOrderForRow(table.value(), plan.order.first_row + r, plan.order);
    if (!order.ok()) return order.status();
    const float* row = rows.values.data() + r * m;
    const BinaryStoppingStrategy& strategy = strategy_of(row);
    const BinaryStoppingSet& set = DrawsFirstSet(plan, r, strategy.first_share) ? strategy.first : strategy.second;
    int32_t i = 0, j = 0;
    while (i < T && set.stop[static_cast<size_t>(BinaryStoppingSet::Rank(i, j))] == 0) {
      j += forest.TreeVote(order.value()[static_cast<size_t>(i)], row) == 1 ? 1 : 0;
      ++i;
    }
    out->labels[r] = set.answer[static_cast<size_t>(BinaryStoppingSet::Rank(i, j))];
    out->trees_used[r] = i;
    out->halted_early[r] = i < T ? 1 : 0;
    out->tallies[2 * r] = i - j;
    out->tallies[2 * r + 1] = j;
    total += i;
  }
  out->mean_trees = n == 0 ? 0.0 : total / static_cast<double>(n);
  return CompareStoppedWithFull(forest, rows, plan, out);
}

bool Fits(const BinaryStoppingStrategy& s, int32_t T) { return s.first.num_trees == T && s.second.num_trees == T; }

}  // namespace

Status PredictStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                       const BinaryStoppingStrategy& strategy, Prediction* out) {
  if (forest.num_classes() != 2 || !Fits(strategy, forest.num_trees())) {
    return Status::Error(StatusCode::kInvalidArgument, "the stopping strategy does not fit this two-class forest");
  }
  return RunStopping(forest, rows, plan, [&](const float*) -> const BinaryStoppingStrategy& { return strategy; }, out);
}

Status PredictStratifiedStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                                 const StratifiedModel& model, Prediction* out) {
  bool fits = forest.num_classes() == 2 && model.calibration.surrogate.num_features == forest.num_features() &&
              !model.strategy.buckets.empty() &&
              model.strategy.buckets.size() == model.calibration.cuts.size() + 1;
  for (const BinaryStoppingStrategy& s : model.strategy.buckets) fits = fits && Fits(s, forest.num_trees());
  if (!fits) {
    return Status::Error(StatusCode::kInvalidArgument, "the stratified strategy does not fit this two-class forest");
  }
  return RunStopping(
      forest, rows, plan,
      [&](const float* row) -> const BinaryStoppingStrategy& { return model.strategy.buckets[model.BucketOfRow(row)]; },
      out);
}

}  // namespace internal
}  // namespace urnforest
