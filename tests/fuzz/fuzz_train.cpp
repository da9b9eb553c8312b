// libFuzzer target: small fuzzed data sets -> Train (small T) -> PredictFull -> SerializeForest ->
// DeserializeForest, which must give back identical bytes and identical predictions.
//
// Input layout: bytes 0-3 choose the options, byte 4 the data source, the rest is the data.
//   byte 0  num_trees = 1 + b % 5 (b == 255: 0, which must fail with kInvalidArgument)
//   byte 1  bit 0 bagging; bits 1-2 mtry_rule (3 -> invalid); bits 3-4 mtry 0..3; bit 5 retrain
//           and require byte-identical bytes (determinism)
//   byte 2  max_depth = b % 5; min_leaf = 1 + (b >> 3) % 3
//   byte 3  seed
//   byte 4  bit 7 set: the rest is CSV text (target = last column); clear: a synthetic table:
//           byte 5 rows = 2 + b % 31; byte 6 features = 1 + b % 4, bits 4-7 categorical mask;
//           byte 7 classes = 2 + b % 3, categories per categorical column = 1 + (b >> 2) % 12;
//           then one byte per cell, column by column (numeric: 255 NaN, 254 a raw float from the
//           next four bytes, else (int8)b / 4; categorical: b % (cats + 1), cats meaning NaN), then
//           one byte per label (b % classes). Missing bytes read as 0.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"

namespace {

using urnforest::Dataset;
using urnforest::FeatureInfo;
using urnforest::FeatureType;
using urnforest::Forest;
using urnforest::FullVote;
using urnforest::Result;
using urnforest::Schema;
using urnforest::StatusCode;
using urnforest::TrainOptions;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_train oracle failed: %s\n", what.c_str());
  std::abort();
}

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Next() { return pos_ < size_ ? data_[pos_++] : 0; }
  float NextFloat() {
    uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits |= static_cast<uint32_t>(Next()) << (8 * i);
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

Result<Dataset> SyntheticData(Bytes* in) {
  const size_t rows = 2 + in->Next() % 31;
  const uint8_t fbyte = in->Next();
  const size_t features = 1 + fbyte % 4;
  const uint8_t cbyte = in->Next();
  const size_t classes = 2 + cbyte % 3;
  const size_t cats = 1 + (cbyte >> 2) % 12;
  Schema schema;
  schema.target_name = "y";
  for (size_t c = 0; c < classes; ++c) schema.class_names.push_back("c" + std::to_string(c));
  for (size_t f = 0; f < features; ++f) {
    FeatureInfo info;
    info.name = "f" + std::to_string(f);
    if ((fbyte >> (4 + f)) & 1u) {
      info.type = FeatureType::kCategorical;
      for (size_t k = 0; k < cats; ++k) info.categories.push_back("k" + std::to_string(k));
    }
    schema.features.push_back(info);
  }
  std::vector<float> values(rows * features);
  for (size_t f = 0; f < features; ++f) {
    const bool categorical = schema.features[f].type == FeatureType::kCategorical;
    for (size_t r = 0; r < rows; ++r) {
      const uint8_t b = in->Next();
      float v;
      if (categorical) {
        const size_t k = b % (cats + 1);
        v = k == cats ? NAN : static_cast<float>(k);
      } else if (b == 255) {
        v = NAN;
      } else if (b == 254) {
        v = in->NextFloat();
        if (!std::isfinite(v)) v = NAN;
      } else {
        v = static_cast<float>(static_cast<int8_t>(b)) / 4.0f;
      }
      values[f * rows + r] = v;
    }
  }
  std::vector<int32_t> labels(rows);
  for (int32_t& label : labels) label = static_cast<int32_t>(in->Next() % classes);
  Result<Dataset> data = Dataset::Create(schema, rows, values, labels);
  if (!data.ok()) Fail("Dataset::Create rejected valid data: " + data.status().ToString());
  return data;
}

void CheckVotes(const FullVote& v, size_t rows, int32_t classes, int32_t trees) {
  if (v.votes.size() != rows * classes || v.labels.size() != rows) Fail("vote shape");
  for (size_t r = 0; r < rows; ++r) {
    uint64_t total = 0;
    int32_t best = 0;
    for (int32_t c = 0; c < classes; ++c) {
      total += v.votes[r * classes + c];
      if (v.votes[r * classes + c] > v.votes[r * classes + best]) best = c;
    }
    if (total != static_cast<uint64_t>(trees)) Fail("votes do not sum to T");
    if (v.labels[r] != best) Fail("label is not the lowest-index majority");
  }
}

}  // namespace

