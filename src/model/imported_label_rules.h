#pragma once
// Internal: the import record's optional addition in the model bytes (the IMPT section,
// src/model/serialize.cpp): the label rules decided against ONNX Runtime
// (ImportedModel::second_class_threshold, label_from_scores) and the classes each leaf names
// (ImportedModel::named). Written only when one of them is set, so that models which need none
// keep their exact bytes; readers from before the addition refuse it (bad import section) rather
// than answer by the old rules.
#include "base/byte_io.h"
#include "urnforest/imported_model.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// Appends the addition to `w` (nothing when `m` needs none): u8 version (1), u8 flags
/// (1 second_class_threshold, 2 label_from_scores, 4 a named table follows), then with flag 4
/// the named table (leaves x outputs entries) packed 8 a byte, low bit first.
void WriteImportedLabelRules(const ImportedModel& m, ByteWriter* w);

/// Reads the addition from `r` when bytes remain (none: the defaults), into *m, whose outputs,
/// single_score, base_values and leaf_values are already read. kCorruptModel for an unknown
/// version or flag, a rule that does not fit the layout (second_class_threshold needs two
/// outputs, a named table three or more and no base values) or a short table.
Status ReadImportedLabelRules(ByteReader* r, ImportedModel* m);

}  // namespace internal
}  // namespace urnforest
