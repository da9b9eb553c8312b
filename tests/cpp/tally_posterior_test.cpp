#include "urnforest/tally_posterior.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/halts_many.h"
#include "urnforest/prior.h"
#include "urnforest/pstar.h"
#include "urnforest/vote.h"

using namespace urnforest;

namespace {

// Sum of the posterior over the final tallies whose strict winner is `leader`.
double AgreementOf(const TallyPosterior& p, int32_t leader) {
  const size_t l = static_cast<size_t>(p.num_classes);
  double sum = 0.0;
  for (size_t k = 0; k < p.probability.size(); ++k) {
    const int32_t* t = p.tallies.data() + k * l;
    bool strict = true;
    for (size_t i = 0; i < l; ++i) {
      if (static_cast<int32_t>(i) != leader && t[i] >= t[leader]) strict = false;
    }
    if (strict) sum += p.probability[k];
  }
  return sum;
}

double Choose(int32_t n, int32_t k) {
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0));
}

}  // namespace

TEST_CASE(
    "FinalTallyPosterior of two classes under the uniform prior is proportional to C(T1, a) C(T2, "
    "b)",
    "[tally_posterior]") {
  const Prior uniform = Prior::Uniform(2).value();
  Result<TallyPosterior> p = FinalTallyPosterior(uniform, 10, {3, 1});
  REQUIRE(p.ok());
  REQUIRE(p.value().probability.size() == 7);  // T1 = 3..9
  double total = 0.0;
  for (int32_t t1 = 3; t1 <= 9; ++t1) total += Choose(t1, 3) * Choose(10 - t1, 1);
  for (int32_t k = 0; k < 7; ++k) {
    CHECK(p.value().tallies[2 * k] == 3 + k);
    CHECK(p.value().tallies[2 * k + 1] == 7 - k);
    CHECK(p.value().probability[k] ==
          Approx(Choose(3 + k, 3) * Choose(7 - k, 1) / total).epsilon(1e-12));
  }
}

TEST_CASE("FinalTallyPosterior's mass on the leader's strict wins is P* for every prior family",
          "[tally_posterior]") {
  const int32_t trees = 15;
  std::vector<Prior> priors = {
      Prior::Uniform(3).value(), Prior::Dirichlet({0.4, 1.0, 2.5}).value(),
      Prior::Mixture({{0.3, {2.0, 0.5, 0.5}}, {0.7, {0.5, 0.5, 3.0}}}).value()};
  std::vector<double> mass = FinalTallyMass(priors[1], trees).value();
  for (size_t r = 0; r < mass.size(); ++r) mass[r] *= 1.0 + 0.5 * std::sin(static_cast<double>(r));
  priors.push_back(Prior::Histogram(3, trees, mass).value());
  const std::vector<std::vector<int32_t>> tallies = {{4, 1, 0}, {2, 3, 1}, {0, 0, 5}, {1, 0, 0}};
  for (const Prior& prior : priors) {
    for (const std::vector<int32_t>& t : tallies) {
      Result<TallyPosterior> p = FinalTallyPosterior(prior, trees, t);
      REQUIRE(p.ok());
      double sum = 0.0;
      for (double q : p.value().probability) sum += q;
      CHECK(sum == Approx(1.0).epsilon(1e-12));
      int32_t leader = 0;
      for (int32_t i = 1; i < 3; ++i) {
        if (t[i] > t[leader]) leader = i;
      }
      CHECK(AgreementOf(p.value(), leader) ==
            Approx(PStarBySum(prior, trees, t).value()).epsilon(1e-9));
    }
  }
}

TEST_CASE("FinalTallyPosterior gives agreement 1 once the lead exceeds the votes left",
          "[tally_posterior]") {
  Result<TallyPosterior> p = FinalTallyPosterior(Prior::Uniform(2).value(), 9, {6, 1});
  REQUIRE(p.ok());
  CHECK(AgreementOf(p.value(), 0) == Approx(1.0));
  Result<TallyPosterior> done = FinalTallyPosterior(Prior::Uniform(3).value(), 4, {2, 1, 1});
  REQUIRE(done.ok());
  CHECK(done.value().tallies == std::vector<int32_t>{2, 1, 1});
  CHECK(done.value().probability == std::vector<double>{1.0});
}

