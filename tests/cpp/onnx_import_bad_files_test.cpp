// Bad ONNX files: every fixture cut short or with flipped bits, refusable models, and the
// protocol-buffers reader underneath the importer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "onnx/protobuf_reader.h"
#include "urnforest/forest.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"

extern "C" int UrnforestFuzzOnnx(const uint8_t* data, size_t size);

namespace {

using urnforest::Forest;
using urnforest::ImportOnnx;
using urnforest::Result;
using urnforest::StatusCode;
using urnforest::internal::ForEachPackedVarint;
using urnforest::internal::ProtoField;
using urnforest::internal::ProtoReader;
using urnforest::internal::WireType;

const char* const kFixtures[] = {
    "bad_regressor.onnx",          "bad_scaler_pipeline.onnx",
    "bad_unknown_op.onnx",         "sk_et_vehicle_strings_opset3.onnx",
    "sk_rf_iris_nozipmap.onnx",    "sk_rf_soybean_19class.onnx",
    "sk_rf_wdbc_binary_zipmap.onnx", "tiny_all_modes.onnx",
    "tiny_all_modes_opset5.onnx",  "xgb_vehicle_softprob_missing.onnx",
    "xgb_wdbc_binary_missing.onnx",
};

std::vector<uint8_t> ReadFixture(const std::string& name) {
  std::ifstream in(std::string(URNFOREST_ONNX_FIXTURES_DIR) + "/" + name, std::ios::binary);
  INFO(name);
  REQUIRE(in.good());
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(!bytes.empty());
  return bytes;
}

Result<Forest> Import(const std::vector<uint8_t>& bytes, size_t size) {
  return ImportOnnx(size == 0 ? nullptr : bytes.data(), size);
}

// The offsets where the top-level fields of an ONNX file end, and the end of ModelProto.graph
// (field 7), the last part of the file the importer reads. Decoded here independently of
// ProtoReader.
struct TopLevel {
  std::vector<size_t> field_ends;
  size_t graph_end = 0;
};

TopLevel ReadTopLevel(const std::vector<uint8_t>& bytes) {
  TopLevel top;
  size_t pos = 0;
  auto varint = [&bytes, &pos]() {
    uint64_t value = 0;
    for (int shift = 0; pos < bytes.size() && shift < 64; shift += 7) {
      const uint8_t b = bytes[pos++];
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return value;
    }
    FAIL("a fixture's top-level varint is malformed");
    return value;
  };
  while (pos < bytes.size()) {
    const uint64_t key = varint();
    switch (key & 7) {
      case 0: varint(); break;
      case 1: pos += 8; break;
      case 2: pos += static_cast<size_t>(varint()); break;
      case 5: pos += 4; break;
      default: FAIL("a fixture uses wire type " << (key & 7));
    }
    REQUIRE(pos <= bytes.size());
    top.field_ends.push_back(pos);
    if ((key >> 3) == 7) top.graph_end = pos;
  }
  REQUIRE(top.graph_end > 0);
  return top;
}

// An imported forest survives the model file round trip and predicts rows of NaN, zeros, ones,
// huge and infinite values.
void CheckImportedForest(const Forest& forest) {
  const std::vector<uint8_t> bytes = urnforest::SerializeForest(forest);
  Result<Forest> loaded = urnforest::DeserializeForest(bytes.data(), bytes.size());
  INFO(loaded.status().ToString());
  REQUIRE(loaded.ok());
  REQUIRE(urnforest::SerializeForest(loaded.value()) == bytes);

  const size_t m = static_cast<size_t>(forest.num_features());
  const float kValues[] = {std::numeric_limits<float>::quiet_NaN(), 0.0f, 1.0f, -3.0e38f,
                           std::numeric_limits<float>::infinity()};
  const size_t rows = std::size(kValues);
  std::vector<float> x(rows * m);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t f = 0; f < m; ++f) x[r * m + f] = kValues[r];
  }
  const int32_t classes = forest.num_classes();
  Result<urnforest::FullVote> full = urnforest::PredictFullRows(loaded.value(), x.data(), rows);
  INFO(full.status().ToString());
  REQUIRE(full.ok());
  REQUIRE(full.value().labels.size() == rows);
  for (int32_t label : full.value().labels) REQUIRE((label >= 0 && label < classes));
  Result<urnforest::ScorePrediction> soft =
      urnforest::PredictScoresRows(loaded.value(), x.data(), rows, urnforest::VoteKind::kSoft);
  INFO(soft.status().ToString());
  REQUIRE(soft.ok());
  REQUIRE(soft.value().scores.size() == rows * static_cast<size_t>(classes));
  for (int32_t label : soft.value().labels) REQUIRE((label >= 0 && label < classes));
}

