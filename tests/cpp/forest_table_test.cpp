#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/serialize.h"

using namespace urnforest;

namespace {

Forest TrainOn(const char* problem, int32_t trees) {
  Result<Dataset> data = GenerateProblem(problem, 200, 5);
  REQUIRE(data.ok());
  TrainOptions options;
  options.num_trees = trees;
  options.seed = 3;
  Result<Forest> forest = Train(data.value(), options);
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

void RequireSamePrior(const Prior& a, const Prior& b) {
  REQUIRE(a.kind() == b.kind());
  REQUIRE(a.num_classes() == b.num_classes());
  REQUIRE(a.num_trees() == b.num_trees());
  REQUIRE(a.histogram() == b.histogram());
  REQUIRE(a.components().size() == b.components().size());
  for (size_t i = 0; i < a.components().size(); ++i) {
    REQUIRE(a.components()[i].weight == b.components()[i].weight);
    REQUIRE(a.components()[i].beta == b.components()[i].beta);
  }
}

}  // namespace

TEST_CASE(
    "BuildForestTableWithPrior builds the table BuildForestTable builds, with its rule's prior",
    "[forest_table]") {
  const Forest forest = TrainOn("waveform", 25);
  for (HaltingRule rule :
       {HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper, HaltingRule::kOneDir,
        HaltingRule::kNDir, HaltingRule::kInfinite, HaltingRule::kOptimal}) {
    INFO("rule " << RuleName(rule));
    for (int32_t trees : {0, 17}) {
      Result<ForestTable> got = BuildForestTableWithPrior(forest, rule, 0.97, trees);
      REQUIRE(got.ok());
      CHECK_FALSE(got.value().from_store);
      Result<HaltingTable> table = BuildForestTable(forest, rule, 0.97, trees);
      REQUIRE(table.ok());
      REQUIRE(got.value().table.ToBytes() == table.value().ToBytes());
      Result<Prior> prior = PriorForForest(forest, rule, trees);
      REQUIRE(prior.ok());
      RequireSamePrior(got.value().prior, prior.value());
    }
  }
}

TEST_CASE("BuildForestTableWithPrior returns a stored table and still estimates the prior",
          "[forest_table][stored_tables]") {
  Forest forest = TrainOn("waveform", 21);
  REQUIRE(StoreForestTable(&forest, HaltingRule::kHyper, 0.9, 15).ok());
  Result<ForestTable> got = BuildForestTableWithPrior(forest, HaltingRule::kHyper, 0.9, 15);
  REQUIRE(got.ok());
  CHECK(got.value().from_store);
  CHECK(got.value().table.ToBytes() ==
        forest.FindStoredTable(HaltingRule::kHyper, 0.9, 15)->ToBytes());
  RequireSamePrior(got.value().prior, PriorForForest(forest, HaltingRule::kHyper, 15).value());
  CHECK_FALSE(BuildForestTableWithPrior(forest, HaltingRule::kHyper, 0.9, 16).value().from_store);
}

TEST_CASE("BuildForestTableWithPrior builds hyper beyond four classes and fails on too many trees",
          "[forest_table]") {
  const Forest many = TrainOn("led", 9);
  REQUIRE(many.num_classes() > 4);
  auto hyper = BuildForestTableWithPrior(many, HaltingRule::kHyper, 0.99);
  REQUIRE(hyper.ok());
  CHECK(hyper.value().prior.kind() == urnforest::PriorKind::kDirichletMixture);
  CHECK(hyper.value().table.layout() == urnforest::TableLayout::kOnDemand);
  const Forest forest = TrainOn("waveform", 9);
  CHECK(BuildForestTableWithPrior(forest, HaltingRule::kSiba, 0.99, 10).status().code ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("A ten-class forest stores an on-demand hyper table that reloads with the same decisions",
          "[forest_table][serialize]") {
  Forest forest = TrainOn("led", 41);
  REQUIRE(StoreForestTable(&forest, HaltingRule::kHyper, 0.99).ok());
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  Result<Forest> back = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  const HaltingTable* stored = back.value().FindStoredTable(HaltingRule::kHyper, 0.99, 41);
  REQUIRE(stored != nullptr);
  CHECK(stored->layout() == TableLayout::kOnDemand);
  Result<HaltingTable> built = BuildForestTable(forest, HaltingRule::kHyper, 0.99);
  REQUIRE(built.ok());
  std::vector<int32_t> tally(10, 0);
  for (int32_t n = 0; n < 41; ++n) {
    ++tally[n % 3 == 0 ? 4 : 7];
    CHECK(stored->Halts(tally.data()) == built.value().Halts(tally.data()));
    CHECK(stored->Confidence(tally.data()) == built.value().Confidence(tally.data()));
  }
  CHECK(SerializeForest(back.value()) == bytes);
}
