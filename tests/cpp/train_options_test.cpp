#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/double_pruning.h"
#include "urnforest/experiment.h"
#include "urnforest/forest.h"
#include "urnforest/halting_rule.h"
#include "urnforest/ordering.h"
#include "urnforest/sequential_vote.h"

using namespace urnforest;

namespace {

template <typename Enum, typename NameFn, typename ParseFn>
void RequireRoundTrip(const std::vector<std::string>& names, NameFn name_of, ParseFn parse) {
  for (size_t i = 0; i < names.size(); ++i) {
    const Enum value = static_cast<Enum>(i);
    REQUIRE(std::string(name_of(value)) == names[i]);
    Result<Enum> parsed = parse(names[i]);
    REQUIRE(parsed.ok());
    REQUIRE(parsed.value() == value);
  }
}

}  // namespace

TEST_CASE("Option enums are named by the CLI's and JS API's strings, in enum order", "[names]") {
  using Names = std::vector<std::string>;
  REQUIRE(EnsembleKindNames() == Names{"rf", "bagging", "adaboost", "voteboost"});
  REQUIRE(MtryRuleNames() == Names{"sqrt", "log2", "log2plus1"});
  REQUIRE(BoostingVariantNames() == Names{"resample", "reweight"});
  REQUIRE(TreePruningNames() == Names{"none", "cv"});
  REQUIRE(VoteBoostBaseNames() == Names{"random", "unpruned", "stump", "pruned"});
  REQUIRE(QueryOrderNames() == Names{"generation", "fixed", "random"});
}

TEST_CASE("Every option name parses back to the value it names", "[names]") {
  RequireRoundTrip<EnsembleKind>(EnsembleKindNames(), EnsembleKindName, ParseEnsembleKind);
  RequireRoundTrip<MtryRule>(MtryRuleNames(), MtryRuleName, ParseMtryRule);
  RequireRoundTrip<BoostingVariant>(BoostingVariantNames(), BoostingVariantName,
                                    ParseBoostingVariant);
  RequireRoundTrip<TreePruning>(TreePruningNames(), TreePruningName, ParseTreePruning);
  RequireRoundTrip<VoteBoostBase>(VoteBoostBaseNames(), VoteBoostBaseName, ParseVoteBoostBase);
  RequireRoundTrip<QueryOrder>(QueryOrderNames(), QueryOrderName, ParseQueryOrder);
}

TEST_CASE("An unknown option name is an invalid argument listing the valid names", "[names]") {
  Result<EnsembleKind> ensemble = ParseEnsembleKind("forest");
  REQUIRE_FALSE(ensemble.ok());
  REQUIRE(ensemble.status().code == StatusCode::kInvalidArgument);
  REQUIRE(ensemble.status().message ==
          "unknown ensemble 'forest' (expected rf, bagging, adaboost or voteboost)");
  Result<QueryOrder> order = ParseQueryOrder("Random");
  REQUIRE_FALSE(order.ok());
  REQUIRE(order.status().message ==
          "unknown query order 'Random' (expected generation, fixed or random)");
  REQUIRE_FALSE(ParseMtryRule("").ok());
  REQUIRE_FALSE(ParseTreePruning("cv ").ok());
}

TEST_CASE("A value outside an option enum is named 'unknown'", "[names]") {
  REQUIRE(std::string(EnsembleKindName(static_cast<EnsembleKind>(9))) == "unknown");
}

TEST_CASE("Vote-boosting base learners name the VoteBoostBase", "[names][base_learner]") {
  Result<BaseLearner> stump = ParseBaseLearner(EnsembleKind::kVoteBoost, "stump");
  REQUIRE(stump.ok());
  TrainOptions options;
  options.ensemble = EnsembleKind::kVoteBoost;
  REQUIRE(ApplyBaseLearner(stump.value(), &options).ok());
  REQUIRE(options.voteboost.base == VoteBoostBase::kStump);
  REQUIRE(options.max_depth == 0);
  REQUIRE_FALSE(ParseBaseLearner(EnsembleKind::kVoteBoost, "depth:2").ok());
}