TEST_CASE("FinalTallyPosterior's win per class sums to 1 minus the mass of tied final tallies",
          "[tally_posterior]") {
  const std::vector<Prior> priors = {Prior::Uniform(3).value(),
                                     Prior::Dirichlet({0.4, 1.0, 2.5}).value()};
  for (const Prior& prior : priors) {
    for (const std::vector<int32_t>& t : std::vector<std::vector<int32_t>>{{0, 0, 0}, {2, 3, 1}}) {
      Result<TallyPosterior> p = FinalTallyPosterior(prior, 12, t);
      REQUIRE(p.ok());
      REQUIRE(p.value().win.size() == 3);
      double tied = 0.0;
      for (size_t k = 0; k < p.value().probability.size(); ++k) {
        if (StrictLeader(p.value().tallies.data() + 3 * k, 3) < 0) tied += p.value().probability[k];
      }
      CHECK(tied > 0.0);
      CHECK(p.value().win[0] + p.value().win[1] + p.value().win[2] ==
            Approx(1.0 - tied).epsilon(1e-12));
      for (int32_t c = 0; c < 3; ++c) {
        CHECK(p.value().win[c] == Approx(AgreementOf(p.value(), c)).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE(
    "FinalTallyPosterior's win of two classes is the mass on each side of the middle, its leader "
    "the partial tally's",
    "[tally_posterior]") {
  Result<TallyPosterior> p = FinalTallyPosterior(Prior::Uniform(2).value(), 10, {3, 1});
  REQUIRE(p.ok());
  double first = 0.0;
  double second = 0.0;
  for (size_t k = 0; k < p.value().probability.size(); ++k) {
    const int32_t t0 = p.value().tallies[2 * k];
    if (t0 > 5) first += p.value().probability[k];
    if (t0 < 5) second += p.value().probability[k];
  }
  REQUIRE(p.value().win.size() == 2);
  CHECK(p.value().win[0] == Approx(first).epsilon(1e-12));
  CHECK(p.value().win[1] == Approx(second).epsilon(1e-12));
  CHECK(p.value().leader == 0);
  CHECK(FinalTallyPosterior(Prior::Uniform(2).value(), 10, {2, 2}).value().leader == -1);
}

TEST_CASE("FinalTallyPosterior rejects tallies that do not fit", "[tally_posterior]") {
  const Prior uniform = Prior::Uniform(2).value();
  CHECK(FinalTallyPosterior(uniform, 5, {1, 1, 1}).status().code == StatusCode::kShapeMismatch);
  CHECK(FinalTallyPosterior(uniform, 5, {-1, 1}).status().code == StatusCode::kInvalidArgument);
  CHECK(FinalTallyPosterior(uniform, 5, {4, 2}).status().code == StatusCode::kInvalidArgument);
  CHECK(FinalTallyPosterior(Prior::Uniform(5).value(), 5, {1, 0, 0, 0, 0}).status().code ==
        StatusCode::kLimitExceeded);
}

TEST_CASE("HaltsMany answers Halts for every tally of a batch", "[halts_many]") {
  HaltingTableOptions o;
  o.num_trees = 12;
  o.num_classes = 3;
  o.alpha = 0.9;
  const HaltingTable table = BuildHaltingTable(o).value();
  std::vector<int32_t> tallies;
  std::vector<uint8_t> expect;
  for (int32_t a = 0; a <= 12; ++a) {
    for (int32_t b = 0; a + b <= 12; ++b) {
      for (int32_t c = 0; a + b + c <= 12; c += 3) {
        const int32_t t[3] = {a, b, c};
        tallies.insert(tallies.end(), t, t + 3);
        expect.push_back(table.Halts(t) ? 1 : 0);
      }
    }
  }
  Result<std::vector<uint8_t>> got = HaltsMany(table, tallies);
  REQUIRE(got.ok());
  CHECK(got.value() == expect);
  CHECK(HaltsMany(table, {}).value().empty());
  CHECK(HaltsMany(table, {1, 2}).status().code == StatusCode::kShapeMismatch);
  CHECK(HaltsMany(table, {1, 2, 0, 5, 5, 5}).status().code == StatusCode::kInvalidArgument);
  CHECK(HaltsMany(table, {1, -2, 0}).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("PosteriorMeanShares is the brute-force posterior mean of the final shares for every prior family",
          "[tally_posterior][probabilities]") {
  const int32_t trees = 12;
  std::vector<Prior> priors = {
      Prior::Uniform(3).value(), Prior::Dirichlet({0.4, 1.0, 2.5}).value(),
      Prior::Mixture({{0.3, {2.0, 0.5, 0.5}}, {0.7, {0.5, 0.5, 3.0}}}).value()};
  std::vector<double> mass = FinalTallyMass(priors[1], trees).value();
  for (size_t r = 0; r < mass.size(); ++r) mass[r] *= 1.0 + 0.5 * std::sin(static_cast<double>(r));
  priors.push_back(Prior::Histogram(3, trees, mass).value());
  priors.push_back(
      Prior::TallyMixture(3, trees, {8, 3, 1, 0, 2, 10, 4, 4, 4}, {0.5, 0.3, 0.2}, 0.1).value());
  const std::vector<std::vector<int32_t>> tallies = {{4, 1, 0}, {2, 3, 1}, {0, 0, 5}, {1, 0, 0}, {0, 0, 0}};
  for (const Prior& prior : priors) {
    for (const std::vector<int32_t>& t : tallies) {
      TallyPosterior p = FinalTallyPosterior(prior, trees, t).value();
      double shares[3];
      REQUIRE(PosteriorMeanShares(prior, trees, t.data(), shares).ok());
      double sum = 0.0;
      for (int32_t i = 0; i < 3; ++i) {
        double brute = 0.0;
        for (size_t k = 0; k < p.probability.size(); ++k) brute += p.probability[k] * p.tallies[k * 3 + i];
        CHECK(shares[i] == Approx(brute / trees).epsilon(1e-9));
        sum += shares[i];
      }
      CHECK(sum == Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("PosteriorMeanShares of a tally of all T votes is its vote shares", "[tally_posterior][probabilities]") {
  const std::vector<int32_t> t = {5, 2, 0};
  double shares[3];
  REQUIRE(PosteriorMeanShares(Prior::Dirichlet({0.4, 1.0, 2.5}).value(), 7, t.data(), shares).ok());
  CHECK(shares[0] == 5.0 / 7.0);
  CHECK(shares[1] == 2.0 / 7.0);
  CHECK(shares[2] == 0.0);
}

TEST_CASE("PosteriorMeanShares under the uniform prior moves each share toward (t_i + 1) / (n + l)",
          "[tally_posterior][probabilities]") {
  const std::vector<int32_t> t = {3, 0};
  double shares[2];
  REQUIRE(PosteriorMeanShares(Prior::Uniform(2).value(), 11, t.data(), shares).ok());
  // E[T_0 | t] = 3 + 8 * 4 / 5.
  CHECK(shares[0] == Approx((3.0 + 8.0 * 4.0 / 5.0) / 11.0));
  CHECK(shares[1] == Approx(8.0 * 1.0 / 5.0 / 11.0));
}

TEST_CASE("PosteriorMeanShares rejects tallies that do not fit", "[tally_posterior][probabilities]") {
  const Prior prior = Prior::Uniform(2).value();
  const std::vector<int32_t> too_many = {6, 6};
  const std::vector<int32_t> negative = {-1, 2};
  double shares[2];
  CHECK(PosteriorMeanShares(prior, 11, too_many.data(), shares).code == StatusCode::kInvalidArgument);
  CHECK(PosteriorMeanShares(prior, 11, negative.data(), shares).code == StatusCode::kInvalidArgument);
  CHECK(PosteriorMeanShares(prior, 0, too_many.data(), shares).code == StatusCode::kInvalidArgument);
}
