#pragma once
// Internal to the XGBoost importer: the parts of XGBoost's JSON model that a classifier's
// predictions depend on, read from the parsed document (json_value.h) with every field's type,
// range and array length checked. What the importer does not run (other objectives and boosters,
// categorical splits, vector leaves) is refused here with kUnsupportedModel, naming it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/status.h"
#include "xgboost/json_value.h"

namespace urnforest {
namespace internal {

/// One regression tree as XGBoost stores it: node i is a leaf when left[i] == -1 (its value is
/// split_condition[i]); otherwise `x < split_condition[i]` on feature split_index[i] goes to
/// left[i], any other value to right[i], a missing one to left[i] when default_left[i]. Node 0 is
/// the root. All arrays have the same length (>= 1).
struct XGBoostTree {
  std::vector<int32_t> left, right, split_index;
  std::vector<float> split_condition;  ///< float32, as XGBoost reads it; finite.
  std::vector<uint8_t> default_left;
};

/// A gbtree classifier's model.
struct XGBoostModel {
  std::string objective;                   ///< One of the four accepted (xgboost_import.h).
  float base_score = 0.5f;                 ///< As stored (a probability for binary:logistic).
  int32_t num_classes = 2;                 ///< 2 for the binary objectives, num_class otherwise.
  int32_t num_features = 0;                ///< learner_model_param.num_feature, 1..65,536.
  std::vector<std::string> feature_names;  ///< Empty, or one per feature, as stored.
  std::vector<XGBoostTree> trees;          ///< In boosting order.
  std::vector<int32_t> tree_class;  ///< Per tree: the class whose margin it adds to (tree_info).
  std::string version;              ///< "xgboost 1.7.4" from the file's version, or "xgboost".
};

/// The model in `doc` (XGBoost's JSON model). Errors (see ImportXGBoost): kCorruptModel naming
/// the field for a missing or mistyped one; kUnsupportedModel naming the objective, booster or
/// feature; kLimitExceeded beyond 100,000 trees, 4,096 classes or 65,536 features, or when the
/// typed trees would take more than `max_bytes`.
Result<XGBoostModel> ReadXGBoostModel(const JsonValue& doc, size_t max_bytes);

/// kCorruptModel with "XGBoost JSON: " + what.
Status XGBoostCorrupt(const std::string& what);

}  // namespace internal
}  // namespace urnforest
