// The protocol-buffers wire-format reader (internal::ProtoReader) that the ONNX importer uses.
#include "onnx/protobuf_reader.h"

namespace urnforest {
namespace internal {

bool ProtoReader::ReadVarint(uint64_t* out) { return VarintAt(&pos_, out); }

bool ProtoReader::VarintAt(size_t* at, uint64_t* out) const {
  size_t pos = *at;
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos >= size_) return false;
    const uint8_t byte = data_[pos++];
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *out = value;
      *at = pos;
      return true;
    }
  }
  return false;  // more than 10 bytes
}

size_t ProtoReader::KeyBytes(const ProtoField& field, uint8_t* key) {
  uint64_t k = (static_cast<uint64_t>(field.number) << 3) | static_cast<uint64_t>(field.type);
  size_t n = 0;
  while (k >= 0x80) {
    key[n++] = static_cast<uint8_t>(k | 0x80);
    k >>= 7;
  }
  key[n++] = static_cast<uint8_t>(k);
  return n;
}

size_t ProtoReader::CountBytesRun(const ProtoField& field) const {
  if (field.type != WireType::kLengthDelimited) return 0;
  uint8_t key[5];
  const size_t key_size = KeyBytes(field, key);
  size_t at = pos_, count = 0;
  while (size_ - at > key_size) {
    for (size_t i = 0; i < key_size; ++i) {
      if (data_[at + i] != key[i]) return count;
    }
    size_t next = at + key_size;
    uint64_t length = 0;
    if (!VarintAt(&next, &length) || length > size_ - next) return count;
    at = next + static_cast<size_t>(length);
    ++count;
  }
  return count;
}

bool ProtoReader::Next(ProtoField* field) {
  if (failed_ || pos_ >= size_) return false;
  uint64_t key = 0;
  if (!ReadVarint(&key)) return Fail();
  const uint64_t number = key >> 3;
  if (number == 0 || number > 0x1fffffff) return Fail();
  field->number = static_cast<uint32_t>(number);
  field->bytes = {};
  field->varint = 0;
  switch (key & 7) {
    case 0:
      field->type = WireType::kVarint;
      if (!ReadVarint(&field->varint)) return Fail();
      return true;
    case 1:
      field->type = WireType::kFixed64;
      if (size_ - pos_ < 8) return Fail();
      for (int i = 0; i < 8; ++i) field->varint |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
      pos_ += 8;
      return true;
    case 5:
      field->type = WireType::kFixed32;
      if (size_ - pos_ < 4) return Fail();
      for (int i = 0; i < 4; ++i) field->varint |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
      pos_ += 4;
      return true;
    case 2: {
      field->type = WireType::kLengthDelimited;
      uint64_t length = 0;
      if (!ReadVarint(&length) || length > size_ - pos_) return Fail();
      field->bytes = std::string_view(reinterpret_cast<const char*>(data_ + pos_),
                                      static_cast<size_t>(length));
      pos_ += static_cast<size_t>(length);
      return true;
    }
    default:
      return Fail();
  }
}

}  // namespace internal
}  // namespace urnforest
