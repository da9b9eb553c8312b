#pragma once
// Internal: the arithmetic of an imported forest's soft prediction shared by the full soft vote,
// the exact early exit and the calibrated margin rule: summed leaf values from the base values,
// the predicted class of a sum (ONNX Runtime's rules), and the suffix bounds of the leaf values
// that tell when the remaining trees can no longer change that class.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ensemble/forest_walk.h"
#include "urnforest/forest.h"

namespace urnforest {
namespace internal {

/// sum[0..outputs) = the base values (0 when the model has none).
void StartScores(const ImportedModel& m, double* sum);

/// The binary single-score threshold (0 for other layouts): for non-negative weights without a transform (a
/// probability of the second class) 0.5 raised by 2^-24 of the largest possible sum (at least 1), so
/// that a tie stored as float32(p / T) shares answers the first class as scikit-learn does; else 0 (a
/// margin). ONNX Runtime's rule (ENCODING.md) apart from that rounding; docs/import.md.
double SingleScoreThreshold(const ImportedModel& m);

/// The scores ONNX Runtime reports for summed scores `sum` (m.outputs values), into
/// out[0..classes): the post-transform applied; the single-score layout first becomes two scores,
/// (1 - s, s) when `threshold` is not 0 (a probability), else (-s, s).
void ScoresOf(const ImportedModel& m, const double* sum, double threshold, double* out);

/// Which classes the leaves a row has reached so far named (ImportedModel::named): StartNamed
/// clears seen[0..outputs), AddNamed marks those of the leaf whose values are `values` (a row of
/// m.leaf_values). Both do nothing when the model has no `named` table.
void StartNamed(const ImportedModel& m, uint8_t* seen);
void AddNamed(const ImportedModel& m, const double* values, uint8_t* seen);

/// The predicted class of summed (untransformed) scores, ONNX Runtime's rules (docs/import.md):
/// the single-score layout and second_class_threshold compare with `threshold`; two outputs the
/// larger, the first on ties; three or more the first largest float32 sum among the classes
/// `seen` marks (null, or a model without a `named` table: all), the first class when none is;
/// label_from_scores the first largest float32 of the transformed scores.
int32_t ClassOf(const ImportedModel& m, const double* sum, double threshold, const uint8_t* seen = nullptr);

/// The leaf values (m.outputs of them) that tree `tree` gives `row` (num_features floats).
const double* LeafValuesOf(const Forest& forest, int32_t tree, const float* row);

/// Walks `num_rows` rows in the forest's layout (borrowed) through its trees in generation order,
/// in blocks of up to kRowBlock rows that go through each tree together (WalkView::LeavesMany), a row
/// leaving its block's walk once it stops. `start(slot, row)` prepares row `row` in block slot
/// `slot` (< kRowBlock); after each tree, `step(slot, row, values, used)` adds that tree's leaf values
/// (ImportedModel::outputs of them) for the row, `used` trees in, and returns true when the row
/// stops (it must after the last tree). Each row sees its trees in order, so its result is that
/// of a walk of the row alone. Imported forests only.
constexpr size_t kRowBlock = 256;  ///< Rows per block of WalkRowsUntilStopped (slots 0..255).
template <class Start, class Step>
void WalkRowsUntilStopped(const Forest& forest, const float* rows, size_t num_rows, Start start,
                          Step step) {
  constexpr size_t kBlock = kRowBlock;
  const WalkView view = ForestWalkView(forest);
  const TreeNode* nodes = forest.node_table().nodes.data();
  const ImportedModel& m = *forest.imported();
  const size_t k = static_cast<size_t>(m.outputs);
  const size_t width = static_cast<size_t>(forest.num_features());
  size_t active[kBlock];
  int32_t leaves[kBlock];
  bool no_nan[kBlock];
  for (size_t begin = 0; begin < num_rows; begin += kBlock) {
    const size_t count = num_rows - begin < kBlock ? num_rows - begin : kBlock;
    const float* block = rows + begin * width;
    size_t live = count;
    for (size_t i = 0; i < count; ++i) {
      active[i] = i;
      no_nan[i] = NoNaN(block + i * width, width);
      start(i, begin + i);
    }
    auto row_ptr = [&active, block, width](size_t j) { return block + active[j] * width; };
    auto row_no_nan = [&active, &no_nan](size_t j) { return no_nan[active[j]]; };
    for (int32_t t = 0; t < forest.num_trees() && live > 0; ++t) {
      if (view.numeric_only) {
        view.LeavesMany<true>(t, live, row_ptr, row_no_nan, leaves);
      } else {
        view.LeavesMany<false>(t, live, row_ptr, row_no_nan, leaves);
      }
      size_t kept = 0;
      for (size_t j = 0; j < live; ++j) {
        const size_t i = active[j];
        const double* v = m.leaf_values.data() + static_cast<size_t>(nodes[leaves[j]].aux) * k;
        if (!step(i, begin + i, v, t + 1)) active[kept++] = i;
      }
      live = kept;
    }
  }
}

/// Fills forest's ImportedModel::tree_low / tree_high from its leaves (imported forests only).
void FillTreeBounds(Forest* forest);

/// Per position k (0..T) of the generation order, the sums over trees k..T-1 of each class's
/// smallest and largest leaf value: what the trees not yet queried can still add.
class RemainingBounds {
 public:
  explicit RemainingBounds(const Forest& forest);
  /// True when, after `used` trees with summed scores `sum` predicting `label`, no values of the
  /// remaining trees can change the predicted class (with room for rounding).
  /// `seen`: the classes named so far (StartNamed/AddNamed; null when the model has no table).
  /// Never true for labels read from transformed scores with a transform (label_from_scores).
  bool Settled(const double* sum, int32_t used, int32_t label, double threshold,
               const uint8_t* seen = nullptr) const;

