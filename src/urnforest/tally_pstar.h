#pragma once
// P* of one partial tally as the front ends report it: which formula each halting rule's P* uses,
// decided once for the CLI's `pstar` command and the JS pstar().
#include <cstdint>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest {

/// P* of a partial tally and the table's decision for it.
struct TallyPStar {
  /// The agreement probability of the tally's strict leader (0 without a strict leader).
  double pstar = 0.0;
  /// False when `pstar` is a bound or the table's confidence rather than P* itself: the infinite
  /// rule with more than 2 classes (a lower bound), or a finite rule with more than 4 classes.
  bool exact = true;
  int32_t leader = -1;  ///< HaltingTable::Leader: the strict leader, -1 on a tie for the lead.
  bool halts = false;   ///< HaltingTable::Halts.
};

/// P* of `tally` (table.num_classes() counts >= 0 summing to at most table.num_trees()) for the
/// table's rule, with `prior` the table's prior (uniform for alpha1/siba/infinite):
///   infinite:          InfiniteLowerBound of the leader (exact for 2 classes only);
///   alpha1:            the table's confidence;
///   on-demand tables:    the table's confidence, exact = ConfidenceIsExact;
///   other rules, l <= 4: PStarBySum(prior, T, tally), exact;
///   other rules, l > 4:  the table's confidence, exact = false.
/// Fails with kShapeMismatch (tally or prior of another class count), kInvalidArgument (a negative
/// count, or more votes than T), or like PStarBySum.
Result<TallyPStar> PStarOfTally(const HaltingTable& table, const Prior& prior,
                                const std::vector<int32_t>& tally);

}  // namespace urnforest
