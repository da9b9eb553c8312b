#pragma once
// Optimal stopping of a vote over any number of classes queried in random order ([KM26]'s
// minimean, extended from two classes to K on full tallies), and the exact outcome of a stopping
// set for a row whose final tally is known.
//
// Setting. T trees vote for one of K classes; a row's final tally is F = (F_0, ..., F_{K-1}),
// summing to T. Queried in a uniformly random order, the state after i trees is the partial tally
// x (x_c votes for class c, summing to i), drawn without replacement: multivariate hypergeometric
// given F, H_F(x) = prod_c C(F_c, x_c) / C(T, i). A row that stops at x answers its leader (the
// class with most votes in x, the lowest index at a tie); the full vote answers the leader of F
// (Plurality in urnforest/vote.h). Unlike the two-class solver (urnforest/binary_stopping.h), a
// tie is not settled by the calibration rows, so every answer is a function of x alone.
//
// Exact evaluation. Every order of the same votes is equally likely, so the probability that a
// row with final tally F reaches x without having stopped is f(x) H_F(x), where f(x) is the
// fraction of the vote orders into x that no earlier state stopped: f(0) = 1 and
// f(x) = sum_c (1 - s(x - e_c)) f(x - e_c) x_c / i (the share of orders into x whose last vote is
// class c is x_c / i). f does not depend on F: one forward pass per stopping set gives every
// row's exact disagreement and expected trees (ExactTallyOutcomes), the numbers a certificate
// over calibration rows needs.
//
// Minimean. Minimising E[trees] subject to E[disagreement] <= a target, both over rows drawn from
// the calibration tallies and over random orders, is a linear program in the stopped masses with
// one coupling constraint, so (as for two classes) its optimum mixes at most two deterministic
// sets that minimise E[trees] + mu E[disagreement] at the critical mu. Each comes from backward
// induction over the full tallies:
// G(x) = min(i A(x) + mu W(x), sum_c G(x + e_c) (x_c + 1) / (i + 1)),
// with A(x) = mean over calibration rows of H_F(x) and W(x) the part of A whose full vote differs
// from x's leader. SolveTallyMinimean finds mu by bisection and mixes the two sets.
//
// Size. There are C(T + K, K) states: 182,104 for K = 3 and 4,598,126 for K = 4 at T = 101, but
// 1.2e8 for K = 5 and far more for K = 26. Beyond kMaxTallyStoppingStates the full-tally solver
// refuses with kLimitExceeded (docs/halting.md says what is optimal and what only feasible there).
// All arithmetic is +, -, *, / in double, so native and WebAssembly builds agree.
#include <cstdint>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// Largest number of full-tally states C(T + K, K) the solver and the exact outcomes accept
/// (memory: about 20 bytes per state while solving; K = 4 at T = 101 fits).
inline constexpr int64_t kMaxTallyStoppingStates = 5000000;

/// The states of the full-tally lattice for T trees and K classes: every tally x with
/// sum(x) = i <= T, indexed level by level (all tallies of sum i before those of sum i + 1) and,
/// within a level, by the combinatorial number system. Cheap to copy (a small binomial table).
class TallyLattice {
 public:
  /// Fails with kInvalidArgument for T < 1 or K < 2, and with kLimitExceeded when
  /// C(T + K, K) > kMaxTallyStoppingStates.
  static Result<TallyLattice> Make(int32_t num_trees, int32_t num_classes);
  int32_t num_trees() const { return num_trees_; }
  int32_t num_classes() const { return num_classes_; }
  /// C(T + K, K).
  int64_t size() const { return offsets_.back(); }
  /// Index of the first tally of sum i (0..T + 1; LevelStart(T + 1) = size()).
  int64_t LevelStart(int32_t i) const { return offsets_[static_cast<size_t>(i)]; }
  /// Index of the tally x[0..K-1] whose sum is `sum` (0..T). No check: x must be such a tally.
  int64_t Index(const int32_t* x, int32_t sum) const;
  /// Index of x + e_c (sum + 1 <= T).
  int64_t IndexPlusOne(const int32_t* x, int32_t sum, int32_t c) const;
  /// Calls f(x) once for every tally of sum i (x valid during the call).
  template <typename F>
  void ForEachOfSum(int32_t i, F&& f) const;

 private:
  TallyLattice() = default;
  int64_t B(int32_t n, int32_t k) const { return binom_[static_cast<size_t>(n) * (num_classes_ + 1) + k]; }
  int32_t num_trees_ = 0, num_classes_ = 0;
  std::vector<int64_t> binom_;    // C(n, k), n <= T + K + 1, k <= K
  std::vector<int64_t> offsets_;  // offsets_[i]: index of the first tally of sum i; back() = size
};

