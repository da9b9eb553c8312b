// DatasetBuilder: column types, categories, class names and their order, missing values, the
// numeric-target rule and the limits, for every input format.
#include "urnforest/dataset_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>

#include "data/dataset_builder_impl.h"

namespace urnforest {
namespace {

using internal::ColumnState;
using internal::IsBlankField;
using internal::kLabelNotSet;
using internal::NumberKind;
using internal::QuoteForMessage;
using internal::ReadField;
using internal::TextDictionary;
using internal::TrimBlanks;

constexpr float kMissing = internal::kMissingValue;
constexpr char kBeyondFloat[] =
    " is infinite or beyond float's range (magnitude at most 3.4028235e38); write missing values "
    "as ";

std::string NumberText(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

}  // namespace

bool FieldReadsAsNumber(std::string_view text, char decimal) {
  float value = 0;
  return ReadField(text, &value, decimal) == NumberKind::kNumber;
}

Result<DatasetBuilder> DatasetBuilder::Create(std::vector<ColumnSpec> features,
                                              DatasetBuilderOptions options, int64_t line) {
  if (features.size() > DatasetLimits::kMaxFeatures) {
    return Status::Error(StatusCode::kLimitExceeded,
                         std::to_string(features.size()) + " feature columns exceed the limit of " +
                             std::to_string(DatasetLimits::kMaxFeatures),
                         line);
  }
  auto impl = std::make_unique<Impl>();
  impl->columns.resize(features.size());
  for (size_t f = 0; f < features.size(); ++f) {
    const ColumnSpec& spec = features[f];
    if (spec.rule != ColumnRule::kCategorical || !spec.fixed_categories) continue;
    for (size_t k = 0; k < spec.categories.size(); ++k) {
      impl->columns[f].fixed.emplace(spec.categories[k], static_cast<int32_t>(k));
    }
  }
  impl->specs = std::move(features);
  impl->classes = internal::LabelColumn(options.class_source, options.class_names,
                                        options.class_order);
  impl->options = std::move(options);
  return DatasetBuilder(std::move(impl));
}

DatasetBuilder::DatasetBuilder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
DatasetBuilder::DatasetBuilder(DatasetBuilder&&) noexcept = default;
DatasetBuilder& DatasetBuilder::operator=(DatasetBuilder&&) noexcept = default;
DatasetBuilder::~DatasetBuilder() = default;

size_t DatasetBuilder::num_rows() const { return impl_->rows; }

Status DatasetBuilder::StartRow(int64_t line) {
  Impl& b = *impl_;
  Status s = b.EndRow();
  if (!s.ok()) return s;
  const size_t features = b.specs.size();
  if (b.rows + 1 > DatasetLimits::kMaxRows ||
      (features != 0 && b.rows + 1 > DatasetLimits::kMaxCells / features)) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "the data exceeds " + std::to_string(DatasetLimits::kMaxRows) +
                             " rows or " + std::to_string(DatasetLimits::kMaxCells) + " cells",
                         line);
  }
  b.row_major.resize(b.row_major.size() + features, kMissing);
  ++b.rows;
  b.row_line = line;
  b.label = kLabelNotSet;
  return Status::Ok();
}

Status DatasetBuilder::Impl::EndRow() {
  if (rows == 0 || !options.has_labels) return Status::Ok();
  if (label == kLabelNotSet) {
    if (!options.missing_label_is_unknown) {
      return Status::Error(StatusCode::kMissingLabel,
                           (row_line > 0 ? std::string() : LabelWhere(row()) + ": ") +
                               "the row has no class label in target column " +
                               QuoteForMessage(options.target_name),
                           row_line);
    }
    label = -1;
  }
  labels.push_back(label);
  label = kLabelNotSet;
  return Status::Ok();
}

