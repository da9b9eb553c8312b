// The import record's optional addition: label rules and named classes (imported_label_rules.h).
#include "model/imported_label_rules.h"

#include <cstdint>
#include <vector>

namespace urnforest {
namespace internal {
namespace {

constexpr uint8_t kVersion = 1;
constexpr uint8_t kSecondClassThreshold = 1, kLabelFromScores = 2, kNamedTable = 4;

Status Corrupt(const char* what) { return Status::Error(StatusCode::kCorruptModel, what); }

}  // namespace

void WriteImportedLabelRules(const ImportedModel& m, ByteWriter* w) {
  const uint8_t flags = static_cast<uint8_t>((m.second_class_threshold ? kSecondClassThreshold : 0) |
                                             (m.label_from_scores ? kLabelFromScores : 0) |
                                             (m.named.empty() ? 0 : kNamedTable));
  if (flags == 0) return;
  w->U8(kVersion);
  w->U8(flags);
  std::vector<uint8_t> packed((m.named.size() + 7) / 8, 0);
  for (size_t i = 0; i < m.named.size(); ++i) {
    packed[i / 8] = static_cast<uint8_t>(packed[i / 8] | (m.named[i] & 1) << (i % 8));
  }
  for (uint8_t b : packed) w->U8(b);
}

Status ReadImportedLabelRules(ByteReader* r, ImportedModel* m) {
  if (r->at_end()) return Status::Ok();
  const uint8_t version = r->U8();
  const uint8_t flags = r->U8();
  if (r->failed() || version != kVersion || flags == 0 || flags > 7) return Corrupt("bad import label rules");
  m->second_class_threshold = (flags & kSecondClassThreshold) != 0;
  m->label_from_scores = (flags & kLabelFromScores) != 0;
  if ((m->second_class_threshold && (m->single_score || m->outputs != 2)) ||
      (m->label_from_scores && m->single_score)) {
    return Corrupt("bad import label rules");
  }
  if ((flags & kNamedTable) == 0) return Status::Ok();
  if (m->outputs < 3 || !m->base_values.empty()) return Corrupt("bad import named classes");
  const size_t entries = m->leaf_values.size();
  if ((entries + 7) / 8 > r->remaining()) return Corrupt("bad import named classes");
  const uint8_t* packed = r->Bytes((entries + 7) / 8);
  if (r->failed()) return Corrupt("bad import named classes");
  m->named.resize(entries);
  for (size_t i = 0; i < entries; ++i) m->named[i] = (packed[i / 8] >> (i % 8)) & 1;
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
