// Dataset: construction from column- or row-major arrays with validation and limits, row access,
// subsets.
#include "urnforest/dataset.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_set>
#include <utility>

#include "urnforest/dataset_builder.h"

namespace urnforest {
namespace {

Status CheckLimits(size_t rows, size_t features, size_t classes) {
  if (rows > DatasetLimits::kMaxRows) {
    return Status::Error(StatusCode::kLimitExceeded,
                         std::to_string(rows) + " rows exceed the limit of " +
                             std::to_string(DatasetLimits::kMaxRows));
  }
  if (features > DatasetLimits::kMaxFeatures) {
    return Status::Error(StatusCode::kLimitExceeded,
                         std::to_string(features) + " features exceed the limit of " +
                             std::to_string(DatasetLimits::kMaxFeatures));
  }
  if (classes > DatasetLimits::kMaxClasses) {
    return Status::Error(StatusCode::kLimitExceeded,
                         std::to_string(classes) + " classes exceed the limit of " +
                             std::to_string(DatasetLimits::kMaxClasses));
  }
  if (features != 0 && rows > DatasetLimits::kMaxCells / features) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "rows x features exceeds the limit of " +
                             std::to_string(DatasetLimits::kMaxCells) + " cells");
  }
  return Status::Ok();
}

// True when `name` reads as a number, with '.' or ',' as the decimal mark (surrounding blanks
// ignored, as for any field).
bool ReadsAsNumber(const std::string& name) {
  return FieldReadsAsNumber(name, '.') || FieldReadsAsNumber(name, ',');
}

}  // namespace

std::string DefaultFeatureName(size_t column) { return "x" + std::to_string(column); }

Status CheckClassTarget(const std::vector<std::string>& class_names, size_t rows,
                        const std::string& target) {
  const size_t k = class_names.size();
  const bool many = k > NumericTargetRule::kMaxNumericClasses ||
                    (k > NumericTargetRule::kMinNumericClassesChecked && 2 * k > rows);
  if (!many || !std::all_of(class_names.begin(), class_names.end(), ReadsAsNumber)) {
    return Status::Ok();
  }
  return Status::Error(
      StatusCode::kNumericTarget,
      "target column '" + target + "' holds numbers with " + std::to_string(k) +
          " distinct values in " + std::to_string(rows) +
          " rows, which looks like a quantity to predict (regression); urnforest classifies, "
          "so each distinct value would be a class. Choose a class column as the target, or "
          "declare the target categorical (targetCategorical: true; CLI --target-categorical) "
          "to train on these values as classes");
}

Result<Dataset> Dataset::Create(Schema schema, size_t rows, std::vector<float> column_major,
                                std::vector<int32_t> labels) {
  const size_t features = schema.features.size();
  Status limits = CheckLimits(rows, features, schema.class_names.size());
  if (!limits.ok()) return limits;
  if (column_major.size() != rows * features) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "expected " + std::to_string(rows) + " x " + std::to_string(features) +
                             " = " + std::to_string(rows * features) + " values, got " +
                             std::to_string(column_major.size()));
  }
  if (!labels.empty() && labels.size() != rows) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "expected " + std::to_string(rows) + " labels, got " +
                             std::to_string(labels.size()));
  }
  {
    std::unordered_set<std::string> names;
    for (const FeatureInfo& info : schema.features) {
      if (!names.insert(info.name).second) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "duplicate feature name '" + info.name + "'");
      }
    }
  }
  for (size_t f = 0; f < features; ++f) {
    const FeatureInfo& info = schema.features[f];
    if (info.type == FeatureType::kCategorical &&
        info.categories.size() > DatasetLimits::kMaxCategories) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "column '" + info.name + "' has " +
                               std::to_string(info.categories.size()) +
                               " categories; the limit is " +
                               std::to_string(DatasetLimits::kMaxCategories));
    }
    const float* col = column_major.data() + f * rows;
    for (size_t r = 0; r < rows; ++r) {
      const float v = col[r];
      if (std::isnan(v)) continue;
      if (!std::isfinite(v)) {
        return Status::Error(StatusCode::kNonFiniteValue,
                             "column '" + info.name + "', row " + std::to_string(r) +
                                 ": value is infinite");
      }
      if (info.type == FeatureType::kCategorical) {
        if (v < 0 || v != std::floor(v) || v >= static_cast<float>(info.categories.size())) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "column '" + info.name + "', row " + std::to_string(r) +
                                   ": category index " + std::to_string(v) +
                                   " is not one of the column's " +
                                   std::to_string(info.categories.size()) + " categories");
        }
      }
    }
  }
  const int32_t num_classes = static_cast<int32_t>(schema.class_names.size());
  for (size_t r = 0; r < labels.size(); ++r) {
    if (labels[r] < -1 || labels[r] >= num_classes) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "row " + std::to_string(r) + ": label " + std::to_string(labels[r]) +
                               " is not a class index in [0, " + std::to_string(num_classes) +
                               ") or -1");
    }
  }
  Dataset data;
  data.schema_ = std::move(schema);
  data.num_rows_ = rows;
  data.values_ = std::move(column_major);
  data.labels_ = std::move(labels);
  return data;
}

