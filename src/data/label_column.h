#pragma once
// Private to src/data: the class labels of a target column as DatasetBuilder takes them.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/text_dictionary.h"
#include "urnforest/dataset_builder.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// Class names (discovered, or fixed by the caller or a model), labels given as names or as class
/// indices, the order of discovered names, and whether the numeric-target rule applies. Error
/// messages carry no position: the builder adds the cell's.
class LabelColumn {
 public:
  LabelColumn(ClassSource source, std::vector<std::string> class_names, ClassOrder order);

  /// The class index of a label cell that is not missing (kText, kField, or kNumber's `text`).
  /// kInvalidArgument when labels mix numbers and strings or names and indices; kLimitExceeded
  /// beyond DatasetLimits::kMaxClasses names; kUnknownClass for a name outside fixed classes.
  Status Name(const Cell& cell, int32_t* label);
  /// A label given as a class index (-1 = unknown); see DatasetBuilder::SetLabelIndex.
  Status Index(int32_t index, int32_t* label);
  /// The class names; remaps `labels` (indices in first-seen order) to the final order.
  std::vector<std::string> Finish(std::vector<int32_t>* labels);
  /// True when the numeric-target rule may apply: every label was a number or a field (none was
  /// typed text or a class index) and the classes are not a model's.
  bool NumericRuleApplies() const;

 private:
  ClassSource source_;
  std::vector<std::string> class_names_;
  ClassOrder order_;
  TextDictionary discovered_;
  std::unordered_map<std::string_view, int32_t> fixed_;  // Into class_names_.
  bool numbers_ = false, texts_ = false, fields_ = false, indices_ = false;
  int32_t max_index_ = -1;
};

}  // namespace internal
}  // namespace urnforest
