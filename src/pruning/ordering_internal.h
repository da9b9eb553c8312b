#pragma once
// Private: the individual ordering algorithms behind OrderTrees (pruning/ordering.cpp dispatches).
// Each returns a permutation of 0..T-1; the matrix is valid and has at least one row.
#include <cstdint>
#include <vector>

#include "urnforest/ordering.h"
#include "urnforest/vote_matrix.h"

namespace urnforest {
namespace internal {

std::vector<int32_t> OrderReduceError(const VoteMatrix& m, int32_t backfit_passes);
std::vector<int32_t> OrderComplementarity(const VoteMatrix& m);
std::vector<int32_t> OrderKappa(const VoteMatrix& m);

/// OrderForest with OrderingSource::kOutOfBag (pruning/ordering_oob.cpp).
Result<std::vector<int32_t>> OrderForestOutOfBag(const Forest& forest, const Dataset& data,
                                                 const OrderingOptions& options);

/// Tree with the fewest wrong rows (ties: lowest index).
int32_t LowestErrorTree(const VoteMatrix& m);

/// The greedy loop of ordered aggregation ([Sot11] ch. 2): T steps, each appending one not yet
/// selected tree. Step 0 takes `first` when it is >= 0; otherwise (and at every later step)
/// `prepare()` runs once, then every unselected tree k (in increasing index) is scored with
/// `score(k)`, and the first one whose score is `better(a, b)` than every earlier candidate's wins
/// (ties: the lowest index). `selected(tree, its score, &order, &used)` then updates the caller's
/// state; it may revise the selected prefix (back-fitting) as long as `order` and `used` stay
/// consistent. The score of a `first` pick is value-initialised. Returns a permutation of 0..T-1.
template <class Prepare, class Score, class Better, class Selected>
std::vector<int32_t> GreedyOrder(int32_t T, int32_t first, Prepare prepare, Score score,
                                 Better better, Selected selected) {
  using ScoreT = decltype(score(int32_t{0}));
  std::vector<char> used(T, 0);
  std::vector<int32_t> order;
  order.reserve(T);
  for (int32_t u = 0; u < T; ++u) {
    int32_t best = -1;
    ScoreT best_score{};
    if (u == 0 && first >= 0) {
      best = first;
    } else {
      prepare();
      for (int32_t k = 0; k < T; ++k) {
        if (used[k]) continue;
        const ScoreT s = score(k);
        if (best < 0 || better(s, best_score)) {
          best = k;
          best_score = s;
        }
      }
    }
    used[best] = 1;
    order.push_back(best);
    selected(best, best_score, &order, &used);
  }
  return order;
}

}  // namespace internal
}  // namespace urnforest
