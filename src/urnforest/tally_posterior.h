#pragma once
// The urn model's posterior over the final tally of T votes given a partial tally [SSM16] §2:
// P(T | t) ∝ P(T) · prod_i C(T_i, t_i) over the final tallies T with T_i >= t_i.
#include <cstdint>
#include <vector>

#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest {

/// The final tallies a partial tally can still reach, with their posterior probabilities.
struct TallyPosterior {
  int32_t num_classes = 0;
  int32_t num_trees = 0;  ///< T: every final tally sums to it.
  /// Every final tally T with T_i >= t_i, in lexicographic order of (T_1, ..., T_l), flat
  /// row-major: tallies[k * num_classes + i] is class i's count in the k-th one.
  std::vector<int32_t> tallies;
  /// probability[k] = P(final tally k | t), summing to 1 (0 for tallies of zero prior mass).
  std::vector<double> probability;
  /// win[c] = P(class c is the strict winner of the final tally | t): the sum of probability over
  /// the final tallies whose StrictLeader (urnforest/vote.h) is c; num_classes entries summing to
  /// 1 minus the mass of tied final tallies.
  std::vector<double> win;
  /// StrictLeader of the partial tally t (-1 when tied): win[leader] is the rule's P* of t.
  int32_t leader = -1;
};

/// The posterior over final tallies of `num_trees` votes given the partial `tally` under `prior`
/// (FinalTallyMass; l <= 4). Probabilities are formed in log space and normalised. Fails with
/// kLimitExceeded (l > 4), kShapeMismatch (tally not of the prior's class count, or a histogram
/// prior of another T), kInvalidArgument (num_trees < 1, a negative count, more votes than
/// num_trees, or no reachable final tally with positive prior mass).
Result<TallyPosterior> FinalTallyPosterior(const Prior& prior, int32_t num_trees,
                                           const std::vector<int32_t>& tally);

/// The posterior mean of the final vote shares T_i / T given the partial `tally` t of n votes
/// under `prior` ([SSM16] §2): the T - n votes left are exchangeable given t, so
///   E[T_i | t] = t_i + (T - n) * pi_i(t),   share_i = E[T_i | t] / T,
/// with pi_i(t) = P(next vote = i | t) the prior's predictive probability. Dirichlet components
/// (uniform, 1dir, ndir, kernels): pi_i = sum_c w_c(t) (t_i + beta_ci) / (n + B_c), w_c(t) the
/// posterior component weights (prior weight times the Dirichlet sequence probability of t).
/// Histogram: the mean of T_i over FinalTallyPosterior (l <= 4). Tally mixture: point masses s
/// weighted by the probability of drawing t from s without replacement (their mean is s), plus the
/// uniform part as a Dirichlet(1). Any l for every kind but the histogram. With n = T the shares
/// are t / T. Writes l shares summing to 1 into `shares`. Fails with kShapeMismatch (tally not of
/// the prior's l, or a histogram / tally-mixture prior of another T), kInvalidArgument (negative
/// count, more than T votes, num_trees < 1, no prior mass reachable), kLimitExceeded (histogram,
/// l > 4).
Status PosteriorMeanShares(const Prior& prior, int32_t num_trees, const int32_t* tally,
                           double* shares);

}  // namespace urnforest
