#pragma once
// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as in zlib and PNG.
#include <cstddef>
#include <cstdint>

namespace urnforest {
namespace internal {

/// CRC-32 of `size` bytes; Crc32("123456789", 9) == 0xCBF43926.
uint32_t Crc32(const uint8_t* data, size_t size);

}  // namespace internal
}  // namespace urnforest
