#include "urnforest/risk_certificate.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

using urnforest::CertifyRisk;
using urnforest::HoeffdingBentkusPValue;
using urnforest::RiskCandidate;
using urnforest::RiskFamily;
using urnforest::RiskUpperBound;

namespace {

// P(Binomial(n, p) <= k) by direct summation of exact terms (small n only).
double BinomialCdf(int n, int k, double p) {
  double sum = 0.0;
  for (int i = 0; i <= k; ++i) {
    double c = 1.0;
    for (int m = 1; m <= i; ++m) c = c * (n - i + m) / m;
    sum += c * std::pow(p, i) * std::pow(1.0 - p, n - i);
  }
  return sum;
}

RiskCandidate Candidate(const std::string& name, std::vector<double> loss, double trees) {
  RiskCandidate c;
  c.name = name;
  c.trees.assign(loss.size(), trees);
  c.loss = std::move(loss);
  return c;
}

uint64_t Next(uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state >> 11;
}

}  // namespace

TEST_CASE("The Hoeffding-Bentkus p-value is the smaller of its two tail bounds", "[certificate]") {
  for (int n : {10, 40, 80}) {
    for (int errors : {0, 1, 3}) {
      for (double eps : {0.05, 0.1, 0.3}) {
        const double mean = static_cast<double>(errors) / n;
        if (mean >= eps) continue;
        const double kl = (mean > 0 ? mean * std::log(mean / eps) : 0.0) +
                          (1 - mean) * std::log((1 - mean) / (1 - eps));
        const double want = std::fmin(1.0, std::fmin(std::exp(-n * kl), std::exp(1.0) * BinomialCdf(n, errors, eps)));
        CAPTURE(n, errors, eps);
        CHECK(HoeffdingBentkusPValue(mean, n, eps) == Approx(want).epsilon(1e-10));
      }
    }
  }
  CHECK(HoeffdingBentkusPValue(0.2, 100, 0.1) == 1.0);
  CHECK(HoeffdingBentkusPValue(0.0, 0, 0.1) == 1.0);
}

TEST_CASE("Zero loss on n rows certifies exactly the risks above 1 - delta^(1/n)", "[certificate]") {
  // With no loss the Hoeffding term (1 - eps)^n is the smaller one.
  for (size_t n : {100u, 298u, 2994u}) {
    const double bound = RiskUpperBound(0.0, n, 0.05);
    CHECK(bound == Approx(1.0 - std::pow(0.05, 1.0 / n)).epsilon(1e-9));
  }
  CHECK(RiskUpperBound(0.0, 100, 0.05) > 0.01);   // 100 rows cannot certify alpha = 0.99
  CHECK(RiskUpperBound(0.0, 299, 0.05) <= 0.01);  // 299 can
  CHECK(RiskUpperBound(0.0, 2995, 0.05) <= 0.001);
}

TEST_CASE("The p-value rejects a true risk at the target in at most delta of calibration draws", "[certificate]") {
  // Validity by simulation: rows whose loss is 1 with probability eps (the worst case at the null's
  // boundary, where the loss is Bernoulli), 4000 calibration draws of 200 rows.
  uint64_t state = 12345;
  const double eps = 0.05, delta = 0.1;
  int rejected = 0;
  const int draws = 4000;
  for (int d = 0; d < draws; ++d) {
    int errors = 0;
    for (int r = 0; r < 200; ++r) errors += (Next(state) % 1000000) < eps * 1000000;
    rejected += HoeffdingBentkusPValue(errors / 200.0, 200, eps) <= delta;
  }
  CHECK(rejected <= delta * draws);
}

TEST_CASE("The upper bound is the smallest risk whose p-value reaches delta", "[certificate]") {
  const double bound = RiskUpperBound(0.002, 5000, 0.05);
  CHECK(HoeffdingBentkusPValue(0.002, 5000, bound) <= 0.05);
  CHECK(HoeffdingBentkusPValue(0.002, 5000, bound * (1 - 1e-6)) > 0.05);
  CHECK(bound > 0.002);
}

TEST_CASE("A family stops at its first uncertified candidate even when a later one would pass", "[certificate]") {
  const size_t n = 5000;
  RiskFamily family = {Candidate("safe", std::vector<double>(n, 0.0), 50.0),
                       Candidate("broken", std::vector<double>(n, 0.5), 10.0),
                       Candidate("lucky", std::vector<double>(n, 0.0), 5.0)};
  auto c = CertifyRisk({family}, 0.01, 0.05);
  REQUIRE(c.ok());
  CHECK(c.value().certified);
  CHECK(c.value().name == "safe");
  CHECK(c.value().mean_trees == 50.0);
  CHECK(c.value().tested == 2);
  CHECK(c.value().bound <= 0.01);
  CHECK(c.value().rows == n);
}

TEST_CASE("The certified candidate with the fewest trees wins across families", "[certificate]") {
  const size_t n = 4000;
  std::vector<double> small(n, 0.0);
  for (size_t i = 0; i < n; i += 1000) small[i] = 1.0;  // mean 0.001
  RiskFamily a = {Candidate("a1", std::vector<double>(n, 0.0), 40.0), Candidate("a2", small, 20.0)};
  RiskFamily b = {Candidate("b1", std::vector<double>(n, 0.0), 30.0)};
  auto c = CertifyRisk({a, b}, 0.01, 0.05);
  REQUIRE(c.ok());
  CHECK(c.value().name == "a2");
  CHECK(c.value().family == 0);
  CHECK(c.value().index == 1);
  CHECK(c.value().mean_loss == Approx(0.001));
  // delta is split over the two families.
  CHECK(c.value().bound == Approx(RiskUpperBound(0.001, n, 0.025)));
}

TEST_CASE("Too few calibration rows certify nothing and say which alpha they could support", "[certificate]") {
  RiskFamily family = {Candidate("safe", std::vector<double>(100, 0.0), 50.0)};
  auto c = CertifyRisk({family}, 0.01, 0.05);
  REQUIRE(c.ok());
  CHECK_FALSE(c.value().certified);
  CHECK(c.value().family == -1);
  CHECK(c.value().largest_certifiable_alpha == Approx(std::pow(0.05, 0.01)).epsilon(1e-9));
}

TEST_CASE("CertifyRisk refuses malformed candidates and targets", "[certificate]") {
  RiskFamily ok = {Candidate("x", {0.0, 0.1}, 3.0)};
  CHECK_FALSE(CertifyRisk({ok}, 0.0, 0.05).ok());
  CHECK_FALSE(CertifyRisk({ok}, 0.01, 1.0).ok());
  CHECK_FALSE(CertifyRisk({}, 0.01, 0.05).ok());
  RiskFamily ragged = {Candidate("x", {0.0, 0.1}, 3.0), Candidate("y", {0.0}, 3.0)};
  CHECK_FALSE(CertifyRisk({ragged}, 0.01, 0.05).ok());
  RiskFamily outside = {Candidate("x", {0.0, 1.5}, 3.0)};
  CHECK(CertifyRisk({outside}, 0.01, 0.05).status().code == urnforest::StatusCode::kInvalidArgument);
  RiskFamily empty = {Candidate("x", {}, 3.0)};
  CHECK_FALSE(CertifyRisk({empty}, 0.01, 0.05).ok());
}
