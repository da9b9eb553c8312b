// LabelColumn: class names, label indices, class order.
#include "data/label_column.h"

#include <algorithm>
#include <utility>

#include "data/csv_tokenizer.h"

namespace urnforest {
namespace internal {

LabelColumn::LabelColumn(ClassSource source, std::vector<std::string> class_names,
                         ClassOrder order)
    : source_(source), class_names_(std::move(class_names)), order_(order) {
  if (source_ == ClassSource::kDiscovered) {
    class_names_.clear();
    return;
  }
  for (size_t k = 0; k < class_names_.size(); ++k) {
    fixed_.emplace(class_names_[k], static_cast<int32_t>(k));
  }
}

Status LabelColumn::Name(const Cell& cell, int32_t* label) {
  const bool number = cell.kind == CellKind::kNumber, text = cell.kind == CellKind::kText;
  if (indices_ || (number && texts_) || (text && numbers_)) {
    return Status::Error(StatusCode::kInvalidArgument, indices_
                                                           ? "labels mix class indices and names"
                                                           : "labels mix numbers and strings");
  }
  numbers_ |= number;
  texts_ |= text;
  fields_ |= cell.kind == CellKind::kField;
  if (source_ == ClassSource::kDiscovered) {
    const int64_t id = discovered_.Intern(cell.text, DatasetLimits::kMaxClasses);
    if (id == TextDictionary::kFull) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "more than " + std::to_string(DatasetLimits::kMaxClasses) +
                               " distinct class labels");
    }
    *label = static_cast<int32_t>(id);
    return Status::Ok();
  }
  const auto it = fixed_.find(cell.text);
  if (it == fixed_.end()) {
    const std::string n = std::to_string(class_names_.size());
    return Status::Error(StatusCode::kUnknownClass,
                         "label " + QuoteForMessage(cell.text) + " is not one of " +
                             (source_ == ClassSource::kModel ? "the model's " + n + " classes"
                                                             : "the " + n + " class names given"));
  }
  *label = it->second;
  return Status::Ok();
}

Status LabelColumn::Index(int32_t index, int32_t* label) {
  if (numbers_ || texts_ || fields_) {
    return Status::Error(StatusCode::kInvalidArgument, "labels mix class indices and names");
  }
  indices_ = true;
  const bool discovered = source_ == ClassSource::kDiscovered;
  const int64_t limit = discovered ? static_cast<int64_t>(DatasetLimits::kMaxClasses)
                                   : static_cast<int64_t>(class_names_.size());
  if (index < -1 || index >= limit) {
    return Status::Error(
        discovered && index >= limit ? StatusCode::kLimitExceeded : StatusCode::kInvalidArgument,
        "label " + std::to_string(index) + " is not a class index in [0, " +
            std::to_string(limit) + ") or -1");
  }
  max_index_ = std::max(max_index_, index);
  *label = index;
  return Status::Ok();
}

std::vector<std::string> LabelColumn::Finish(std::vector<int32_t>* labels) {
  if (source_ != ClassSource::kDiscovered) return class_names_;
  std::vector<std::string> names;
  if (indices_) {
    for (int32_t c = 0; c <= max_index_; ++c) names.push_back(std::to_string(c));
    return names;
  }
  names = discovered_.Names();
  if (order_ != ClassOrder::kSorted || names.empty()) return names;
  // Byte-wise: std::string compares as unsigned char.
  std::vector<int32_t> order(names.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int32_t>(k);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return names[a] < names[b]; });
  std::vector<int32_t> rank(order.size());
  std::vector<std::string> sorted(order.size());
  for (size_t k = 0; k < order.size(); ++k) {
    rank[order[k]] = static_cast<int32_t>(k);
    sorted[k] = std::move(names[order[k]]);
  }
  for (int32_t& l : *labels) {
    if (l >= 0) l = rank[l];
  }
  return sorted;
}

bool LabelColumn::NumericRuleApplies() const {
  return source_ != ClassSource::kModel && !texts_ && !indices_;
}

}  // namespace internal
}  // namespace urnforest