/// The leader of a tally: most votes, the lowest index at a tie.
int32_t TallyLeader(const int32_t* x, int32_t num_classes);

/// A deterministic stopping set over the full tallies (TallyLattice order): stop[index] = 1 to
/// stop there. The empty tally never stops and every tally of sum T stops. A row stopped at x
/// answers TallyLeader(x).
struct TallyStoppingSet {
  int32_t num_trees = 0;
  int32_t num_classes = 0;
  std::vector<uint8_t> stop;  ///< C(T + K, K) flags.
};

/// The randomised minimean strategy: a row uses `first` with probability first_share, else
/// `second` (the same set twice when no mixing is needed).
struct TallyStoppingStrategy {
  TallyStoppingSet first;
  TallyStoppingSet second;
  double first_share = 1.0;            ///< In [0, 1].
  double expected_trees = 0.0;         ///< Over the calibration tallies it was solved for.
  double expected_disagreement = 0.0;  ///< Same; <= the target (up to rounding).
  double multiplier = 0.0;             ///< The critical Lagrange multiplier mu.
};

/// What to solve.
struct TallyMinimeanProblem {
  int32_t num_trees = 101;   ///< T >= 1.
  int32_t num_classes = 3;   ///< K >= 2.
  /// Calibration rows' final tallies, row-major: tallies[r * K + c] votes for class c; each row
  /// sums to T; at least one row. Every row weighs the same.
  std::vector<uint32_t> final_tallies;
  double max_disagreement = 0.001;  ///< The largest expected disagreement with the full vote, in [0, 1].
};

/// The minimean strategy for `problem` (file comment). Fails with kInvalidArgument for T < 1,
/// K < 2, no rows, a row whose votes do not sum to T or a target outside [0, 1]; with
/// kLimitExceeded when the lattice is larger than kMaxTallyStoppingStates.
Result<TallyStoppingStrategy> SolveTallyMinimean(const TallyMinimeanProblem& problem);

/// The stopping set minimising E[trees] + multiplier * E[disagreement] over the problem's rows
/// (its target is ignored), by backward induction; a tie between stopping and going on stops.
/// Same failures as SolveTallyMinimean, plus a negative or non-finite multiplier.
Result<TallyStoppingSet> TallyLagrangianSet(const TallyMinimeanProblem& problem, double multiplier);

/// A row's exact outcome under random order.
struct TallyOutcome {
  double disagreement = 0.0;  ///< Probability that the stopped answer differs from the full vote.
  double trees = 0.0;         ///< Expected number of trees queried.
};

/// The exact outcome of `set` for each row of `final_tallies` (row-major, K per row, each row
/// summing to T). Cost per row: the number of tallies x <= F (at most C(T + K, K)). Fails with
/// kInvalidArgument for a malformed set (size, flags other than 0/1, the empty tally stopping, a
/// full tally not stopping) or rows, kLimitExceeded as TallyLattice::Make.
Result<std::vector<TallyOutcome>> ExactTallyOutcomes(const TallyStoppingSet& set,
                                                     const std::vector<uint32_t>& final_tallies);

/// The strategy's exact outcome per row: first_share of `first`'s plus the rest of `second`'s.
/// Same failures as ExactTallyOutcomes, plus sets of different shapes or a share outside [0, 1].
Result<std::vector<TallyOutcome>> ExactTallyOutcomes(const TallyStoppingStrategy& strategy,
                                                     const std::vector<uint32_t>& final_tallies);

template <typename F>
void TallyLattice::ForEachOfSum(int32_t i, F&& f) const {
  const int32_t k = num_classes_;
  std::vector<int32_t> x(static_cast<size_t>(k), 0);
  x[0] = i;
  while (true) {
    f(x.data());
    // Next composition: move one unit from the first non-empty class c < K - 1 to class c + 1
    // and the rest of class c back to class 0; ends at (0, ..., 0, i).
    int32_t c = 0;
    while (c < k - 1 && x[static_cast<size_t>(c)] == 0) ++c;
    if (c >= k - 1) return;
    const int32_t carried = x[static_cast<size_t>(c)] - 1;
    x[static_cast<size_t>(c)] = 0;
    x[static_cast<size_t>(c) + 1] += 1;
    x[0] = carried;
  }
}

}  // namespace urnforest
