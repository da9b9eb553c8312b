// Label-noise injection: flips the labels of an exact fraction of rows ([SMS18] §4.3).
#include "urnforest/label_noise.h"

#include <cmath>
#include <numeric>
#include <utility>

#include "base/random.h"

namespace urnforest {

Result<Dataset> FlipLabels(const Dataset& data, double fraction, uint64_t seed,
                           std::vector<size_t>* flipped) {
  if (!(fraction >= 0.0 && fraction <= 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "label noise fraction must be in [0, 1]");
  }
  if (!data.has_labels()) {
    return Status::Error(StatusCode::kInvalidArgument, "label noise needs labeled data");
  }
  const size_t l = data.num_classes();
  if (l < 2) return Status::Error(StatusCode::kInvalidArgument, "label noise needs 2+ classes");
  const size_t n = data.num_rows();
  std::vector<int32_t> labels = data.labels();
  for (int32_t y : labels) {
    if (y < 0) return Status::Error(StatusCode::kInvalidArgument, "label noise: unknown label");
  }
  const size_t k = static_cast<size_t>(std::llround(fraction * static_cast<double>(n)));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  internal::Rng rng(seed);
  if (flipped != nullptr) flipped->clear();
  for (size_t i = 0; i < k; ++i) {
    const size_t j = i + rng.Below(static_cast<uint32_t>(n - i));
    std::swap(order[i], order[j]);
    const size_t r = order[i];
    const int32_t shift = 1 + static_cast<int32_t>(rng.Below(static_cast<uint32_t>(l - 1)));
    labels[r] = (labels[r] + shift) % static_cast<int32_t>(l);
    if (flipped != nullptr) flipped->push_back(r);
  }
  std::vector<float> values(data.column(0), data.column(0) + n * data.num_features());
  return Dataset::Create(data.schema(), n, std::move(values), std::move(labels));
}

}  // namespace urnforest
