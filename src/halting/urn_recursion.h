#pragma once
// Private: backward recursion over vote tallies (our derivation; it reproduces [Sot11] Eq. 2.38).
// For a prior over the votes of one instance, every quantity of the form
// F(t) = sum_j pi_j(t) F(t + e_j) with a boundary at sum t = T is computed level by level from T
// down to 0, keeping two levels in memory.
#include <cstdint>
#include <functional>

#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest::internal {

/// Fills value[0..width-1] at a final tally t (sum t = T).
using TerminalFn = std::function<void(const int32_t* t, double* value)>;
/// Called for every state, levels T, T-1, ..., 0. At level n < T, value[w] already holds
/// sum_j pi[j] * value_w(t + e_j); the callback may overwrite it (e.g. optimal stopping).
/// pi is null at n = T. `ok` is false where the predictive is undefined (zero prior mass); value
/// then holds zeros and should be treated as "unknown".
using VisitFn =
    std::function<void(int32_t n, const int32_t* t, const double* pi, bool ok, double* value)>;

/// Called after each level n (T, T-1, ..., 0) is done; returning false stops the sweep.
using LevelFn = std::function<bool(int32_t n)>;

/// Runs the recursion for `prior` over l = prior.num_classes() classes and T votes.
/// l <= 4 (kLimitExceeded). A histogram prior must have num_trees() == T (kShapeMismatch).
/// `level_done` (may be empty) returning false stops it with kInvalidArgument "cancelled".
Status BackwardSweep(const Prior& prior, int32_t T, int32_t width, const TerminalFn& terminal,
                     const VisitFn& visit, const LevelFn& level_done = LevelFn());

}  // namespace urnforest::internal