bool IsImportError(StatusCode code) {
  return code == StatusCode::kCorruptModel || code == StatusCode::kUnsupportedModel ||
         code == StatusCode::kLimitExceeded || code == StatusCode::kInvalidArgument;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("An ONNX file cut anywhere is a CorruptModel error, never a crash, unless the cut "
          "keeps the whole graph", "[onnx][reliability][bad_input]") {
  // A cut before the end of ModelProto.graph, or inside a later field, is kCorruptModel; a cut on
  // a field boundary after the graph drops only fields the importer does not read, so it imports
  // exactly as the whole file does.
  size_t kept_graph = 0;
  for (const char* name : kFixtures) {
    INFO(name);
    const std::vector<uint8_t> bytes = ReadFixture(name);
    const TopLevel top = ReadTopLevel(bytes);
    Result<Forest> whole = Import(bytes, bytes.size());
    std::vector<size_t> cuts;
    if (std::string(name) == "tiny_all_modes.onnx") {
      for (size_t n = 0; n < bytes.size(); ++n) cuts.push_back(n);
    } else {
      for (size_t percent = 0; percent < 100; ++percent) cuts.push_back(bytes.size() * percent / 100);
    }
    for (size_t n : cuts) {
      INFO("cut at " << n << " of " << bytes.size() << " bytes");
      Result<Forest> cut = Import(bytes, n);
      INFO(cut.status().ToString());
      const bool on_boundary =
          std::find(top.field_ends.begin(), top.field_ends.end(), n) != top.field_ends.end();
      if (n >= top.graph_end && on_boundary) {
        ++kept_graph;
        REQUIRE(cut.status().code == whole.status().code);
        if (whole.ok()) {
          REQUIRE(urnforest::SerializeForest(cut.value()) == urnforest::SerializeForest(whole.value()));
        }
      } else {
        REQUIRE(cut.status().code == StatusCode::kCorruptModel);
      }
    }
  }
  REQUIRE(kept_graph > 0);
}

TEST_CASE("An ONNX file with any single bit flipped is an import error or a forest that saves, "
          "loads and predicts", "[onnx][reliability][bad_input]") {
  std::mt19937_64 rng(20261124);
  for (const char* name : kFixtures) {
    INFO(name);
    const std::vector<uint8_t> bytes = ReadFixture(name);
    size_t imported = 0;
    for (int trial = 0; trial < 1000; ++trial) {
      const uint64_t bit = rng() % (bytes.size() * 8);
      std::vector<uint8_t> flipped = bytes;
      flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      INFO("bit " << bit % 8 << " of byte " << bit / 8);
      Result<Forest> result = Import(flipped, flipped.size());
      if (!result.ok()) {
        INFO(result.status().ToString());
        REQUIRE(IsImportError(result.status().code));
        continue;
      }
      ++imported;
      CheckImportedForest(result.value());
    }
    Result<Forest> whole = Import(bytes, bytes.size());
    if (whole.ok()) REQUIRE(imported > 0);
  }
}

TEST_CASE("Every importable fixture saves, loads and predicts rows of NaN, zeros and extremes",
          "[onnx][reliability]") {
  size_t imported = 0;
  for (const char* name : kFixtures) {
    INFO(name);
    const std::vector<uint8_t> bytes = ReadFixture(name);
    Result<Forest> result = Import(bytes, bytes.size());
    if (!result.ok()) continue;
    ++imported;
    CheckImportedForest(result.value());
  }
  REQUIRE(imported == 8);
}

TEST_CASE("A TreeEnsembleRegressor is UnsupportedModel and the message says regressor",
          "[onnx][reliability][bad_input]") {
  const std::vector<uint8_t> bytes = ReadFixture("bad_regressor.onnx");
  Result<Forest> r = Import(bytes, bytes.size());
  INFO(r.status().ToString());
  REQUIRE(r.status().code == StatusCode::kUnsupportedModel);
  REQUIRE(Contains(r.status().message, "regressor"));
  REQUIRE(Contains(r.status().message, "TreeEnsembleRegressor"));
}

TEST_CASE("A Scaler before the trees is UnsupportedModel naming the Scaler node",
          "[onnx][reliability][bad_input]") {
  const std::vector<uint8_t> bytes = ReadFixture("bad_scaler_pipeline.onnx");
  Result<Forest> r = Import(bytes, bytes.size());
  INFO(r.status().ToString());
  REQUIRE(r.status().code == StatusCode::kUnsupportedModel);
  REQUIRE(Contains(r.status().message, "Scaler"));
}

TEST_CASE("An unknown op is UnsupportedModel naming the op", "[onnx][reliability][bad_input]") {
  const std::vector<uint8_t> bytes = ReadFixture("bad_unknown_op.onnx");
  Result<Forest> r = Import(bytes, bytes.size());
  INFO(r.status().ToString());
  REQUIRE(r.status().code == StatusCode::kUnsupportedModel);
  REQUIRE(Contains(r.status().message, "MysteryTransform"));
}

TEST_CASE("An opset-5 TreeEnsemble followed by ArgMax imports as a classifier of its targets",
          "[onnx]") {
  const std::vector<uint8_t> bytes = ReadFixture("tiny_all_modes_opset5.onnx");
  Result<Forest> r = Import(bytes, bytes.size());
  INFO(r.status().ToString());
  REQUIRE(r.ok());
  REQUIRE(r.value().num_classes() == 3);
  REQUIRE(r.value().imported() != nullptr);
  // One target per leaf: each tree feeds one class, so the trees add scores rather than vote.
  REQUIRE(r.value().imported()->kind == urnforest::ImportedKind::kAdditive);
}

TEST_CASE("An empty file or random bytes are CorruptModel", "[onnx][reliability][bad_input]") {
  REQUIRE(ImportOnnx(nullptr, 0).status().code == StatusCode::kCorruptModel);
  const uint8_t one = 0;
  REQUIRE(ImportOnnx(&one, 0).status().code == StatusCode::kCorruptModel);
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> noise(1 + rng() % 4096);
    for (uint8_t& b : noise) b = static_cast<uint8_t>(rng());
    Result<Forest> r = ImportOnnx(noise.data(), noise.size());
    INFO("trial " << trial << ": " << r.status().ToString());
    REQUIRE(r.status().code == StatusCode::kCorruptModel);
  }
}

