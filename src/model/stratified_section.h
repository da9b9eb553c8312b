#pragma once
// Internal: the model bytes' optional STRS section, a two-class forest's stratified calibration
// (Forest::stratified_calibration(): the surrogate, its bucket cuts and each bucket's final
// counts), so that rule 'stratified' survives toBytes / fromBytes and reaches the worker. Readers
// that predate it skip the section (unknown tags are ignored). Layout, little-endian:
//   u8 version (1), u32 N (trees), u32 F (features), u8 squares, f64 intercept, f64 pooled share,
//   f64 mean[F], f64 inv_sd[F], f64 low[F], f64 high[F], f64 weights[F or 2F],
//   u32 B, f64 cuts[B - 1], u32 counts[B][N + 1].
#include <cstdint>
#include <vector>

#include "base/byte_io.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest::internal {

/// The section's tag, "STRS" (little-endian u32).
inline constexpr uint32_t kStratifiedTag = 0x53525453u;

/// True when SerializeForest writes the section: the forest has a stratified calibration.
bool HasStratifiedSection(const Forest& forest);

/// Appends the section's body (precondition: HasStratifiedSection).
void WriteStratifiedSection(const Forest& forest, std::vector<uint8_t>* body);

/// Reads the body into `forest`, whose schema and trees are loaded. kCorruptModel for N or F other
/// than the forest's, a non-finite number, cuts not strictly increasing, an empty bucket, counts that
/// overflow, or bytes missing or left over; kUnsupportedVersion for a version other than 1. Every
/// count is bounded by the bytes present before anything is allocated.
Status ReadStratifiedSection(ByteReader r, Forest* forest);

}  // namespace urnforest::internal
