#pragma once
// The named halting rules of sequential voting. Names are the strings used by the CLI and JS; the
// rule table (urnforest/halting_rules.h, src/halting/rules.cpp) holds them with each rule's traits.
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// A rule that decides, from the partial tally of votes, when sequential voting may stop.
/// All finite-T rules stop only on a strict current leader; a final tie counts as disagreement.
enum class HaltingRule : int32_t {
  kAlpha1 = 0,    ///< "alpha1": stop when the leader's lead exceeds the votes left (= full vote).
  kSiba = 1,      ///< "siba": finite-T urn model, uniform prior (SIBA/SIBP); depends on (T, l, alpha).
  kHyper = 2,     ///< "hyper": finite-T urn model, smoothed out-of-bag histogram prior.
  kOneDir = 3,    ///< "1dir": single Dirichlet prior fitted to OOB vote fractions (Minka).
  kNDir = 4,      ///< "ndir": mixture of Dirichlets, one per class, weights = class frequencies.
  kInfinite = 5,  ///< "infinite" ([HMS11] §2.2): agrees with the infinite ensemble; halt at L > pi.
  kOptimal = 6,   ///< "optimal": Bayes-optimal stopping for the prior at expected disagreement <= 1-alpha.
};

/// Number of rules; valid values are 0..kNumHaltingRules-1.
inline constexpr int32_t kNumHaltingRules = 7;

/// Stable name of a rule ("alpha1", "siba", "hyper", "1dir", "ndir", "infinite", "optimal"). Never null.
const char* RuleName(HaltingRule rule);

/// Parses a rule name (exact, lower case). Fails with kInvalidArgument naming the bad string and
/// listing RuleNames().
Result<HaltingRule> ParseRule(const std::string& name);

/// The rule names in enum order (RuleName of 0..kNumHaltingRules-1): the only list of the rules,
/// read from the rule table.
const std::vector<std::string>& RuleNames();

/// True for rules whose table needs a prior estimated from training data (hyper, 1dir, ndir,
/// optimal): RuleTraits(rule).needs_prior.
bool RuleNeedsPrior(HaltingRule rule);

}  // namespace urnforest
