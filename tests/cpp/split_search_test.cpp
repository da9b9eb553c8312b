#include "tree/split_search.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "base/random.h"

using urnforest::internal::kMissingKey;
using urnforest::internal::KeyToFloat;
using urnforest::internal::MidpointThreshold;
using urnforest::internal::NodeRows;
using urnforest::internal::SortableKey;
using urnforest::internal::SplitChoice;
using urnforest::internal::SplitSearch;

namespace {

struct Node {
  std::vector<uint32_t> rows, labels, weights, keys;
  NodeRows view() const { return NodeRows{rows.data(), rows.size(), labels.data(), weights.data()}; }
};

Node MakeNumeric(const std::vector<float>& x, const std::vector<uint32_t>& y) {
  Node n;
  for (size_t i = 0; i < x.size(); ++i) {
    n.rows.push_back(static_cast<uint32_t>(i));
    n.labels.push_back(y[i]);
    n.weights.push_back(1);
    n.keys.push_back(std::isnan(x[i]) ? kMissingKey : SortableKey(x[i]));
  }
  return n;
}

}  // namespace

TEST_CASE("Numeric split search finds the midpoint between the two class blocks", "[split]") {
  Node n = MakeNumeric({3, 1, 12, 2, 10, 11}, {0, 0, 1, 0, 1, 1});
  SplitSearch search(2, 1);
  SplitChoice best;
  REQUIRE(search.SearchNumeric(n.view(), n.keys.data(), 0, &best));
  REQUIRE(best.found);
  REQUIRE(best.threshold == 6.5f);
  REQUIRE(best.score == Approx(6.0));
}

TEST_CASE("Numeric split search picks the best Gini threshold on an impure hand case", "[split]") {
  Node n = MakeNumeric({1, 2, 3, 4, 5, 6}, {0, 0, 0, 1, 0, 1});
  SplitSearch search(2, 1);
  SplitChoice best;
  search.SearchNumeric(n.view(), n.keys.data(), 0, &best);
  REQUIRE(best.threshold == 3.5f);
  REQUIRE(best.score == Approx(3.0 + 5.0 / 3.0));
}

TEST_CASE("A constant feature yields no split", "[split]") {
  Node n = MakeNumeric({2, 2, 2, NAN}, {0, 1, 0, 1});
  SplitSearch search(2, 1);
  SplitChoice best;
  REQUIRE_FALSE(search.SearchNumeric(n.view(), n.keys.data(), 0, &best));
  REQUIRE_FALSE(best.found);
}

TEST_CASE("Missing values go to the side whose classes they match", "[split][missing]") {
  SplitSearch search(2, 1);
  SECTION("missing rows of class 1 go right with the class-1 block") {
    Node n = MakeNumeric({1, 2, 3, 7, 8, 9, NAN, NAN}, {0, 0, 0, 1, 1, 1, 1, 1});
    SplitChoice best;
    search.SearchNumeric(n.view(), n.keys.data(), 0, &best);
    REQUIRE(best.threshold == 5.0f);
    REQUIRE_FALSE(best.missing_left);
  }
  SECTION("missing rows of class 0 go left with the class-0 block") {
    Node n = MakeNumeric({1, 2, 3, 7, 8, 9, NAN, NAN}, {0, 0, 0, 1, 1, 1, 0, 0});
    SplitChoice best;
    search.SearchNumeric(n.view(), n.keys.data(), 0, &best);
    REQUIRE(best.missing_left);
  }
  SECTION("without missing rows, missing follows the larger child") {
    Node n = MakeNumeric({1, 2, 7, 8, 9}, {0, 0, 1, 1, 1});
    SplitChoice best;
    search.SearchNumeric(n.view(), n.keys.data(), 0, &best);
    REQUIRE_FALSE(best.missing_left);
  }
}

TEST_CASE("Bootstrap weights count as repeated rows", "[split]") {
  Node n = MakeNumeric({1, 2, 3}, {0, 1, 1});
  n.weights = {5, 1, 1};
  SplitSearch search(2, 1);
  SplitChoice best;
  search.SearchNumeric(n.view(), n.keys.data(), 0, &best);
  REQUIRE(best.threshold == 1.5f);
  REQUIRE(best.score == Approx(25.0 / 5 + 4.0 / 2));
}

