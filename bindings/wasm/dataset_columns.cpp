// BuildFromColumns: the JS table transport, cell by cell, into a DatasetBuilder.
#include "dataset_columns.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "urnforest/dataset_builder.h"

namespace urnforest::wasm {
namespace {

bool Absent(const val& v) { return v.isUndefined() || v.isNull(); }

// The label cells of `labels` into `builder`'s current row `r`.
Status SetLabel(DatasetBuilder* builder, size_t r, const std::vector<int32_t>& indices,
                const std::vector<int32_t>& codes, const std::vector<std::string>& names,
                const std::vector<uint8_t>& numbers) {
  if (!indices.empty()) return builder->SetLabelIndex(indices[r]);
  Cell cell;
  const int32_t code = codes[r];
  if (code >= 0) {
    cell.kind = numbers[code] != 0 ? CellKind::kNumber : CellKind::kText;
    cell.text = names[code];
  }
  return builder->SetLabel(cell);
}

}  // namespace

Result<Dataset> BuildFromColumns(const val& table) {
  const size_t rows = table["rows"].as<size_t>();
  const size_t cols = table["cols"].as<size_t>();
  std::vector<float> numbers = emscripten::convertJSArrayToNumberVector<float>(table["numbers"]);
  std::vector<int32_t> codes;
  if (!Absent(table["codes"])) codes = emscripten::convertJSArrayToNumberVector<int32_t>(table["codes"]);
  const std::vector<std::string> texts = StringVector(table["texts"]);
  if (numbers.size() != rows * cols || (!codes.empty() && codes.size() != rows * cols)) {
    return Status::Error(StatusCode::kShapeMismatch, "the table's arrays must hold rows * cols cells");
  }
  std::vector<ColumnSpec> specs(cols);
  std::vector<std::string> names;
  if (!Absent(table["featureNames"])) names = StringVector(table["featureNames"]);
  std::vector<int32_t> rules;
  if (!Absent(table["rules"])) rules = emscripten::convertJSArrayToNumberVector<int32_t>(table["rules"]);
  for (size_t c = 0; c < cols; ++c) {
    specs[c].name = c < names.size() ? names[c] : DefaultFeatureName(c);
    if (c < rules.size()) specs[c].rule = static_cast<ColumnRule>(rules[c]);
  }
  std::vector<std::string> feature_names;
  for (const ColumnSpec& spec : specs) feature_names.push_back(spec.name);

  DatasetBuilderOptions options;
  const val labels = table["labels"];
  std::vector<int32_t> indices, label_codes;
  std::vector<std::string> label_names;
  std::vector<uint8_t> label_numbers;
  options.has_labels = !Absent(labels);
  if (options.has_labels && labels["codes"].isUndefined()) {
    indices = emscripten::convertJSArrayToNumberVector<int32_t>(labels);
  } else if (options.has_labels) {
    label_codes = emscripten::convertJSArrayToNumberVector<int32_t>(labels["codes"]);
    label_names = StringVector(labels["names"]);
    label_numbers = emscripten::convertJSArrayToNumberVector<uint8_t>(labels["numbers"]);
    if (label_numbers.size() != label_names.size()) {
      return Status::Error(StatusCode::kShapeMismatch, "one number flag per label name");
    }
    for (int32_t code : label_codes) {
      if (code >= static_cast<int32_t>(label_names.size())) {
        return Status::Error(StatusCode::kInternal, "a label code outside the label names");
      }
    }
  }
  if (indices.size() + label_codes.size() != (options.has_labels ? rows : 0)) {
    return Status::Error(StatusCode::kShapeMismatch, "the labels must hold one entry per row");
  }
  options.target_name = table["targetName"].as<std::string>();
  const bool from_model = table["classesFromModel"].as<bool>();
  if (!Absent(table["classNames"])) {
    options.class_names = StringVector(table["classNames"]);
    options.class_source = from_model ? ClassSource::kModel : ClassSource::kGiven;
  }
  options.missing_label_is_unknown = true;
  options.target_categorical = table["targetCategorical"].as<bool>();
  const bool object_rows = table["cellWhere"].as<std::string>() == "rows";
  options.feature_cell_name = [&feature_names, object_rows](size_t r, size_t c) {
    return object_rows ? "rows[" + std::to_string(r) + "]." + feature_names[c]
                       : "x[" + std::to_string(r) + "][" + std::to_string(c) + "]";
  };
  const std::string key = table["labelWhere"].as<std::string>();
  options.label_cell_name = [key](size_t r) {
    return key.empty() ? "labels[" + std::to_string(r) + "]" : "rows[" + std::to_string(r) + "]." + key;
  };

  const bool has_labels = options.has_labels;
  Result<DatasetBuilder> built = DatasetBuilder::Create(std::move(specs), std::move(options));
  if (!built.ok()) return built.status();
  DatasetBuilder& builder = built.value();
  for (size_t r = 0; r < rows; ++r) {
    Status s = builder.StartRow();
    for (size_t c = 0; s.ok() && c < cols; ++c) {
      const size_t i = r * cols + c;
      Cell cell;
      if (!codes.empty() && codes[i] >= 0) {
        if (static_cast<size_t>(codes[i]) >= texts.size()) {
          return Status::Error(StatusCode::kInternal, "a text code outside the table's texts");
        }
        cell.kind = CellKind::kText;
        cell.text = texts[codes[i]];
      } else if (!std::isnan(numbers[i])) {
        cell.kind = CellKind::kNumber;
        cell.number = numbers[i];
      }
      s = builder.SetFeature(c, cell);
    }
    if (s.ok() && has_labels) {
      s = SetLabel(&builder, r, indices, label_codes, label_names, label_numbers);
    }
    if (!s.ok()) return s;
  }
  std::vector<float>().swap(numbers);  // The builder holds its own copy: keep the peak at two.
  std::vector<int32_t>().swap(codes);
  return builder.Finish();
}

}  // namespace urnforest::wasm
