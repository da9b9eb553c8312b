#pragma once
// Dataset: a column-major feature matrix with typed columns, missing values and class labels.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// How a feature column is interpreted.
enum class FeatureType : uint8_t {
  kNumeric = 0,      ///< Real values; splits are thresholds at midpoints.
  kCategorical = 1,  ///< Category indices 0..categories.size()-1; splits are subsets.
};

/// One feature column of a schema.
struct FeatureInfo {
  std::string name;
  FeatureType type = FeatureType::kNumeric;
  /// Categorical only: category index -> original text, in first-seen order of the training data.
  std::vector<std::string> categories;
};

/// What a trained model expects of its input: feature columns (in model order), the target
/// column's name and the class names (class index -> name).
struct Schema {
  std::vector<FeatureInfo> features;
  std::string target_name;
  std::vector<std::string> class_names;
};

/// Documented limits; exceeding one fails with StatusCode::kLimitExceeded.
struct DatasetLimits {
  static constexpr size_t kMaxRows = size_t{1} << 26;       ///< 67,108,864 rows.
  static constexpr size_t kMaxFeatures = 65536;             ///< Feature columns.
  static constexpr size_t kMaxClasses = 4096;               ///< Distinct class labels.
  static constexpr size_t kMaxCategories = 65536;           ///< Distinct values per categorical column.
  static constexpr size_t kMaxCells = size_t{1} << 28;      ///< rows * features (1 GiB of floats).
};

/// An immutable table of rows. Values are stored column-major as float:
/// `value(row, f) == column(f)[row]`; numeric features hold the number, categorical features hold
/// the category index as a float; NaN means missing (for both kinds).
/// Labels are class indices in [0, num_classes()) or -1 for "label unknown"
/// (allowed only in prediction data); `labels()` is empty when the data has no target column.
class Dataset {
 public:
  Dataset() = default;

  /// Validates and takes ownership. `column_major.size()` must be rows * schema.features.size();
  /// categorical values must be NaN or an integral index below the column's category count;
  /// numeric values must be finite or NaN; labels must be empty or have `rows` entries, each -1 or a
  /// valid class index. Fails with kShapeMismatch, kNonFiniteValue, kInvalidArgument or
  /// kLimitExceeded.
  static Result<Dataset> Create(Schema schema, size_t rows, std::vector<float> column_major,
                                std::vector<int32_t> labels);

  /// From a row-major matrix of numeric features (`x[row * cols + col]`, NaN = missing) and class
  /// indices (`labels` may be null for unlabeled data; -1 = unknown). Feature names default to
  /// "x0", "x1", ... and class names to "0", "1", ... when the name vectors are empty.
  static Result<Dataset> FromRowMajor(const float* x, size_t rows, size_t cols,
                                      const int32_t* labels,
                                      std::vector<std::string> feature_names,
                                      std::vector<std::string> class_names);

  size_t num_rows() const { return num_rows_; }
  size_t num_features() const { return schema_.features.size(); }
  size_t num_classes() const { return schema_.class_names.size(); }
  const Schema& schema() const { return schema_; }
  bool has_labels() const { return !labels_.empty(); }
  const std::vector<int32_t>& labels() const { return labels_; }
  float value(size_t row, size_t feature) const { return values_[feature * num_rows_ + row]; }
  /// Pointer to `num_rows()` values of one feature. Valid while the Dataset lives.
  const float* column(size_t feature) const { return values_.data() + feature * num_rows_; }
  /// Copies one row into `out` (num_features() floats), the layout Forest::TreeVote reads.
  void CopyRow(size_t row, float* out) const;
  /// The whole matrix row-major (rows * features floats).
  std::vector<float> RowMajor() const;
  /// Rows `rows` (indices, repeats allowed) as a new Dataset with the same schema.
  Dataset Subset(const std::vector<size_t>& rows) const;

 private:
  Schema schema_;
  size_t num_rows_ = 0;
  std::vector<float> values_;
  std::vector<int32_t> labels_;
};

/// The name of feature column `column` (0-based) of data given without names: "x0", "x1", ...
/// (Forest reads data so named by position; see PrepareRows).
std::string DefaultFeatureName(size_t column);

/// The rule that tells a class label column from a regression target: a target whose every class
/// name reads as a number and that has more than kMaxNumericClasses distinct values, or more than
/// kMinNumericClassesChecked distinct values and more than half as many as there are rows, is
/// numeric. urnforest classifies (there is no regression).
struct NumericTargetRule {
  static constexpr size_t kMaxNumericClasses = 50;
  static constexpr size_t kMinNumericClassesChecked = 10;
};

/// Ok unless `class_names` (the distinct labels of a target column of `rows` rows named `target`)
/// look like a regression target by NumericTargetRule; then kNumericTarget, whose message says
/// that urnforest classifies and how to declare the target categorical.
Status CheckClassTarget(const std::vector<std::string>& class_names, size_t rows,
                        const std::string& target);

}  // namespace urnforest
