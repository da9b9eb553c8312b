// ForestHandle's imported-model members: ONNX and XGBoost JSON import, calibration, soft scores and the exact soft
// early exit (registered with the rest of ForestHandle in forest_handle.cpp).
#include <algorithm>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "convert.h"
#include "dataset_handle.h"
#include "forest_handle.h"
#include "urnforest/calibrate.h"
#include "urnforest/margin_rule.h"
#include "urnforest/onnx_export.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"
#include "urnforest/xgboost_import.h"

namespace urnforest::wasm {
namespace {

// A model file's bytes (a JS Uint8Array) copied into wasm memory as they are. Not
// convertJSArrayToNumberVector: it zeroes a vector of the file's size before copying into it,
// a memset of the whole file. Null when the memory is exhausted.
std::unique_ptr<uint8_t[]> CopyIn(const val& bytes, size_t* size) {
  *size = bytes["length"].as<size_t>();
  std::unique_ptr<uint8_t[]> data(new (std::nothrow) uint8_t[std::max<size_t>(*size, 1)]);
  if (data != nullptr) val(emscripten::typed_memory_view(*size, data.get())).call<void>("set", bytes);
  return data;
}

val OutOfMemory(size_t size) {
  return ErrorObject(Status::Error(StatusCode::kOutOfMemory,
                                   "no room in memory for the " + std::to_string(size) + " bytes of the file"));
}

}  // namespace

val ForestHandle::LoadOnnx(const val& bytes, const val& feature_names, const val& class_names,
                           const std::string& target) {
  size_t size = 0;
  const std::unique_ptr<uint8_t[]> data = CopyIn(bytes, &size);
  if (data == nullptr) return OutOfMemory(size);
  OnnxImportOptions options;
  options.feature_names = StringVector(feature_names);
  options.class_names = StringVector(class_names);
  if (!target.empty()) options.target_name = target;
  Result<Forest> result = ImportOnnx(data.get(), size, options);
  if (!result.ok()) return ErrorObject(result.status());
  forest_ = std::move(result).value();
  return val::undefined();
}

val ForestHandle::LoadXGBoost(const val& bytes, const val& feature_names, const val& class_names,
                              const std::string& target) {
  size_t size = 0;
  const std::unique_ptr<uint8_t[]> data = CopyIn(bytes, &size);
  if (data == nullptr) return OutOfMemory(size);
  XGBoostImportOptions options;
  options.feature_names = StringVector(feature_names);
  options.class_names = StringVector(class_names);
  if (!target.empty()) options.target_name = target;
  Result<Forest> result = ImportXGBoost(data.get(), size, options);
  if (!result.ok()) return ErrorObject(result.status());
  forest_ = std::move(result).value();
  return val::undefined();
}

val ForestHandle::Imported() const {
  const ImportedModel* m = forest_.imported();
  if (m == nullptr) return val::null();
  val out = val::object();
  out.set("kind", std::string(ImportedKindName(m->kind)));
  out.set("vote", std::string(VoteKindName(m->default_vote)));
  out.set("source", m->source);
  out.set("calibrated", m->calibrated);
  out.set("calibrationRows", static_cast<double>(forest_.train_labels().size()));
  return out;
}

val ForestHandle::Calibrate(const DatasetHandle& data, double alpha) {
  PreparedRows scratch;
  const PreparedRows* rows = nullptr;
  Status prepared = data.PreparedFor(forest_, &scratch, &rows);
  if (!prepared.ok()) return ErrorObject(prepared);
  Result<CalibrationReport> report =
      CalibrateForestReport(&forest_, rows->values.data(), rows->num_rows, alpha);
  if (!report.ok()) return ErrorObject(report.status());
  const CalibrationReport& r = report.value();
  val out = val::object();
  out.set("rows", static_cast<double>(r.rows));
  out.set("distinctRows", static_cast<double>(r.distinct_rows));
  out.set("maxCertifiableAlpha", r.max_certifiable_alpha);
  out.set("rowsNeeded", static_cast<double>(r.rows_needed));
  out.set("alpha", r.alpha);
  val warnings = val::array();
  for (const CalibrationWarning& w : r.warnings) {
    val warning = val::object();
    warning.set("code", std::string(CalibrationWarningName(w.code)));
    warning.set("message", w.message);
    warnings.call<void>("push", warning);
  }
  out.set("warnings", warnings);
  return out;
}

val ForestHandle::ToOnnx() const {
  Result<std::vector<uint8_t>> bytes = ExportOnnx(forest_);
  if (!bytes.ok()) return ErrorObject(bytes.status());
  return CopyOut(bytes.value());
}

}  // namespace urnforest::wasm
