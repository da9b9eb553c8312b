#include "urnforest/generators.h"

#include <cmath>
#include <cstring>

#include <catch2/catch.hpp>

#include "crc32.h"

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
