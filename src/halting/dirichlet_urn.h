#pragma once
// Private: the finite-T agreement probability of one partial tally under a Dirichlet prior, computed
// for that tally alone (no table over every tally), for any number of classes.
//
// Under a Dirichlet(beta) prior on the per-instance vote probabilities, the m = T - n votes still to
// come after a partial tally t are Dirichlet-multinomial DM(m; a) with a = beta + t ([SSM16] §2; the
// urn's exchangeability). Class k (the strict leader of t) is the full vote's strict winner iff
// t_k + R_k > t_j + R_j for every j != k; a final tie is a disagreement, as in the tables.
//
// * DirichletLoseExact: 1 - P* exactly. DM(m; a) is the law of independent negative binomials
//   NB(a_j, q) conditioned on their sum being m (any q in (0, 1)), so
//   P* = sum_{r_k} NB_k(r_k) [x^{m - r_k}] prod_{j != k} sum_{r <= t_k + r_k - t_j - 1} NB_j(r) x^r
//        / NB(A, q)(m),  A = sum a.
//   With q = m / (m + A) every factor is a probability (no overflow). Cost ~ (l - 1) m^3 / 6.
// * DirichletPairLose: P(t_j + R_j >= t_k + R_k) for one rival j, exactly, in O(m): by the
//   aggregation property (R_k, R_j, rest) is DM(m; a_k, a_j, A - a_k - a_j); given S = R_k + R_j = s,
//   R_j is the count of j after s draws of a two-colour Polya urn (a_j, a_k), whose upper tail
//   moves to s + 1 in O(1). The union bound 1 - P* <= sum_j DirichletPairLose is exact for l = 2.
// * DirichletPairLoseApprox: a normal approximation of the same probability (continuity-corrected,
//   DM moments) used only to skip states that are far from halting (never to halt).
#include <cstdint>
#include <vector>

namespace urnforest::internal {

/// Work (multiply-adds) of DirichletLoseExact for l classes and m votes to come.
double DirichletExactCost(int32_t num_classes, int32_t remaining);

/// 1 - P*(t) for leader k under DM(m; a): a[0..l-1] = beta + t (all > 0), t[0..l-1] the partial
/// tally with t[k] the strict maximum, m >= 0 votes to come. NaN when the scaled probabilities
/// underflow (the caller then falls back to the union bound).
double DirichletLoseExact(const double* a, const int32_t* t, int32_t num_classes, int32_t k,
                          int32_t remaining);

/// P(t_j + R_j >= t_k + R_k) with (R_k, R_j, R_rest) ~ DM(m; a_k, a_j, a_rest): a_k, a_j > 0,
/// a_rest >= 0 (0: no other class), lead = t_k - t_j >= 1, m >= 0. Clamped to [0, 1].
double DirichletPairLose(double a_k, double a_j, double a_rest, int32_t lead, int32_t remaining);

/// Normal approximation of DirichletPairLose (for screening only; not a bound).
double DirichletPairLoseApprox(double a_k, double a_j, double a_rest, int32_t lead,
                               int32_t remaining);

/// log (x)^(n rising) = log Gamma(x + n) - log Gamma(x), x > 0, n >= 0.
double LogRising(double x, int32_t n);

/// log of the probability of one particular sequence of votes with counts t[0..l-1] under a
/// Dirichlet(beta) prior: sum_j log (beta_j)^(t_j) - log (B)^(n), rising factorials, B = sum beta.
double DirichletSequenceLogProb(const double* beta, const int32_t* t, int32_t num_classes);

}  // namespace urnforest::internal
