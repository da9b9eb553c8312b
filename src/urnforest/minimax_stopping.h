#pragma once
// [KM26]'s "minimax" for two classes: the disagreement with the full vote bounded for every final
// count n (every row, whatever its tally), not only on average over the calibration rows; the
// expected number of trees over those rows is what it spends least of.
//
// Problem. Minimise E_D[trees] subject to dis_n <= target for every n = 0..N, with dis_n the exact
// disagreement of a row whose final count is n (ExactBinaryOutcomes). It is a linear program with
// N + 1 coupling constraints, so its optimum may mix up to N + 2 deterministic sets; a row's
// guarantee must then hold for the mixture. SolveMinimax returns one deterministic set that meets
// every bound exactly (checked by the same exact evaluation) and is optimal for its own Lagrangian
// E_D[trees] + sum_n lambda_n dis_n: the multipliers lambda_n are found by a multiplicative dual
// search (each step solves the Lagrangian by backward induction, as the minimean solver does, with
// the wrong mass of a state weighted by lambda_n instead of mu D(n)). It is feasible, not
// certified optimal: the tests measure its gap to the LP optimum on small N
// (tests/cpp/minimax_stopping_test.cpp), docs/halting.md reports it.
// Only +, -, *, / in double, so native and WebAssembly builds agree.
#include <cstdint>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/status.h"

namespace urnforest {

/// Largest N SolveMinimax accepts: it keeps every count's hypergeometric lattice,
/// (N + 1)^2 (N + 2) / 2 doubles (33 MB at N = 201), and runs a few hundred dual steps over it.
inline constexpr int32_t kMaxMinimaxTrees = 201;

/// What to solve (same fields and ranges as MinimeanProblem; max_disagreement is the bound for
/// every final count).
struct MinimaxProblem {
  int32_t num_trees = 101;                 ///< N, 1..kMaxMinimaxTrees.
  std::vector<double> final_count_weights; ///< D(n), n = 0..N: the rows whose trees are counted.
  double max_disagreement = 0.001;         ///< The bound on dis_n for every n, in [0, 1].
};

/// The solved set and its exact figures.
struct MinimaxStrategy {
  BinaryStoppingSet set;            ///< Deterministic; answers as LagrangianStoppingSet's.
  double expected_trees = 0.0;      ///< E_D[trees].
  double worst_disagreement = 0.0;  ///< max_n dis_n (<= max_disagreement).
  int32_t worst_count = 0;          ///< An n where the worst is reached.
};

/// Solves `problem` (file comment). Fails with kInvalidArgument as SolveMinimean does, and with
/// kLimitExceeded for N > kMaxMinimaxTrees.
Result<MinimaxStrategy> SolveMinimax(const MinimaxProblem& problem);

}  // namespace urnforest
