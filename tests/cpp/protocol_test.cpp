#include "urnforest/protocol.h"

#include <algorithm>
#include <set>
#include <vector>

#include <catch2/catch.hpp>

using namespace urnforest;

namespace {
std::vector<int32_t> Labels(int32_t n0, int32_t n1, int32_t n2) {
  std::vector<int32_t> y;
  y.insert(y.end(), n0, 0);
  y.insert(y.end(), n1, 1);
  y.insert(y.end(), n2, 2);
  std::reverse(y.begin() + n0 / 2, y.end());
  return y;
}
}  // namespace

TEST_CASE("Stratified k-fold test sets are disjoint, cover every row, and hold floor or ceil of each class", "[protocol]") {
  const std::vector<int32_t> y = Labels(53, 31, 17);
  KFoldOptions o;
  o.folds = 10;
  o.repeats = 3;
  o.seed = 7;
  Result<std::vector<Partition>> parts = RepeatedKFold(y, 3, o);
  REQUIRE(parts.ok());
  REQUIRE(parts.value().size() == 30);
  const int32_t class_size[3] = {53, 31, 17};
  for (int32_t rep = 0; rep < 3; ++rep) {
    std::vector<int32_t> seen(y.size(), 0);
    size_t min_size = y.size(), max_size = 0;
    for (int32_t f = 0; f < 10; ++f) {
      const Partition& p = parts.value()[rep * 10 + f];
      REQUIRE(p.repeat == rep);
      REQUIRE(p.fold == f);
      REQUIRE(p.train.size() + p.test.size() == y.size());
      REQUIRE(std::is_sorted(p.test.begin(), p.test.end()));
      std::set<size_t> train(p.train.begin(), p.train.end());
      int32_t per_class[3] = {0, 0, 0};
      for (size_t r : p.test) {
        REQUIRE(train.count(r) == 0);
        ++seen[r];
        ++per_class[y[r]];
      }
      for (int32_t c = 0; c < 3; ++c) {
        REQUIRE(per_class[c] >= class_size[c] / 10);
        REQUIRE(per_class[c] <= (class_size[c] + 9) / 10);
      }
      min_size = std::min(min_size, p.test.size());
      max_size = std::max(max_size, p.test.size());
    }
    REQUIRE(max_size - min_size <= 1);
    for (int32_t s : seen) REQUIRE(s == 1);
  }
}

TEST_CASE("Repetitions reshuffle and the same seed gives the same folds", "[protocol][determinism]") {
  const std::vector<int32_t> y = Labels(40, 40, 0);
  KFoldOptions o;
  o.repeats = 2;
  auto a = RepeatedKFold(y, 2, o).value();
  auto b = RepeatedKFold(y, 2, o).value();
  for (size_t i = 0; i < a.size(); ++i) REQUIRE(a[i].test == b[i].test);
  REQUIRE(a[0].test != a[10].test);
  o.seed = 2;
  REQUIRE(RepeatedKFold(y, 2, o).value()[0].test != a[0].test);
}

TEST_CASE("Unstratified k-fold still partitions every row once", "[protocol]") {
  const std::vector<int32_t> y = Labels(20, 3, 2);
  KFoldOptions o;
  o.folds = 5;
  o.repeats = 1;
  o.stratified = false;
  auto parts = RepeatedKFold(y, 3, o).value();
  std::vector<int32_t> seen(y.size(), 0);
  for (const Partition& p : parts) {
    REQUIRE(p.test.size() == 5);
    for (size_t r : p.test) ++seen[r];
  }
  for (int32_t s : seen) REQUIRE(s == 1);
}

TEST_CASE("Stratified holdout puts round(n_c / 3) rows of every class in the test set", "[protocol]") {
  const std::vector<int32_t> y = Labels(60, 30, 9);
  HoldoutOptions o;
  o.repeats = 5;
  auto parts = RepeatedHoldout(y, 3, o).value();
  REQUIRE(parts.size() == 5);
  for (const Partition& p : parts) {
    int32_t per_class[3] = {0, 0, 0};
    for (size_t r : p.test) ++per_class[y[r]];
    REQUIRE(per_class[0] == 20);
    REQUIRE(per_class[1] == 10);
    REQUIRE(per_class[2] == 3);
    REQUIRE(p.train.size() == 66);
    std::set<size_t> test(p.test.begin(), p.test.end());
    for (size_t r : p.train) REQUIRE(test.count(r) == 0);
  }
  REQUIRE(parts[0].test != parts[1].test);
}

TEST_CASE("Unstratified holdout draws round(n / 3) rows", "[protocol]") {
  const std::vector<int32_t> y = Labels(50, 25, 25);
  HoldoutOptions o;
  o.repeats = 2;
  o.stratified = false;
  auto parts = RepeatedHoldout(y, 3, o).value();
  REQUIRE(parts[0].test.size() == 33);
  REQUIRE(parts[0].train.size() == 67);
}

TEST_CASE("Protocols reject bad fold counts, fractions and labels", "[protocol][errors]") {
  const std::vector<int32_t> y = Labels(5, 5, 0);
  KFoldOptions k;
  k.folds = 11;
  REQUIRE(RepeatedKFold(y, 2, k).status().code == StatusCode::kInvalidArgument);
  k.folds = 1;
  REQUIRE(RepeatedKFold(y, 2, k).status().code == StatusCode::kInvalidArgument);
  k.folds = 2;
  REQUIRE(RepeatedKFold({0, 1, 2}, 2, k).status().code == StatusCode::kInvalidArgument);
  HoldoutOptions h;
  h.test_fraction = 1.0;
  REQUIRE(RepeatedHoldout(y, 2, h).status().code == StatusCode::kInvalidArgument);
  h.test_fraction = 0.01;
  REQUIRE(RepeatedHoldout(y, 2, h).status().code == StatusCode::kInvalidArgument);
}
