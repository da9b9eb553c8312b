#pragma once
// Internal: a writer of the protocol-buffers wire format (varints, fixed 32/64-bit values,
// length-delimited fields, packed repeated scalars), the encoding of ONNX files. No schema:
// callers write the fields of one message in order and nest messages with Message().
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace urnforest {
namespace internal {

/// Appends the fields of one message to an owned byte buffer. Field numbers must be in
/// [1, 2^29); negative int64 values are written as 10-byte varints (two's complement), as
/// protocol buffers encode int64. Never fails; the buffer grows as needed.
class ProtoWriter {
 public:
  /// A varint field (wire type 0): int32, int64, uint64, bool and enum fields.
  void Varint(uint32_t field, uint64_t value);
  /// A fixed 32-bit field (wire type 5) holding a float's bits.
  void Float(uint32_t field, float value);
  /// A fixed 64-bit field (wire type 1) holding a double's bits.
  void Double(uint32_t field, double value);
  /// A length-delimited field (wire type 2): a string, bytes or an already encoded message.
  void Bytes(uint32_t field, std::string_view bytes);
  /// A nested message: the bytes written by `message`.
  void Message(uint32_t field, const ProtoWriter& message) { Bytes(field, message.view()); }
  /// A packed repeated varint field (one length-delimited field); nothing for no values.
  void PackedVarints(uint32_t field, const std::vector<int64_t>& values);
  /// A packed repeated float field (little-endian fixed 32-bit values); nothing for no values.
  void PackedFloats(uint32_t field, const std::vector<float>& values);

  /// The bytes written so far.
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::string_view view() const {
    return {reinterpret_cast<const char*>(bytes_.data()), bytes_.size()};
  }
  /// Moves the bytes out (the writer is empty afterwards).
  std::vector<uint8_t> Release() { return std::move(bytes_); }

 private:
  void Key(uint32_t field, uint32_t wire_type) {
    RawVarint((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  void RawVarint(uint64_t value);
  void RawFixed32(uint32_t value);

  std::vector<uint8_t> bytes_;
};

}  // namespace internal
}  // namespace urnforest