Status DatasetBuilder::SetFeature(size_t feature, const Cell& cell) {
  Impl& b = *impl_;
  // The common case first: a field read as a number in a column that is numeric so far.
  if (cell.kind == CellKind::kField && b.columns[feature].numeric &&
      b.specs[feature].rule == ColumnRule::kInfer) {
    const std::string_view text = TrimBlanks(cell.text);
    if (text.empty()) return Status::Ok();
    if (internal::ParseCsvNumber(text, b.cell(feature), b.options.decimal) == NumberKind::kNumber) {
      b.columns[feature].had_number = true;
      return Status::Ok();
    }
  }
  if (cell.kind == CellKind::kMissing || IsBlankField(cell)) return Status::Ok();
  switch (b.specs[feature].rule) {
    case ColumnRule::kNumeric:
      return b.NumericCell(feature, cell);
    case ColumnRule::kCategorical:
      if (cell.kind == CellKind::kNumber && cell.text.empty()) {
        return b.FeatureError(StatusCode::kColumnMismatch,
                              "column " + QuoteForMessage(b.specs[feature].name) +
                                  " is categorical in the model, but this cell holds a number",
                              feature, cell);
      }
      return b.CategoryCell(feature, cell.text, cell);
    case ColumnRule::kInfer:
      return b.InferredCell(feature, cell);
  }
  return Status::Error(StatusCode::kInternal, "unknown column rule");
}

// A typed number: finite as a float (NaN is missing), else kNonFiniteValue.
Status DatasetBuilder::Impl::TypedNumber(size_t f, const Cell& c) {
  const float v = static_cast<float>(c.number);
  if (std::isnan(c.number)) return Status::Ok();
  if (!std::isfinite(v)) {
    return FeatureError(StatusCode::kNonFiniteValue,
                        NumberText(c.number) + " in column " + QuoteForMessage(specs[f].name) +
                            kBeyondFloat + "missing cells",
                        f, c);
  }
  *cell(f) = v;
  columns[f].had_number = true;
  return Status::Ok();
}

Status DatasetBuilder::Impl::NumericCell(size_t f, const Cell& c) {
  if (c.kind == CellKind::kNumber) return TypedNumber(f, c);
  const std::string& name = specs[f].name;
  if (c.kind == CellKind::kField) {
    const NumberKind kind = ReadField(c.text, cell(f), options.decimal);
    if (kind == NumberKind::kNumber) return Status::Ok();
    if (kind == NumberKind::kNonFinite) {
      return FeatureError(StatusCode::kNonFiniteValue,
                          QuoteForMessage(c.text) + " in column " + QuoteForMessage(name) +
                              kBeyondFloat + "empty, ? or NA",
                          f, c);
    }
  }
  return FeatureError(StatusCode::kColumnMismatch,
                      "column " + QuoteForMessage(name) +
                          " is numeric in the model, but this cell holds text " +
                          QuoteForMessage(c.text),
                      f, c);
}

Status DatasetBuilder::Impl::CategoryCell(size_t f, std::string_view text, const Cell& c) {
  ColumnState& col = columns[f];
  if (specs[f].fixed_categories) {
    const auto it = col.fixed.find(text);
    if (it != col.fixed.end()) *cell(f) = static_cast<float>(it->second);
    return Status::Ok();
  }
  if (col.numeric) {
    col.numeric = false;
    col.switch_row = col.had_number ? row() : 0;
  }
  const int64_t id = col.categories.Intern(text, DatasetLimits::kMaxCategories);
  if (id == TextDictionary::kFull) {
    return FeatureError(StatusCode::kLimitExceeded,
                        "more than " + std::to_string(DatasetLimits::kMaxCategories) +
                            " distinct values in a column",
                        f, c);
  }
  *cell(f) = static_cast<float>(id);
  return Status::Ok();
}

Status DatasetBuilder::Impl::MixError(size_t f, const Cell& c) const {
  const ColumnState& col = columns[f];
  const bool number_first = c.kind == CellKind::kText;
  const std::string number_at =
      FeatureWhere(number_first ? static_cast<size_t>(col.typed_number_row) : row(), f);
  const std::string text_at =
      FeatureWhere(number_first ? row() : static_cast<size_t>(col.typed_text_row), f) +
      " is text " + QuoteForMessage(number_first ? c.text : std::string_view(col.typed_text));
  const std::string message = "column " + QuoteForMessage(specs[f].name) +
                              " mixes numbers and strings: " +
                              (number_first ? number_at + " is a number, " + text_at
                                            : text_at + ", " + number_at + " is a number");
  if (c.line > 0) return Status::Error(StatusCode::kInvalidArgument, message, c.line, c.column);
  return Status::Error(StatusCode::kInvalidArgument, message);
}

