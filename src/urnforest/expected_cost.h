#pragma once
// Exact and Monte Carlo predictions of the cost (trees queried) and the disagreement with the full
// vote of a halting table, for one final tally or averaged over a prior (backward recursion over
// tallies; [Sot11] has no such estimate, [SSM16] §3 estimates it by Monte Carlo).
#include <cstdint>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest {

/// Cost of sequential voting with a table when the query order is a uniformly random permutation.
struct CostEstimate {
  double expected_trees = 0.0;  ///< E[trees queried].
  /// P(sequential label != full-vote label); the full vote breaks ties by the lowest class index.
  double disagreement = 0.0;
  /// stop_probability[t] = P(stop after exactly t votes), t = 0..T (entry 0 is 0). Exact
  /// estimates only; empty for Monte Carlo.
  std::vector<double> stop_probability;
  int64_t samples = 0;  ///< Monte Carlo draws (0 for exact).
};

/// Exact DP over partial tallies t <= final_tally with hypergeometric transitions
/// P(t -> t + e_j) = (F_j - t_j) / (T - t). final_tally has table.num_classes() counts summing to
/// table.num_trees(). Fails with kShapeMismatch, or kLimitExceeded beyond 5e7 states (2e5 for an
/// on-demand table, which decides each new tally when asked).
Result<CostEstimate> ExactCostForFinalTally(const HaltingTable& table,
                                            const std::vector<int32_t>& final_tally);

/// Exact average of ExactCostForFinalTally over the prior's final-tally masses (l <= 4;
/// kLimitExceeded when the total work exceeds 4e8 states, 2e5 for an on-demand table: use
/// MonteCarloCost).
Result<CostEstimate> ExactCostOverPrior(const HaltingTable& table, const Prior& prior);

/// Same quantities as ExactCostOverPrior (expected_trees and disagreement; stop_probability is
/// left empty), computed by one backward recursion over the partial tallies t with the prior's
/// predictive probabilities instead of one DP per final tally: O(l * C(T + l, l)) work, e.g. 0.2 M
/// states for l = 3 and 4.6 M for l = 4 at T = 101, where ExactCostOverPrior needs ~1e8 and
/// ~2.5e10. The value at t is E[trees | t] (the sum of t if the table halts there, else the
/// predictive average over t + e_j) and the disagreement is 1 - P(leader of t is the full-vote
/// label | t) at halting states (full-vote ties: lowest class index). l <= 4 and C(T + l, l) <= 6e7
/// (2e5 with an on-demand table), else kLimitExceeded; a histogram prior needs num_trees() ==
/// table.num_trees() (kShapeMismatch).
Result<CostEstimate> ExactCostByRecursion(const HaltingTable& table, const Prior& prior);

/// ExactCostByRecursion for several tables of the same classes and T in one sweep (the predictive
/// probabilities and P(final label | t) are shared); out[k] equals ExactCostByRecursion(*tables[k],
/// prior) bit for bit. Empty input gives an empty result; tables that differ in classes or T fail
/// with kShapeMismatch. Tables are borrowed for the call.
Result<std::vector<CostEstimate>> ExactCostsByRecursion(const std::vector<const HaltingTable*>& tables,
                                                        const Prior& prior);

/// Monte Carlo as in [SSM16] §3 (Table 2, "MC Estim"): draw a final tally from the prior (from its
/// exact masses while FinalTallyMass has them; else as the mixture it is: a component by weight,
/// then a Polya urn of T draws or the point mass), query a random permutation of its votes until
/// the table halts. Deterministic for a seed. samples >= 1; a histogram prior too large to list
/// fails with kLimitExceeded.
Result<CostEstimate> MonteCarloCost(const HaltingTable& table, const Prior& prior, int64_t samples,
                                    uint64_t seed = 1);

/// Monte Carlo over an empirical set of final tallies (e.g. RescaledOobTallies): each draw takes
/// a tally uniformly from `tallies` (tallies.size() / l of them, each summing to table.num_trees())
/// and queries a random permutation of its votes. Non-parametric and valid for any number of
/// classes: the CLI and the experiment harness use it to predict the cost for l > 4, where the
/// histogram prior is not available. Fails with kShapeMismatch on bad sizes or sums.
Result<CostEstimate> MonteCarloCostOverTallies(const HaltingTable& table,
                                               const std::vector<int32_t>& tallies,
                                               int64_t samples, uint64_t seed = 1);

/// Monte Carlo for one final tally (random permutations of its votes).
Result<CostEstimate> MonteCarloCostForFinalTally(const HaltingTable& table,
                                                 const std::vector<int32_t>& final_tally,
                                                 int64_t samples, uint64_t seed = 1);

}  // namespace urnforest
