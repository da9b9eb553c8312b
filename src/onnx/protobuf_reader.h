#pragma once
// Internal: a bounds-checked reader of the protocol-buffers wire format (varints, fixed 32/64-bit
// values, length-delimited fields), the encoding of ONNX files. No schema, no allocation: callers
// walk the fields of one message and descend into nested messages with Sub().
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace urnforest {
namespace internal {

/// Wire types of the protocol-buffers encoding.
enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

/// One field of a message: its number, wire type and value (`varint` for kVarint, kFixed32 and
/// kFixed64 (the raw bits); `bytes` for kLengthDelimited, borrowed from the reader's buffer).
struct ProtoField {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t varint = 0;
  std::string_view bytes;
};

/// Reads the fields of one message from [data, data + size). Next() fails (returns false and sets
/// failed()) on a truncated varint or length, a field number of 0, a group (wire types 3 and 4, not
/// used by ONNX) or an unknown wire type; it returns false without failing at the clean end.
class ProtoReader {
 public:
  ProtoReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit ProtoReader(std::string_view bytes)
      : ProtoReader(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) {}

  /// Reads the next field into `field`; false at the end or on malformed input (see failed()).
  bool Next(ProtoField* field);
  /// True once malformed input has been seen.
  bool failed() const { return failed_; }
  /// Bytes not yet read.
  size_t remaining() const { return size_ - pos_; }

  /// Reads the run of fields that directly follow the current position and repeat `field`'s
  /// number and wire type (`field`: the field Next() just read, kVarint or kFixed32; other types
  /// read nothing), calling emit(value) for each value (the raw bits for kFixed32), and returns how
  /// many it read. An unpacked repeated scalar (proto2's default encoding, which the onnx package
  /// writes) is such a run: reading it here skips Next()'s general decoding per value. It stops
  /// before the first other field, a key spelt in more bytes than needed, the end or malformed
  /// input, all left to Next() (which reads or reports them as before).
  template <class Emit>
  size_t ReadRun(const ProtoField& field, Emit emit) {
    if (field.type != WireType::kVarint && field.type != WireType::kFixed32) return 0;
    uint8_t key[5];
    const size_t key_size = KeyBytes(field, key);
    // Local cursor (p, end) rather than the members: the loop keeps them in registers while
    // emit() stores values.
    const uint8_t* p = data_ + pos_;
    const uint8_t* const end = data_ + size_;
    size_t count = 0;
    if (key_size == 1 && field.type == WireType::kFixed32) {
      // The common float list (field 7): a one-byte key and four value bytes per entry.
      const uint8_t k0 = key[0];
      while (end - p >= 5 && p[0] == k0) {
        emit(static_cast<uint64_t>(p[1]) | static_cast<uint64_t>(p[2]) << 8 | static_cast<uint64_t>(p[3]) << 16 |
             static_cast<uint64_t>(p[4]) << 24);
        p += 5;
        ++count;
      }
    } else if (key_size == 1) {
      // The common int list (field 8): a one-byte key, then a varint.
      const uint8_t k0 = key[0];
      while (end - p >= 2 && p[0] == k0) {
        uint64_t value = p[1];
        if (value < 0x80) {  // a one-byte varint (most class indices)
          p += 2;
        } else if (end - p >= 3 && p[2] < 0x80) {  // two bytes (node ids up to 16,383)
          value = (value & 0x7f) | static_cast<uint64_t>(p[2]) << 7;
          p += 3;
        } else {
          size_t at = static_cast<size_t>(p + 1 - data_);
          if (!VarintAt(&at, &value)) break;
          p = data_ + at;
        }
        emit(value);
        ++count;
      }
    } else {
      auto key_at = [&key, key_size](const uint8_t* q) {
        for (size_t i = 0; i < key_size; ++i) {
          if (q[i] != key[i]) return false;
        }
        return true;
      };
      while (static_cast<size_t>(end - p) > key_size && key_at(p)) {
        const uint8_t* q = p + key_size;
        uint64_t value = 0;
        if (field.type == WireType::kFixed32) {
          if (end - q < 4) break;
          value = static_cast<uint64_t>(q[0]) | static_cast<uint64_t>(q[1]) << 8 | static_cast<uint64_t>(q[2]) << 16 |
                  static_cast<uint64_t>(q[3]) << 24;
          q += 4;
        } else if (q[0] < 0x80) {
          value = *q++;
        } else {
          size_t at = static_cast<size_t>(q - data_);
          if (!VarintAt(&at, &value)) break;
          q = data_ + at;
        }
        p = q;
        emit(value);
        ++count;
      }
    }
    pos_ = static_cast<size_t>(p - data_);
    return count;
  }

  /// How many length-delimited fields with `field`'s number directly follow the current position
  /// (`field`: the field Next() just read; 0 for other wire types), without reading them: room
  /// to reserve before reading a repeated string run. Stops at the first other field, a key spelt
  /// in more bytes than needed or a length that does not fit.
  size_t CountBytesRun(const ProtoField& field) const;

 private:
  bool ReadVarint(uint64_t* out);
  // The varint at *at (advanced past it) into *out; false when truncated or over 10 bytes.
  bool VarintAt(size_t* at, uint64_t* out) const;
  // The minimal encoding of `field`'s key into key[0..return value).
  static size_t KeyBytes(const ProtoField& field, uint8_t* key);
  bool Fail() {
    failed_ = true;
    pos_ = size_;
    return false;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool failed_ = false;
};

/// Decodes the packed repeated values in `bytes` (a length-delimited field of varints), calling
/// `emit(value)` for each; false on a truncated varint.
template <class Emit>
bool ForEachPackedVarint(std::string_view bytes, Emit emit) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const auto* end = p + bytes.size();
  while (p < end) {
    uint64_t value = 0;
    int shift = 0;
    for (;;) {
      if (p == end || shift > 63) return false;
      const uint8_t byte = *p++;
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
      shift += 7;
    }
    emit(value);
  }
  return true;
}

}  // namespace internal
}  // namespace urnforest
