// Which votes an ordering sees: out-of-bag ordering (each tree scored on the training rows its
// bootstrap sample left out) and the warning for ordering unpruned trees on their own training data.
#include <algorithm>
#include <string>
#include <vector>

#include "base/random.h"
#include "ensemble/bootstrap.h"
#include "pruning/ordering_internal.h"
#include "urnforest/ordering.h"

namespace urnforest {
namespace {

constexpr const char* kSourceNames[] = {"data", "oob"};

bool IsExactTrainingData(const Forest& forest, const Dataset& data) {
  return data.num_rows() == forest.train_labels().size() && data.labels() == forest.train_labels();
}

}  // namespace

const char* OrderingSourceName(OrderingSource source) {
  const int32_t i = static_cast<int32_t>(source);
  return i == 0 || i == 1 ? kSourceNames[i] : "unknown";
}

Result<OrderingSource> ParseOrderingSource(const std::string& name) {
  if (name == "data") return OrderingSource::kData;
  if (name == "oob") return OrderingSource::kOutOfBag;
  return Status::Error(StatusCode::kInvalidArgument,
                       "unknown ordering source '" + name + "' (expected data or oob)");
}

Result<std::vector<int32_t>> OrderBoostingOutOfBag(const VoteMatrix& m,
                                                   const std::vector<uint8_t>& in_bag) {
  const int32_t T = m.num_trees;
  const size_t N = m.num_rows;
  if (in_bag.size() != static_cast<size_t>(T) * N) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "in-bag mask must have trees x rows = " +
                             std::to_string(static_cast<size_t>(T) * N) + " entries, got " +
                             std::to_string(in_bag.size()));
  }
  if (N == 0) return Status::Error(StatusCode::kInvalidArgument, "no rows");
  std::vector<double> w(N, 1.0 / static_cast<double>(N));
  auto out_of_bag = [&](int32_t t, size_t r) { return in_bag[static_cast<size_t>(t) * N + r] == 0; };
  return internal::GreedyOrder(
      T, -1, [] {},
      [&](int32_t k) {
        double wrong = 0.0, total = 0.0;
        for (size_t r = 0; r < N; ++r) {
          if (!out_of_bag(k, r)) continue;
          total += w[r];
          if (!m.Correct(k, r)) wrong += w[r];
        }
        return total > 0.0 ? wrong / total : 1.0;
      },
      [](double a, double b) { return a < b; },
      [&](int32_t best, double eps, std::vector<int32_t>*, std::vector<char>*) {
        if (eps <= 0.0 || eps >= 0.5) {
          std::fill(w.begin(), w.end(), 1.0 / static_cast<double>(N));
          return;
        }
        const double wrong_scale = 1.0 / (2.0 * eps);
        const double right_scale = 1.0 / (2.0 * (1.0 - eps));
        for (size_t r = 0; r < N; ++r) {
          if (out_of_bag(best, r)) w[r] *= m.Correct(best, r) ? right_scale : wrong_scale;
        }
      });
}

namespace internal {

Result<std::vector<int32_t>> OrderForestOutOfBag(const Forest& forest, const Dataset& data,
                                                 const OrderingOptions& options) {
  const EnsembleKind kind = forest.options().ensemble;
  if (forest.imported() != nullptr ||
      (kind != EnsembleKind::kRandomForest && kind != EnsembleKind::kBagging)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "ordering on out-of-bag votes needs a random forest or bagging model "
                         "trained here (its bootstrap samples are replayed from the seed)");
  }
  if (options.ordering != Ordering::kEarly && options.ordering != Ordering::kBoosting) {
    return Status::Error(StatusCode::kInvalidArgument,
                         std::string("ordering on out-of-bag votes is implemented for early and "
                                     "boosting, not ") + OrderingName(options.ordering));
  }
  if (!IsExactTrainingData(forest, data)) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "ordering on out-of-bag votes needs the exact training data (" +
                             std::to_string(forest.train_labels().size()) +
                             " labelled rows as trained)");
  }
  Result<VoteMatrix> matrix = ComputeVoteMatrix(forest, data);
  if (!matrix.ok()) return matrix.status();
  const int32_t T = forest.num_trees();
  if (options.ordering == Ordering::kEarly) return OrderTrees(matrix.value(), options);
  const uint32_t n = static_cast<uint32_t>(data.num_rows());
  std::vector<uint8_t> in_bag(static_cast<size_t>(T) * n);
  std::vector<uint32_t> weights(n);
  for (int32_t t = 0; t < T; ++t) {
    Rng rng = Rng::ForStream(forest.options().seed, forest.SourceTree(t));
    DrawBootstrap(&rng, n, weights.data());
    for (uint32_t r = 0; r < n; ++r) in_bag[static_cast<size_t>(t) * n + r] = weights[r] != 0;
  }
  return OrderBoostingOutOfBag(matrix.value(), in_bag);
}

}  // namespace internal

std::vector<std::string> OrderingWarnings(const Forest& forest, const Dataset& data,
                                          const OrderingOptions& options) {
  std::vector<std::string> warnings;
  if (options.on == OrderingSource::kData && options.ordering != Ordering::kEarly &&
      forest.imported() == nullptr && GrownToPurity(forest.options()) &&
      IsExactTrainingData(forest, data)) {
    warnings.push_back(
        "ordering unpruned trees on their own training data: every tree is right on its in-bag "
        "rows (about 63 % of them), so the training votes hardly tell the trees apart and the "
        "ordered subensemble is chosen on noise; train the trees pruned by cost-complexity "
        "(tree pruning 'cv', as the papers' bagging), or order on out-of-bag votes ('oob') or on "
        "held-out data");
  }
  return warnings;
}

}  // namespace urnforest
