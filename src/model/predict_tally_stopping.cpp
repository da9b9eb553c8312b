// PredictTallyStopping: a full-tally randomised stopping strategy run on prepared rows
// (src/model/predict_tally_stopping.h).
#include "model/predict_tally_stopping.h"

#include <algorithm>
#include <vector>

#include "model/predict_stopping.h"

namespace urnforest {
namespace internal {

Status PredictTallyStopping(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                            const TallyStoppingStrategy& strategy, Prediction* out) {
  const int32_t T = forest.num_trees(), K = forest.num_classes();
  if (strategy.first.num_trees != T || strategy.second.num_trees != T || strategy.first.num_classes != K ||
      strategy.second.num_classes != K) {
    return Status::Error(StatusCode::kInvalidArgument, "the stopping strategy does not fit this forest");
  }
  Result<TallyLattice> lattice = TallyLattice::Make(T, K);
  if (!lattice.ok()) return lattice.status();
  Result<HaltingTable> table = StoppingOrderTable(T);
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
    const TallyStoppingSet& set = DrawsFirstSet(plan, r, strategy.first_share) ? strategy.first : strategy.second;
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
  return CompareStoppedWithFull(forest, rows, plan, out);
}

}  // namespace internal
}  // namespace urnforest
