// The label rules and reported scores of an imported forest's summed leaf values, as ONNX Runtime
// computes them (model/imported_scores.h; the cases are decided in docs/import.md): the binary
// thresholds, the post-transforms, the classes a row's leaves named, and the predicted class.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "model/imported_scores.h"

namespace urnforest {
namespace internal {

// ONNX Runtime's binary rule with one stored score: non-negative weights without a transform are
// a probability of the second class (threshold 0.5), anything else a margin (threshold 0).
// A probability ties at 0.5 when the trees split evenly (scikit-learn forests with an even
// number of trees), but the file stores each tree's share as float32(p / T), which may round up:
// a tied row then sums to 0.5 + e with e below 2^-24 of the largest possible sum. The threshold
// is raised by that bound so that such a row answers the first class, as scikit-learn does; no
// sum of genuine shares exceeds 0.5 by so little unless its leaves hold fractions finer than
// float32 can tell apart from a tie.
// The same rule holds for two outputs whose file weighted only the second class
// (ImportedModel::second_class_threshold): its column 1 is then the probability.
double SingleScoreThreshold(const ImportedModel& m) {
  // Only the one-score layouts read it; the per-tree values (when derived) stand for every
  // leaf, so a call costs one pass over the trees rather than over the leaves.
  if (!(m.single_score || m.second_class_threshold) || m.transform != ScoreTransform::kNone) return 0.0;
  const bool per_tree = !m.tree_low.empty();
  const std::vector<double>& values = per_tree ? m.tree_low : m.leaf_values;
  for (double v : values) {
    if (v < 0) return 0.0;
  }
  double largest_sum = 0.0;  // sum over trees of the largest leaf (every leaf without bounds)
  const size_t k = static_cast<size_t>(m.outputs);
  const std::vector<double>& highs = per_tree ? m.tree_high : m.leaf_values;
  for (size_t i = k - 1; i < highs.size(); i += k) largest_sum += highs[i];
  return 0.5 + std::ldexp(std::max(largest_sum, 1.0), -24);
}

void ScoresOf(const ImportedModel& m, const double* sum, double threshold, double* out) {
  int32_t n = m.outputs;
  if (m.single_score) {
    const bool probability = threshold != 0.0;  // 0.5 (plus the rounding bound) for a probability
    out[0] = probability ? 1.0 - sum[0] : -sum[0];
    out[1] = sum[0];
    n = 2;
  } else {
    std::copy(sum, sum + n, out);
  }
  switch (m.transform) {
    case ScoreTransform::kNone: break;
    case ScoreTransform::kLogistic:
      for (int32_t c = 0; c < n; ++c) out[c] = 1.0 / (1.0 + std::exp(-out[c]));
      break;
    case ScoreTransform::kSoftmax:
    case ScoreTransform::kSoftmaxZero: {
      const bool zero = m.transform == ScoreTransform::kSoftmaxZero;
      double top = -std::numeric_limits<double>::infinity();
      for (int32_t c = 0; c < n; ++c) {
        if (!zero || out[c] != 0.0) top = std::max(top, out[c]);
      }
      double total = 0.0;
      for (int32_t c = 0; c < n; ++c) {
        out[c] = zero && out[c] == 0.0 ? 0.0 : std::exp(out[c] - top);
        total += out[c];
      }
      if (total > 0) {
        for (int32_t c = 0; c < n; ++c) out[c] /= total;
      }
      break;
    }
  }
}

void StartNamed(const ImportedModel& m, uint8_t* seen) {
  if (!m.named.empty()) std::fill(seen, seen + m.outputs, uint8_t{0});
}

void AddNamed(const ImportedModel& m, const double* values, uint8_t* seen) {
  if (m.named.empty()) return;
  const uint8_t* named = m.named.data() + (values - m.leaf_values.data());
  for (int32_t c = 0; c < m.outputs; ++c) seen[c] |= named[c];
}

int32_t ClassOf(const ImportedModel& m, const double* sum, double threshold, const uint8_t* seen) {
  if (m.label_from_scores) {
    // ArgMax over the transformed output, which ONNX Runtime writes as float32.
    std::vector<double> scores(static_cast<size_t>(std::max(m.outputs, 2)));
    ScoresOf(m, sum, threshold, scores.data());
    int32_t best = 0;
    for (int32_t c = 1; c < m.outputs; ++c) {
      if (static_cast<float>(scores[c]) > static_cast<float>(scores[best])) best = c;
    }
    return best;
  }
  if (m.single_score) return sum[0] > threshold ? 1 : 0;
  if (m.second_class_threshold) return sum[1] > threshold ? 1 : 0;
  if (m.outputs == 2) return sum[1] > sum[0] ? 1 : 0;
  // Three or more classes: ONNX Runtime's scan of float32 sums over the classes the row's leaves
  // named, first on ties; the first class when none was named (ONNX Runtime's answer is undefined).
  int32_t best = -1;
  float top = 0.0f;
  for (int32_t c = 0; c < m.outputs; ++c) {
    if (m.named.empty() || seen == nullptr || seen[c]) {
      const float v = static_cast<float>(sum[c]);
      if (best < 0 || v > top) {
        best = c;
        top = v;
      }
    }
  }
  return best < 0 ? 0 : best;
}

}  // namespace internal
}  // namespace urnforest