Status DatasetBuilder::Impl::InferredCell(size_t f, const Cell& c) {
  ColumnState& col = columns[f];
  if (c.kind == CellKind::kNumber) {
    if (col.typed_text_row >= 0) return MixError(f, c);
    if (col.typed_number_row < 0) col.typed_number_row = static_cast<int64_t>(row());
    if (!col.numeric) return CategoryCell(f, c.text, c);
    return TypedNumber(f, c);
  }
  if (c.kind == CellKind::kText) {
    if (col.typed_number_row >= 0) return MixError(f, c);
    if (col.typed_text_row < 0) {
      col.typed_text_row = static_cast<int64_t>(row());
      col.typed_text = std::string(c.text);
    }
    return CategoryCell(f, c.text, c);
  }
  if (col.numeric) {
    const NumberKind kind = ReadField(c.text, cell(f), options.decimal);
    if (kind == NumberKind::kNumber) {
      col.had_number = true;
      return Status::Ok();
    }
    if (kind == NumberKind::kNonFinite) {
      col.had_number = true;
      if (!col.nonfinite) {
        col.nonfinite = true;
        col.nonfinite_line = c.line;
        col.nonfinite_column = c.column;
        col.nonfinite_row = row();
        col.nonfinite_text = std::string(c.text);
      }
      return Status::Ok();
    }
  }
  return CategoryCell(f, c.text, c);
}

Status DatasetBuilder::SetLabel(const Cell& cell) {
  Impl& b = *impl_;
  if (cell.kind == CellKind::kMissing || IsBlankField(cell)) {
    if (!b.options.missing_label_is_unknown) {
      return b.LabelError(StatusCode::kMissingLabel,
                          "the row has no class label in target column " +
                              QuoteForMessage(b.options.target_name),
                          cell);
    }
    b.label = -1;
    return Status::Ok();
  }
  const Status s = b.classes.Name(cell, &b.label);
  return s.ok() ? s : b.LabelError(s.code, s.message, cell);
}

Status DatasetBuilder::SetLabelIndex(int32_t index) {
  Impl& b = *impl_;
  const Status s = b.classes.Index(index, &b.label);
  return s.ok() ? s : b.LabelError(s.code, s.message, Cell());
}

Status DatasetBuilder::ReplayCell(size_t row, size_t feature, const Cell& cell) {
  Impl& b = *impl_;
  if (!b.replaying) return Status::Error(StatusCode::kInternal, "ReplayCell outside a replay");
  const ColumnState& col = b.columns[feature];
  if (b.specs[feature].rule != ColumnRule::kInfer || col.numeric || row >= col.switch_row ||
      cell.kind == CellKind::kMissing || cell.kind == CellKind::kNumber || IsBlankField(cell)) {
    return Status::Ok();
  }
  const int64_t id = b.prefix[feature].Intern(cell.text, DatasetLimits::kMaxCategories);
  if (id == TextDictionary::kFull) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "more than " + std::to_string(DatasetLimits::kMaxCategories) +
                             " distinct values in a column",
                         cell.line, cell.column);
  }
  b.row_major[row * b.specs.size() + feature] = static_cast<float>(id);
  return Status::Ok();
}

// The first non-finite number (in source order) among columns that stayed numeric.
Status DatasetBuilder::Impl::FirstNonFinite() const {
  const ColumnState* worst = nullptr;
  size_t worst_slot = 0;
  const auto key = [](const ColumnState& c, size_t slot) {
    return c.nonfinite_line > 0 ? std::make_pair(c.nonfinite_line, c.nonfinite_column)
                                : std::make_pair(static_cast<int64_t>(c.nonfinite_row),
                                                 static_cast<int64_t>(slot));
  };
  for (size_t slot = 0; slot < columns.size(); ++slot) {
    const ColumnState& col = columns[slot];
    if (!col.numeric || !col.nonfinite) continue;
    if (worst == nullptr || key(col, slot) < key(*worst, worst_slot)) {
      worst = &col;
      worst_slot = slot;
    }
  }
  if (worst == nullptr) return Status::Ok();
  const std::string message = QuoteForMessage(worst->nonfinite_text) + " in numeric column " +
                              QuoteForMessage(specs[worst_slot].name) + kBeyondFloat +
                              "empty, ? or NA";
  if (worst->nonfinite_line > 0) {
    return Status::Error(StatusCode::kNonFiniteValue, message, worst->nonfinite_line,
                         worst->nonfinite_column);
  }
  return Status::Error(StatusCode::kNonFiniteValue,
                       FeatureWhere(worst->nonfinite_row, worst_slot) + ": " + message);
}

