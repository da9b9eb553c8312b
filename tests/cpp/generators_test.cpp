#include "urnforest/generators.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <catch2/catch.hpp>

#include "base/crc32.h"

using namespace urnforest;

TEST_CASE("Twonorm has 20 numeric features, balanced classes and means at plus or minus 2/sqrt(20)", "[generators]") {
  Result<Dataset> d = Twonorm(20000, 3);
  REQUIRE(d.ok());
  const Dataset& data = d.value();
  REQUIRE(data.num_features() == 20);
  REQUIRE(data.num_rows() == 20000);
  REQUIRE(data.schema().class_names == std::vector<std::string>{"1", "2"});
  const double a = 2.0 / std::sqrt(20.0);
  for (size_t f = 0; f < 20; ++f) {
    double sum[2] = {0, 0}, sq[2] = {0, 0};
    for (size_t r = 0; r < data.num_rows(); ++r) {
      const int32_t c = data.labels()[r];
      REQUIRE(c == static_cast<int32_t>(r % 2));
      sum[c] += data.value(r, f);
      sq[c] += data.value(r, f) * data.value(r, f);
    }
    const double mean0 = sum[0] / 10000, mean1 = sum[1] / 10000;
    REQUIRE(mean0 == Approx(a).margin(0.05));
    REQUIRE(mean1 == Approx(-a).margin(0.05));
    REQUIRE(sq[0] / 10000 - mean0 * mean0 == Approx(1.0).margin(0.06));
    REQUIRE(sq[1] / 10000 - mean1 * mean1 == Approx(1.0).margin(0.06));
  }
}

TEST_CASE("Generators are deterministic in the seed", "[generators][determinism]") {
  auto same = [](const Dataset& a, const Dataset& b) {
    return a.RowMajor() == b.RowMajor() && a.labels() == b.labels();
  };
  REQUIRE(same(Twonorm(100, 5).value(), Twonorm(100, 5).value()));
  REQUIRE_FALSE(same(Twonorm(100, 5).value(), Twonorm(100, 6).value()));
  REQUIRE(same(Threenorm(100, 5).value(), Threenorm(100, 5).value()));
  REQUIRE(same(Ringnorm(100, 5).value(), Ringnorm(100, 5).value()));
}

TEST_CASE("Twonorm's first values are pinned so platform drift is caught", "[generators][determinism]") {
  Result<Dataset> d = Twonorm(4, 1);
  const std::vector<float> x = d.value().RowMajor();
  const uint32_t crc = internal::Crc32(reinterpret_cast<const uint8_t*>(x.data()), x.size() * 4);
  INFO("crc " << crc);
  REQUIRE(crc == 0xDDE0CD57u);
}

TEST_CASE("Ringnorm class 1 has standard deviation 2 and class 2 mean 1/sqrt(20)", "[generators]") {
  Result<Dataset> d = Ringnorm(4000, 2);
  const Dataset& data = d.value();
  double sq = 0, sum = 0;
  for (size_t r = 0; r < 4000; ++r) {
    if (r % 2 == 0) sq += data.value(r, 0) * data.value(r, 0);
    else sum += data.value(r, 0);
  }
  REQUIRE(std::sqrt(sq / 2000) == Approx(2.0).margin(0.15));
  REQUIRE(sum / 2000 == Approx(1.0 / std::sqrt(20.0)).margin(0.08));
}

