// DatasetHandle: the embind object that owns one Dataset, with the rows it last prepared for a
// model (so repeated predictions on one dataset convert it once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten/val.h>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/predict.h"
#include "urnforest/status.h"

namespace urnforest::wasm {

using emscripten::val;

class ForestHandle;

/// Owns one Dataset. Created empty by JS, then filled by one of the loaders, each of which returns
/// undefined or an error object.
class DatasetHandle {
 public:
  /// Reads the `length` bytes of CSV text at wasm address `address` (malloc'ed, written and freed by
  /// the JS side, so that nothing leaks when reading runs out of memory). `target`: a JS string.
  /// `class_order`: 0 sorted, 1 first seen. `schema_of` may be null: read against that model's schema.
  /// `delimiter`, `decimal`: character codes (delimiter 0 = detect); `target_categorical`: see
  /// CsvOptions.
  val LoadCsv(double address, double length, const val& target, bool has_target,
              int32_t class_order, const ForestHandle* schema_of, int32_t delimiter,
              int32_t decimal, bool target_categorical);

  /// Every JS table shape (typed arrays, number[][], object rows), as the transport object
  /// BuildFromColumns (dataset_columns.h) reads: the core's DatasetBuilder decides types, class
  /// names and their order.
  val LoadColumns(const val& table);

  /// Rows `rows` (Uint32Array of indices into `source`, repeats allowed) of another dataset.
  val LoadSubset(const DatasetHandle& source, const val& rows);

  double NumRows() const { return static_cast<double>(data_.num_rows()); }
  double NumFeatures() const { return static_cast<double>(data_.num_features()); }
  val ClassNames() const;
  val FeatureNamesOf() const;
  val FeatureTypesOf() const;
  std::string TargetName() const { return data_.schema().target_name; }
  bool HasLabels() const { return data_.has_labels(); }
  val Labels() const;
  val RowMajor() const;

  const Dataset& data() const { return data_; }

  /// The rows prepared for `forest` (PrepareRows), kept for the next call with a model they fit
  /// (PreparedRows::Fits), so that repeated predictions on one dataset convert it once. Sets
  /// `*rows` to the kept copy, or, for datasets over kPreparedRowsCacheBytes, to `*scratch`
  /// (filled here; not kept, so a large dataset is not held twice). Borrowed until the dataset is
  /// reloaded or this is called again. Errors as PrepareRows (kColumnMismatch, kInvalidArgument).
  Status PreparedFor(const Forest& forest, PreparedRows* scratch, const PreparedRows** rows) const;

  /// The rows PreparedFor kept, whatever model they were prepared for (check PreparedRows::Fits,
  /// or let the core's PredictHalted check it), or null when none are kept.
  const PreparedRows* KeptRows() const { return has_prepared_ ? &prepared_ : nullptr; }

 private:
  static constexpr size_t kPreparedRowsCacheBytes = size_t{64} << 20;

  // Replaces the data and forgets the prepared rows of the old data.
  void SetData(Dataset data);

  Dataset data_;
  // PreparedFor's copy (empty layout and no rows until the first call).
  mutable PreparedRows prepared_;
  mutable bool has_prepared_ = false;
};


}  // namespace urnforest::wasm
