#pragma once
// The pieces of the two-class minimean solver (urnforest/binary_stopping.h) that a solver over
// several final-count distributions sharing one Lagrange multiplier reuses (the stratified
// strategy, urnforest/stratified_stopping.h). Private to src/halting.
#include <cstdint>
#include <vector>

#include "urnforest/binary_stopping.h"

namespace urnforest {
namespace internal {

/// Per state (ranked as BinaryStoppingSet::Rank): the probability mass of rows reaching it whose
/// full vote is 0 (`zero`) resp. 1 (`one`), under a normalised final-count distribution.
struct StateMasses {
  std::vector<double> zero, one;
};

/// The masses of every state for the normalised distribution d (d[n], n = 0..N). O(N^3).
StateMasses Masses(int32_t num_trees, const std::vector<double>& d);

/// The answer per state: the leader; at a tie the class with more full-vote-winner mass (class 0
/// if equal).
std::vector<uint8_t> Answers(int32_t num_trees, const StateMasses& m);

/// The set minimising E[trees] + mu E[disagreement] under the masses (backward induction).
BinaryStoppingSet Induce(int32_t num_trees, const StateMasses& m, const std::vector<uint8_t>& answer,
                         double mu);

/// The expected trees, disagreement and class-1 answers of `set` under the masses.
BinaryOutcome Expected(const BinaryStoppingSet& set, const StateMasses& m);

/// The set that stops only once all N votes are in (never disagrees).
BinaryStoppingSet FullVoteSet(int32_t num_trees, const std::vector<uint8_t>& answer);

}  // namespace internal
}  // namespace urnforest
