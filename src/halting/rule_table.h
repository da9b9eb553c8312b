#pragma once
// Private: the rule table's rows (src/halting/rules.cpp), the traits of urnforest/halting_rules.h
// plus the functions a rule is computed with, and the functions the rows point at. The halting
// files dispatch on a rule through its row, never through a switch on HaltingRule.
#include <cstdint>
#include <vector>

#include "urnforest/halting_rules.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/status.h"
#include "urnforest/tally_pstar.h"

namespace urnforest::internal {

/// PriorForRule's arguments, handed to a rule's prior fitter.
struct PriorFitInput {
  HaltingRule rule;
  const std::vector<uint32_t>& oob_votes;  ///< oob_votes[r * l + c]
  const std::vector<int32_t>& labels;      ///< one per row (ndir), may be empty otherwise
  int32_t num_classes;
  int32_t num_trees;
  const PriorFitOptions& options;
};

/// Fits the rule's prior from out-of-bag votes (PriorForRule).
using FitPriorFn = Result<Prior> (*)(const PriorFitInput& in);
/// Builds the rule's table from options BuildHaltingTable validated, with `prior` the prior it
/// checked (the uniform prior for rules that need none).
using BuildTableFn = Result<HaltingTable> (*)(const HaltingTableOptions& o, Prior prior);
/// Fills out->pstar (and out->exact) for `tally`, whose leader and halting decision are set in
/// `out` already (PStarOfTally validated the tally).
using TallyPStarFn = Status (*)(const HaltingTable& table, const Prior& prior,
                               const std::vector<int32_t>& tally, TallyPStar* out);

/// One row of the rule table.
struct RuleRow {
  HaltingRuleTraits traits;
  /// The prior fitter; null for the rules that need none (PriorForRule gives them the uniform prior).
  FitPriorFn fit_prior = nullptr;
  /// needs_prior rules: the PriorKind values BuildHaltingTable accepts, bit (1 << kind).
  uint32_t accepted_priors = 0;
  /// needs_prior rules: the accepted priors in words, for the error "rule R needs <this>".
  const char* prior_requirement = "";
  BuildTableFn build = nullptr;
  TallyPStarFn pstar = nullptr;
};

/// The row of `rule` (of alpha1 for a value outside the enum; callers validate first).
const RuleRow& RuleRowOf(HaltingRule rule);

/// Bit of `kind` in RuleRow::accepted_priors.
constexpr uint32_t PriorBit(PriorKind kind) { return 1u << static_cast<uint32_t>(kind); }

// Prior fitters (prior.cpp).
/// hyper and optimal: the smoothed (or deconvolved) out-of-bag histogram where the rule's full table
/// is built, else options.hyper_beyond_tables (tally mixture for l <= 4 on request, kernels).
Result<Prior> FitHistogramPrior(const PriorFitInput& in);
/// 1dir: FitDirichletPrior.
Result<Prior> FitOneDirichletPrior(const PriorFitInput& in);
/// ndir: FitDirichletMixturePrior with the labels.
Result<Prior> FitDirichletPerClassPrior(const PriorFitInput& in);

// Table builders (rule_builders.cpp).
/// alpha1: the lead rule (kLeadRule, alpha 1).
Result<HaltingTable> BuildLeadRuleTable(const HaltingTableOptions& o, Prior prior);
/// infinite: kInfiniteProduct up to T = 1000, else on demand.
Result<HaltingTable> BuildInfiniteTable(const HaltingTableOptions& o, Prior prior);
/// The finite-T urn rules (siba, hyper, 1dir, ndir): a full threshold table where it fits, the
/// pairwise bound for symmetric priors with l >= 5 while it is small, else on demand.
Result<HaltingTable> BuildUrnTable(const HaltingTableOptions& o, Prior prior);
/// optimal: backward induction where its full table fits, else on demand with its prior's P* rule.
Result<HaltingTable> BuildOptimalTable(const HaltingTableOptions& o, Prior prior);

// P* of a tally (tally_pstar.cpp).
/// alpha1: the table's confidence (1 or 0).
Status LeadRulePStar(const HaltingTable& table, const Prior& prior,
                     const std::vector<int32_t>& tally, TallyPStar* out);
/// infinite: InfiniteLowerBound of the leader (exact for 2 classes).
Status InfinitePStar(const HaltingTable& table, const Prior& prior,
                     const std::vector<int32_t>& tally, TallyPStar* out);
/// The urn rules: PStarBySum for l <= 4, the table's confidence on demand or beyond.
Status UrnPStar(const HaltingTable& table, const Prior& prior, const std::vector<int32_t>& tally,
                TallyPStar* out);

}  // namespace urnforest::internal
