#include "urnforest/generators.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "rng.h"

namespace urnforest {
namespace {

/// Standard normal deviates by the Marsaglia polar method (needs only log and sqrt).
class NormalSource {
 public:
  explicit NormalSource(uint64_t seed) : rng_(seed) {}
  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2.0 * rng_.Uniform() - 1.0;
      v = 2.0 * rng_.Uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * factor;
    has_spare_ = true;
    return u * factor;
  }
  internal::Rng& rng() { return rng_; }

 private:
  internal::Rng rng_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

enum class Problem { kTwonorm, kThreenorm, kRingnorm };

Result<Dataset> Generate(Problem problem, size_t rows, uint64_t seed) {
  if (rows == 0) return Status::Error(StatusCode::kInvalidArgument, "rows must be >= 1");
  if (rows > DatasetLimits::kMaxCells / kNormDimensions) {
    return Status::Error(StatusCode::kLimitExceeded, "too many rows: " + std::to_string(rows));
  }
  const size_t d = kNormDimensions;
  const double a = (problem == Problem::kRingnorm ? 1.0 : 2.0) / std::sqrt(static_cast<double>(d));
  NormalSource normal(seed);
  std::vector<float> x(rows * d);
  std::vector<int32_t> labels(rows);
  for (size_t r = 0; r < rows; ++r) {
    const int32_t label = static_cast<int32_t>(r % 2);
    labels[r] = label;
    // Threenorm class 1 picks its component with one extra draw per row.
    double sign = 1.0;
    if (problem == Problem::kThreenorm && label == 0) {
      sign = (normal.rng().Next() >> 63) ? -1.0 : 1.0;
    }
    for (size_t j = 0; j < d; ++j) {
      const double z = normal.Next();
      double value = 0.0;
      switch (problem) {
        case Problem::kTwonorm:
          value = z + (label == 0 ? a : -a);
          break;
        case Problem::kThreenorm:
          value = z + (label == 0 ? sign * a : ((j % 2 == 0) ? a : -a));
          break;
        case Problem::kRingnorm:
          value = label == 0 ? 2.0 * z : z + a;
          break;
      }
      x[j * rows + r] = static_cast<float>(value);
    }
  }
  Schema schema;
  schema.features.resize(d);
  for (size_t j = 0; j < d; ++j) schema.features[j].name = "x" + std::to_string(j + 1);
  schema.target_name = "class";
  schema.class_names = {"1", "2"};
  return Dataset::Create(std::move(schema), rows, std::move(x), std::move(labels));
}

}  // namespace

Result<Dataset> Twonorm(size_t rows, uint64_t seed) {
  return Generate(Problem::kTwonorm, rows, seed);
}
Result<Dataset> Threenorm(size_t rows, uint64_t seed) {
  return Generate(Problem::kThreenorm, rows, seed);
}
Result<Dataset> Ringnorm(size_t rows, uint64_t seed) {
  return Generate(Problem::kRingnorm, rows, seed);
}

}  // namespace urnforest
