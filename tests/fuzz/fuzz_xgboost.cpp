// libFuzzer target: ImportXGBoost on arbitrary bytes (the input is the JSON model file itself; the
// seed corpus is the small models of tests/fixtures/xgboost/, copied by scripts/fuzz.sh).
//
// An import must fail with kCorruptModel, kUnsupportedModel, kLimitExceeded or kInvalidArgument,
// or give an additive forest with trees, at least two classes and one feature that serialises,
// loads back (DeserializeForest re-validates the structure) to the same bytes, and predicts a row
// of NaN and a row of zeros with the soft vote and the exact early exit, the same labels both ways.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/predict_scores.h"
#include "urnforest/status.h"
#include "import_oracle.h"
#include "urnforest/xgboost_import.h"

namespace {

using urnforest::Forest;
using urnforest::Result;

[[noreturn]] void Fail(const std::string& what) { urnforest_fuzz::FailOracle("fuzz_xgboost", what); }

void CheckPredictions(const Forest& forest) {
  const size_t m = static_cast<size_t>(forest.num_features());
  std::vector<float> rows(2 * m, 0.0f);
  for (size_t f = 0; f < m; ++f) rows[f] = NAN;
  Result<urnforest::ScorePrediction> soft =
      urnforest::PredictScoresRows(forest, rows.data(), 2, urnforest::VoteKind::kSoft);
  if (!soft.ok()) Fail("PredictScoresRows(kSoft): " + soft.status().ToString());
  if (soft.value().scores.size() != 2 * static_cast<size_t>(forest.num_classes()))
    Fail("score matrix shape");
  for (int32_t label : soft.value().labels) {
    if (label < 0 || label >= forest.num_classes()) Fail("label out of range");
  }
  Result<urnforest::ExactHaltResult> exact = urnforest::PredictSoftExact(forest, rows.data(), 2);
  if (!exact.ok()) Fail("PredictSoftExact: " + exact.status().ToString());
  if (exact.value().labels != soft.value().labels) Fail("the exact early exit changes a label");
}

}  // namespace

// The Catch2 suite compiles this file too, renaming the entry point
// (tests/cpp/xgboost_import_test.cpp replays bit-flipped fixtures through it).
#ifndef URNFOREST_FUZZ_ENTRY
#define URNFOREST_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

extern "C" int URNFOREST_FUZZ_ENTRY(const uint8_t* data, size_t size) {
  return urnforest_fuzz::CheckImport("fuzz_xgboost", urnforest::ImportXGBoost(data, size), [](const Forest& forest) {
    if (forest.imported()->kind != urnforest::ImportedKind::kAdditive) {
      Fail("an imported XGBoost model that is not additive");
    }
    CheckPredictions(forest);
  });
}
