// DatasetBuilder::SetFieldRow: a text format's whole record per call. Numbers in columns that are
// numeric so far take an inline path; every other cell goes through SetFeature / SetLabel, which
// decide exactly as they do cell by cell.
#include "data/dataset_builder_impl.h"
#include "data/decimal_to_float.h"
#include "urnforest/dataset_builder.h"

namespace urnforest {
namespace {

// The cell SetFeature and SetLabel take for field k of a record.
Cell FieldCell(const FieldRef& field, size_t k) {
  Cell cell;
  cell.kind = field.missing ? CellKind::kMissing : CellKind::kField;
  cell.text = field.text;
  cell.line = field.line;
  cell.column = static_cast<int64_t>(k) + 1;
  return cell;
}

}  // namespace

Status DatasetBuilder::SetFieldRow(const FieldRef* fields, const int32_t* slots, size_t count) {
  Impl& b = *impl_;
  float* const row = b.row_major.data() + b.row() * b.specs.size();
  const char decimal = b.options.decimal;
  for (size_t k = 0; k < count; ++k) {
    const int32_t slot = slots[k];
    const FieldRef& field = fields[k];
    if (slot >= 0) {
      const auto f = static_cast<size_t>(slot);
      if (field.missing) continue;  // SetFeature leaves a missing cell missing, whatever the rule.
      internal::ColumnState& col = b.columns[f];
      // The common case: a number (or a blank) in a column that is numeric so far. Anything
      // else, including a field that does not read as a number, is SetFeature's to decide.
      if (col.numeric && b.specs[f].rule == ColumnRule::kInfer) {
        const std::string_view text = internal::TrimBlanks(field.text);
        if (text.empty()) continue;
        if ((decimal == '.' && internal::PlainDecimalToFloat(text, row + f)) ||
            internal::ParseCsvNumber(text, row + f, decimal) == internal::NumberKind::kNumber) {
          col.had_number = true;
          continue;
        }
      }
      Status s = SetFeature(f, FieldCell(field, k));
      if (!s.ok()) return s;
    } else if (slot == kFieldIsLabel) {
      Status s = SetLabel(FieldCell(field, k));
      if (!s.ok()) return s;
    }
  }
  return Status::Ok();
}

}  // namespace urnforest