// Columns that turned categorical after some numbers: their replayed prefix categories come
// first, then the later ones, keeping first-seen order over the whole column.
Status DatasetBuilder::Impl::MergePrefixes() {
  const size_t features = specs.size();
  for (size_t slot = 0; slot < features; ++slot) {
    ColumnState& col = columns[slot];
    if (col.numeric || col.switch_row == 0) continue;
    TextDictionary& merged = prefix[slot];
    std::vector<float> remap(col.categories.size());
    for (size_t k = 0; k < col.categories.size(); ++k) {
      const int64_t id = merged.Intern(col.categories.name(k), DatasetLimits::kMaxCategories);
      if (id == TextDictionary::kFull) {
        return Status::Error(StatusCode::kLimitExceeded,
                             "column " + QuoteForMessage(specs[slot].name) + " has more than " +
                                 std::to_string(DatasetLimits::kMaxCategories) +
                                 " distinct values");
      }
      remap[k] = static_cast<float>(id);
    }
    for (size_t r = col.switch_row; r < rows; ++r) {
      float& v = row_major[r * features + slot];
      if (!std::isnan(v)) v = remap[static_cast<size_t>(v)];
    }
    col.categories = std::move(merged);
  }
  return Status::Ok();
}

Result<Dataset> DatasetBuilder::Finish(const Replay& replay) {
  Impl& b = *impl_;
  Status s = b.EndRow();
  if (!s.ok()) return s;
  s = b.FirstNonFinite();
  if (!s.ok()) return s;
  size_t replay_rows = 0;
  for (const ColumnState& col : b.columns) {
    if (!col.numeric) replay_rows = std::max(replay_rows, col.switch_row);
  }
  if (replay_rows > 0) {
    if (!replay) return Status::Error(StatusCode::kInternal, "the data needs a replay");
    b.prefix.clear();
    b.prefix.resize(b.specs.size());
    b.replaying = true;
    s = replay(replay_rows);
    b.replaying = false;
    if (!s.ok()) return s;
    s = b.MergePrefixes();
    if (!s.ok()) return s;
  }
  Schema schema;
  schema.target_name = b.options.target_name;
  schema.features.resize(b.specs.size());
  for (size_t f = 0; f < b.specs.size(); ++f) {
    FeatureInfo& info = schema.features[f];
    ColumnSpec& spec = b.specs[f];
    info.name = std::move(spec.name);
    const bool categorical = spec.rule == ColumnRule::kCategorical ||
                             (spec.rule == ColumnRule::kInfer && !b.columns[f].numeric);
    info.type = categorical ? FeatureType::kCategorical : FeatureType::kNumeric;
    if (!categorical) continue;
    info.categories =
        spec.fixed_categories ? std::move(spec.categories) : b.columns[f].categories.Names();
  }
  schema.class_names = b.classes.Finish(&b.labels);
  if (b.options.has_labels && b.classes.NumericRuleApplies() && !b.options.target_categorical) {
    s = CheckClassTarget(schema.class_names, b.rows, b.options.target_name);
    if (!s.ok()) return s;
  }
  const size_t features = schema.features.size();
  std::vector<float> column_major(b.rows * features);
  for (size_t r = 0; r < b.rows; ++r) {
    const float* src = b.row_major.data() + r * features;
    for (size_t f = 0; f < features; ++f) column_major[f * b.rows + r] = src[f];
  }
  std::vector<float>().swap(b.row_major);
  return Dataset::Create(std::move(schema), b.rows, std::move(column_major),
                         b.options.has_labels ? std::move(b.labels) : std::vector<int32_t>());
}

}  // namespace urnforest
