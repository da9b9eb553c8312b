// Double pruning ([Sot11] ch. 3): halted prediction on the first k trees of an ordering.
#include "urnforest/double_pruning.h"

#include <algorithm>
#include <string>

#include "urnforest/alpha.h"
#include "urnforest/forest_halting.h"
#include "urnforest/ordering.h"
#include "urnforest/predict.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

constexpr const char* kOrderNames[] = {"ordered", "generation", "random"};

}  // namespace

const char* PrunedQueryOrderName(PrunedQueryOrder order) {
  const int32_t i = static_cast<int32_t>(order);
  return i >= 0 && i < 3 ? kOrderNames[i] : "unknown";
}

Result<PrunedQueryOrder> ParsePrunedQueryOrder(const std::string& name) {
  for (int32_t i = 0; i < 3; ++i) {
    if (name == kOrderNames[i]) return static_cast<PrunedQueryOrder>(i);
  }
  return Status::Error(StatusCode::kInvalidArgument,
                       "unknown query order '" + name + "' (expected ordered, generation or random)");
}

const std::vector<std::string>& PrunedQueryOrderNames() {
  static const std::vector<std::string> kNames(kOrderNames, kOrderNames + 3);
  return kNames;
}

Result<DoublePruningResult> PredictDoublePruned(const Forest& forest,
                                                const std::vector<int32_t>& order,
                                                const Dataset& data,
                                                const DoublePruningOptions& options) {
  const int32_t T = forest.num_trees();
  Status status = ValidateOrder(order, T);
  if (!status.ok()) return status;
  const int32_t keep = options.keep == 0 ? DefaultKeep(T) : options.keep;
  if (keep < 1 || keep > T) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "keep must be in 1.." + std::to_string(T) + ", got " + std::to_string(keep));
  }
  if (options.order != PrunedQueryOrder::kOrdered && options.order != PrunedQueryOrder::kGeneration &&
      options.order != PrunedQueryOrder::kRandomPerRow) {
    return Status::Error(StatusCode::kInvalidArgument, "unknown query order");
  }
  if (Status a = CheckAlpha(options.alpha); !a.ok()) return a;
  Result<std::vector<float>> rows = ModelRows(forest, data);
  if (!rows.ok()) return rows.status();
  Result<HaltingTable> table = BuildForestTable(forest, options.rule, options.alpha, keep);
  if (!table.ok()) return table.status();

  DoublePruningResult out;
  out.keep = keep;
  out.kept.assign(order.begin(), order.begin() + keep);
  if (options.order == PrunedQueryOrder::kGeneration) std::sort(out.kept.begin(), out.kept.end());
  const size_t n = data.num_rows();
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t l = static_cast<size_t>(forest.num_classes());
  const std::vector<double>& weights = forest.tree_weights();
  // votes[row * keep + j] = vote of tree kept[j]; the matrix columns are the query base order.
  std::vector<int32_t> votes(n * static_cast<size_t>(keep));
  out.pruned_vote.assign(n, 0);
  out.pruned_weighted_vote.assign(n, 0);
  std::vector<int32_t> count(l);
  std::vector<double> score(l);
  for (size_t r = 0; r < n; ++r) {
    const float* row = rows.value().data() + r * m;
    std::fill(count.begin(), count.end(), 0);
    std::fill(score.begin(), score.end(), 0.0);
    for (int32_t j = 0; j < keep; ++j) {
      const int32_t t = out.kept[j];
      const int32_t v = forest.TreeVote(t, row);
      votes[r * keep + j] = v;
      ++count[v];
      score[v] += weights.empty() ? 1.0 : weights[t];
    }
    out.pruned_vote[r] = Plurality(count);
    out.pruned_weighted_vote[r] = Plurality(score);
  }
  SequentialVoteOptions vote_options;
  vote_options.order = options.order == PrunedQueryOrder::kRandomPerRow ? QueryOrder::kRandomPerRow
                                                                        : QueryOrder::kGeneration;
  vote_options.seed = options.seed;
  Result<SequentialVoteResult> halted =
      PredictSequentialFromMatrix(table.value(), votes, n, keep, vote_options);
  if (!halted.ok()) return halted.status();
  out.halted = std::move(halted).value();
  size_t differ = 0;
  for (size_t r = 0; r < n; ++r) differ += out.halted.labels[r] != out.pruned_vote[r];
  out.disagreement = n == 0 ? 0.0 : static_cast<double>(differ) / static_cast<double>(n);
  out.mean_trees = out.halted.MeanTrees();
  return out;
}

}  // namespace urnforest
