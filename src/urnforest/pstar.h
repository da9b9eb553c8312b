#pragma once
// Agreement probabilities for one partial tally, computed directly (not from a table): the
// reference the tables are tested against, and the CLI's `pstar` command.
#include <cstdint>
#include <vector>

#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest {

/// P*(t, T) by direct summation over the final tallies T >= t (thesis Eq. 2.38 for the uniform
/// prior, Eq. 4.8 for a Dirichlet, Eq. 4.13 for a mixture, Eq. 4.15 for a histogram): the posterior
/// probability that the strict leader of `tally` is the strict winner of all `num_trees` votes
/// (a final tie is a disagreement). Returns 0 when `tally` has no strict leader, and NaN when the
/// posterior is undefined (histogram with no mass compatible with `tally`). l <= 4. Fails with
/// kInvalidArgument / kShapeMismatch / kLimitExceeded.
Result<double> PStarBySum(const Prior& prior, int32_t num_trees, const std::vector<int32_t>& tally);

/// Infinite ensemble, two classes ([HMS11] Eq. 7): P(p_a > p_b | a votes, b votes) under the
/// uniform prior = I_{1/2}(b + 1, a + 1) = P(Bin(a + b + 1, 1/2) <= a). a, b >= 0.
double InfinitePairProbability(int32_t a, int32_t b);

/// [HMS11] Eq. 8: L(y_i | t) = prod_{j != i} P(p_i > p_j | t), a lower bound on the probability
/// that class i is the infinite ensemble's prediction (exact for l = 2). tally.size() >= 2.
double InfiniteLowerBound(const std::vector<int32_t>& tally, int32_t i);

/// Exact P(infinite ensemble predicts i | t) for any l, by the one-dimensional integral of note
/// A.1.5 (Gamma representation of the Dirichlet), composite Simpson with 40,000 panels
/// (absolute error < 1e-9 for counts up to a few hundred).
double InfiniteExactProbability(const std::vector<int32_t>& tally, int32_t i);

/// Binary t*(t; pi) for t = 1..max_t (entry t - 1): the least majority count m with
/// m > t - m and InfinitePairProbability(m, t - m) > pi; 0 when no count halts at t.
std::vector<int32_t> InfiniteTStar(int32_t max_t, double pi);

}  // namespace urnforest
