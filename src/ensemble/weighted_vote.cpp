// The ensemble's own combiner: plurality for bagging and random forests, alpha-weighted for
// AdaBoost.
#include "urnforest/weighted_vote.h"

#include "urnforest/full_vote.h"
#include "urnforest/vote.h"

namespace urnforest {

Result<WeightedVote> PredictWeighted(const Forest& forest, const Dataset& data) {
  Result<std::vector<float>> rows = ModelRows(forest, data);
  if (!rows.ok()) return rows.status();
  const size_t n = data.num_rows();
  const size_t k = static_cast<size_t>(forest.num_classes());
  const size_t m = static_cast<size_t>(forest.num_features());
  const int32_t trees = forest.num_trees();
  const std::vector<double>& weights = forest.tree_weights();
  WeightedVote out;
  out.scores.assign(n * k, 0.0);
  out.labels.assign(n, 0);
  for (size_t r = 0; r < n; ++r) {
    const float* row = rows.value().data() + r * m;
    double* s = out.scores.data() + r * k;
    for (int32_t t = 0; t < trees; ++t) {
      s[forest.TreeVote(t, row)] += weights.empty() ? 1.0 : weights[t];
    }
    out.labels[r] = Plurality(s, k);
  }
  return out;
}

}  // namespace urnforest
