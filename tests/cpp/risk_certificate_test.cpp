#include "urnforest/risk_certificate.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

using urnforest::CertifyRisk;
using urnforest::BettingPValue;
using urnforest::CertifySequence;
using urnforest::PValueMethod;
using urnforest::RiskPValue;
using urnforest::RiskUpperBoundOf;
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

// n rows whose losses are 1 on every `every`-th row and 0 elsewhere (mean about 1 / every).
std::vector<double> OnePer(size_t n, size_t every) {
  std::vector<double> loss(n, 0.0);
  for (size_t i = 0; i < n; i += every) loss[i] = 1.0;
  return loss;
}

TEST_CASE("One fixed sequence tests each candidate at the full delta and stops at its first failure", "[certificate]") {
  const size_t n = 5000;
  const double eps = 0.01, delta = 0.05;
  // "borderline" passes at delta but would fail at delta / 3 (what a split over three families
  // would pay).
  const std::vector<double> borderline = OnePer(n, 148);
  double mean = 0.0;
  for (double l : borderline) mean += l / n;
  REQUIRE(HoeffdingBentkusPValue(mean, n, eps) <= delta);
  REQUIRE(HoeffdingBentkusPValue(mean, n, eps) > delta / 3);
  const std::vector<RiskCandidate> sequence = {
      Candidate("safe", std::vector<double>(n, 0.0), 50.0), Candidate("borderline", borderline, 20.0),
      Candidate("broken", std::vector<double>(n, 0.5), 30.0), Candidate("lucky", std::vector<double>(n, 0.0), 5.0)};
  auto c = CertifySequence(sequence, eps, delta);
  REQUIRE(c.ok());
  CHECK(c.value().certified);
  CHECK(c.value().name == "borderline");
  CHECK(c.value().index == 1);
  CHECK(c.value().tested == 3);
  CHECK(c.value().first_failure == 2);
  CHECK(c.value().bound == Approx(RiskUpperBound(mean, n, delta)));
  CHECK(c.value().bound <= eps);
  CHECK(c.value().smallest_certifiable_risk == Approx(RiskUpperBound(0.0, n, delta)));
}

TEST_CASE("One fixed sequence whose first candidate fails certifies nothing", "[certificate]") {
  const size_t n = 1000;
  const std::vector<RiskCandidate> sequence = {Candidate("broken", OnePer(n, 50), 10.0),
                                               Candidate("safe", std::vector<double>(n, 0.0), 101.0)};
  auto c = CertifySequence(sequence, 0.01, 0.05);
  REQUIRE(c.ok());
  CHECK_FALSE(c.value().certified);
  CHECK(c.value().index == -1);
  CHECK(c.value().tested == 1);
  CHECK(c.value().first_failure == 0);
}

TEST_CASE("CertifySequence refuses an empty sequence and malformed candidates", "[certificate]") {
  CHECK(CertifySequence({}, 0.01, 0.05).status().code == urnforest::StatusCode::kInvalidArgument);
  CHECK_FALSE(CertifySequence({Candidate("x", {0.0, 1.5}, 3.0)}, 0.01, 0.05).ok());
  CHECK_FALSE(CertifySequence({Candidate("x", {0.0}, 3.0), Candidate("y", {0.0, 0.0}, 3.0)}, 0.01, 0.05).ok());
  CHECK_FALSE(CertifySequence({Candidate("x", {0.0}, 3.0)}, 0.01, 0.0).ok());
}

double Uniform(uint64_t& state) { return static_cast<double>(Next(state) >> 0) / 9007199254740992.0; }

// One row's loss with mean exactly eps, in one of three shapes: Bernoulli(eps) (the worst case
// for a mean), 0 or 0.5 (a contested row, probability 2 eps), and uniform on [0, 2 eps].
double NullLoss(int shape, double eps, uint64_t& state) {
  const double u = Uniform(state);
  if (shape == 0) return u < eps ? 1.0 : 0.0;
  if (shape == 1) return u < 2.0 * eps ? 0.5 : 0.0;
  return 2.0 * eps * u;
}

TEST_CASE("The betting and combined p-values reject a true risk at the target in at most delta of calibration draws", "[certificate]") {
  const double delta = 0.1;
  const int draws = 2000;
  for (PValueMethod method : {PValueMethod::kBetting, PValueMethod::kCombined, PValueMethod::kHoeffdingBentkus}) {
    for (double eps : {0.05, 0.01}) {
      for (int shape : {0, 1, 2}) {
        CAPTURE(urnforest::PValueMethodName(method), eps, shape);
        uint64_t state = 777 + static_cast<uint64_t>(shape);
        const size_t n = eps == 0.05 ? 200 : 600;
        int rejected = 0;
        std::vector<double> loss(n);
        for (int d = 0; d < draws; ++d) {
          for (double& l : loss) l = NullLoss(shape, eps, state);
          rejected += RiskPValue(method, loss, eps, delta) <= delta;
        }
        CHECK(rejected <= delta * draws);
      }
    }
  }
}

TEST_CASE("The betting p-value is far below Hoeffding-Bentkus when the losses are spread over [0, 1]", "[certificate]") {
  // 1,400 rows, 2 % of them contested with loss 0.2 (mean 0.004): the case of exact losses.
  std::vector<double> loss(1400, 0.0);
  for (size_t i = 0; i < loss.size(); i += 50) loss[i] = 0.2;
  double mean = 0.0;
  for (double l : loss) mean += l / loss.size();
  const double hb = urnforest::HoeffdingBentkusPValue(mean, loss.size(), 0.01);
  const double bet = BettingPValue(loss, 0.01, 0.05);
  CHECK(bet < hb / 10);
  CHECK(RiskPValue(PValueMethod::kCombined, loss, 0.01, 0.05) == Approx(std::min(1.0, 2 * std::min(hb, BettingPValue(loss, 0.01, 0.025)))));
  CHECK(RiskUpperBoundOf(PValueMethod::kBetting, loss, 0.05) < RiskUpperBound(mean, loss.size(), 0.05));
}

TEST_CASE("On zero losses no p-value beats Hoeffding-Bentkus and betting needs at most 1 / cap as many rows", "[certificate]") {
  for (double eps : {0.05, 0.01, 0.001}) {
    CAPTURE(eps);
    const size_t hb_rows = static_cast<size_t>(std::ceil(std::log(0.05) / std::log(1.0 - eps)));
    CHECK(BettingPValue(std::vector<double>(hb_rows - 1, 0.0), eps, 0.05) > 0.05);
    const size_t bet_rows = static_cast<size_t>(std::ceil(hb_rows / urnforest::kBettingCap)) + 1;
    CHECK(BettingPValue(std::vector<double>(bet_rows, 0.0), eps, 0.05) <= 0.05);
    // Betting is a supermartingale bound: one loss of 1 costs it at least a factor 1 / (1 - cap).
    std::vector<double> one_bad(bet_rows, 0.0);
    one_bad[0] = 1.0;
    CHECK(BettingPValue(one_bad, eps, 0.05) > BettingPValue(std::vector<double>(bet_rows, 0.0), eps, 0.05));
  }
}
