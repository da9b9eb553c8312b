#include "urnforest/halting_rules.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

using urnforest::AllRuleTraits;
using urnforest::BuildHaltingTable;
using urnforest::EagerTableFits;
using urnforest::HaltingRule;
using urnforest::HaltingRuleTraits;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;
using urnforest::ParseRule;
using urnforest::Prior;
using urnforest::PriorForRule;
using urnforest::PriorKind;
using urnforest::Result;
using urnforest::RuleName;
using urnforest::RuleNames;
using urnforest::RuleNeedsPrior;
using urnforest::RuleTraits;
using urnforest::StatusCode;
using urnforest::TableLayout;

namespace {

// Out-of-bag votes of 60 rows of 3 classes, 10 OOB votes each, leaning to the row's class.
std::vector<uint32_t> OobVotes(std::vector<int32_t>* labels) {
  std::vector<uint32_t> votes;
  for (int32_t r = 0; r < 60; ++r) {
    const int32_t c = r % 3;
    labels->push_back(c);
    for (int32_t j = 0; j < 3; ++j) votes.push_back(j == c ? 6 + r % 4 : (j == (c + 1) % 3 ? 4 - r % 4 : 0));
  }
  return votes;
}

}  // namespace

TEST_CASE("The rule table has one row per rule, in enum order, and RuleNames reads it", "[rules]") {
  const std::vector<HaltingRuleTraits>& traits = AllRuleTraits();
  REQUIRE(traits.size() == static_cast<size_t>(urnforest::kNumHaltingRules));
  REQUIRE(RuleNames() == std::vector<std::string>{"alpha1", "siba", "hyper", "1dir", "ndir",
                                                  "infinite", "optimal"});
  for (size_t i = 0; i < traits.size(); ++i) {
    const HaltingRule rule = static_cast<HaltingRule>(i);
    CAPTURE(i);
    REQUIRE(traits[i].rule == rule);
    REQUIRE(std::string(RuleName(rule)) == traits[i].name);
    REQUIRE(std::string(RuleTraits(rule).name) == RuleNames()[i]);
    REQUIRE(ParseRule(traits[i].name).value() == rule);
    REQUIRE(RuleNeedsPrior(rule) == traits[i].needs_prior);
    REQUIRE_FALSE(std::string(traits[i].summary).empty());
    REQUIRE_FALSE(std::string(traits[i].source).empty());
    REQUIRE(traits[i].from_papers == (std::string(traits[i].source) != "urnforest"));
    if (traits[i].from_papers)
      REQUIRE(std::string(traits[i].description).find(traits[i].source) != std::string::npos);
    REQUIRE(traits[i].max_classes == HaltingTableOptions::kMaxClasses);
    REQUIRE(traits[i].max_trees == 100000);
  }
}

TEST_CASE("An unknown rule name is refused with the list of the table's names", "[rules]") {
  Result<HaltingRule> rule = ParseRule("Siba");
  REQUIRE(rule.status().code == StatusCode::kInvalidArgument);
  REQUIRE(rule.status().message ==
          "unknown halting rule 'Siba' (expected alpha1, siba, hyper, 1dir, ndir, infinite or optimal)");
  REQUIRE(std::string(RuleName(static_cast<HaltingRule>(99))) == "unknown");
}

TEST_CASE("Rules that need a prior are the ones PriorForRule fits, the others get the uniform prior",
          "[rules]") {
  std::vector<int32_t> labels;
  const std::vector<uint32_t> votes = OobVotes(&labels);
  for (const HaltingRuleTraits& t : AllRuleTraits()) {
    CAPTURE(t.name);
    Result<Prior> prior = PriorForRule(t.rule, votes, labels, 3, 21);
    REQUIRE(prior.ok());
    REQUIRE(prior.value().kind() == t.prior_kind);
    REQUIRE((t.prior_kind == PriorKind::kUniform) == !t.needs_prior);
  }
}

TEST_CASE("Every rule builds a table at any class count, full while its traits say it fits",
          "[rules]") {
  std::vector<int32_t> labels;
  const std::vector<uint32_t> votes = OobVotes(&labels);
  for (const HaltingRuleTraits& t : AllRuleTraits()) {
    for (int32_t l : {2, 3, 4, 5, 7}) {
      CAPTURE(t.name, l);
      std::vector<uint32_t> wide;
      std::vector<int32_t> wide_labels;
      for (size_t r = 0; r < labels.size(); ++r) {
        for (int32_t c = 0; c < l; ++c) wide.push_back(c < 3 ? votes[r * 3 + c] : (r % l == static_cast<size_t>(c) ? 5 : 0));
        wide_labels.push_back(static_cast<int32_t>(r % l));
      }
      HaltingTableOptions o;
      o.rule = t.rule;
      o.num_trees = 21;
      o.num_classes = l;
      Result<Prior> prior = PriorForRule(t.rule, wide, wide_labels, l, o.num_trees);
      REQUIRE(prior.ok());
      Result<HaltingTable> table = BuildHaltingTable(o, &prior.value());
      REQUIRE(table.ok());
      const bool full = table.value().layout() == TableLayout::kThresholds;
      REQUIRE(full == EagerTableFits(t.rule, o.num_trees, l));
      REQUIRE(full == (l <= t.full_table_max_classes));
      if (!t.on_demand) REQUIRE(table.value().layout() == TableLayout::kLeadRule);
      o.force_on_demand = true;
      Result<HaltingTable> on_demand = BuildHaltingTable(o, &prior.value());
      REQUIRE(on_demand.ok());
      REQUIRE((on_demand.value().layout() == TableLayout::kOnDemand) == t.on_demand);
    }
  }
}

TEST_CASE("A rule that needs a prior refuses a missing one and one of a kind it does not accept",
          "[rules]") {
  HaltingTableOptions o;
  o.num_trees = 11;
  o.rule = HaltingRule::kHyper;
  REQUIRE(BuildHaltingTable(o).status().message == "rule hyper needs a prior");
  const Prior dirichlet = Prior::Dirichlet({0.5, 0.5}).value();
  REQUIRE(BuildHaltingTable(o, &dirichlet).status().message ==
          "rule hyper needs a histogram, tally-mixture or Dirichlet-mixture prior");
  o.rule = HaltingRule::kNDir;
  REQUIRE(BuildHaltingTable(o, &dirichlet).status().message == "rule ndir needs a Dirichlet-mixture prior");
  o.rule = HaltingRule::kOneDir;
  REQUIRE(BuildHaltingTable(o, &dirichlet).ok());
  o.rule = HaltingRule::kSiba;
  REQUIRE(BuildHaltingTable(o).ok());
}
