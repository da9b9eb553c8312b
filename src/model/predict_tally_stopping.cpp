// PredictTallyStopping: a full-tally randomised stopping strategy run on prepared rows
// (src/model/predict_tally_stopping.h).
#include "model/predict_tally_stopping.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/random.h"
#include "urnforest/predict_scores.h"

namespace urnforest {
namespace internal {
namespace {

// The stream of the per-row choice between the two sets: the same as PredictStopping's, so a
// row draws the same way whatever the number of classes.
constexpr uint64_t kMixingStream = 0x5851F42D4C957F2DULL;

}  // namespace

Status PredictTallyStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                            const TallyStoppingStrategy& strategy, Prediction* out) {
  const int32_t T = forest.num_trees(), K = forest.num_classes();
  if (strategy.first.num_trees != T || strategy.second.num_trees != T || strategy.first.num_classes != K ||
      strategy.second.num_classes != K) {
    return Status::Error(StatusCode::kInvalidArgument, "the stopping strategy does not fit this forest");
  }
  Result<TallyLattice> lattice = TallyLattice::Make(T, K);
  if (!lattice.ok()) return lattice.status();
  // The same per-row permutations as table rules draw: QueryOrderForRow reads only T of the table.
  HaltingTableOptions lead;
  lead.rule = HaltingRule::kAlpha1;
  lead.num_trees = T;
  lead.num_classes = 2;
  Result<HaltingTable> table = BuildHaltingTable(lead);
  if (!table.ok()) return table.status();
  const size_t n = rows.num_rows;
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(K);
  out->labels.assign(n, 0);
  out->trees_used.assign(n, 0);
  out->confidence.assign(n, plan.alpha);
  out->halted_early.assign(n, 0);
  out->tallies.assign(n * k, 0);
  std::vector<int32_t> x(k);
  double total = 0.0;
  for (size_t r = 0; r < n; ++r) {
    Result<std::vector<int32_t>> order = QueryOrderForRow(table.value(), plan.order.first_row + r, plan.order);
    if (!order.ok()) return order.status();
    DetRng mixing = DetRng::ForItem(plan.order.seed ^ kMixingStream, plan.order.first_row + r);
    const TallyStoppingSet& set = mixing.Uniform() < strategy.first_share ? strategy.first : strategy.second;
    const float* row = rows.values.data() + r * m;
    std::fill(x.begin(), x.end(), 0);
    int32_t i = 0;
    while (i < T && set.stop[static_cast<size_t>(lattice.value().Index(x.data(), i))] == 0) {
      x[static_cast<size_t>(forest.TreeVote(order.value()[static_cast<size_t>(i)], row))] += 1;
      ++i;
    }
    out->labels[r] = TallyLeader(x.data(), K);
    out->trees_used[r] = i;
    out->halted_early[r] = i < T ? 1 : 0;
    for (size_t c = 0; c < k; ++c) out->tallies[r * k + c] = x[c];
    total += i;
  }
  out->mean_trees = n == 0 ? 0.0 : total / static_cast<double>(n);
  if (!plan.compare) return Status::Ok();
  const bool soft = forest.imported() != nullptr && plan.vote == VoteKind::kSoft;
  Result<ScorePrediction> full =
      PredictScoresRows(forest, rows.values.data(), n, soft ? VoteKind::kSoft : VoteKind::kHard);
  if (!full.ok()) return full.status();
  out->full_labels = std::move(full.value().labels);
  out->full_votes = std::move(full.value().votes);
  size_t differ = 0;
  for (size_t r = 0; r < n; ++r) differ += out->labels[r] != out->full_labels[r] ? 1 : 0;
  out->disagreement = n == 0 ? 0.0 : static_cast<double>(differ) / static_cast<double>(n);
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
