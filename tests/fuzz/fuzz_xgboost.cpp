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
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"
#include "urnforest/xgboost_import.h"

namespace {

using urnforest::Forest;
using urnforest::Result;
using urnforest::StatusCode;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_xgboost oracle failed: %s\n", what.c_str());
  std::abort();
}

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
  Result<Forest> imported = urnforest::ImportXGBoost(data, size);
  if (!imported.ok()) {
    const StatusCode code = imported.status().code;
    if (code != StatusCode::kCorruptModel && code != StatusCode::kUnsupportedModel &&
        code != StatusCode::kLimitExceeded && code != StatusCode::kInvalidArgument) {
      Fail("unexpected error code: " + imported.status().ToString());
    }
    if (imported.status().message.empty()) Fail("an error without a message");
    return 0;
  }
  const Forest& forest = imported.value();
  if (forest.num_trees() < 1 || forest.num_classes() < 2 || forest.num_features() < 1) {
    Fail("an imported model without trees, classes or features");
  }
  if (forest.imported() == nullptr ||
      forest.imported()->kind != urnforest::ImportedKind::kAdditive) {
    Fail("an imported XGBoost model that is not additive");
  }
  const std::vector<uint8_t> bytes = urnforest::SerializeForest(forest);
  Result<Forest> loaded = urnforest::DeserializeForest(bytes.data(), bytes.size());
  if (!loaded.ok()) Fail("an imported model does not load back: " + loaded.status().ToString());
  if (urnforest::SerializeForest(loaded.value()) != bytes) Fail("the round trip changes the bytes");
  CheckPredictions(forest);
  CheckPredictions(loaded.value());
  return 0;
}
