#pragma once
// Synthetic benchmark problems of Breiman (1996, TR 460), as in R's mlbench, generated with the
// library's portable RNG: the same (rows, seed) give the same Dataset on every platform (up to the
// last bit of std::log, which is not required to be correctly rounded; glibc and musl agree in
// practice).
#include <cstddef>
#include <cstdint>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

/// Dimension of twonorm, threenorm and ringnorm.
constexpr size_t kNormDimensions = 20;

/// Twonorm: 20 numeric features x1..x20, target "class" with classes "1" and "2". Row i has class
/// "1" when i is even and "2" when odd (exactly balanced, like mlbench's n/2 per class). Class 1
/// is N((a,...,a), I), class 2 is N((-a,...,-a), I), a = 2 / sqrt(20). Bayes error ~2.3%.
/// Normals come from the Marsaglia polar method. Fails with kInvalidArgument when rows == 0 and
/// kLimitExceeded above DatasetLimits.
Result<Dataset> Twonorm(size_t rows, uint64_t seed);

/// Threenorm (same layout): class 1 is drawn with probability 1/2 from N((a,...,a), I) and otherwise
/// from N((-a,...,-a), I); class 2 is N((a,-a,a,-a,...), I); a = 2 / sqrt(20).
Result<Dataset> Threenorm(size_t rows, uint64_t seed);

/// Ringnorm (same layout): class 1 is N(0, 4I) (standard deviation 2 per coordinate), class 2 is
/// N((a,...,a), I) with a = 1 / sqrt(20).
Result<Dataset> Ringnorm(size_t rows, uint64_t seed);

}  // namespace urnforest
