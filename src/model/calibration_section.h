#pragma once
// Internal: the model bytes' optional CALV section, a forest trained here's calibration rows
// (Forest::calibration_votes(), calibration_labels()). The layout is in src/model/serialize.cpp.
#include <cstdint>
#include <vector>

#include "base/byte_io.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest::internal {

/// The section's tag, "CALV" (little-endian u32).
inline constexpr uint32_t kCalibrationRowsTag = 0x564C4143u;

/// True when SerializeForest writes the section: a forest trained here with calibration rows.
bool HasCalibrationSection(const Forest& forest);

/// Appends the section's body for `forest` to `body` (precondition: HasCalibrationSection).
void WriteCalibrationSection(const Forest& forest, std::vector<uint8_t>* body);

/// Reads the body `r` into `forest`, whose schema, options and trees are already loaded. Every
/// count is bounded by the bytes present before anything is allocated. kCorruptModel for a forest
/// not trained here, a class count other than the schema's, a row whose votes do not sum to the
/// tree count, a label that is not its row's plurality, or bytes left over; kUnsupportedVersion
/// for a section version other than 1.
Status ReadCalibrationSection(ByteReader r, Forest* forest);

}  // namespace urnforest::internal