Result<Dataset> Dataset::FromRowMajor(const float* x, size_t rows, size_t cols,
                                      const int32_t* labels,
                                      std::vector<std::string> feature_names,
                                      std::vector<std::string> class_names) {
  Status limits = CheckLimits(rows, cols, class_names.size());
  if (!limits.ok()) return limits;
  if (!feature_names.empty() && feature_names.size() != cols) {
    return Status::Error(StatusCode::kShapeMismatch,
                         std::to_string(feature_names.size()) + " feature names for " +
                             std::to_string(cols) + " columns");
  }
  if (rows > 0 && cols > 0 && x == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "feature matrix is null");
  }
  Schema schema;
  schema.features.resize(cols);
  for (size_t c = 0; c < cols; ++c) {
    schema.features[c].name = feature_names.empty() ? DefaultFeatureName(c) : feature_names[c];
    schema.features[c].type = FeatureType::kNumeric;
  }
  std::vector<int32_t> label_vector;
  if (labels != nullptr) {
    label_vector.assign(labels, labels + rows);
    if (class_names.empty()) {
      int32_t max_label = -1;
      for (int32_t label : label_vector) max_label = label > max_label ? label : max_label;
      if (static_cast<size_t>(max_label) + 1 > DatasetLimits::kMaxClasses && max_label >= 0) {
        return Status::Error(StatusCode::kLimitExceeded,
                             "label " + std::to_string(max_label) + " exceeds the class limit");
      }
      for (int32_t c = 0; c <= max_label; ++c) class_names.push_back(std::to_string(c));
    }
  }
  schema.class_names = std::move(class_names);
  std::vector<float> values(rows * cols);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) values[c * rows + r] = x[r * cols + c];
  }
  return Create(std::move(schema), rows, std::move(values), std::move(label_vector));
}

void Dataset::CopyRow(size_t row, float* out) const {
  const size_t features = num_features();
  for (size_t f = 0; f < features; ++f) out[f] = values_[f * num_rows_ + row];
}

std::vector<float> Dataset::RowMajor() const {
  const size_t features = num_features();
  std::vector<float> out(num_rows_ * features);
  // Blocks of 16 rows: their output rows stay in L1 while every column is read (column by column
  // over all rows wrote one cache line per value).
  constexpr size_t kRows = 16;
  for (size_t begin = 0; begin < num_rows_; begin += kRows) {
    const size_t end = std::min(num_rows_, begin + kRows);
    for (size_t f = 0; f < features; ++f) {
      const float* col = column(f);
      for (size_t r = begin; r < end; ++r) out[r * features + f] = col[r];
    }
  }
  return out;
}

Dataset Dataset::Subset(const std::vector<size_t>& rows) const {
  Dataset out;
  out.schema_ = schema_;
  out.num_rows_ = rows.size();
  const size_t features = num_features();
  out.values_.resize(rows.size() * features);
  for (size_t f = 0; f < features; ++f) {
    const float* src = column(f);
    float* dst = out.values_.data() + f * rows.size();
    for (size_t i = 0; i < rows.size(); ++i) dst[i] = src[rows[i]];
  }
  if (!labels_.empty()) {
    out.labels_.resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) out.labels_[i] = labels_[rows[i]];
  }
  return out;
}

}  // namespace urnforest
