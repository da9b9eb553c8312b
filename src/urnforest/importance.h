#pragma once
// Feature importance of a trained forest: mean decrease in Gini impurity and out-of-bag
// permutation importance.
#include <cstdint>
#include <string_view>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// How importance is measured.
enum class ImportanceMethod : int32_t {
  /// Mean decrease in Gini impurity: per tree, the sum over its splits on a feature of
  /// N G(node) - N_left G(left) - N_right G(right) (N: weighted rows reaching the node, G = 1 -
  /// sum of squared class fractions), normalised to sum 1 per tree, averaged over trees and
  /// normalised to sum 1 again.
  kImpurity = 0,
  /// Permutation importance: per tree, the rise in its error rate when one feature's values are
  /// permuted among the rows it is evaluated on, averaged over trees. Not normalised (a fraction of
  /// rows; can be negative for a useless feature).
  kPermutation = 1,
};

/// "impurity" / "permutation"; the front ends' names.
const char* ImportanceMethodName(ImportanceMethod method);
/// Parses a method name; kInvalidArgument naming the accepted ones otherwise.
Result<ImportanceMethod> ParseImportanceMethod(std::string_view name);

/// Options of FeatureImportance.
struct ImportanceOptions {
  ImportanceMethod method = ImportanceMethod::kImpurity;
  /// Seed of the permutations (same forest, data and seed: same importances).
  uint64_t seed = 1;
};

/// Importance of each of the forest's features (model order, forest.num_features() values) from
/// labelled `data` (columns matched by name as for prediction; kColumnMismatch, kMissingLabel
/// without labels, kUnknownClass for labels outside the model's classes). The model keeps no
/// per-node counts, so the rows come from `data`:
/// - When `data` is the exact training data of a random forest or bagging (its labels equal
///   forest.train_labels()), each tree's bootstrap sample is replayed (as PruneForest does): the
///   impurity decrease is counted on the tree's in-bag rows with their multiplicities (the training
///   gain) and the permutation on its out-of-bag rows (Breiman's).
/// - Otherwise (other data, AdaBoost, vote-boosting, imported forests) every tree reads every row
///   of `data` once: held-out importance.
/// Rows with label -1 are skipped. Fails with kInvalidArgument for a forest without trees.
Result<std::vector<double>> FeatureImportance(const Forest& forest, const Dataset& data,
                                              const ImportanceOptions& options = {});

}  // namespace urnforest
