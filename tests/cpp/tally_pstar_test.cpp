#include "urnforest/tally_pstar.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/pstar.h"

using namespace urnforest;

namespace {

HaltingTable Table(HaltingRule rule, int32_t trees, int32_t classes, const Prior* prior = nullptr) {
  HaltingTableOptions o;
  o.rule = rule;
  o.num_trees = trees;
  o.num_classes = classes;
  o.alpha = 0.95;
  Result<HaltingTable> table = BuildHaltingTable(o, prior);
  REQUIRE(table.ok());
  return std::move(table).value();
}

Prior Uniform(int32_t classes) { return Prior::Uniform(classes).value(); }

}  // namespace

TEST_CASE("PStarOfTally sums over final tallies for finite rules with at most 4 classes",
          "[tally_pstar]") {
  const std::vector<int32_t> tally = {7, 2, 1};
  const HaltingTable siba = Table(HaltingRule::kSiba, 21, 3);
  Result<TallyPStar> got = PStarOfTally(siba, Uniform(3), tally);
  REQUIRE(got.ok());
  CHECK(got.value().pstar == PStarBySum(Uniform(3), 21, tally).value());
  CHECK(got.value().exact);
  CHECK(got.value().leader == 0);
  CHECK(got.value().halts == siba.Halts(tally.data()));
  const Prior dirichlet = Prior::Dirichlet({0.5, 1.5, 2.0}).value();
  const HaltingTable one_dir = Table(HaltingRule::kOneDir, 21, 3, &dirichlet);
  CHECK(PStarOfTally(one_dir, dirichlet, tally).value().pstar ==
        PStarBySum(dirichlet, 21, tally).value());
}

TEST_CASE("PStarOfTally reads alpha1's confidence and the infinite rule's lower bound",
          "[tally_pstar]") {
  const std::vector<int32_t> two = {5, 1};
  const HaltingTable alpha1 = Table(HaltingRule::kAlpha1, 11, 2);
  TallyPStar a = PStarOfTally(alpha1, Uniform(2), two).value();
  CHECK(a.pstar == alpha1.Confidence(two.data()));
  CHECK(a.exact);
  const HaltingTable infinite2 = Table(HaltingRule::kInfinite, 11, 2);
  TallyPStar b = PStarOfTally(infinite2, Uniform(2), two).value();
  CHECK(b.pstar == InfiniteLowerBound(two, 0));
  CHECK(b.exact);
  const std::vector<int32_t> three = {4, 1, 1};
  const HaltingTable infinite3 = Table(HaltingRule::kInfinite, 11, 3);
  TallyPStar c = PStarOfTally(infinite3, Uniform(3), three).value();
  CHECK(c.pstar == InfiniteLowerBound(three, 0));
  CHECK_FALSE(c.exact);
  const std::vector<int32_t> tie = {2, 2, 1};
  TallyPStar d = PStarOfTally(infinite3, Uniform(3), tie).value();
  CHECK(d.leader == -1);
  CHECK(d.pstar == 0.0);
}

TEST_CASE("PStarOfTally falls back to the table's confidence beyond 4 classes", "[tally_pstar]") {
  const std::vector<int32_t> tally = {6, 1, 0, 0, 1};
  const HaltingTable siba = Table(HaltingRule::kSiba, 15, 5);
  TallyPStar got = PStarOfTally(siba, Uniform(5), tally).value();
  CHECK(got.pstar == siba.Confidence(tally.data()));
  CHECK_FALSE(got.exact);
}

TEST_CASE("PStarOfTally rejects tallies that do not fit the table", "[tally_pstar]") {
  const HaltingTable siba = Table(HaltingRule::kSiba, 5, 2);
  CHECK(PStarOfTally(siba, Uniform(2), {1, 1, 1}).status().code == StatusCode::kShapeMismatch);
  CHECK(PStarOfTally(siba, Uniform(3), {1, 1}).status().code == StatusCode::kShapeMismatch);
  CHECK(PStarOfTally(siba, Uniform(2), {-1, 1}).status().code == StatusCode::kInvalidArgument);
  CHECK(PStarOfTally(siba, Uniform(2), {4, 2}).status().code == StatusCode::kInvalidArgument);
}