TEST_CASE("AdaBoost base learners set the depth or cost-complexity pruning",
          "[names][base_learner]") {
  auto applied = [](const char* name) {
    TrainOptions options;
    options.ensemble = EnsembleKind::kAdaBoost;
    Result<BaseLearner> base = ParseBaseLearner(EnsembleKind::kAdaBoost, name);
    REQUIRE(base.ok());
    REQUIRE(ApplyBaseLearner(base.value(), &options).ok());
    return options;
  };
  REQUIRE(applied("unpruned").max_depth == 0);
  REQUIRE(applied("unpruned").pruning.mode == TreePruning::kNone);
  REQUIRE(applied("pruned").pruning.mode == TreePruning::kCostComplexityCV);
  REQUIRE(applied("pruned").max_depth == 0);
  REQUIRE(applied("stump").max_depth == 1);
  REQUIRE(applied("depth:3").max_depth == 3);
  REQUIRE(applied("depth:999999").max_depth == 999999);
}

TEST_CASE("AdaBoost's depth:N needs N in 1..999999 written without sign or leading zero",
          "[names][base_learner]") {
  for (const char* name : {"depth:0", "depth:", "depth:1000000", "depth:07", "depth:+3", "depth:3x",
                           "depth", "random"}) {
    Result<BaseLearner> base = ParseBaseLearner(EnsembleKind::kAdaBoost, name);
    REQUIRE_FALSE(base.ok());
    REQUIRE(base.status().code == StatusCode::kInvalidArgument);
    REQUIRE(base.status().message.find("depth:N") != std::string::npos);
  }
}

TEST_CASE("Random forests and bagging have no base-learner choice", "[names][base_learner]") {
  REQUIRE_FALSE(ParseBaseLearner(EnsembleKind::kRandomForest, "stump").ok());
  REQUIRE_FALSE(ParseBaseLearner(EnsembleKind::kBagging, "unpruned").ok());
}

TEST_CASE("A depth-setting base learner does not combine with a set max_depth",
          "[names][base_learner]") {
  TrainOptions options;
  options.ensemble = EnsembleKind::kAdaBoost;
  options.max_depth = 2;
  Result<BaseLearner> stump = ParseBaseLearner(EnsembleKind::kAdaBoost, "stump");
  REQUIRE(stump.ok());
  Status applied = ApplyBaseLearner(stump.value(), &options);
  REQUIRE(applied.code == StatusCode::kInvalidArgument);
  REQUIRE(applied.message.find("max_depth") != std::string::npos);
  REQUIRE(options.max_depth == 2);
  Result<BaseLearner> pruned = ParseBaseLearner(EnsembleKind::kAdaBoost, "pruned");
  REQUIRE(ApplyBaseLearner(pruned.value(), &options).ok());
}

TEST_CASE("A base learner applies only to the ensemble it was parsed for",
          "[names][base_learner]") {
  TrainOptions options;
  options.ensemble = EnsembleKind::kAdaBoost;
  Result<BaseLearner> random = ParseBaseLearner(EnsembleKind::kVoteBoost, "random");
  REQUIRE(random.ok());
  REQUIRE_FALSE(ApplyBaseLearner(random.value(), &options).ok());
}

TEST_CASE("Rule, ordering and pruned query-order name lists follow enum order and parse back",
          "[options]") {
  REQUIRE(urnforest::RuleNames().size() == static_cast<size_t>(urnforest::kNumHaltingRules));
  for (size_t i = 0; i < urnforest::RuleNames().size(); ++i) {
    REQUIRE(urnforest::ParseRule(urnforest::RuleNames()[i]).value() ==
            static_cast<urnforest::HaltingRule>(i));
  }
  REQUIRE(urnforest::OrderingNames().size() == static_cast<size_t>(urnforest::kNumOrderings));
  for (size_t i = 0; i < urnforest::OrderingNames().size(); ++i) {
    REQUIRE(urnforest::ParseOrdering(urnforest::OrderingNames()[i]).value() ==
            static_cast<urnforest::Ordering>(i));
  }
  REQUIRE(urnforest::PrunedQueryOrderNames() ==
          std::vector<std::string>{"ordered", "generation", "random"});
}

TEST_CASE("DefaultRepeats is 10 for k-fold CV and 100 for holdout and synthetic problems",
          "[options]") {
  REQUIRE(urnforest::DefaultRepeats(urnforest::ProtocolKind::kKFold) == 10);
  REQUIRE(urnforest::DefaultRepeats(urnforest::ProtocolKind::kHoldout) == 100);
  REQUIRE(urnforest::DefaultRepeats(urnforest::ProtocolKind::kSynthetic) == 100);
}