// The Catch2 suite compiles this file too, renaming the entry point (tests/cpp/fuzz_corpus_test.cpp).
#ifndef URNFOREST_FUZZ_ENTRY
#define URNFOREST_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

extern "C" int URNFOREST_FUZZ_ENTRY(const uint8_t* data, size_t size) {
  if (size < 5) return 0;
  TrainOptions options;
  options.num_trees = data[0] == 255 ? 0 : 1 + data[0] % 5;
  options.ensemble = (data[1] & 1u) ? urnforest::EnsembleKind::kBagging
                                     : urnforest::EnsembleKind::kRandomForest;
  options.mtry_rule = static_cast<urnforest::MtryRule>((data[1] >> 1) & 3u);
  options.mtry = (data[1] >> 3) & 3;
  const bool retrain = (data[1] >> 5) & 1u;
  options.max_depth = data[2] % 5;
  options.min_leaf = 1 + (data[2] >> 3) % 3;
  options.seed = data[3];

  Result<Dataset> read = urnforest::Status{};
  if (data[4] & 0x80u) {
    const std::string_view text(reinterpret_cast<const char*>(data + 5), size - 5);
    read = urnforest::ReadCsv(text);
    if (!read.ok()) return 0;
    if (read.value().num_rows() > 2000 || read.value().num_features() > 64) return 0;
  } else {
    Bytes in(data + 5, size - 5);
    read = SyntheticData(&in);
  }
  const Dataset& d = read.value();

  Result<Forest> trained = urnforest::Train(d, options);
  if (!trained.ok()) {
    const StatusCode code = trained.status().code;
    if (code != StatusCode::kTooFewClasses && code != StatusCode::kInvalidArgument) {
      Fail("unexpected training error: " + trained.status().ToString());
    }
    return 0;
  }
  if (options.num_trees < 1 || static_cast<int>(options.mtry_rule) > 2 ||
      static_cast<size_t>(options.mtry) > d.num_features()) {
    Fail("invalid options were accepted");
  }
  const Forest& forest = trained.value();
  const int32_t classes = forest.num_classes();
  if (forest.num_trees() != options.num_trees) Fail("tree count");
  if (forest.oob_votes().size() != d.num_rows() * classes) Fail("oob shape");
  for (size_t r = 0; r < d.num_rows(); ++r) {
    uint64_t total = 0;
    for (int32_t c = 0; c < classes; ++c) total += forest.oob_votes()[r * classes + c];
    if (total > static_cast<uint64_t>(options.num_trees)) Fail("oob votes exceed T");
  }
  const double oob = forest.oob_error();
  if (!(oob >= 0.0 && oob <= 1.0)) Fail("oob error out of [0, 1]");

  Result<FullVote> full = urnforest::PredictFull(forest, d);
  if (!full.ok()) Fail("PredictFull on the training data: " + full.status().ToString());
  CheckVotes(full.value(), d.num_rows(), classes, options.num_trees);

  const std::vector<uint8_t> bytes = urnforest::SerializeForest(forest);
  Result<Forest> loaded = urnforest::DeserializeForest(bytes.data(), bytes.size());
  if (!loaded.ok()) Fail("a trained model does not load: " + loaded.status().ToString());
  if (urnforest::SerializeForest(loaded.value()) != bytes) Fail("round trip changed the bytes");
  Result<FullVote> again = urnforest::PredictFull(loaded.value(), d);
  if (!again.ok() || again.value().votes != full.value().votes) Fail("loaded model votes differ");

  if (retrain) {
    Result<Forest> second = urnforest::Train(d, options);
    if (!second.ok() || urnforest::SerializeForest(second.value()) != bytes) {
      Fail("training is not deterministic");
    }
  }
  return 0;
}
