#pragma once
// XGBoost import: a classifier saved by XGBoost itself (Booster.save_model("model.json"), or
// XGBClassifier.save_model) becomes a Forest that predicts as xgboost does and halts with
// urnforest's rules, with no converter in between. docs/import.md says what is read and refused.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Options of ImportXGBoost.
struct XGBoostImportOptions {
  /// Names of the model's input columns, in its feature order. Empty = the names the file stores
  /// (`feature_names`, set when the model was trained on a named DataFrame or DMatrix), else
  /// "f0", "f1", ... (XGBoost's own default names). Otherwise exactly one distinct, non-empty
  /// UTF-8 name per feature (kInvalidArgument).
  std::vector<std::string> feature_names;
  /// Names for the classes 0..K-1 (XGBoost's labels; e.g. the names a LabelEncoder mapped to
  /// them). Empty = "0", "1", ... Otherwise one distinct, non-empty UTF-8 name per class
  /// (kInvalidArgument).
  std::vector<std::string> class_names;
  /// Name recorded for the target column.
  std::string target_name = "class";
  /// The most memory, in bytes, each step of the import may take: the parsed document (counted
  /// as it is read), the trees read from it (while the document is still held, so the peak is at
  /// most about twice this), then the forest (its leaf table with every class of every leaf,
  /// per-tree bounds and node table, estimated before it is built, after the document is freed).
  /// 0 = the larger of 64 MiB and 64 bytes per byte of the file; a larger need is refused with
  /// kLimitExceeded.
  size_t max_memory_bytes = 0;
};

/// Imports the XGBoost JSON model (format of XGBoost 1.x, `"learner"` at the top) in the `size`
/// bytes at `data` (borrowed for the call): a `gbtree` booster whose objective is
/// `binary:logistic`, `binary:logitraw`, `multi:softprob` or `multi:softmax`.
///
/// Predictions equal xgboost's: a split sends `x < split_condition` (float32) left, as an exact
/// `x <= t` split on the largest float32 below the condition; a missing value (NaN) follows
/// `default_left`; every tree adds its leaf value to the margin of its class (`tree_info`),
/// starting from the base margin (`base_score`, through the logit for binary:logistic);
/// probabilities are the logistic (binary:logistic: predict_proba's [1 - p, p]) or the softmax
/// (multi-class) of the margins; binary:logitraw scores are the margins (-m, m). The predicted
/// class is the largest score, the first on ties (binary: the second class when the margin is
/// above 0). Every tree of the file is used (save the booster sliced to its best iteration to use
/// fewer). The forest is additive with the soft vote (ImportedModel); classes are named "0".."K-1"
/// and features as above.
///
/// Fails with kCorruptModel for bytes that are not JSON (bounded nesting and size; the message
/// names the byte) or not an XGBoost model (a missing or mistyped field, array lengths that
/// disagree, a child index out of range, a node reached twice, a feature out of range, a NaN
/// split); kUnsupportedModel naming what it found for other objectives (regression, ranking,
/// survival, ...), the `dart` and `gblinear` boosters, categorical splits, vector leaves and
/// multi-target models; kInvalidArgument for names that do not fit; kLimitExceeded beyond
/// 100,000 trees, 4,096 classes or 65,536 features, or over the memory budget. Never throws.
Result<Forest> ImportXGBoost(const uint8_t* data, size_t size,
                             const XGBoostImportOptions& options = {});

}  // namespace urnforest