TEST_CASE("The fixtures replay through the fuzz_onnx oracle", "[onnx][reliability][fuzz]") {
  for (const char* name : kFixtures) {
    INFO(name);
    const std::vector<uint8_t> bytes = ReadFixture(name);
    REQUIRE(UrnforestFuzzOnnx(bytes.data(), bytes.size()) == 0);
  }
}

TEST_CASE("ProtoReader reads varints of 1 to 10 bytes and fails on an 11-byte varint",
          "[onnx][protobuf]") {
  const uint64_t kValues[] = {0, 1, 127, 128, 300, uint64_t{1} << 35, uint64_t{1} << 62,
                              std::numeric_limits<uint64_t>::max()};
  for (uint64_t value : kValues) {
    std::vector<uint8_t> bytes = {0x08};  // field 1, varint
    uint64_t v = value;
    do {
      bytes.push_back(static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
      v >>= 7;
    } while (v != 0);
    INFO(value << " in " << bytes.size() - 1 << " bytes");
    ProtoReader reader(bytes.data(), bytes.size());
    ProtoField field;
    REQUIRE(reader.Next(&field));
    REQUIRE(field.number == 1);
    REQUIRE(field.type == WireType::kVarint);
    REQUIRE(field.varint == value);
    REQUIRE_FALSE(reader.Next(&field));
    REQUIRE_FALSE(reader.failed());
  }
  std::vector<uint8_t> ten = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  ProtoReader ok(ten.data(), ten.size());
  ProtoField field;
  REQUIRE(ok.Next(&field));
  REQUIRE(field.varint == std::numeric_limits<uint64_t>::max());

  std::vector<uint8_t> eleven = {0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                 0x80, 0x80, 0x80, 0x80, 0x00};
  ProtoReader bad(eleven.data(), eleven.size());
  REQUIRE_FALSE(bad.Next(&field));
  REQUIRE(bad.failed());
}

TEST_CASE("ProtoReader fails on a varint cut short", "[onnx][protobuf]") {
  const std::vector<uint8_t> bytes = {0x08, 0x80, 0x80};
  ProtoReader reader(bytes.data(), bytes.size());
  ProtoField field;
  REQUIRE_FALSE(reader.Next(&field));
  REQUIRE(reader.failed());
}

TEST_CASE("ProtoReader fails on a length or fixed value past the end", "[onnx][protobuf]") {
  ProtoField field;
  const std::vector<uint8_t> inside = {0x0a, 0x02, 'h', 'i'};
  ProtoReader ok(inside.data(), inside.size());
  REQUIRE(ok.Next(&field));
  REQUIRE(field.type == WireType::kLengthDelimited);
  REQUIRE(field.bytes == "hi");

  const std::vector<uint8_t> past = {0x0a, 0x03, 'h', 'i'};
  ProtoReader length(past.data(), past.size());
  REQUIRE_FALSE(length.Next(&field));
  REQUIRE(length.failed());

  const std::vector<uint8_t> huge = {0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 'x'};
  ProtoReader overflow(huge.data(), huge.size());
  REQUIRE_FALSE(overflow.Next(&field));
  REQUIRE(overflow.failed());

  const std::vector<uint8_t> fixed32 = {0x0d, 1, 2, 3};
  ProtoReader f32(fixed32.data(), fixed32.size());
  REQUIRE_FALSE(f32.Next(&field));
  REQUIRE(f32.failed());

  const std::vector<uint8_t> fixed64 = {0x09, 1, 2, 3, 4, 5, 6, 7};
  ProtoReader f64(fixed64.data(), fixed64.size());
  REQUIRE_FALSE(f64.Next(&field));
  REQUIRE(f64.failed());
}

TEST_CASE("ProtoReader reads fixed 32- and 64-bit values little-endian", "[onnx][protobuf]") {
  const std::vector<uint8_t> bytes = {0x0d, 0x01, 0x02, 0x03, 0x04,
                                      0x11, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  ProtoReader reader(bytes.data(), bytes.size());
  ProtoField field;
  REQUIRE(reader.Next(&field));
  REQUIRE(field.type == WireType::kFixed32);
  REQUIRE(field.varint == 0x04030201u);
  REQUIRE(reader.Next(&field));
  REQUIRE(field.number == 2);
  REQUIRE(field.type == WireType::kFixed64);
  REQUIRE(field.varint == 0x0807060504030201ull);
  REQUIRE_FALSE(reader.Next(&field));
  REQUIRE_FALSE(reader.failed());
}

TEST_CASE("ProtoReader fails on wire types 3, 4, 6 and 7 and on field number 0",
          "[onnx][protobuf]") {
  for (uint8_t wire : {3, 4, 6, 7}) {
    INFO("wire type " << int{wire});
    const std::vector<uint8_t> bytes = {static_cast<uint8_t>(0x08 | wire), 0x00, 0x00, 0x00,
                                        0x00, 0x00, 0x00, 0x00, 0x00};
    ProtoReader reader(bytes.data(), bytes.size());
    ProtoField field;
    REQUIRE_FALSE(reader.Next(&field));
    REQUIRE(reader.failed());
    REQUIRE_FALSE(reader.Next(&field));
  }
  const std::vector<uint8_t> zero = {0x00, 0x01};
  ProtoReader reader(zero.data(), zero.size());
  ProtoField field;
  REQUIRE_FALSE(reader.Next(&field));
  REQUIRE(reader.failed());
}

TEST_CASE("Packed varints decode in order and a truncated one fails", "[onnx][protobuf]") {
  const std::string packed("\x03\x8e\x02\x9e\xa7\x05\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 16);
  std::vector<uint64_t> values;
  REQUIRE(ForEachPackedVarint(packed, [&values](uint64_t v) { values.push_back(v); }));
  REQUIRE(values == std::vector<uint64_t>{3, 270, 86942, std::numeric_limits<uint64_t>::max()});

  values.clear();
  REQUIRE(ForEachPackedVarint(std::string_view(), [&values](uint64_t v) { values.push_back(v); }));
  REQUIRE(values.empty());

  REQUIRE_FALSE(ForEachPackedVarint(std::string("\x03\x8e", 2), [](uint64_t) {}));
  const std::string eleven("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x00", 11);
  REQUIRE_FALSE(ForEachPackedVarint(eleven, [](uint64_t) {}));
}
