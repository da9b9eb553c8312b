// Synthetic benchmark problems (twonorm, threenorm, ringnorm, waveform, LED, circle) from the
// portable RNG.
#include "urnforest/generators.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "base/random.h"

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

namespace urnforest {
namespace {

Status CheckRows(size_t rows, size_t cols) {
  if (rows == 0) return Status::Error(StatusCode::kInvalidArgument, "rows must be >= 1");
  if (rows > DatasetLimits::kMaxCells / cols || rows > DatasetLimits::kMaxRows) {
    return Status::Error(StatusCode::kLimitExceeded, "too many rows: " + std::to_string(rows));
  }
  return Status::Ok();
}

Schema NumericSchema(const char* prefix, size_t cols, const char* target,
                     std::vector<std::string> classes) {
  Schema schema;
  schema.features.resize(cols);
  for (size_t j = 0; j < cols; ++j) schema.features[j].name = prefix + std::to_string(j + 1);
  schema.target_name = target;
  schema.class_names = std::move(classes);
  return schema;
}

double WaveBase(int wave, int m) {
  // h1 peaks at m = 11; h2(m) = h1(m - 4) peaks at 15; h3(m) = h1(m + 4) peaks at 7.
  const int centre = wave == 0 ? 11 : (wave == 1 ? 15 : 7);
  const int v = 6 - std::abs(m - centre);
  return v > 0 ? v : 0;
}

}  // namespace

Result<Dataset> Waveform(size_t rows, uint64_t seed) {
  constexpr size_t d = 21;
  Status s = CheckRows(rows, d);
  if (!s.ok()) return s;
  static const int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  NormalSource normal(seed);
  std::vector<float> x(rows * d);
  std::vector<int32_t> labels(rows);
  for (size_t r = 0; r < rows; ++r) {
    const int32_t label = static_cast<int32_t>(r % 3);
    labels[r] = label;
    const double u = normal.rng().Uniform();
    for (size_t j = 0; j < d; ++j) {
      const int m = static_cast<int>(j) + 1;
      const double value = u * WaveBase(kPairs[label][0], m) +
                           (1.0 - u) * WaveBase(kPairs[label][1], m) + normal.Next();
      x[j * rows + r] = static_cast<float>(value);
    }
  }
  return Dataset::Create(NumericSchema("x", d, "class", {"1", "2", "3"}), rows, std::move(x),
                         std::move(labels));
}

const std::vector<int32_t>& LedPattern(int32_t digit) {
  static const std::vector<std::vector<int32_t>> kPatterns = {
      {1, 1, 1, 0, 1, 1, 1}, {0, 0, 1, 0, 0, 1, 0}, {1, 0, 1, 1, 1, 0, 1}, {1, 0, 1, 1, 0, 1, 1},
      {0, 1, 1, 1, 0, 1, 0}, {1, 1, 0, 1, 0, 1, 1}, {1, 1, 0, 1, 1, 1, 1}, {1, 0, 1, 0, 0, 1, 0},
      {1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 0, 1, 1}};
  return kPatterns[digit];
}

Result<Dataset> Led(size_t rows, uint64_t seed, double noise) {
  Status s = CheckRows(rows, kLedSegments);
  if (!s.ok()) return s;
  if (!(noise >= 0.0 && noise < 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "LED noise must be in [0, 1)");
  }
  internal::Rng rng(seed);
  std::vector<float> x(rows * kLedSegments);
  std::vector<int32_t> labels(rows);
  for (size_t r = 0; r < rows; ++r) {
    const int32_t digit = static_cast<int32_t>(r % 10);
    labels[r] = digit;
    const std::vector<int32_t>& pattern = LedPattern(digit);
    for (size_t j = 0; j < kLedSegments; ++j) {
      const bool flip = rng.Uniform() < noise;
      x[j * rows + r] = static_cast<float>(flip ? 1 - pattern[j] : pattern[j]);
    }
  }
  std::vector<std::string> classes;
  for (int i = 0; i < 10; ++i) classes.push_back(std::to_string(i));
  return Dataset::Create(NumericSchema("s", kLedSegments, "digit", std::move(classes)), rows,
                         std::move(x), std::move(labels));
}

double CircleRadius() { return std::sqrt(2.0 / 3.14159265358979323846); }

Result<Dataset> Circle(size_t rows, uint64_t seed, double label_noise) {
  Status s = CheckRows(rows, 2);
  if (!s.ok()) return s;
  if (!(label_noise >= 0.0 && label_noise <= 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "label_noise must be in [0, 1]");
  }
  internal::Rng rng(seed);
  const double r2 = 2.0 / 3.14159265358979323846;
  std::vector<float> x(rows * 2);
  std::vector<int32_t> labels(rows);
  for (size_t r = 0; r < rows; ++r) {
    const double a = 2.0 * rng.Uniform() - 1.0;
    const double b = 2.0 * rng.Uniform() - 1.0;
    x[r] = static_cast<float>(a);
    x[rows + r] = static_cast<float>(b);
    labels[r] = a * a + b * b < r2 ? 0 : 1;
  }
  // Exactly round(label_noise * rows) distinct rows, by a partial Fisher-Yates shuffle.
  const size_t flips = static_cast<size_t>(std::llround(label_noise * static_cast<double>(rows)));
  std::vector<size_t> index(rows);
  for (size_t r = 0; r < rows; ++r) index[r] = r;
  for (size_t i = 0; i < flips; ++i) {
    const size_t j = i + rng.Below(static_cast<uint32_t>(rows - i));
    std::swap(index[i], index[j]);
    labels[index[i]] = 1 - labels[index[i]];
  }
  return Dataset::Create(NumericSchema("x", 2, "class", {"1", "2"}), rows, std::move(x),
                         std::move(labels));
}

const std::vector<std::string>& GeneratorNames() {
  static const std::vector<std::string> kNames = {"twonorm",  "threenorm", "ringnorm",
                                                  "waveform", "led",       "circle"};
  return kNames;
}

Result<Dataset> GenerateProblem(const std::string& name, size_t rows, uint64_t seed) {
  if (name == "twonorm") return Twonorm(rows, seed);
  if (name == "threenorm") return Threenorm(rows, seed);
  if (name == "ringnorm") return Ringnorm(rows, seed);
  if (name == "waveform") return Waveform(rows, seed);
  if (name == "led") return Led(rows, seed);
  if (name == "circle") return Circle(rows, seed);
  std::string known;
  for (const std::string& n : GeneratorNames()) known += (known.empty() ? "" : ", ") + n;
  return Status::Error(StatusCode::kInvalidArgument,
                       "unknown generator '" + name + "' (known: " + known + ")");
}

}  // namespace urnforest
