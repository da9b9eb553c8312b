#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/ordering.h"
#include "urnforest/vote_matrix.h"

using namespace urnforest;

namespace {

// Trees given by their vote per row (tree-major), all rows labelled 0 unless stated.
VoteMatrix Matrix(int32_t trees, int32_t classes, std::vector<int32_t> votes,
                  std::vector<int32_t> labels) {
  Result<VoteMatrix> m = MakeVoteMatrix(trees, classes, std::move(votes), std::move(labels));
  REQUIRE(m.ok());
  return std::move(m).value();
}

std::vector<int32_t> Order(const VoteMatrix& m, Ordering o) {
  OrderingOptions options;
  options.ordering = o;
  Result<std::vector<int32_t>> order = OrderTrees(m, options);
  REQUIRE(order.ok());
  return order.value();
}

// Reference cases: orders computed independently from the thesis's formulas (exact fractions,
// Euclidean distances and angles; scripts/ordering_reference.py).
const std::vector<int32_t> kBinaryVotes = {
    1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0,
    1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 0};
const std::vector<int32_t> kBinaryLabels = {0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 0};
const std::vector<int32_t> kTernaryVotes = {
    0, 0, 0, 2, 2, 2, 2, 1, 1, 2, 0, 2, 2, 2, 2, 0, 0, 0, 1, 0, 2, 2, 1, 2, 2, 1, 1,
    0, 1, 2, 2, 2, 0, 1, 2, 2, 2, 1, 1, 2, 1, 2, 2, 2, 2, 1, 0, 2, 1, 0, 2, 2, 1, 1,
    2, 1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 2, 0, 1, 2, 0, 2, 0, 2, 2, 1, 0, 0, 2, 0, 2,
    2, 0, 0, 2, 0, 0, 0, 2, 2, 0, 0, 0, 1, 0, 2, 2, 0, 1, 2, 0, 2, 0, 2, 1};
const std::vector<int32_t> kTernaryLabels = {0, 0, 0, 1, 0, 2, 2, 1, 1, 2, 0, 2, 0, 2, 2};

}  // namespace

TEST_CASE("Every ordering matches the reference order on a binary 7-tree vote matrix", "[ordering]") {
  const VoteMatrix m = Matrix(7, 2, kBinaryVotes, kBinaryLabels);
  CHECK(Order(m, Ordering::kEarly) == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6});
  CHECK(Order(m, Ordering::kReduceError) == std::vector<int32_t>{6, 3, 4, 1, 0, 2, 5});
  CHECK(Order(m, Ordering::kComplementarity) == std::vector<int32_t>{6, 0, 1, 2, 3, 4, 5});
  CHECK(Order(m, Ordering::kMarginDistance) == std::vector<int32_t>{6, 0, 1, 2, 4, 5, 3});
  CHECK(Order(m, Ordering::kOrientation) == std::vector<int32_t>{6, 4, 5, 1, 3, 2, 0});
  CHECK(Order(m, Ordering::kBoosting) == std::vector<int32_t>{6, 4, 5, 3, 1, 0, 2});
  CHECK(Order(m, Ordering::kKappa) == std::vector<int32_t>{6, 0, 1, 2, 3, 4, 5});
  CHECK(Order(m, Ordering::kGreedySdp) == std::vector<int32_t>{6, 4, 5, 3, 1, 2, 0});
}

TEST_CASE("Every ordering matches the reference order on a three-class 7-tree vote matrix", "[ordering]") {
  const VoteMatrix m = Matrix(7, 3, kTernaryVotes, kTernaryLabels);
  CHECK(Order(m, Ordering::kReduceError) == std::vector<int32_t>{6, 0, 1, 2, 4, 3, 5});
  CHECK(Order(m, Ordering::kComplementarity) == std::vector<int32_t>{6, 0, 1, 2, 3, 4, 5});
  CHECK(Order(m, Ordering::kMarginDistance) == std::vector<int32_t>{6, 2, 1, 4, 3, 0, 5});
  CHECK(Order(m, Ordering::kOrientation) == std::vector<int32_t>{6, 0, 4, 1, 2, 3, 5});
  CHECK(Order(m, Ordering::kBoosting) == std::vector<int32_t>{6, 0, 1, 4, 3, 2, 5});
  CHECK(Order(m, Ordering::kKappa) == std::vector<int32_t>{6, 2, 1, 5, 3, 4, 0});
  CHECK(Order(m, Ordering::kGreedySdp) == std::vector<int32_t>{6, 0, 1, 4, 3, 2, 5});
}

TEST_CASE("Reduce-error breaks subensemble vote ties towards the lowest class index", "[ordering]") {
  // Rows all of class 0. t0 wrong on row 3, t1 wrong on rows 2-3, t2 right only on row 3:
  // {t0, t2} ties on every row it disagrees on, and ties go to class 0, so it is perfect.
  const VoteMatrix m = Matrix(3, 2, {0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0}, {0, 0, 0, 0});
  CHECK(Order(m, Ordering::kReduceError) == std::vector<int32_t>{0, 2, 1});
  CHECK(Order(m, Ordering::kComplementarity) == std::vector<int32_t>{0, 2, 1});
}

