#pragma once
// Shared test fixtures: small data sets, trained forests, CSV expectations and byte re-sealing for
// the model (URNF) and halting-table (UFHT) formats.
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/crc32.h"
#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/onnx_import.h"
#include "urnforest/status.h"

namespace urnforest::test {

/// The value of an ok `result`; the test fails (with the status) otherwise.
template <typename T>
T MustOk(Result<T> result) {
  INFO(result.status().ToString());
  REQUIRE(result.ok());
  return std::move(result).value();
}

/// Rows x (row-major, x.size() / y.size() numeric columns) with labels y of `classes` classes named
/// "A", "B", ...
inline Dataset SmallDataset(const std::vector<float>& x, const std::vector<int32_t>& y,
                            int32_t classes) {
  std::vector<std::string> names;
  for (int32_t c = 0; c < classes; ++c) names.push_back(std::string(1, static_cast<char>('A' + c)));
  return MustOk(
      Dataset::FromRowMajor(x.data(), y.size(), x.size() / y.size(), y.data(), {}, names));
}

/// Twonorm(rows, seed).
inline Dataset MustTwonorm(size_t rows, uint64_t seed) { return MustOk(Twonorm(rows, seed)); }

/// Train(data, options).
inline Forest MustTrain(const Dataset& data, const TrainOptions& options) {
  return MustOk(Train(data, options));
}

/// ReadCsv(text, options).
inline Dataset MustRead(const std::string& text, const CsvOptions& options = {}) {
  return MustOk(ReadCsv(text, options));
}

/// ReadCsv(text, options) fails with `code` at (line, column), with a message.
inline void RequireCsvError(const std::string& text, StatusCode code, int64_t line, int64_t column,
                            const CsvOptions& options = {}) {
  Result<Dataset> result = ReadCsv(text, options);
  INFO("input: " << text);
  REQUIRE_FALSE(result.ok());
  const Status& status = result.status();
  INFO(status.ToString());
  CHECK(status.code == code);
  CHECK(status.line == line);
  CHECK(status.column == column);
  CHECK_FALSE(status.message.empty());
}

/// Appends v little-endian (hand-made model sections).
inline void PutU32(std::vector<uint8_t>* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void PutU64(std::vector<uint8_t>* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/// Model bytes with the body length (bytes 8..15) and its CRC-32 (bytes 16..19) redone, so that an
/// edit of the body reaches the checks behind the checksum.
inline std::vector<uint8_t> ResealModel(std::vector<uint8_t> bytes) {
  const uint64_t length = bytes.size() - 20;
  for (int i = 0; i < 8; ++i) bytes[8 + i] = static_cast<uint8_t>(length >> (8 * i));
  const uint32_t crc = internal::Crc32(bytes.data() + 20, length);
  for (int i = 0; i < 4; ++i) bytes[16 + i] = static_cast<uint8_t>(crc >> (8 * i));
  return bytes;
}

/// Halting-table bytes with the trailing checksum (64-bit FNV-1a of all bytes before it) redone.
inline std::vector<uint8_t> ResealTable(std::vector<uint8_t> bytes) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i + 8 < bytes.size(); ++i) h = (h ^ bytes[i]) * 1099511628211ULL;
  for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<uint8_t>(h >> (8 * i));
  return bytes;
}

#ifdef URNFOREST_ONNX_FIXTURES_DIR
/// The ONNX fixture tests/fixtures/onnx/NAME.onnx imported with default options (fails the test
/// when it is missing or does not import).
inline Forest ImportFixture(const std::string& name) {
  std::ifstream in(std::string(URNFOREST_ONNX_FIXTURES_DIR) + "/" + name + ".onnx", std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  return MustOk(ImportOnnx(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}
#endif

}  // namespace urnforest::test
