// The only Emscripten-aware C++ file: conversions between JS values and the urnforest core, and the
// embind registry. No algorithms live here.
//
// Conventions (notes/style-anchors.md §7.4-7.5):
// - Every embind name is internal (`_`-prefixed); the public API is bindings/index.js.
// - No exception crosses the boundary: fallible calls return `undefined` on success or a plain error
//   object {code, message, line, column} that index.js turns into an UrnforestError.
// - Arrays come in with one bulk copy (convertJSArrayToNumberVector) and go out as `.slice()` copies,
//   never as live views of wasm memory (they detach when memory grows).
// - Arguments are validated in index.js; embind would silently coerce bad ones.
#include <malloc.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {
namespace {

using emscripten::val;

val ErrorObject(const Status& status) {
  val error = val::object();
  error.set("code", std::string(CodeName(status.code)));
  error.set("message", status.message);
  error.set("line", static_cast<double>(status.line));
  error.set("column", static_cast<double>(status.column));
  return error;
}

val InvalidArgument(const std::string& message) {
  return ErrorObject(Status::Error(StatusCode::kInvalidArgument, message));
}

template <typename T>
val CopyOut(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val StringArray(const std::vector<std::string>& strings) {
  val out = val::array();
  for (size_t i = 0; i < strings.size(); ++i) out.set(i, strings[i]);
  return out;
}

std::vector<std::string> StringVector(const val& array) {
  std::vector<std::string> out;
  if (array.isUndefined() || array.isNull()) return out;
  const size_t n = array["length"].as<size_t>();
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

val FeatureNames(const Schema& schema) {
  val out = val::array();
  for (size_t i = 0; i < schema.features.size(); ++i) out.set(i, schema.features[i].name);
  return out;
}

val FeatureTypes(const Schema& schema) {
  val out = val::array();
  for (size_t i = 0; i < schema.features.size(); ++i) {
    out.set(i, std::string(schema.features[i].type == FeatureType::kCategorical ? "categorical"
                                                                                  : "numeric"));
  }
  return out;
}

class ForestHandle;

/// Owns one Dataset. Created empty by JS, then filled by one of the loaders.
class DatasetHandle {
 public:
  /// `class_order`: 0 sorted, 1 first seen. `schema_of` may be null: read against that model's schema.
  val LoadCsv(const std::string& text, const std::string& target, bool has_target,
              int32_t class_order, const ForestHandle* schema_of);

  /// `x` Float32Array row-major (rows * cols); `labels` Int32Array of `rows` or null/undefined.
  val LoadArrays(const val& x, double rows, double cols, const val& labels, const val& feature_names,
                 const val& class_names) {
    std::vector<float> values = emscripten::convertJSArrayToNumberVector<float>(x);
    const size_t r = static_cast<size_t>(rows), c = static_cast<size_t>(cols);
    if (values.size() != r * c) return InvalidArgument("x.length must equal rows * cols");
    std::vector<int32_t> label_values;
    const bool has_labels = !(labels.isUndefined() || labels.isNull());
    if (has_labels) {
      label_values = emscripten::convertJSArrayToNumberVector<int32_t>(labels);
      if (label_values.size() != r) return InvalidArgument("labels.length must equal rows");
    }
    Result<Dataset> result =
        Dataset::FromRowMajor(values.data(), r, c, has_labels ? label_values.data() : nullptr,
                              StringVector(feature_names), StringVector(class_names));
    if (!result.ok()) return ErrorObject(result.status());
    data_ = std::move(result).value();
    return val::undefined();
  }

  /// Rows `rows` (Uint32Array of indices into `source`, repeats allowed) of another dataset.
  val LoadSubset(const DatasetHandle& source, const val& rows) {
    std::vector<uint32_t> indices = emscripten::convertJSArrayToNumberVector<uint32_t>(rows);
    std::vector<size_t> picked(indices.begin(), indices.end());
    for (size_t row : picked) {
      if (row >= source.data_.num_rows()) return InvalidArgument("row index out of range");
    }
    data_ = source.data_.Subset(picked);
    return val::undefined();
  }

  double NumRows() const { return static_cast<double>(data_.num_rows()); }
  double NumFeatures() const { return static_cast<double>(data_.num_features()); }
  val ClassNames() const { return StringArray(data_.schema().class_names); }
  val FeatureNamesOf() const { return FeatureNames(data_.schema()); }
  val FeatureTypesOf() const { return FeatureTypes(data_.schema()); }
  std::string TargetName() const { return data_.schema().target_name; }
  bool HasLabels() const { return data_.has_labels(); }
  val Labels() const { return CopyOut(data_.labels()); }
  val RowMajor() const { return CopyOut(data_.RowMajor()); }

  const Dataset& data() const { return data_; }

 private:
  Dataset data_;
};

/// Owns one Forest. Created empty by JS, then filled by Train or Load.
class ForestHandle {
 public:
  /// `ensemble` 0 rf / 1 bagging; `mtry_rule` 0 sqrt / 1 log2 / 2 log2+1; the 64-bit seed comes as two
  /// 32-bit halves; `progress` is a JS function (done, total) -> bool or undefined.
  val Train(const DatasetHandle& data, int32_t ensemble, int32_t trees, int32_t mtry,
            int32_t mtry_rule, int32_t max_depth, int32_t min_leaf, double seed_hi, double seed_lo,
            val progress) {
    TrainOptions options;
    options.ensemble = static_cast<EnsembleKind>(ensemble);
    options.num_trees = trees;
    options.mtry = mtry;
    options.mtry_rule = static_cast<MtryRule>(mtry_rule);
    options.max_depth = max_depth;
    options.min_leaf = min_leaf;
    options.seed = (static_cast<uint64_t>(seed_hi) << 32) | static_cast<uint64_t>(seed_lo);
    if (progress.typeOf().as<std::string>() == "function") {
      // index.js passes a wrapper that never throws (a JS throw would skip C++ destructors).
      options.progress = [progress](int32_t done, int32_t total) {
        return progress(done, total).as<bool>();
      };
    }
    Result<Forest> result = urnforest::Train(data.data(), options);
    if (!result.ok()) return ErrorObject(result.status());
    forest_ = std::move(result).value();
    forest_.options_.progress = nullptr;  // Drop the reference to the JS callback.
    return val::undefined();
  }

  /// `bytes` Uint8Array.
  val Load(const val& bytes) {
    std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    Result<Forest> result = DeserializeForest(data.data(), data.size());
    if (!result.ok()) return ErrorObject(result.status());
    forest_ = std::move(result).value();
    return val::undefined();
  }

  /// {votes: Uint32Array rows x classes, classIndex: Int32Array} or an error object.
  val Predict(const DatasetHandle& data) const {
    Result<FullVote> result = PredictFull(forest_, data.data());
    if (!result.ok()) return ErrorObject(result.status());
    val out = val::object();
    out.set("votes", CopyOut(result.value().votes));
    out.set("classIndex", CopyOut(result.value().labels));
    return out;
  }

  val Bytes() const { return CopyOut(SerializeForest(forest_)); }
  int32_t NumTrees() const { return forest_.num_trees(); }
  int32_t NumClasses() const { return forest_.num_classes(); }
  int32_t NumFeatures() const { return forest_.num_features(); }
  double NumNodes() const { return static_cast<double>(forest_.num_nodes()); }
  double OobError() const { return forest_.oob_error(); }
  val OobVotes() const { return CopyOut(forest_.oob_votes()); }
  val ClassNames() const { return StringArray(forest_.schema().class_names); }
  val FeatureNamesOf() const { return FeatureNames(forest_.schema()); }
  val FeatureTypesOf() const { return FeatureTypes(forest_.schema()); }
  std::string TargetName() const { return forest_.schema().target_name; }

  const Forest& forest() const { return forest_; }

 private:
  Forest forest_;
};

val DatasetHandle::LoadCsv(const std::string& text, const std::string& target, bool has_target,
                           int32_t class_order, const ForestHandle* schema_of) {
  CsvOptions options;
  options.target = target;
  options.has_target = has_target;
  options.class_order = static_cast<ClassOrder>(class_order);
  options.schema = schema_of != nullptr ? &schema_of->forest().schema() : nullptr;
  Result<Dataset> result = ReadCsv(text, options);
  if (!result.ok()) return ErrorObject(result.status());
  data_ = std::move(result).value();
  return val::undefined();
}

/// Bytes of the wasm heap currently allocated by malloc (for leak checks).
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace
}  // namespace urnforest

EMSCRIPTEN_BINDINGS(urnforest) {
  // Internal names only. Keep in sync with bindings/index.js and bindings/index.d.ts.
  using namespace emscripten;
  using urnforest::DatasetHandle;
  using urnforest::ForestHandle;

  class_<DatasetHandle>("_DatasetHandle")
      .constructor<>()
      .function("_loadCsv", &DatasetHandle::LoadCsv, allow_raw_pointers())
      .function("_loadArrays", &DatasetHandle::LoadArrays)
      .function("_loadSubset", &DatasetHandle::LoadSubset)
      .function("_numRows", &DatasetHandle::NumRows)
      .function("_numFeatures", &DatasetHandle::NumFeatures)
      .function("_classNames", &DatasetHandle::ClassNames)
      .function("_featureNames", &DatasetHandle::FeatureNamesOf)
      .function("_featureTypes", &DatasetHandle::FeatureTypesOf)
      .function("_targetName", &DatasetHandle::TargetName)
      .function("_hasLabels", &DatasetHandle::HasLabels)
      .function("_labels", &DatasetHandle::Labels)
      .function("_rowMajor", &DatasetHandle::RowMajor);

  class_<ForestHandle>("_ForestHandle")
      .constructor<>()
      .function("_train", &ForestHandle::Train)
      .function("_load", &ForestHandle::Load)
      .function("_predict", &ForestHandle::Predict)
      .function("_bytes", &ForestHandle::Bytes)
      .function("_numTrees", &ForestHandle::NumTrees)
      .function("_numClasses", &ForestHandle::NumClasses)
      .function("_numFeatures", &ForestHandle::NumFeatures)
      .function("_numNodes", &ForestHandle::NumNodes)
      .function("_oobError", &ForestHandle::OobError)
      .function("_oobVotes", &ForestHandle::OobVotes)
      .function("_classNames", &ForestHandle::ClassNames)
      .function("_featureNames", &ForestHandle::FeatureNamesOf)
      .function("_featureTypes", &ForestHandle::FeatureTypesOf)
      .function("_targetName", &ForestHandle::TargetName);

  function("_heapInUse", &urnforest::HeapInUse);
}
