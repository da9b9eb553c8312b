#pragma once
// Internal: the arithmetic of an imported forest's soft prediction shared by the full soft vote,
// the exact early exit and the calibrated margin rule: summed leaf values from the base values,
// the predicted class of a sum (ONNX Runtime's rules), and the suffix bounds of the leaf values
// that tell when the remaining trees can no longer change that class.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/forest.h"

namespace urnforest {
namespace internal {

/// sum[0..outputs) = the base values (0 when the model has none).
void StartScores(const ImportedModel& m, double* sum);

/// The binary single-score threshold (0 for other layouts): 0.5 for non-negative weights without a transform (a
/// probability of the second class), else 0 (a margin). ONNX Runtime's rule, ENCODING.md.
double SingleScoreThreshold(const ImportedModel& m);

/// The class of summed (untransformed) scores: the largest, first on ties; the single-score
/// layout compares with `threshold`.
int32_t ClassOf(const ImportedModel& m, const double* sum, double threshold);

/// The leaf values (m.outputs of them) that tree `tree` gives `row` (num_features floats).
const double* LeafValuesOf(const Forest& forest, int32_t tree, const float* row);

/// Fills forest's ImportedModel::tree_low / tree_high from its leaves (imported forests only).
void FillTreeBounds(Forest* forest);

/// Per position k (0..T) of the generation order, the sums over trees k..T-1 of each class's
/// smallest and largest leaf value: what the trees not yet queried can still add.
class RemainingBounds {
 public:
  explicit RemainingBounds(const Forest& forest);
  /// True when, after `used` trees with summed scores `sum` predicting `label`, no values of the
  /// remaining trees can change the predicted class (with room for rounding).
  bool Settled(const double* sum, int32_t used, int32_t label, double threshold) const;

  /// Settled(), evaluated only when it can be true: after a failed check, `*next_check` becomes the
  /// first tree count at which the trees in between could have closed some class's gap to its
  /// strongest rival (tree t moves the gap of class x against rival c by at most the ranges of
  /// its leaf values for x and c), and calls before it return false at once. Start each row with *next_check = 0. The same answers
  /// as Settled() at every step, with far fewer evaluations.
  bool SettledSkipping(const double* sum, int32_t used, int32_t label, double threshold,
                       int32_t* next_check) const;

 private:
  // The first tree count after `used` at which any class could be settled (see SettledSkipping).
  int32_t NextPossibleSettle(const double* sum, int32_t used, double threshold) const;
  // The first j > used with reach(j, a) + reach(j, b) - reach(used, a) - reach(used, b) >= gap
  // (b < 0: class a alone), or trees + 1 when none.
  int32_t FirstReaching(int32_t used, size_t a, int64_t b, double gap) const;

  const ImportedModel& m_;
  size_t k_;
  std::vector<double> low_, high_;
  // reach_[j * k + c]: sum over trees t < j of the range (largest - smallest leaf value) of class c.
  std::vector<double> reach_;
};

}  // namespace internal
}  // namespace urnforest
