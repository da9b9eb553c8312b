#pragma once
// Evaluation protocols: how a data set is split into train/test partitions (repeated stratified
// k-fold cross-validation, repeated holdout). The synthetic protocol (fresh samples per
// repetition) needs no split and lives in experiment.h. Every split is deterministic in its seed.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// One train/test partition: row indices into the data set, each sorted increasingly; train and
/// test are disjoint.
struct Partition {
  std::vector<size_t> train;
  std::vector<size_t> test;
  int32_t repeat = 0;  ///< Repetition index, 0-based.
  int32_t fold = 0;    ///< Fold index within the repetition (0 for holdout).
};

/// Repeated k-fold cross-validation (default 10 x 10, stratified).
struct KFoldOptions {
  int32_t folds = 10;     ///< k, 2..rows.
  int32_t repeats = 10;   ///< Independent reshuffles, >= 1.
  /// True: each class's rows are shuffled and dealt round-robin over the folds (the deal continues
  /// across classes), so every fold holds floor or ceil of n_c / k rows of every class c and the
  /// fold sizes differ by at most one. False: one shuffle of all rows dealt round-robin.
  bool stratified = true;
  uint64_t seed = 1;
};

/// Returns folds * repeats partitions, repetition-major (repeat 0 folds 0..k-1, then repeat 1...).
/// Within a repetition the test sets are disjoint and cover every row exactly once. `labels` holds
/// one class index in [0, num_classes) per row. Fails with kInvalidArgument (folds < 2, folds >
/// rows, repeats < 1, a label out of range).
Result<std::vector<Partition>> RepeatedKFold(const std::vector<int32_t>& labels,
                                             int32_t num_classes, const KFoldOptions& options = {});

/// Repeated holdout: each repetition draws a fresh random test set.
struct HoldoutOptions {
  double test_fraction = 1.0 / 3.0;  ///< In (0, 1); the papers' 2/3 train - 1/3 test split.
  int32_t repeats = 100;             ///< >= 1.
  /// True: round(n_c * test_fraction) rows of every class c go to the test set (at least one row
  /// per class stays in training). False: round(n * test_fraction) rows drawn uniformly, as in
  /// [HMS11] §4 (which does not mention stratification).
  bool stratified = true;
  uint64_t seed = 1;
};

/// Returns `repeats` partitions. Fails with kInvalidArgument (fraction outside (0, 1), an empty
/// train or test set, repeats < 1, a label out of range).
Result<std::vector<Partition>> RepeatedHoldout(const std::vector<int32_t>& labels,
                                               int32_t num_classes,
                                               const HoldoutOptions& options = {});

}  // namespace urnforest
