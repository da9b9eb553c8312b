#pragma once
// Deterministic minimean stopping sets over full tallies for a ladder of Lagrange multipliers,
// solved once per multiplier on the states calibration rows can reach (rule "auto"'s LP
// candidates for three or more classes; docs/halting.md, "Certified halting").
//
// SolveTallyMinimean (urnforest/tally_stopping.h) bisects the multiplier mu for one target,
// each step a backward induction over all C(T + K, K) states: 0.3 s (K = 3) to 6.5 s (K = 4) per
// target at T = 101. A certificate needs no mixing (each candidate is tested on its own), so one
// induction per mu gives one candidate, whatever target it is later matched with. And the
// induction need only visit the support: the tallies x below (componentwise <=) the final tally
// of some calibration row. Off the support no row goes, so nothing there can change a row's
// outcome; and where no fit row goes the objective is 0 whether the set stops or goes on, so the
// ladder's sets go on there (a tie it resolves towards the full vote: rows unlike the fit rows
// are not guessed at). On the fit rows' states the sets are exactly TallyLagrangianSet's, so
// their Lagrangian value on the fit rows is the optimum.
//
// Cost per multiplier: O(S K) for S support states (typically a few per cent of the lattice);
// the preparation and the exact outcomes: the states below each distinct row (prod (F_c + 1)).
#include <cstdint>
#include <vector>

#include "urnforest/status.h"
#include "urnforest/tally_stopping.h"

namespace urnforest {

/// Stop flags over a ladder's support states (TallyLagrangianLadder order).
using SupportStopSet = std::vector<uint8_t>;

/// The support of a set of calibration rows and the fit rows' masses on it; immutable once made.
class TallyLagrangianLadder {
 public:
  /// `fit_tallies` define the objective (each row weighs the same), `reach_tallies` are the rows
  /// whose outcomes ReachOutcomes reports (their states join the support); both row-major, K
  /// counts per row summing to T. `pseudo_errors` a >= 0 makes Solve pessimistic where few fit
  /// rows go: a state's disagreement rate W / A, seen on n = N A of the N fit rows, is taken as
  /// (N W + a) / (n + 2 a) (a = 1: Laplace's rule of succession), so a state no fit row passed
  /// wrongly is not taken for certain; where the leader can no longer be caught (it leads every
  /// class by more than the votes left) the rate stays 0; a = 0 solves the plain Lagrangian. Fails with
  /// kInvalidArgument for T < 1, K < 2, no fit row, a row not summing to T or a < 0; with
  /// kLimitExceeded when C(T + K, K) > kMaxTallyStoppingStates.
  static Result<TallyLagrangianLadder> Make(int32_t num_trees, int32_t num_classes,
                                            const std::vector<uint32_t>& fit_tallies,
                                            const std::vector<uint32_t>& reach_tallies, double pseudo_errors = 0.0);

  int32_t num_trees() const { return num_trees_; }
  int32_t num_classes() const { return num_classes_; }
  /// Number of support states (tallies below some fit or reach row).
  int64_t support_size() const { return static_cast<int64_t>(index_.size()); }

  /// The set minimising mean fit-row trees + mu * mean fit-row disagreement with the full vote
  /// (plurality of the final tally; with pseudo_errors, the pessimistic rates of Make): stops at a tie on the fit rows' states, goes on where no fit
  /// row goes, never stops at the empty tally, always at T votes. mu finite and >= 0 (else an
  /// empty set is returned).
  SupportStopSet Solve(double mu) const;

  /// `stop`'s expected outcome averaged over the fit rows (their own disagreement, never the
  /// pessimistic one).
  TallyOutcome FitOutcome(const SupportStopSet& stop) const;

  /// Each reach row's exact outcome (random query order) under each set: out[set][row].
  std::vector<std::vector<TallyOutcome>> ReachOutcomes(const std::vector<SupportStopSet>& sets) const;

  /// The same set over the whole lattice (runnable by PredictTallyStopping, checkable by
  /// ExactTallyOutcomes): off the support it goes on, at T votes it stops.
  TallyStoppingSet Expand(const SupportStopSet& stop) const;

 private:
  TallyLagrangianLadder() = default;
  // Alive fraction f per support state (tally_stopping.h): orders into x no earlier state stopped.
  std::vector<double> Alive(const SupportStopSet& stop) const;

  int32_t num_trees_ = 0, num_classes_ = 0;
  std::vector<int64_t> index_;        // lattice index per support state, increasing (level-major)
  std::vector<int32_t> level_;        // votes seen per support state
  std::vector<int32_t> x_;            // tallies, K per support state
  std::vector<int32_t> next_;         // support id of x + e_c, or -1 (no row goes there), K per state
  std::vector<double> all_, wrong_;   // fit-row masses A and W (tally_stopping.h) per support state
  std::vector<double> solve_wrong_;   // W as Solve weighs it (pessimistic with pseudo_errors)
  std::vector<std::vector<int32_t>> distinct_;  // distinct reach tallies
  std::vector<size_t> reach_row_;               // per reach row, its distinct tally
};

}  // namespace urnforest
