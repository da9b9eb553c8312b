#pragma once
// Synthetic benchmark problems of Breiman (1996, TR 460: [Bre96b]) and the CART book ([BFOS84]), as
// in R's mlbench (the synthetic problems of [HMS11] §4, Table 1), generated with the library's
// portable RNG: the same (rows, seed) give the same Dataset on every platform (up to the last bit
// of std::log, which is not required to be correctly rounded; glibc and musl agree in practice).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

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

/// Waveform (CART book pp. 49-55): 21 numeric features x1..x21, target "class" with classes
/// "1", "2", "3"; row i has class (i mod 3) + 1 (exactly balanced). With base waves
/// h1(m) = max(6 - |m - 11|, 0), h2(m) = h1(m - 4), h3(m) = h1(m + 4) on m = 1..21, u ~ U(0, 1)
/// and eps_m ~ N(0, 1): class 1 is u h1 + (1 - u) h2 + eps, class 2 is u h1 + (1 - u) h3 + eps,
/// class 3 is u h2 + (1 - u) h3 + eps. Bayes error ~14%. Fails like Twonorm.
Result<Dataset> Waveform(size_t rows, uint64_t seed);

/// Number of attributes of the LED problem (the seven segments of a digit display).
constexpr size_t kLedSegments = 7;

/// LED-7: 7 boolean (0/1, numeric) features "s1".."s7" = segments top, top-left, top-right,
/// middle, bottom-left, bottom-right, bottom of the digit; target "digit" with classes "0".."9";
/// row i shows digit i mod 10 (exactly balanced). Each segment is inverted independently with
/// probability `noise` (default 0.10; Bayes error ~26%). Fails with kInvalidArgument when rows == 0
/// or noise is outside [0, 1).
Result<Dataset> Led(size_t rows, uint64_t seed, double noise = 0.10);

/// The segments lit for `digit` (0..9), in the feature order of Led (1 = lit).
const std::vector<int32_t>& LedPattern(int32_t digit);

/// 2-D circle with label noise ([HMS11] §2.2, Fig. 4, whose printed radius sqrt(2) cannot be
/// meant): x1, x2 uniform on [-1, 1]^2, class "1" inside the circle of radius sqrt(2 / pi) centred
/// at the origin (half of the square's area), class "2" outside; then the labels of exactly
/// round(label_noise * rows) rows, chosen uniformly without replacement, are flipped (default 5%;
/// the Bayes error is then label_noise). Fails with kInvalidArgument when rows == 0 or label_noise
/// is outside [0, 1].
Result<Dataset> Circle(size_t rows, uint64_t seed, double label_noise = 0.05);

/// Radius of Circle's class boundary: sqrt(2 / pi).
double CircleRadius();

/// The names GenerateProblem accepts: "twonorm", "threenorm", "ringnorm", "waveform", "led",
/// "circle".
const std::vector<std::string>& GeneratorNames();

/// Dispatch by name with the default parameters above. kInvalidArgument for an unknown name (the
/// message lists the known ones).
Result<Dataset> GenerateProblem(const std::string& name, size_t rows, uint64_t seed);

}  // namespace urnforest
