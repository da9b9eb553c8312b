// The CALV section of the model bytes: a forest trained here's calibration rows.
#include "model/calibration_section.h"

#include <string>
#include <utility>

#include "ensemble/forest_access.h"
#include "urnforest/vote.h"

namespace urnforest::internal {
namespace {

constexpr uint8_t kSectionVersion = 1;

Status Corrupt(const std::string& what) { return Status::Error(StatusCode::kCorruptModel, what); }

}  // namespace

bool HasCalibrationSection(const Forest& forest) {
  return forest.imported() == nullptr && !forest.calibration_labels().empty();
}

void WriteCalibrationSection(const Forest& forest, std::vector<uint8_t>* body) {
  ByteWriter w(body);
  w.U8(kSectionVersion);
  w.U64(forest.calibration_labels().size());
  w.U32(static_cast<uint32_t>(forest.num_classes()));
  for (uint32_t v : forest.calibration_votes()) w.U32(v);
  for (int32_t label : forest.calibration_labels()) w.I32(label);
}

Status ReadCalibrationSection(ByteReader r, Forest* forest) {
  if (forest->imported() != nullptr) {
    return Corrupt("calibration-rows section in an imported model (its calibration votes are in OOBV)");
  }
  const uint8_t version = r.U8();
  if (r.failed()) return Corrupt("bad calibration-rows section");
  if (version != kSectionVersion) {
    return Status::Error(StatusCode::kUnsupportedVersion,
                         "calibration-rows section version " + std::to_string(version) +
                             " is not supported (this library reads version 1)");
  }
  const uint64_t rows = r.U64();
  const uint32_t classes = r.U32();
  if (r.failed() || classes != static_cast<uint32_t>(forest->num_classes()) || rows == 0 ||
      rows > r.remaining() / (4 * uint64_t{classes} + 4) || r.remaining() != rows * (4 * uint64_t{classes} + 4)) {
    return Corrupt("bad calibration-rows section (count or classes)");
  }
  std::vector<uint32_t> votes(static_cast<size_t>(rows) * classes);
  std::vector<int32_t> labels(static_cast<size_t>(rows));
  const uint64_t trees = static_cast<uint64_t>(forest->num_trees());
  for (size_t row = 0; row < rows; ++row) {
    uint64_t total = 0;
    for (uint32_t c = 0; c < classes; ++c) total += votes[row * classes + c] = r.U32();
    if (total != trees) return Corrupt("calibration row " + std::to_string(row) + ": votes do not sum to the trees");
  }
  for (size_t row = 0; row < rows; ++row) {
    labels[row] = r.I32();
    if (labels[row] != Plurality(votes.data() + row * classes, classes)) {
      return Corrupt("calibration row " + std::to_string(row) + ": label is not the full vote");
    }
  }
  if (r.failed() || !r.at_end()) return Corrupt("bad calibration-rows section");
  ForestAccess::calibration_votes(*forest) = std::move(votes);
  ForestAccess::calibration_labels(*forest) = std::move(labels);
  return Status::Ok();
}

}  // namespace urnforest::internal
