#pragma once
// The halting rules' traits: one row per HaltingRule (src/halting/rules.cpp), the only place that
// lists the rules. RuleName, ParseRule, RuleNames and RuleNeedsPrior read it; so do the CLI's usage
// text and `rules` command, the JS `rules` and `ruleInfo` (generated from it at build time) and the
// demo's rule menus.
#include <cstdint>
#include <vector>

#include "urnforest/halting_rule.h"
#include "urnforest/prior.h"

namespace urnforest {

/// What a halting rule is and what it needs: static data, one row per rule.
struct HaltingRuleTraits {
  HaltingRule rule = HaltingRule::kAlpha1;
  /// Stable name ("siba"), as the CLI and JS spell it. Never null.
  const char* name = "";
  /// A few words for a menu or a parenthesis ("uniform prior"). Never null.
  const char* summary = "";
  /// One line: what the rule does, with its paper key ([SSM16] §2.1 ...). Never null.
  const char* description = "";
  /// Where it comes from: a paper key with its section ("[HMS11] §2.2"), or "urnforest" for a rule
  /// of this library's own. Never null.
  const char* source = "";
  /// True for the papers' rules; false for a rule of this library's own (source "urnforest").
  bool from_papers = true;
  /// True when the rule's table needs a prior fitted to training data (out-of-bag votes, or the
  /// calibration rows of an imported forest); false for rules that use the uniform prior or none.
  bool needs_prior = false;
  /// The kind of prior PriorForRule fits where the rule's full table is built (kUniform for rules
  /// that need none). hyper beyond its full table fits a tally or kernel mixture (prior.h).
  PriorKind prior_kind = PriorKind::kUniform;
  /// True when BuildHaltingTable can serve the rule with an on-demand table (TableLayout::kOnDemand:
  /// any number of classes and trees); false for alpha1, whose lead rule needs no table.
  bool on_demand = false;
  /// True when the rule's confidence is the agreement with the infinite ensemble (L of [HMS11]),
  /// not P* of the finite T-vote majority: a row that used all T votes keeps L as its confidence,
  /// where a finite-T rule reports 1.
  bool infinite_ensemble = false;
  /// Largest number of classes for which a full table (kThresholds: exact decisions and P* for
  /// every tally) is built; beyond it the on-demand layout decides with the same semantics
  /// (certified-conservative where exact is too costly). 0: the rule has no threshold table.
  int32_t full_table_max_classes = 0;
  /// Largest number of tallies, C(T + l, l), of a full table; beyond it the on-demand layout. 0
  /// when full_table_max_classes is 0.
  int64_t full_table_max_states = 0;
  /// Range of the number of classes l and of trees T the rule accepts (BuildHaltingTable refuses
  /// others with kInvalidArgument). Every rule runs at any l and T in these ranges.
  int32_t max_classes = 0;
  int32_t max_trees = 0;
};

/// The traits of `rule`. For a value outside 0..kNumHaltingRules-1, the traits of alpha1 (callers
/// validate rules first: ParseRule, BuildHaltingTable).
const HaltingRuleTraits& RuleTraits(HaltingRule rule);

/// Every rule's traits, in enum order (the order of RuleNames()).
const std::vector<HaltingRuleTraits>& AllRuleTraits();

}  // namespace urnforest
