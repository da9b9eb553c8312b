// DatasetHandle: loaders (CSV, JS tables, subsets), accessors and the prepared-rows cache, and its
// embind registration.
#include "dataset_handle.h"

#include <cstdint>
#include <string_view>
#include <utility>

#include <emscripten/bind.h>

#include "convert.h"
#include "dataset_columns.h"
#include "registry.h"
#include "forest_handle.h"
#include "memory.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest_halting.h"
#include "urnforest/predict.h"

namespace urnforest::wasm {
val DatasetHandle::LoadCsv(double address, double length, const val& target, bool has_target,
                           int32_t class_order, const ForestHandle* schema_of, int32_t delimiter,
                           int32_t decimal, bool target_categorical) {
  const std::string_view text(reinterpret_cast<const char*>(static_cast<uintptr_t>(address)),
                              static_cast<size_t>(length));
  CsvOptions options;
  options.target = target.as<std::string>();
  options.has_target = has_target;
  options.class_order = static_cast<ClassOrder>(class_order);
  options.schema = schema_of != nullptr ? &schema_of->forest().schema() : nullptr;
  options.delimiter = static_cast<char>(delimiter);
  options.decimal = static_cast<char>(decimal);
  options.target_categorical = target_categorical;
  Result<Dataset> result = ReadCsv(text, options);
  if (!result.ok()) return ErrorObject(result.status());
  SetData(std::move(result).value());
  return val::undefined();
}

val DatasetHandle::LoadColumns(const val& table) {
  Result<Dataset> result = BuildFromColumns(table);
  if (!result.ok()) return ErrorObject(result.status());
  SetData(std::move(result).value());
  return val::undefined();
}

val DatasetHandle::LoadSubset(const DatasetHandle& source, const val& rows) {
  std::vector<uint32_t> indices = emscripten::convertJSArrayToNumberVector<uint32_t>(rows);
  std::vector<size_t> picked(indices.begin(), indices.end());
  for (size_t row : picked) {
    if (row >= source.data_.num_rows()) return InvalidArgument("row index out of range");
  }
  SetData(source.data_.Subset(picked));
  return val::undefined();
}

val DatasetHandle::ClassNames() const { return StringArray(data_.schema().class_names); }
val DatasetHandle::FeatureNamesOf() const { return FeatureNames(data_.schema()); }
val DatasetHandle::FeatureTypesOf() const { return FeatureTypes(data_.schema()); }
val DatasetHandle::Labels() const { return CopyOut(data_.labels()); }
val DatasetHandle::RowMajor() const { return CopyOut(data_.RowMajor()); }

void DatasetHandle::SetData(Dataset data) {
  data_ = std::move(data);
  prepared_ = PreparedRows();
  has_prepared_ = false;
}

Status DatasetHandle::PreparedFor(const Forest& forest, PreparedRows* scratch,
                                  const PreparedRows** rows) const {
  if (has_prepared_ && prepared_.Fits(forest)) {
    prepared_.layout_id = forest.layout_id();  // they fit: later checks for this forest are O(1)
    *rows = &prepared_;
    return Status::Ok();
  }
  Result<PreparedRows> prepared = PrepareRows(forest, data_);
  if (!prepared.ok()) return prepared.status();
  const bool keep = prepared.value().values.size() * sizeof(float) <= kPreparedRowsCacheBytes;
  PreparedRows* into = keep ? &prepared_ : scratch;
  *into = std::move(prepared).value();
  if (keep) has_prepared_ = true;
  *rows = into;
  return Status::Ok();
}

void RegisterDataset() {
  using emscripten::allow_raw_pointers;
  emscripten::class_<DatasetHandle>("_DatasetHandle")
      .constructor<>()
      .function("_loadCsv", &DatasetHandle::LoadCsv, allow_raw_pointers())
      .function("_loadColumns", &DatasetHandle::LoadColumns)
      .function("_loadSubset", &DatasetHandle::LoadSubset)
      .function("_numRows", &DatasetHandle::NumRows)
      .function("_numFeatures", &DatasetHandle::NumFeatures)
      .function("_classNames", &DatasetHandle::ClassNames)
      .function("_featureNames", &DatasetHandle::FeatureNamesOf)
      .function("_featureTypes", &DatasetHandle::FeatureTypesOf)
      .function("_targetName", &DatasetHandle::TargetName)
      .function("_hasLabels", &DatasetHandle::HasLabels)
      .function("_labels", &DatasetHandle::Labels)
      .function("_rowMajor", &DatasetHandle::RowMajor)
      .function("_address", &AddressOf<DatasetHandle>);
}

}  // namespace urnforest::wasm
