// The deconvolved hyper prior (prior.h: DeconvolvedGridWeights, DeconvolvedPriorFromOob).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "urnforest/prior.h"

using urnforest::DeconvolvedGridWeights;
using urnforest::DeconvolvedPriorFromOob;
using urnforest::PriorFitOptions;
using urnforest::StatusCode;

namespace {

// Rows whose OOB tallies follow Binomial(n, p) exactly in proportion (rows_per_unit rows per unit
// of probability, rounded): binary OOB votes of rows that all share the vote probability p.
std::vector<uint32_t> BinomialRows(int32_t n, double p, double rows_per_unit) {
  std::vector<uint32_t> votes;
  for (int32_t k = 0; k <= n; ++k) {
    double pk = std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                         k * std::log(p) + (n - k) * std::log1p(-p));
    auto rows = static_cast<int32_t>(std::lround(pk * rows_per_unit));
    for (int32_t i = 0; i < rows; ++i) {
      votes.push_back(static_cast<uint32_t>(k));
      votes.push_back(static_cast<uint32_t>(n - k));
    }
  }
  return votes;
}

// Mean and variance of class 0's count under a binary histogram prior (rank = count of class 0).
void Moments(const std::vector<double>& mass, double* mean, double* var) {
  *mean = 0.0;
  for (size_t t = 0; t < mass.size(); ++t) *mean += t * mass[t];
  *var = 0.0;
  for (size_t t = 0; t < mass.size(); ++t) *var += (t - *mean) * (t - *mean) * mass[t];
}

}  // namespace

TEST_CASE("One EM step of the deconvolution matches a hand computation", "[prior][deconvolution]") {
  // Grid p0 in {0, 1/2, 1} (ranks 0, 1, 2 = k0); one row with OOB votes (1, 0). Likelihoods
  // p0^1 = (0, 1/2, 1); from uniform weights 1/3, the mixture density is 1/2, so one EM step gives
  // w = 1/3 * (0, 1/2, 1) / (1/2) = (0, 1/3, 2/3).
  auto w = DeconvolvedGridWeights({1, 0}, 2, 2, 1);
  REQUIRE(w.ok());
  REQUIRE(w.value().size() == 3);
  CHECK(w.value()[0] == 0.0);
  CHECK(w.value()[1] == Approx(1.0 / 3).epsilon(1e-15));
  CHECK(w.value()[2] == Approx(2.0 / 3).epsilon(1e-15));
}

TEST_CASE("Unanimous rows of both classes give corner masses only", "[prior][deconvolution]") {
  // Rows (3, 0) and (0, 2) on the grid {0, 1}: each is impossible under the other corner, so the
  // weights stay 1/2, 1/2 and every final tally of T = 2 votes is unanimous.
  auto w = DeconvolvedGridWeights({3, 0, 0, 2}, 2, 1, 50);
  REQUIRE(w.ok());
  CHECK(w.value()[0] == Approx(0.5));
  CHECK(w.value()[1] == Approx(0.5));
  PriorFitOptions o;
  o.uniform_mix = 0.0;
  o.deconvolution_resolution = 1;
  auto prior = DeconvolvedPriorFromOob({3, 0, 0, 2}, 2, 2, o);
  REQUIRE(prior.ok());
  const std::vector<double>& mass = prior.value().histogram();
  REQUIRE(mass.size() == 3);  // tallies (0,2), (1,1), (2,0)
  CHECK(mass[0] == Approx(0.5));
  CHECK(mass[1] == 0.0);
  CHECK(mass[2] == Approx(0.5));
}

TEST_CASE("Deconvolution removes the OOB binomial spread that rescaling adds",
          "[prior][deconvolution]") {
  // Every row votes class 0 with probability 0.9 and has 37 OOB votes. The true final tallies of
  // T = 101 votes are Binomial(101, 0.9): variance 9.09. Rescaling each OOB tally to 101 multiplies
  // the OOB variance 37 * 0.09 by (101 / 37)^2, i.e. 24.5, before smoothing.
  const std::vector<uint32_t> votes = BinomialRows(37, 0.9, 2000.0);
  PriorFitOptions o;
  o.uniform_mix = 0.0;
  auto deconvolved = DeconvolvedPriorFromOob(votes, 2, 101, o);
  auto rescaled = urnforest::HistogramPriorFromOob(votes, 2, 101, o);
  REQUIRE(deconvolved.ok());
  REQUIRE(rescaled.ok());
  double mean_d, var_d, mean_r, var_r;
  Moments(deconvolved.value().histogram(), &mean_d, &var_d);
  Moments(rescaled.value().histogram(), &mean_r, &var_r);
  CHECK(mean_d == Approx(90.9).margin(0.3));
  CHECK(var_d == Approx(9.09).epsilon(0.25));
  CHECK(var_r > 20.0);
}

TEST_CASE("The deconvolved prior is a normalised histogram for three and four classes",
          "[prior][deconvolution]") {
  const std::vector<uint32_t> three = {30, 2, 0, 0, 25, 7, 1, 1, 33, 12, 12, 10, 0, 0, 0};
  auto p3 = DeconvolvedPriorFromOob(three, 3, 21);
  REQUIRE(p3.ok());
  CHECK(p3.value().histogram().size() == 253);  // C(23, 2)
  double total = 0.0;
  for (double m : p3.value().histogram()) total += m;
  CHECK(total == Approx(1.0));
  auto p4 = DeconvolvedPriorFromOob({5, 1, 0, 0, 0, 0, 6, 1}, 4, 11);
  REQUIRE(p4.ok());
  CHECK(p4.value().histogram().size() == 364);  // C(14, 3)
}

TEST_CASE("The deconvolved prior rejects bad input with stable codes", "[prior][deconvolution]") {
  CHECK(DeconvolvedPriorFromOob({1, 2, 3, 4, 5}, 5, 11).status().code == StatusCode::kLimitExceeded);
  CHECK(DeconvolvedPriorFromOob({1, 2, 3}, 2, 11).status().code == StatusCode::kShapeMismatch);
  CHECK(DeconvolvedPriorFromOob({0, 0, 0, 0}, 2, 11).status().code == StatusCode::kInvalidArgument);
  CHECK(DeconvolvedPriorFromOob({1, 2}, 2, 0).status().code == StatusCode::kInvalidArgument);
  CHECK(DeconvolvedGridWeights({1, 2}, 2, 0, 10).status().code == StatusCode::kInvalidArgument);
  CHECK(DeconvolvedGridWeights({1, 2}, 2, 10, 0).status().code == StatusCode::kInvalidArgument);
}
