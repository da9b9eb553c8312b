#pragma once
// Gini split search at one tree node: numeric thresholds and categorical subsets, with the node's
// missing values sent to whichever side scores better. Internal to the trainer.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace urnforest {
namespace internal {

/// Feature key of a missing value (NaN) in TrainingData::keys.
constexpr uint32_t kMissingKey = 0xFFFFFFFFu;
/// Categorical features with at most this many categories present at a node (and more than two
/// classes) get an exhaustive subset search.
constexpr size_t kExhaustiveMaxCategories = 10;

/// Order-preserving map from a finite float to uint32 (-0 and +0 map to the same key):
/// a < b  <=>  SortableKey(a) < SortableKey(b).
uint32_t SortableKey(float value);
/// Inverse of SortableKey (returns +0 for zero).
float KeyToFloat(uint32_t key);
/// A float t with lower <= t < upper, the float nearest to the exact midpoint (computed in double)
/// unless that rounds up to `upper`, in which case `lower`. Precondition: lower < upper, finite.
float MidpointThreshold(float lower, float upper);

/// The best split seen so far at a node; `score` is sum over children of (sum_c n_c^2) / n (weighted
/// counts), which orders splits exactly as the Gini impurity decrease does (larger is better).
struct SplitChoice {
  bool found = false;
  double score = 0.0;
  int32_t feature = -1;
  bool categorical = false;
  float threshold = 0.0f;          ///< Numeric: non-missing x goes left iff x <= threshold.
  bool missing_left = false;       ///< Where the node's missing rows (and later ones) go.
  std::vector<uint32_t> left_categories;   ///< Categorical: categories present at the node, left.
  std::vector<uint32_t> right_categories;  ///< Categorical: categories present at the node, right.
};

/// The rows of one node: `rows[0..count)` index the per-row `labels` and `weights` (bootstrap
/// multiplicities, all >= 1 here).
struct NodeRows {
  const uint32_t* rows;
  size_t count;
  const uint32_t* labels;
  const uint32_t* weights;
};

/// Reusable split search state for one tree builder (no allocation once buffers have grown).
class SplitSearch {
 public:
  SplitSearch(int32_t num_classes, int64_t min_leaf);

  /// Scans numeric feature `feature` whose sortable keys are `keys[row]` and updates `best` when a
  /// split scores strictly better. Returns false when the feature is constant (fewer than two
  /// distinct non-missing values) at the node.
  bool SearchNumeric(const NodeRows& node, const uint32_t* keys, int32_t feature,
                     SplitChoice* best);
  /// Same for a categorical feature whose category indices are `cats[row]` (kMissingKey = missing).
  /// Two classes: the optimal subset (categories ordered by the proportion of class 1, Breiman).
  /// More classes: exhaustive over subsets when at most kExhaustiveMaxCategories are present,
  /// otherwise for each class c the ordered splits of the categories sorted by p(c | category).
  bool SearchCategorical(const NodeRows& node, const uint32_t* cats, uint32_t num_categories,
                         int32_t feature, SplitChoice* best);

 private:
  void ResetCounts();
  /// Left counts := left_ (already set); derives right, squares and cross terms from totals_.
  void RecomputeFromLeft();
  /// Scores the current left/right partition; false if it violates min_leaf.
  bool Evaluate(double* score, bool* missing_left) const;
  void MoveToLeft(uint32_t cls, int64_t w);
  bool OfferCategorical(int32_t feature, const uint32_t* slots, size_t left_count,
                        size_t total_slots, SplitChoice* best);

  int32_t k_;
  int64_t min_leaf_;
  std::vector<int64_t> left_, right_, miss_, totals_;
  int64_t n_left_ = 0, n_right_ = 0, n_miss_ = 0;
  int64_t sq_left_ = 0, sq_right_ = 0, sq_miss_ = 0, cross_left_ = 0, cross_right_ = 0;
  std::vector<uint64_t> sort_buf_;
  // Categorical scratch: slot per category (kMissingKey = absent), present categories, counts.
  std::vector<uint32_t> slot_of_;
  std::vector<uint32_t> present_;
  std::vector<int64_t> cat_counts_;  // slot * k_ + class
  std::vector<int64_t> cat_total_;   // per slot
  std::vector<uint32_t> order_;
};

}  // namespace internal
}  // namespace urnforest
