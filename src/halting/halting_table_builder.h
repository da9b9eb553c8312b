#pragma once
// Private: the builders of HaltingTable's layouts (halting_table_build.cpp), called by the
// BuildHaltingTable dispatch (halting_table.cpp).
#include <cstdint>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest {

/// Builds the tables of each layout from options BuildHaltingTable has validated (rule, T, l,
/// alpha in range; the prior matches the rule and l). A friend of HaltingTable.
class HaltingTableBuilder {
 public:
  /// A table with `o`'s rule, T, l and alpha, the given layout, no stored decisions and a NaN
  /// min_relative_gap; the rank helper is set up for every layout but kLeadRule (which ranks
  /// nothing).
  static HaltingTable Start(const HaltingTableOptions& o, TableLayout layout);
  /// kThresholds (l <= 4): finite-T prior rules (`optimal` false) by one backward recursion with
  /// `prior`, or the optimal rule (`optimal` true, l <= 3) by bisection on its cost multiplier.
  /// Fails with kLimitExceeded (more than 60,000,000 states, T > 65534), kOutOfMemory, or the
  /// recursion's error.
  static Result<HaltingTable> Thresholds(const HaltingTableOptions& o, const Prior& prior,
                                         bool optimal);
  /// kPairwiseBound for a symmetric Dirichlet prior of concentration `beta` per class. Fails with
  /// kLimitExceeded for T > 1000, or the recursion's error.
  static Result<HaltingTable> Pairwise(const HaltingTableOptions& o, double beta);
  /// kInfiniteProduct. Fails with kLimitExceeded for T > 1000.
  static Result<HaltingTable> Infinite(const HaltingTableOptions& o);
  /// kOnDemand for `o.rule` with `prior` (uniform for siba and infinite; a histogram prior becomes
  /// one point mass per tally with mass). `optimal_fallback`: an optimal table decided by the
  /// prior's P* rule. O(T + prior size); fails with kOutOfMemory only.
  static Result<HaltingTable> OnDemand(const HaltingTableOptions& o, const Prior& prior,
                                       bool optimal_fallback);
  /// The on-demand rule of a table whose header (rule, T, l, alpha) is set, from the prior's
  /// parts (as ToBytes stores them).
  static void AttachOnDemand(HaltingTable* table, std::vector<DirichletComponent> dirichlet,
                             std::vector<int32_t> support, std::vector<double> support_weights,
                             double exact_budget);
  /// The parts AttachOnDemand took (for ToBytes).
  static const internal::OnDemandRule& OnDemandOf(const HaltingTable& table);
};

}  // namespace urnforest