TEST_CASE("Categorical search splits {a,c} from {b}, which no ordered split could", "[split][categorical]") {
  Node n;
  const std::vector<uint32_t> cats = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  for (uint32_t i = 0; i < cats.size(); ++i) {
    n.rows.push_back(i);
    n.keys.push_back(cats[i]);
    n.labels.push_back(cats[i] == 1 ? 1 : 0);
    n.weights.push_back(1);
  }
  SECTION("two classes: categories ordered by class-1 proportion") {
    SplitSearch search(2, 1);
    SplitChoice best;
    REQUIRE(search.SearchCategorical(n.view(), n.keys.data(), 3, 0, &best));
    REQUIRE(best.categorical);
    std::vector<uint32_t> left = best.left_categories, right = best.right_categories;
    std::sort(left.begin(), left.end());
    REQUIRE(left == std::vector<uint32_t>{0, 2});
    REQUIRE(right == std::vector<uint32_t>{1});
  }
  SECTION("three classes: exhaustive subsets") {
    for (uint32_t i = 0; i < cats.size(); ++i) n.labels[i] = cats[i] == 1 ? 2 : 0;
    SplitSearch search(3, 1);
    SplitChoice best;
    search.SearchCategorical(n.view(), n.keys.data(), 3, 0, &best);
    std::vector<uint32_t> a = best.left_categories, b = best.right_categories;
    if (a.size() == 1) std::swap(a, b);
    std::sort(a.begin(), a.end());
    REQUIRE(a == std::vector<uint32_t>{0, 2});
    REQUIRE(b == std::vector<uint32_t>{1});
  }
}

TEST_CASE("Categorical search with many categories and classes finds a perfect split when one exists", "[split][categorical]") {
  // 14 categories, 3 classes: class 2 exactly on the odd categories -> a pure-ish separation of
  // the class-2 categories is found by ordering on p(2 | category).
  Node n;
  uint32_t row = 0;
  for (uint32_t cat = 0; cat < 14; ++cat) {
    for (uint32_t k = 0; k < 4; ++k) {
      n.rows.push_back(row++);
      n.keys.push_back(cat);
      n.labels.push_back(cat % 2 == 1 ? 2 : (k % 2));
      n.weights.push_back(1);
    }
  }
  SplitSearch search(3, 1);
  SplitChoice best;
  search.SearchCategorical(n.view(), n.keys.data(), 14, 0, &best);
  REQUIRE(best.found);
  std::vector<uint32_t> side = best.left_categories.size() == 7 ? best.left_categories
                                                                : best.right_categories;
  std::sort(side.begin(), side.end());
  REQUIRE(side.size() == 7);
  for (uint32_t c : side) REQUIRE(side[0] % 2 == c % 2);
}

TEST_CASE("Sortable keys preserve float order and merge signed zeros", "[split]") {
  const std::vector<float> v = {-1e30f, -2.5f, -1e-40f, -0.0f, 0.0f, 1e-40f, 1.0f, 3e38f};
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    if (v[i] == v[i + 1]) {
      REQUIRE(SortableKey(v[i]) == SortableKey(v[i + 1]));
    } else {
      REQUIRE(SortableKey(v[i]) < SortableKey(v[i + 1]));
    }
    REQUIRE(KeyToFloat(SortableKey(v[i])) == v[i]);
  }
}

TEST_CASE("Midpoint thresholds separate consecutive values even when the midpoint rounds up", "[split]") {
  const float a = 1.0f;
  const float b = std::nextafter(a, 2.0f);
  const float t = MidpointThreshold(a, b);
  REQUIRE(a <= t);
  REQUIRE(t < b);
  urnforest::internal::Rng rng(7);
  for (int i = 0; i < 100000; ++i) {
    const float x = static_cast<float>((rng.Uniform() - 0.5) * std::ldexp(1.0, static_cast<int>(rng.Below(40)) - 20));
    const float y = (rng.Below(2) == 0) ? std::nextafter(x, 1e30f) : static_cast<float>(x + rng.Uniform());
    if (!(x < y)) continue;
    const float m = MidpointThreshold(x, y);
    REQUIRE(x <= m);
    REQUIRE(m < y);
  }
  REQUIRE(MidpointThreshold(1.0f, 2.0f) == 1.5f);
}