TEST_CASE("Generators reject zero rows", "[generators][errors]") {
  REQUIRE(Twonorm(0, 1).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("CRC-32 matches the standard check value", "[serialize]") {
  const char* s = "123456789";
  REQUIRE(internal::Crc32(reinterpret_cast<const uint8_t*>(s), std::strlen(s)) == 0xCBF43926u);
}

namespace {

double StdNormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double WaveformBase(int wave, int m) {
  const int centre = wave == 0 ? 11 : (wave == 1 ? 15 : 7);
  return std::max(6 - std::abs(m - centre), 0);
}

// log of integral_0^1 exp(-|x - u a - (1 - u) b|^2 / 2) du on a 201-point trapezoid grid.
double WaveformLogLikelihood(const float* x, int wa, int wb) {
  double A = 0, B = 0, D = 0;
  for (int j = 0; j < 21; ++j) {
    const double r = x[j] - WaveformBase(wb, j + 1);
    const double d = WaveformBase(wa, j + 1) - WaveformBase(wb, j + 1);
    A += r * r;
    B += r * d;
    D += d * d;
  }
  double max_e = -1e300;
  double e[201];
  for (int i = 0; i <= 200; ++i) {
    const double u = i / 200.0;
    e[i] = -0.5 * (A - 2 * u * B + u * u * D);
    max_e = std::max(max_e, e[i]);
  }
  double sum = 0;
  for (int i = 0; i <= 200; ++i) sum += (i == 0 || i == 200 ? 0.5 : 1.0) * std::exp(e[i] - max_e);
  return max_e + std::log(sum);
}

}  // namespace

TEST_CASE("Twonorm's Bayes rule (sign of the coordinate sum) errs 2.3% on 100k rows", "[generators][slow]") {
  const Dataset data = Twonorm(100000, 11).value();
  const std::vector<float> x = data.RowMajor();
  int64_t wrong = 0;
  for (size_t r = 0; r < data.num_rows(); ++r) {
    double sum = 0;
    for (size_t j = 0; j < 20; ++j) sum += x[r * 20 + j];
    wrong += (sum > 0 ? 0 : 1) != data.labels()[r];
  }
  REQUIRE(StdNormalCdf(-2.0) == Approx(0.02275).margin(1e-5));
  REQUIRE(wrong / 1e5 == Approx(StdNormalCdf(-2.0)).margin(0.0025));
}

TEST_CASE("Waveform has 21 features, three balanced classes, wave means and a 14% Bayes error on 100k rows", "[generators][slow]") {
  const Dataset data = Waveform(100000, 5).value();
  REQUIRE(data.num_features() == 21);
  REQUIRE(data.schema().class_names == std::vector<std::string>{"1", "2", "3"});
  const std::vector<float> x = data.RowMajor();
  static const int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  int64_t count[3] = {0, 0, 0};
  double mean[3][21] = {};
  int64_t wrong = 0;
  for (size_t r = 0; r < data.num_rows(); ++r) {
    const int32_t c = data.labels()[r];
    ++count[c];
    for (int j = 0; j < 21; ++j) mean[c][j] += x[r * 21 + j];
    int32_t best = 0;
    double best_ll = -1e300;
    for (int k = 0; k < 3; ++k) {
      const double ll = WaveformLogLikelihood(&x[r * 21], kPairs[k][0], kPairs[k][1]);
      if (ll > best_ll) {
        best_ll = ll;
        best = k;
      }
    }
    wrong += best != c;
  }
  for (int c = 0; c < 3; ++c) {
    REQUIRE(std::abs(count[c] - 100000 / 3) <= 1);
    for (int j = 0; j < 21; ++j) {
      const double want = 0.5 * WaveformBase(kPairs[c][0], j + 1) + 0.5 * WaveformBase(kPairs[c][1], j + 1);
      REQUIRE(mean[c][j] / count[c] == Approx(want).margin(0.04));
    }
  }
  INFO("Bayes error " << wrong / 1e5);
  REQUIRE(wrong / 1e5 == Approx(0.14).margin(0.01));
}

TEST_CASE("LED-7 flips 10% of segments, balances ten digits and has the 26.0% Bayes error on 100k rows", "[generators][slow]") {
  const Dataset data = Led(100000, 9).value();
  REQUIRE(data.num_features() == 7);
  REQUIRE(data.num_classes() == 10);
  const std::vector<float> x = data.RowMajor();
  int64_t flips = 0, count[10] = {};
  double wrong = 0;
  for (size_t r = 0; r < data.num_rows(); ++r) {
    const int32_t d = data.labels()[r];
    ++count[d];
    int32_t h[10], best = 99;
    for (int k = 0; k < 10; ++k) {
      h[k] = 0;
      for (int j = 0; j < 7; ++j) {
        const float v = x[r * 7 + j];
        REQUIRE((v == 0.0f || v == 1.0f));
        h[k] += static_cast<int>(v) != LedPattern(k)[j];
      }
      best = std::min(best, h[k]);
    }
    flips += h[d];
    int32_t ties = 0;
    for (int k = 0; k < 10; ++k) ties += h[k] == best;
    wrong += h[d] == best ? 1.0 - 1.0 / ties : 1.0;
  }
  for (int k = 0; k < 10; ++k) REQUIRE(count[k] == 10000);
  REQUIRE(flips / 7e5 == Approx(0.10).margin(0.002));
  REQUIRE(wrong / 1e5 == Approx(0.2599775).margin(0.006));
}

TEST_CASE("Circle splits the square in equal halves at radius sqrt(2/pi) and flips exactly 5% of labels", "[generators][slow]") {
  REQUIRE(CircleRadius() == Approx(0.7978845608));
  const Dataset data = Circle(100000, 3).value();
  REQUIRE(data.num_features() == 2);
  int64_t inside = 0, flipped = 0;
  for (size_t r = 0; r < data.num_rows(); ++r) {
    const double a = data.value(r, 0), b = data.value(r, 1);
    REQUIRE(std::abs(a) <= 1.0);
    REQUIRE(std::abs(b) <= 1.0);
    const int32_t geometric = a * a + b * b < 2.0 / 3.14159265358979 ? 0 : 1;
    inside += geometric == 0;
    flipped += geometric != data.labels()[r];
  }
  REQUIRE(inside / 1e5 == Approx(0.5).margin(0.005));
  REQUIRE(flipped == 5000);
}

TEST_CASE("New generators are deterministic and dispatch by name", "[generators][determinism]") {
  auto same = [](const Dataset& a, const Dataset& b) {
    return a.RowMajor() == b.RowMajor() && a.labels() == b.labels();
  };
  REQUIRE(same(Waveform(50, 2).value(), Waveform(50, 2).value()));
  REQUIRE(same(Led(50, 2).value(), Led(50, 2).value()));
  REQUIRE(same(Circle(50, 2).value(), Circle(50, 2).value()));
  REQUIRE_FALSE(same(Circle(50, 2).value(), Circle(50, 3).value()));
  for (const std::string& name : GeneratorNames()) REQUIRE(GenerateProblem(name, 10, 1).ok());
  REQUIRE(GenerateProblem("spiral", 10, 1).status().code == StatusCode::kInvalidArgument);
  REQUIRE(Waveform(0, 1).status().code == StatusCode::kInvalidArgument);
  REQUIRE(Led(10, 1, 1.5).status().code == StatusCode::kInvalidArgument);
}
