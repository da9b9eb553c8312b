#pragma once
// The oracle the import fuzz targets (fuzz_onnx, fuzz_xgboost) share: an import of arbitrary bytes
// either fails with one of the four codes of a bad file (kCorruptModel, kUnsupportedModel,
// kLimitExceeded, kInvalidArgument) and a message, or gives a model with trees, at least two
// classes and one feature, holding its import record, that serialises, loads back
// (DeserializeForest re-validates the structure) and re-serialises to the same bytes. The caller's
// prediction checks then run on the imported model and on the reloaded copy. A failed check prints
// "<target> oracle failed: ..." and aborts (libFuzzer reports the input).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"

namespace urnforest_fuzz {

/// Prints "<target> oracle failed: <what>" to stderr and aborts.
[[noreturn]] inline void FailOracle(const char* target, const std::string& what) {
  std::fprintf(stderr, "%s oracle failed: %s\n", target, what.c_str());
  std::abort();
}

/// Checks `imported` as the file comment says; `check(forest)` runs on the model and on its
/// reloaded copy. Returns 0 (libFuzzer's "keep going").
template <typename Check>
int CheckImport(const char* target, const urnforest::Result<urnforest::Forest>& imported, Check check) {
  using urnforest::StatusCode;
  if (!imported.ok()) {
    const StatusCode code = imported.status().code;
    if (code != StatusCode::kCorruptModel && code != StatusCode::kUnsupportedModel &&
        code != StatusCode::kLimitExceeded && code != StatusCode::kInvalidArgument) {
      FailOracle(target, "unexpected error code: " + imported.status().ToString());
    }
    if (imported.status().message.empty()) FailOracle(target, "an error without a message");
    return 0;
  }
  const urnforest::Forest& forest = imported.value();
  if (forest.num_trees() < 1 || forest.num_classes() < 2 || forest.num_features() < 1) {
    FailOracle(target, "an imported model without trees, classes or features");
  }
  if (forest.imported() == nullptr) FailOracle(target, "an imported model without its import record");
  const std::vector<uint8_t> bytes = urnforest::SerializeForest(forest);
  urnforest::Result<urnforest::Forest> loaded = urnforest::DeserializeForest(bytes.data(), bytes.size());
  if (!loaded.ok()) FailOracle(target, "an imported model does not load back: " + loaded.status().ToString());
  if (urnforest::SerializeForest(loaded.value()) != bytes) FailOracle(target, "the round trip changes the bytes");
  check(forest);
  check(loaded.value());
  return 0;
}

}  // namespace urnforest_fuzz
