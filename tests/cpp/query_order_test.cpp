#include "urnforest/query_order.h"

#include <catch2/catch.hpp>

#include "urnforest/forest.h"

using namespace urnforest;

TEST_CASE("Vote-boosted ensembles are queried in a random order by default", "[query_order]") {
  REQUIRE(DefaultQueryOrder(EnsembleKind::kVoteBoost) == QueryOrder::kRandomPerRow);
}

TEST_CASE("Random forests and bagging are queried in generation order, already a random order",
          "[query_order]") {
  REQUIRE(DefaultQueryOrder(EnsembleKind::kRandomForest) == QueryOrder::kGeneration);
  REQUIRE(DefaultQueryOrder(EnsembleKind::kBagging) == QueryOrder::kGeneration);
}

TEST_CASE("AdaBoost keeps its generation order by default (the thesis's IB-SEQ)", "[query_order]") {
  REQUIRE(DefaultQueryOrder(EnsembleKind::kAdaBoost) == QueryOrder::kGeneration);
}

TEST_CASE("A forest's default query order is that of its ensemble kind", "[query_order]") {
  REQUIRE(DefaultQueryOrder(Forest()) == QueryOrder::kGeneration);
}
