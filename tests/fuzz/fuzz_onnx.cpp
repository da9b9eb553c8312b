// libFuzzer target: ImportOnnx on arbitrary bytes (the input is the ONNX file itself; the seed
// corpus is tests/fixtures/onnx/*.onnx, copied by scripts/fuzz.sh).
//
// An import must fail with kCorruptModel, kUnsupportedModel, kLimitExceeded or kInvalidArgument,
// or give a forest with trees, at least two classes and one feature that serialises, loads back
// (DeserializeForest re-validates the structure) and re-serialises to the same bytes, and that
// predicts a row of NaN and a row of zeros with PredictFullRows and PredictScoresRows (soft vote,
// and hard vote unless the model is additive) with labels in range, the exact early exit
// (PredictSoftExact) answering the soft vote's labels.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"
#include "urnforest/status.h"
#include "import_oracle.h"

namespace {

using urnforest::Forest;
using urnforest::Result;
using urnforest::StatusCode;

[[noreturn]] void Fail(const std::string& what) { urnforest_fuzz::FailOracle("fuzz_onnx", what); }

void CheckLabels(const std::vector<int32_t>& labels, size_t rows, int32_t classes, const char* what) {
  if (labels.size() != rows) Fail(std::string(what) + ": wrong number of labels");
  for (int32_t label : labels) {
    if (label < 0 || label >= classes) Fail(std::string(what) + ": label out of range");
  }
}

void CheckPredictions(const Forest& forest) {
  const size_t m = static_cast<size_t>(forest.num_features());
  const int32_t classes = forest.num_classes();
  std::vector<float> rows(2 * m, 0.0f);
  for (size_t f = 0; f < m; ++f) rows[f] = NAN;

  Result<urnforest::FullVote> full = urnforest::PredictFullRows(forest, rows.data(), 2);
  if (!full.ok()) Fail("PredictFullRows: " + full.status().ToString());
  CheckLabels(full.value().labels, 2, classes, "PredictFullRows");

  Result<urnforest::ScorePrediction> soft =
      urnforest::PredictScoresRows(forest, rows.data(), 2, urnforest::VoteKind::kSoft);
  if (!soft.ok()) Fail("PredictScoresRows(kSoft): " + soft.status().ToString());
  CheckLabels(soft.value().labels, 2, classes, "PredictScoresRows(kSoft)");
  if (soft.value().scores.size() != 2 * static_cast<size_t>(classes)) Fail("score matrix shape");

  // The exact early exit answers the full soft prediction on every row (each label rule included).
  if (forest.imported() != nullptr) {
    Result<urnforest::ExactHaltResult> exact = urnforest::PredictSoftExact(forest, rows.data(), 2);
    if (!exact.ok()) Fail("PredictSoftExact: " + exact.status().ToString());
    if (exact.value().labels != soft.value().labels) Fail("PredictSoftExact differs from the full soft prediction");
  }

  Result<urnforest::ScorePrediction> hard =
      urnforest::PredictScoresRows(forest, rows.data(), 2, urnforest::VoteKind::kHard);
  const bool additive = forest.imported() != nullptr &&
                        forest.imported()->kind == urnforest::ImportedKind::kAdditive;
  if (hard.ok()) {
    CheckLabels(hard.value().labels, 2, classes, "PredictScoresRows(kHard)");
  } else if (!additive || hard.status().code != StatusCode::kInvalidArgument) {
    Fail("PredictScoresRows(kHard): " + hard.status().ToString());
  }
}

}  // namespace

// The Catch2 suite compiles this file too, renaming the entry point
// (tests/cpp/onnx_import_bad_files_test.cpp replays the fixtures through it).
#ifndef URNFOREST_FUZZ_ENTRY
#define URNFOREST_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

extern "C" int URNFOREST_FUZZ_ENTRY(const uint8_t* data, size_t size) {
  return urnforest_fuzz::CheckImport("fuzz_onnx", urnforest::ImportOnnx(data, size), CheckPredictions);
}
