#pragma once
// Private: the finite-T agreement probability of one tally when the row's votes are i.i.d. with
// known class probabilities p (a point of the vote simplex; the atoms of hyper's rate mixture).
//
// Random-forest trees are i.i.d. given the training data, so a row's T votes are i.i.d. draws from
// its infinite-ensemble vote distribution p ([HMS11] §2; [SSM16] §2 puts a prior on p). Given p the
// m votes to come are Multinomial(m, p), independent of the tally so far. Rival j catches the leader
// k (t_j + R_j >= t_k + R_k) with the probability computed here, for the union bound over rivals.
#include <cstdint>

namespace urnforest::internal {

/// Chernoff bound on P(t_j + R_j >= t_k + R_k), R ~ Multinomial(m, p) restricted to (p_k, p_j):
/// min over z >= 1 of z^-lead (p_j z + p_k / z + 1 - p_j - p_k)^m, in closed form. lead = t_k - t_j
/// >= 1, m >= 0; 0 when m < lead. Always >= the exact probability; O(1).
double MultinomialPairChernoff(double p_k, double p_j, int32_t lead, int32_t remaining);

/// The same probability exactly, O(m): S = R_k + R_j ~ Bin(m, p_k + p_j) and, given S = s, R_j ~
/// Bin(s, p_j / (p_k + p_j)), whose upper tail at ceil((s + lead) / 2) moves to s + 1 in O(1).
/// `log_factorial`: log n! for n = 0..m (borrowed), or null to compute it here.
double MultinomialPairLose(double p_k, double p_j, int32_t lead, int32_t remaining,
                           const double* log_factorial = nullptr);

}  // namespace urnforest::internal