TEST_CASE("Boosting-based ordering prefers the tree that fixes the reweighted rows", "[ordering]") {
  // t0 and t1 are both wrong on row 0 only; t2 is wrong on rows 1 and 2. After t0 (eps 1/4)
  // row 0 carries weight 1/2, so t1's weighted error is 1/2 and t2's is 1/3.
  const VoteMatrix m = Matrix(3, 2, {1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0}, {0, 0, 0, 0});
  CHECK(Order(m, Ordering::kBoosting) == std::vector<int32_t>{0, 2, 1});
  // Greedy SDP: G = [[1,1,0],[1,1,0],[0,0,2]]; after t0, t1 costs 1 + 2 and t2 costs 2 + 0.
  CHECK(Order(m, Ordering::kGreedySdp) == std::vector<int32_t>{0, 2, 1});
  // MDM: margins c0 = c1 = (-1,1,1,1), c2 = (1,-1,-1,1); after t0, t2 moves towards o.
  CHECK(Order(m, Ordering::kMarginDistance) == std::vector<int32_t>{0, 2, 1});
}

TEST_CASE("Boosting-based ordering resets the weights after a perfect tree", "[ordering]") {
  // t1 is perfect and goes first (eps = 0); the weights stay uniform, so t0 (1 error) beats t2
  // (2 errors).
  const VoteMatrix m = Matrix(3, 2, {1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0}, {0, 0, 0, 0});
  CHECK(Order(m, Ordering::kBoosting) == std::vector<int32_t>{1, 0, 2});
}

TEST_CASE("Kappa ordering picks the candidate that disagrees most with the subensemble", "[ordering]") {
  // t0 is the most accurate; t1 copies t0 (kappa 1); t2 disagrees with t0 on half the rows.
  const VoteMatrix m = Matrix(3, 2, {0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1}, {0, 0, 1, 1});
  CHECK(Order(m, Ordering::kKappa) == std::vector<int32_t>{0, 2, 1});
}

TEST_CASE("Orientation ordering sorts by angle to the reference vector orthogonal to c_ens", "[ordering]") {
  // Three trees, three rows, labels 0. Margins: c0 = (1,1,-1), c1 = (1,-1,-1), c2 = (-1,1,1).
  // S = (1,1,-1), c_ref ~ 3e - 1*S = (2,2,4) (orthogonal to S); dot products with c_ref:
  // c0: 2+2-4 = 0, c1: 2-2-4 = -4, c2: -2+2+4 = 4, so c2 first, then c0, then c1.
  const VoteMatrix m = Matrix(3, 2, {0, 0, 1, 0, 1, 1, 1, 0, 0}, {0, 0, 0});
  CHECK(Order(m, Ordering::kOrientation) == std::vector<int32_t>{2, 0, 1});
}

TEST_CASE("Back-fitting keeps reduce-error a permutation and never lowers accuracy at its size", "[ordering]") {
  const VoteMatrix m = Matrix(7, 2, kBinaryVotes, kBinaryLabels);
  OrderingOptions o;
  o.ordering = Ordering::kReduceError;
  o.backfit_passes = 5;
  Result<std::vector<int32_t>> order = OrderTrees(m, o);
  REQUIRE(order.ok());
  CHECK(ValidateOrder(order.value(), 7).ok());
  Result<std::vector<double>> plain = ErrorCurve(m, Order(m, Ordering::kReduceError));
  Result<std::vector<double>> fitted = ErrorCurve(m, order.value());
  REQUIRE(plain.ok());
  REQUIRE(fitted.ok());
  CHECK(fitted.value()[2] <= plain.value()[2]);
}

TEST_CASE("Error curves follow the plurality vote of each prefix", "[ordering]") {
  const VoteMatrix m = Matrix(7, 2, kBinaryVotes, kBinaryLabels);
  Result<std::vector<double>> curve = ErrorCurve(m, {0, 1, 2, 3, 4, 5, 6});
  REQUIRE(curve.ok());
  const std::vector<double> expected = {5, 5, 3, 3, 2, 0, 0};
  REQUIRE(curve.value().size() == 7);
  for (size_t u = 0; u < 7; ++u) CHECK(curve.value()[u] == Approx(expected[u] / 12.0));
}

TEST_CASE("Weighted error curves use the tree weights", "[ordering]") {
  // Two rows of class 0; t0 votes 1 on both with weight 1, t1 votes 0 with weight 2.
  Result<VoteMatrix> m = MakeVoteMatrix(2, 2, {1, 1, 0, 0}, {0, 0}, {1.0, 2.0});
  REQUIRE(m.ok());
  Result<std::vector<double>> curve = ErrorCurve(m.value(), {0, 1});
  REQUIRE(curve.ok());
  CHECK(curve.value() == std::vector<double>{1.0, 0.0});
}

TEST_CASE("Ordering names round-trip and bad inputs are rejected", "[ordering]") {
  for (int32_t i = 0; i < kNumOrderings; ++i) {
    Result<Ordering> parsed = ParseOrdering(OrderingName(static_cast<Ordering>(i)));
    REQUIRE(parsed.ok());
    CHECK(static_cast<int32_t>(parsed.value()) == i);
  }
  CHECK(ParseOrdering("Boosting").status().code == StatusCode::kInvalidArgument);
  CHECK(DefaultKeep(101) == 21);
  CHECK(DefaultKeep(2) == 1);
  CHECK(DefaultKeep(10) == 2);
  CHECK(MakeVoteMatrix(2, 2, {0, 1, 0}, {0, 1}).status().code == StatusCode::kShapeMismatch);
  CHECK(MakeVoteMatrix(1, 2, {0, 2}, {0, 1}).status().code == StatusCode::kInvalidArgument);
  CHECK(ValidateOrder({0, 0, 1}, 3).code == StatusCode::kInvalidArgument);
  CHECK(ValidateOrder({0, 1}, 3).code == StatusCode::kInvalidArgument);
  const VoteMatrix m = Matrix(2, 2, {0, 1}, {0});
  OrderingOptions bad;
  bad.mdm_p = 0.0;
  CHECK(OrderTrees(m, bad).status().code == StatusCode::kInvalidArgument);
}