  /// Settled(), evaluated only when it can be true: after a failed check, `*next_check` becomes the
  /// first tree count at which the trees in between could have closed some class's gap to its
  /// strongest rival (tree t moves the gap of class x against rival c by at most the ranges of
  /// its leaf values for x and c), and calls before it return false at once, as do calls before the
  /// first tree count at which any row could be settled (found from the bounds alone, at
  /// construction). Start each row with *next_check = 0. The same answers
  /// as Settled() at every step, with far fewer evaluations.
  bool SettledSkipping(const double* sum, int32_t used, int32_t label, double threshold,
                       int32_t* next_check, const uint8_t* seen = nullptr) const;

 private:
  // The first tree count after `used` at which any class could be settled (see SettledSkipping).
  int32_t NextPossibleSettle(const double* sum, int32_t used, double threshold) const;
  // The first j > used with reach(j, a) + reach(j, b) - reach(used, a) - reach(used, b) >= gap
  // (b < 0: class a alone), or trees + 1 when none.
  int32_t FirstReaching(int32_t used, size_t a, int64_t b, double gap) const;
  // reach(j, a) + reach(j, b) - reach(used, a) - reach(used, b) (b < 0: class a alone).
  double Moved(int32_t used, int32_t j, size_t a, int64_t b) const;
  // True when FirstReaching(used, a, b, gap) <= j, for used < j <= trees: one comparison.
  bool Reaches(int32_t used, int32_t j, size_t a, int64_t b, double gap) const;

  const ImportedModel& m_;
  size_t k_;
  bool settles_early_;  // false: only the last tree settles a row
  bool float_ties_;     // the label compares float32 values
  std::vector<double> low_, high_;
  // reach_[j * k + c]: sum over trees t < j of the range (largest - smallest leaf value) of class c.
  std::vector<double> reach_;
  // No row is settled after fewer trees (for every row, from the leaf value bounds alone).
  int32_t first_possible_ = 0;
};

}  // namespace internal
}  // namespace urnforest
