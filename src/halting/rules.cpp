// The rule table: one row per halting rule, in enum order. Adding a rule is a row here, its enum
// value (urnforest/halting_rule.h), and its own fitter, builder or P* function if it shares none of
// the ones below (rule_table.h).
#include "halting/rule_table.h"

#include <string>
#include <vector>

#include "base/enum_names.h"

namespace urnforest {
namespace internal {
namespace {

// Every rule runs at any l and T that BuildHaltingTable accepts.
constexpr int32_t kMaxTrees = 100000;
constexpr int32_t kMaxClasses = HaltingTableOptions::kMaxClasses;
// Full threshold tables: recursion over tallies for l <= 4 (the optimal rule's backward induction,
// l <= 3) while C(T + l, l) stays within the state budget.
constexpr int32_t kUrnTableClasses = 4;
constexpr int32_t kOptimalTableClasses = 3;

RuleRow Row(HaltingRule rule, const char* name, const char* summary, const char* description,
            const char* source) {
  RuleRow row;
  row.traits.rule = rule;
  row.traits.name = name;
  row.traits.summary = summary;
  row.traits.description = description;
  row.traits.source = source;
  row.traits.max_classes = kMaxClasses;
  row.traits.max_trees = kMaxTrees;
  return row;
}

// A finite-T urn rule with a threshold table (siba, hyper, 1dir, ndir, optimal).
RuleRow& UrnTable(RuleRow& row, int32_t max_classes, int64_t max_states) {
  row.traits.on_demand = true;
  row.traits.full_table_max_classes = max_classes;
  row.traits.full_table_max_states = max_states;
  return row;
}

// A rule whose prior is fitted to training votes by `fit`, of kind `kind` where its full table is
// built, accepted by BuildHaltingTable when of a kind in `accepted` (`requirement` says which).
RuleRow& FittedPrior(RuleRow& row, FitPriorFn fit, PriorKind kind, uint32_t accepted,
                     const char* requirement) {
  row.traits.needs_prior = true;
  row.traits.prior_kind = kind;
  row.fit_prior = fit;
  row.accepted_priors = accepted;
  row.prior_requirement = requirement;
  return row;
}

std::vector<RuleRow> MakeRows() {
  constexpr int64_t kUrnStates = HaltingTableOptions::kEagerStates;
  constexpr int64_t kOptimalStates = HaltingTableOptions::kOptimalStates;
  constexpr uint32_t kAnyPrior = ~0u;
  std::vector<RuleRow> rows;

  RuleRow alpha1 = Row(HaltingRule::kAlpha1, "alpha1", "stop when the answer cannot change",
                       "Stop when the leader's lead exceeds the votes left: the answer always equals "
                       "the full vote (the alpha = 1 rule of [SSM16] Table 2, [Sot11] Table 4.4).",
                       "[SSM16] Table 2");
  alpha1.build = BuildLeadRuleTable;
  alpha1.pstar = LeadRulePStar;
  rows.push_back(alpha1);

  RuleRow siba = Row(HaltingRule::kSiba, "siba", "uniform prior",
                     "Finite urn of the T votes with a uniform prior over final tallies; depends only "
                     "on T, the number of classes and alpha (SIBA [HMS09], [SSM16] §2.1).",
                     "[SSM16] §2.1");
  UrnTable(siba, kUrnTableClasses, kUrnStates);
  siba.build = BuildUrnTable;
  siba.pstar = UrnPStar;
  rows.push_back(siba);

  RuleRow hyper = Row(HaltingRule::kHyper, "hyper", "out-of-bag histogram prior",
                      "Finite urn with the smoothed histogram of the out-of-bag votes as prior "
                      "([SSM16] §2.2, [Sot11] §4.4).",
                      "[SSM16] §2.2");
  UrnTable(hyper, kUrnTableClasses, kUrnStates);
  FittedPrior(hyper, FitHistogramPrior, PriorKind::kHistogram,
              PriorBit(PriorKind::kHistogram) | PriorBit(PriorKind::kTallyMixture) |
                  PriorBit(PriorKind::kDirichletMixture),
              "a histogram, tally-mixture or Dirichlet-mixture prior");
  hyper.build = BuildUrnTable;
  hyper.pstar = UrnPStar;
  rows.push_back(hyper);

  RuleRow one_dir = Row(HaltingRule::kOneDir, "1dir", "one Dirichlet prior",
                        "Finite urn with one Dirichlet prior fitted to the out-of-bag vote fractions "
                        "(Minka's fixed point; [Sot11] §4.2).",
                        "[Sot11] §4.2");
  UrnTable(one_dir, kUrnTableClasses, kUrnStates);
  FittedPrior(one_dir, FitOneDirichletPrior, PriorKind::kDirichlet,
              PriorBit(PriorKind::kDirichlet) | PriorBit(PriorKind::kUniform), "a Dirichlet prior");
  one_dir.build = BuildUrnTable;
  one_dir.pstar = UrnPStar;
  rows.push_back(one_dir);

  RuleRow n_dir = Row(HaltingRule::kNDir, "ndir", "Dirichlet per class",
                      "Finite urn with a mixture of Dirichlets, one fitted per training class, "
                      "weighted by class frequency ([Sot11] §4.3).",
                      "[Sot11] §4.3");
  UrnTable(n_dir, kUrnTableClasses, kUrnStates);
  FittedPrior(n_dir, FitDirichletPerClassPrior, PriorKind::kDirichletMixture,
              PriorBit(PriorKind::kDirichletMixture), "a Dirichlet-mixture prior");
  n_dir.build = BuildUrnTable;
  n_dir.pstar = UrnPStar;
  rows.push_back(n_dir);

  RuleRow infinite = Row(HaltingRule::kInfinite, "infinite", "agree with an infinite forest",
                         "Stop when the leader is the winner of the infinite ensemble with "
                         "probability above alpha (pairwise product bound for more than 2 classes; "
                         "[HMS11] §2.2).",
                         "[HMS11] §2.2");
  infinite.traits.on_demand = true;
  infinite.traits.infinite_ensemble = true;
  infinite.build = BuildInfiniteTable;
  infinite.pstar = InfinitePStar;
  rows.push_back(infinite);

  RuleRow optimal = Row(HaltingRule::kOptimal, "optimal", "fewest trees at the same disagreement",
                        "For the hyper prior, the stopping policy with the fewest expected trees at "
                        "expected disagreement <= 1 - alpha (backward induction; beyond its table, "
                        "the prior's P* rule).",
                        "urnforest");
  optimal.traits.from_papers = false;
  UrnTable(optimal, kOptimalTableClasses, kOptimalStates);
  FittedPrior(optimal, FitHistogramPrior, PriorKind::kHistogram, kAnyPrior, "a prior");
  optimal.build = BuildOptimalTable;
  optimal.pstar = UrnPStar;
  rows.push_back(optimal);

  return rows;
}

const std::vector<RuleRow>& Rows() {
  static const std::vector<RuleRow> kRows = MakeRows();
  return kRows;
}

}  // namespace

const RuleRow& RuleRowOf(HaltingRule rule) {
  const size_t i = static_cast<size_t>(rule);
  return i < Rows().size() ? Rows()[i] : Rows()[0];
}

}  // namespace internal

const HaltingRuleTraits& RuleTraits(HaltingRule rule) { return internal::RuleRowOf(rule).traits; }

const std::vector<HaltingRuleTraits>& AllRuleTraits() {
  static const std::vector<HaltingRuleTraits> kTraits = [] {
    std::vector<HaltingRuleTraits> traits;
    for (const internal::RuleRow& row : internal::Rows()) traits.push_back(row.traits);
    return traits;
  }();
  return kTraits;
}

const char* RuleName(HaltingRule rule) {
  const size_t i = static_cast<size_t>(rule);
  return i < internal::Rows().size() ? internal::Rows()[i].traits.name : "unknown";
}

const std::vector<std::string>& RuleNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const internal::RuleRow& row : internal::Rows()) names.emplace_back(row.traits.name);
    return names;
  }();
  return kNames;
}

Result<HaltingRule> ParseRule(const std::string& name) {
  return internal::ParseEnumName<HaltingRule>(name, RuleNames(), "halting rule");
}

bool RuleNeedsPrior(HaltingRule rule) { return RuleTraits(rule).needs_prior; }

}  // namespace urnforest
