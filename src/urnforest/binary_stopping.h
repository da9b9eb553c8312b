#pragma once
// Optimal stopping of a two-class vote queried in random order ([KM26] "minimean"), and the exact
// outcome of any stopping set for a row whose final tally is known.
//
// Setting. N trees vote 0 or 1; a row's final count of class-1 votes is n (0..N). Queried in a
// uniformly random order, the state after i trees is (i, j): j class-1 votes among them, drawn
// without replacement (hypergeometric given n). A stopping set says, per state, whether to stop;
// a row that stops at (i, j) answers the leader (class 1 iff 2j > i; at a tie, the class more
// likely to win the full vote under the calibration distribution, class 0 if equally likely).
// The full vote answers class 1 iff 2n > N (a final tie goes to class 0, the lowest index, as
// Plurality in urnforest/vote.h).
//
// Exact evaluation. Every order of the same i votes is equally likely, so the probability that a
// row with final count n reaches (i, j) without having stopped is f(i, j) * H_n(i, j), where
// H_n(i, j) is the hypergeometric probability of j class-1 votes among i draws and f(i, j) in
// [0, 1] is the fraction of the C(i, j) vote orders into (i, j) that no earlier state stopped:
// f(0, 0) = 1 and f(i + 1, j) = (1 - s(i, j)) f(i, j) (i + 1 - j) / (i + 1)
//                            + (1 - s(i, j - 1)) f(i, j - 1) j / (i + 1),
// with s the stopping set (1 = stop). f does not depend on n, so one forward pass per stopping
// set gives every row's exact disagreement and expected trees (ExactBinaryOutcomes).
//
// The minimean problem (minimise E[trees] subject to E[disagreement] <= a target, expectations
// over rows drawn from a distribution D of n and over random orders) is a linear program in the
// stopped masses [KM26]. With one constraint its optimum is a mixture of at most two
// deterministic stopping sets that each minimise the Lagrangian E[trees] + mu E[disagreement]
// for the critical mu; each such set comes from backward induction over the states:
// G(i, j) = min(i A(i, j) + mu W(i, j), G(i + 1, j) (i + 1 - j) / (i + 1) + G(i + 1, j + 1) (j + 1) / (i + 1)),
// with A(i, j) = sum_n D(n) H_n(i, j) and W(i, j) = the part of A whose full vote differs from the
// state's answer. SolveMinimean finds the critical mu by bisection and mixes the two sets: a row
// uses the first with probability first_share, else the second. No LP library is needed.
// All arithmetic is +, -, *, / in double (no transcendental function), so native and WebAssembly
// builds compute identical strategies.
#include <cstdint>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// Largest N SolveMinimean and ExactBinaryOutcomes accept: their cost is O(N^3) (about 10^9
/// multiply-adds at N = 1001).
inline constexpr int32_t kMaxBinaryStoppingTrees = 1001;

/// A deterministic stopping set over the states (i, j), 0 <= j <= i <= N, ranked i (i + 1) / 2 + j.
/// stop[rank] = 1 to stop there. State (0, 0) never stops (no vote seen) and every state with
/// i = N stops.
struct BinaryStoppingSet {
  int32_t num_trees = 0;      ///< N.
  std::vector<uint8_t> stop;  ///< (N + 1)(N + 2) / 2 flags.
  /// The class a row stopped at each state answers (0 or 1), same ranks as `stop`.
  std::vector<uint8_t> answer;
  /// Rank of state (i, j).
  static int64_t Rank(int32_t i, int32_t j) { return static_cast<int64_t>(i) * (i + 1) / 2 + j; }
};

/// The randomised minimean strategy: a row uses `first` with probability first_share, else
/// `second` (the same set twice when no mixing is needed).
struct BinaryStoppingStrategy {
  BinaryStoppingSet first;
  BinaryStoppingSet second;
  double first_share = 1.0;           ///< In [0, 1].
  double expected_trees = 0.0;        ///< Under the distribution the strategy was solved for.
  double expected_disagreement = 0.0; ///< Same; <= the target (up to 1e-12 relative).
  double multiplier = 0.0;            ///< The critical Lagrange multiplier mu (trees per disagreement).
};

/// What to solve.
struct MinimeanProblem {
  int32_t num_trees = 101;  ///< N, 1..kMaxBinaryStoppingTrees.
  /// D(n) for n = 0..N: how often a row's final count of class-1 votes is n (e.g. counts over
  /// calibration rows); non-negative, finite, not all zero; normalised internally.
  std::vector<double> final_count_weights;
  /// The largest expected disagreement with the full vote, in [0, 1].
  double max_disagreement = 0.001;
};

/// [KM26]'s minimean strategy for `problem` (see the file comment). Fails with kInvalidArgument for
/// N out of range, weights of the wrong length, negative, non-finite or all zero, or a target
/// outside [0, 1].
Result<BinaryStoppingStrategy> SolveMinimean(const MinimeanProblem& problem);

/// The stopping set that minimises E[trees] + multiplier * E[disagreement] under the (normalised)
/// weights, by backward induction; ties between stopping and going on are settled by stopping.
/// Same failures as SolveMinimean, plus a negative or non-finite multiplier.
Result<BinaryStoppingSet> LagrangianStoppingSet(int32_t num_trees,
                                                const std::vector<double>& final_count_weights,
                                                double multiplier);

/// The probability that a row's strategy stops at each state (i, j), ranked as
/// BinaryStoppingSet::stop: the row draws `first` with probability first_share, else `second`, so
/// a state where only `first` stops gets first_share, only `second` 1 - first_share, both 1,
/// neither 0. The probability is over that draw only (not conditioned on reaching the state).
/// Fails with kInvalidArgument when either set is malformed (CheckSet's rules, as
/// ExactBinaryOutcomes) or the two sets have different N.
Result<std::vector<double>> StopProbabilities(const BinaryStoppingStrategy& strategy);

/// A row's exact outcome under random order.
struct BinaryOutcome {
  double disagreement = 0.0;  ///< Probability that the stopped answer differs from the full vote.
  double answer_one = 0.0;    ///< Probability that the stopped answer is class 1 (any reference).
  double trees = 0.0;         ///< Expected number of trees queried.
};

/// The exact outcome of `set` for a row with final class-1 count n, for every n = 0..N, against
/// the full vote (class 1 iff 2n > N). Fails with kInvalidArgument for a malformed set (sizes,
/// flags other than 0/1, (0, 0) stopping or a state with i = N not stopping).
Result<std::vector<BinaryOutcome>> ExactBinaryOutcomes(const BinaryStoppingSet& set);

/// Expected trees, disagreement and class-1 answers of `set` when n is drawn from the
/// (normalised) weights. Same failures as ExactBinaryOutcomes plus those of the weights.
Result<BinaryOutcome> ExpectedBinaryOutcome(const BinaryStoppingSet& set,
                                            const std::vector<double>& final_count_weights);

}  // namespace urnforest
