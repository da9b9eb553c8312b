// libFuzzer target: DeserializeForest on arbitrary bytes.
//
// Input layout: byte 0 selects the mode, the rest is the model file.
//   bit 0 clear: before loading, rewrite the header's payload length and CRC-32 to match the
//                bytes present, so mutations reach the section parsers instead of dying at the
//                checksum (the common case). bit 0 set: load the bytes untouched.
// Any model that loads must: predict a few probe rows (NaN, zeros, split thresholds, category
// indices, out-of-range categories) with TreeVote and PredictFull without crashing, agreeing, and
// with one vote per tree; and serialise back to the same bytes (canonical files), or at least to a
// canonical file that loads and re-serialises to itself (files with unknown or reordered sections).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/crc32.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"

namespace {

using urnforest::Dataset;
using urnforest::FeatureType;
using urnforest::Forest;
using urnforest::Result;
using urnforest::StatusCode;

constexpr size_t kHeaderBytes = 20;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_model oracle failed: %s\n", what);
  std::abort();
}

void PutLe(uint8_t* p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint64_t GetLe(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

// True when the payload is exactly the seven version-1 sections in the order SerializeForest
// writes them (then re-serialising must reproduce the file byte for byte).
bool IsCanonicalLayout(const std::vector<uint8_t>& file) {
  static const char* const kOrder[] = {"SCHM", "OPTS", "NODE", "CATB", "ROOT", "LABL", "OOBV"};
  size_t pos = kHeaderBytes;
  for (const char* tag : kOrder) {
    if (file.size() - pos < 12 || std::memcmp(file.data() + pos, tag, 4) != 0) return false;
    const uint64_t length = GetLe(file.data() + pos + 4, 8);
    if (length > file.size() - pos - 12) return false;
    pos += 12 + length;
  }
  return pos == file.size();
}

// Probe rows, row-major, num_features() floats each.
std::vector<float> ProbeRows(const Forest& forest, size_t* rows, bool in_range_only) {
  const size_t m = forest.schema().features.size();
  std::vector<float> thresholds(m, 0.5f);
  for (const Forest::Node& n : forest.node_table().nodes) {
    if (n.feature >= 0 && !(n.aux & Forest::kCategoricalSplit)) thresholds[n.feature] = n.threshold;
  }
  *rows = in_range_only ? 5 : 8;
  std::vector<float> x(*rows * m);
  for (size_t r = 0; r < *rows; ++r) {
    for (size_t f = 0; f < m; ++f) {
      const auto& info = forest.schema().features[f];
      float v;
      if (info.type == FeatureType::kCategorical) {
        const size_t cats = info.categories.size();
        switch (r) {
          case 0: v = NAN; break;
          case 5: v = static_cast<float>(cats); break;
          case 6: v = -1.0f; break;
          case 7: v = 0.5f; break;
          default: v = cats == 0 ? NAN : static_cast<float>((r + f) % cats); break;
        }
      } else {
        switch (r) {
          case 0: v = NAN; break;
          case 1: v = 0.0f; break;
          case 2: v = thresholds[f]; break;
          case 3: v = std::nextafter(thresholds[f], INFINITY); break;
          case 4: v = -3.0e38f; break;
          case 5: v = INFINITY; break;
          case 6: v = -INFINITY; break;
          default: v = 3.0e38f; break;
        }
        if (!std::isfinite(v) && in_range_only) v = NAN;
      }
      x[r * m + f] = v;
    }
  }
  return x;
}

void CheckPredictions(const Forest& forest) {
  const int32_t trees = forest.num_trees();
  const int32_t classes = forest.num_classes();
  const size_t m = forest.schema().features.size();
  size_t rows = 0;
  const std::vector<float> raw = ProbeRows(forest, &rows, false);
  for (size_t r = 0; r < rows; ++r) {
    for (int32_t t = 0; t < trees; ++t) {
      const int32_t vote = forest.TreeVote(t, raw.data() + r * m);
      if (vote < 0 || vote >= classes) Fail("TreeVote out of range");
    }
  }
  (void)forest.oob_error();

  const std::vector<float> x = ProbeRows(forest, &rows, true);
  std::vector<float> column_major(rows * m);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t f = 0; f < m; ++f) column_major[f * rows + r] = x[r * m + f];
  }
  Result<Dataset> data = Dataset::Create(forest.schema(), rows, column_major, {});
  if (!data.ok()) return;  // A schema Dataset rejects (e.g. too many categories) cannot predict.
  Result<urnforest::FullVote> full = urnforest::PredictFull(forest, data.value());
  if (!full.ok()) Fail(("PredictFull failed on the model's own schema: " +
                        full.status().ToString()).c_str());
  const auto& votes = full.value().votes;
  if (votes.size() != rows * static_cast<size_t>(classes)) Fail("vote matrix shape");
  for (size_t r = 0; r < rows; ++r) {
    std::vector<uint32_t> expect(classes, 0);
    for (int32_t t = 0; t < trees; ++t) ++expect[forest.TreeVote(t, x.data() + r * m)];
    uint64_t total = 0;
    for (int32_t c = 0; c < classes; ++c) {
      if (votes[r * classes + c] != expect[c]) Fail("PredictFull disagrees with TreeVote");
      total += votes[r * classes + c];
    }
    if (total != static_cast<uint64_t>(trees)) Fail("votes do not sum to the tree count");
    const int32_t label = full.value().labels[r];
    if (label < 0 || label >= classes) Fail("label out of range");
  }
}

}  // namespace

// The Catch2 suite compiles this file too, renaming the entry point (tests/cpp/fuzz_corpus_test.cpp).
#ifndef URNFOREST_FUZZ_ENTRY
#define URNFOREST_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

extern "C" int URNFOREST_FUZZ_ENTRY(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool raw = data[0] & 1u;
  std::vector<uint8_t> file(data + 1, data + size);
  if (!raw && file.size() >= kHeaderBytes) {
    PutLe(file.data() + 8, file.size() - kHeaderBytes, 8);
    PutLe(file.data() + 16,
          urnforest::internal::Crc32(file.data() + kHeaderBytes, file.size() - kHeaderBytes), 4);
  }

  Result<Forest> loaded = urnforest::DeserializeForest(file.data(), file.size());
  if (!loaded.ok()) {
    const StatusCode code = loaded.status().code;
    if (code != StatusCode::kCorruptModel && code != StatusCode::kUnsupportedVersion) {
      Fail(("unexpected error code: " + loaded.status().ToString()).c_str());
    }
    return 0;
  }
  const Forest& forest = loaded.value();
  if (forest.num_trees() < 1 || forest.num_classes() < 2 || forest.num_features() < 1) {
    Fail("a loaded model without trees, classes or features");
  }
  CheckPredictions(forest);

  const std::vector<uint8_t> again = urnforest::SerializeForest(forest);
  if (again != file) {
    if (IsCanonicalLayout(file)) Fail("a canonical model re-serialises to different bytes");
    Result<Forest> reloaded = urnforest::DeserializeForest(again.data(), again.size());
    if (!reloaded.ok()) Fail("a re-serialised model does not load");
    if (urnforest::SerializeForest(reloaded.value()) != again) Fail("serialisation is not stable");
  }
  return 0;
}
