#pragma once
// Little-endian fixed-width byte writing and bounds-checked reading (portable; no struct memcpy).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace urnforest {
namespace internal {

/// Appends little-endian values to a byte vector.
class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>* out) : out_(out) {}
  void U8(uint8_t v) { out_->push_back(v); }
  void U16(uint16_t v) {
    out_->push_back(static_cast<uint8_t>(v));
    out_->push_back(static_cast<uint8_t>(v >> 8));
  }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) out_->push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void U64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out_->push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void F32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    U32(bits);
  }
  void F64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    U64(bits);
  }
  /// u32 byte length, then the bytes.
  void Str(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    out_->insert(out_->end(), s.begin(), s.end());
  }

 private:
  std::vector<uint8_t>* out_;
};

/// Reads little-endian values from [data, data + size); any read past the end sets failed() and
/// returns zeros, so callers may check once after a group of reads.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  size_t remaining() const { return size_ - pos_; }
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == size_; }
  void Fail() { failed_ = true; pos_ = size_; }

  uint8_t U8() { return Need(1) ? data_[pos_++] : 0; }
  uint16_t U16() {
    if (!Need(2)) return 0;
    const uint16_t v = static_cast<uint16_t>(data_[pos_] | (data_[pos_ + 1] << 8));
    pos_ += 2;
    return v;
  }
  uint32_t U32() {
    if (!Need(4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 4;
    return v;
  }
  uint64_t U64() {
    if (!Need(8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return v;
  }
  int32_t I32() { return static_cast<int32_t>(U32()); }
  float F32() {
    const uint32_t bits = U32();
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  double F64() {
    const uint64_t bits = U64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  /// Reads a u32-length string; fails (without allocating) if it would run past the end.
  std::string Str() {
    const uint32_t n = U32();
    if (!Need(n)) return std::string();
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }
  /// Reads an element count (u64) and fails unless count * element_bytes fits in what remains, so a
  /// caller may allocate `count` elements safely.
  uint64_t Count(size_t element_bytes) {
    const uint64_t n = U64();
    if (failed_ || n > remaining() / element_bytes) {
      Fail();
      return 0;
    }
    return n;
  }
  /// Pointer to the next `n` bytes (which are consumed), or nullptr (and failed()) past the end.
  const uint8_t* Bytes(size_t n) {
    if (!Need(n)) return nullptr;
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  /// A sub-reader over the next `n` bytes (which are consumed).
  ByteReader Sub(size_t n) {
    if (!Need(n)) return ByteReader(nullptr, 0);
    ByteReader sub(data_ + pos_, n);
    pos_ += n;
    return sub;
  }

 private:
  bool Need(size_t n) {
    if (failed_ || n > size_ - pos_) {
      Fail();
      return false;
    }
    return true;
  }
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace internal
}  // namespace urnforest
