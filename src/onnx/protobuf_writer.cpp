// The protocol-buffers wire-format writer (internal::ProtoWriter) that the ONNX exporter uses.
#include "onnx/protobuf_writer.h"

#include <cstring>

namespace urnforest {
namespace internal {

void ProtoWriter::RawVarint(uint64_t value) {
  while (value >= 0x80) {
    bytes_.push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  bytes_.push_back(static_cast<uint8_t>(value));
}

void ProtoWriter::RawFixed32(uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void ProtoWriter::Varint(uint32_t field, uint64_t value) {
  Key(field, 0);
  RawVarint(value);
}

void ProtoWriter::Float(uint32_t field, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  Key(field, 5);
  RawFixed32(bits);
}

void ProtoWriter::Double(uint32_t field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  Key(field, 1);
  RawFixed32(static_cast<uint32_t>(bits));
  RawFixed32(static_cast<uint32_t>(bits >> 32));
}

void ProtoWriter::Bytes(uint32_t field, std::string_view bytes) {
  Key(field, 2);
  RawVarint(bytes.size());
  bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
}

void ProtoWriter::PackedVarints(uint32_t field, const std::vector<int64_t>& values) {
  if (values.empty()) return;
  ProtoWriter packed;
  for (int64_t v : values) packed.RawVarint(static_cast<uint64_t>(v));
  Bytes(field, packed.view());
}

void ProtoWriter::PackedFloats(uint32_t field, const std::vector<float>& values) {
  if (values.empty()) return;
  Key(field, 2);
  RawVarint(values.size() * 4);
  for (float v : values) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    RawFixed32(bits);
  }
}

}  // namespace internal
}  // namespace urnforest
