#pragma once
// Label-noise injection for robustness experiments ([SMS18] §4.3): noise completely at
// random on the training labels only.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

/// A copy of `data` with exactly round(fraction * rows) labels changed: the rows are drawn
/// uniformly without replacement (partial Fisher-Yates on a SplitMix64/xoshiro stream of `seed`,
/// identical natively and in wasm); a chosen row's label becomes the other class (2 classes) or a
/// class drawn uniformly among the other l - 1. `flipped`, when given, receives the changed row
/// indices in draw order. Fails with kInvalidArgument (fraction outside [0, 1], unlabeled data,
/// a label of -1, fewer than 2 classes).
Result<Dataset> FlipLabels(const Dataset& data, double fraction, uint64_t seed,
                           std::vector<size_t>* flipped = nullptr);

}  // namespace urnforest
