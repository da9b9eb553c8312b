#include "urnforest/halting_table.h"

#include <catch2/catch.hpp>

#include <vector>

using urnforest::BuildHaltingTable;
using urnforest::HaltingRule;
using urnforest::HaltingTable;
using urnforest::HaltingTableOptions;

namespace {

HaltingTable Siba(int32_t trees, double alpha, int32_t classes = 2) {
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = trees;
  o.alpha = alpha;
  o.num_classes = classes;
  auto r = BuildHaltingTable(o);
  REQUIRE(r.ok());
  return r.value();
}

std::vector<int32_t> Head(std::vector<int32_t> v, size_t n) {
  v.resize(n);
  return v;
}

}  // namespace

TEST_CASE("SIBA table for T = 101 at alpha = 0.99 matches the thesis vector", "[halting][anchor]") {
  std::vector<int32_t> want = {6,  8,  10, 12, 13, 15, 16, 18, 19, 20, 21, 23, 24, 25, 26, 27, 28,
                               29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 40, 41, 42, 43, 44,
                               44, 45, 46, 46, 47, 48, 48, 49, 49, 50, 50, 51, 51, 51, 51, 51, 51};
  HaltingTable t = Siba(101, 0.99);
  REQUIRE(t.BinaryThresholds(0) == want);
  REQUIRE(t.BinaryThresholds(1) == want);
}
