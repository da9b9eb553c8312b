// CSV text -> Dataset: the header, the choice of columns (target, schema), and every field handed
// to a DatasetBuilder, which decides types, categories, classes and limits.
#include "urnforest/csv_reader.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "data/csv_tokenizer.h"
#include "urnforest/dataset_builder.h"

namespace urnforest {
namespace {

using internal::CsvField;
using internal::CsvTokenizer;
using internal::IsMissingCell;
using internal::QuoteForMessage;

std::string ListColumns(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) {
    if (i > 0) out += ", ";
    out += QuoteForMessage(names[i]);
  }
  if (names.size() > kShown) out += ", ... (" + std::to_string(names.size()) + " columns)";
  return out;
}

constexpr int32_t kIgnoredSlot = kFieldIgnored;
constexpr int32_t kTargetSlot = kFieldIsLabel;

// A tokenized field as a builder cell: the missing-value markers are the CSV's own.
Cell FieldCell(const CsvField& f) {
  Cell cell;
  cell.kind = IsMissingCell(f) ? CellKind::kMissing : CellKind::kField;
  cell.text = f.value;
  cell.line = f.line;
  cell.column = f.column;
  return cell;
}

// Reads the header, chooses the columns (target, schema), and feeds every field to a
// DatasetBuilder, which decides everything about the values.
class CsvReader {
 public:
  CsvReader(std::string_view text, const CsvOptions& options, char delimiter)
      : text_(text), options_(options), delimiter_(delimiter), tok_(text, delimiter) {}

  Result<Dataset> Read();

 private:
  Status ReadHeader();
  Status PlanTraining(std::vector<ColumnSpec>* specs, DatasetBuilderOptions* build);
  Status PlanSchema(std::vector<ColumnSpec>* specs, DatasetBuilderOptions* build);
  Status ReadRows(DatasetBuilder* builder);
  FieldRef Field(const CsvField& f, size_t c);
  Status Replay(DatasetBuilder* builder, size_t rows) const;

  std::string_view text_;
  const CsvOptions& options_;
  char delimiter_;
  CsvTokenizer tok_;
  int64_t header_line_ = 1;
  std::vector<std::string> header_;
  std::vector<int32_t> slots_;  // Header column -> feature index, kTargetSlot or kIgnoredSlot.
  std::vector<FieldRef> fields_;      // The current record's fields (at most the header's width).
  std::vector<std::string> copies_;   // Per column: a field that was in the tokenizer's scratch.
  size_t data_pos_ = 0;
  int64_t data_line_ = 1;
};

Result<Dataset> CsvReader::Read() {
  Status s = ReadHeader();
  if (!s.ok()) return s;
  std::vector<ColumnSpec> specs;
  DatasetBuilderOptions build;
  s = options_.schema != nullptr ? PlanSchema(&specs, &build) : PlanTraining(&specs, &build);
  if (!s.ok()) return s;
  Result<DatasetBuilder> builder =
      DatasetBuilder::Create(std::move(specs), std::move(build), header_line_);
  if (!builder.ok()) return builder.status();
  s = ReadRows(&builder.value());
  if (!s.ok()) return s;
  return builder.value().Finish(
      [&](size_t rows) { return Replay(&builder.value(), rows); });
}

Status CsvReader::ReadHeader() {
  if (!tok_.StartRecord()) {
    return Status::Error(StatusCode::kCsvEmpty, "the CSV text is empty; it needs a header row");
  }
  header_line_ = tok_.record_line();
  CsvField f;
  bool last = false;
  std::unordered_map<std::string_view, int64_t> seen;
  while (!last) {
    Status s = tok_.Next(&f, &last);
    if (!s.ok()) return s;
    header_.emplace_back(f.value);
  }
  seen.reserve(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) {
    const auto [it, inserted] = seen.emplace(header_[c], static_cast<int64_t>(c) + 1);
    if (!inserted) {
      return Status::Error(StatusCode::kCsvDuplicateColumn,
                           "column name " + QuoteForMessage(header_[c]) + " appears in columns " +
                               std::to_string(it->second) + " and " + std::to_string(c + 1),
                           header_line_, static_cast<int64_t>(c) + 1);
    }
  }
  slots_.assign(header_.size(), kIgnoredSlot);
  return Status::Ok();
}

Status CsvReader::PlanTraining(std::vector<ColumnSpec>* specs, DatasetBuilderOptions* build) {
  int64_t target = -1;
  if (options_.has_target) {
    if (options_.target.empty()) {
      target = static_cast<int64_t>(header_.size()) - 1;
      // A nameless target could not be found again in schema mode, where an empty
      // Schema::target_name means "no target column" (found by fuzz_csv).
      if (header_.back().empty()) {
        return Status::Error(StatusCode::kTargetNotFound,
                             "the last column, the default target, has no name; name it in the "
                             "header or choose the target by name",
                             header_line_, target + 1);
      }
    } else {
      for (size_t c = 0; c < header_.size(); ++c) {
        if (header_[c] == options_.target) target = static_cast<int64_t>(c);
      }
      if (target < 0) {
        return Status::Error(StatusCode::kTargetNotFound,
                             "no column named " + QuoteForMessage(options_.target) +
                                 "; the columns are " + ListColumns(header_),
                             header_line_);
      }
    }
  }
  for (size_t c = 0; c < header_.size(); ++c) {
    if (static_cast<int64_t>(c) == target) {
      slots_[c] = kTargetSlot;
      build->target_name = header_[c];
      continue;
    }
    slots_[c] = static_cast<int32_t>(specs->size());
    ColumnSpec spec;
    spec.name = header_[c];
    specs->push_back(std::move(spec));
  }
  build->has_labels = target >= 0;
  build->class_order = options_.class_order;
  build->target_categorical = options_.target_categorical;
  build->decimal = options_.decimal;
  return Status::Ok();
}

Status CsvReader::PlanSchema(std::vector<ColumnSpec>* specs, DatasetBuilderOptions* build) {
  const Schema& model = *options_.schema;
  std::unordered_map<std::string_view, size_t> by_name;
  by_name.reserve(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) by_name.emplace(header_[c], c);
  for (size_t f = 0; f < model.features.size(); ++f) {
    const FeatureInfo& info = model.features[f];
    const auto it = by_name.find(info.name);
    if (it == by_name.end()) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "the model needs column " + QuoteForMessage(info.name) +
                               ", which the CSV lacks; the columns are " + ListColumns(header_),
                           header_line_);
    }
    slots_[it->second] = static_cast<int32_t>(f);
    ColumnSpec spec;
    spec.name = info.name;
    spec.rule = info.type == FeatureType::kCategorical ? ColumnRule::kCategorical
                                                       : ColumnRule::kNumeric;
    spec.fixed_categories = info.type == FeatureType::kCategorical;
    spec.categories = info.categories;
    specs->push_back(std::move(spec));
  }
  if (options_.has_target) {
    const std::string& name = options_.target.empty() ? model.target_name : options_.target;
    const auto it = name.empty() ? by_name.end() : by_name.find(name);
    if (it != by_name.end() && slots_[it->second] == kIgnoredSlot) {
      slots_[it->second] = kTargetSlot;
      build->has_labels = true;
    } else if (!options_.target.empty() && it == by_name.end()) {
      return Status::Error(StatusCode::kTargetNotFound,
                           "no column named " + QuoteForMessage(options_.target) +
                               "; the columns are " + ListColumns(header_),
                           header_line_);
    }
  }
  build->target_name = model.target_name;
  build->class_source = ClassSource::kModel;
  build->class_names = model.class_names;
  build->missing_label_is_unknown = true;
  build->decimal = options_.decimal;
  return Status::Ok();
}

Status CsvReader::ReadRows(DatasetBuilder* builder) {
  data_pos_ = tok_.pos();
  data_line_ = tok_.line();
  const size_t width = header_.size();
  fields_.resize(width);
  copies_.resize(width);
  CsvField f;
  while (tok_.StartRecord()) {
    const int64_t record_line = tok_.record_line();
    Status s = builder->StartRow(record_line);
    if (!s.ok()) return s;
    // The whole record, then one call for its cells: a tokenizer error after some fields comes
    // after those fields' cell errors, as it would field by field.
    size_t count = 0;
    bool last = false;
    Status read;
    while (!last) {
      read = tok_.Next(&f, &last);
      if (!read.ok()) break;
      if (count < width) fields_[count] = Field(f, count);
      ++count;
    }
    s = builder->SetFieldRow(fields_.data(), slots_.data(), std::min(count, width));
    if (!s.ok()) return s;
    if (!read.ok()) return read;
    if (count != width) {
      return Status::Error(StatusCode::kCsvRaggedRow,
                           "row has " + std::to_string(count) + " field" + (count == 1 ? "" : "s") +
                               ", header has " + std::to_string(width),
                           record_line, static_cast<int64_t>(std::min(count, width)) + 1);
    }
  }
  if (builder->num_rows() == 0) {
    return Status::Error(StatusCode::kCsvNoRows, "the CSV has a header row but no data rows");
  }
  return Status::Ok();
}

// Field `c` of the current record for SetFieldRow. Its text stays valid until the next record: a
// view into the CSV text, or a copy when the tokenizer unescaped it into its scratch buffer.
FieldRef CsvReader::Field(const CsvField& f, size_t c) {
  FieldRef field;
  field.text = f.value;
  field.line = f.line;
  field.missing = IsMissingCell(f);
  const auto begin = reinterpret_cast<uintptr_t>(text_.data());
  const auto at = reinterpret_cast<uintptr_t>(f.value.data());
  if (!f.value.empty() && (at < begin || at - begin >= text_.size())) {
    copies_[c].assign(f.value);
    field.text = copies_[c];
  }
  return field;
}

// Tokenizes the first `rows` data rows again for the builder (it asks when a column turned
// categorical after some numbers and needs their text).
Status CsvReader::Replay(DatasetBuilder* builder, size_t rows) const {
  CsvTokenizer tok(text_, delimiter_);
  tok.Seek(data_pos_, data_line_);
  CsvField f;
  for (size_t r = 0; r < rows && tok.StartRecord(); ++r) {
    bool last = false;
    for (size_t c = 0; !last; ++c) {
      Status s = tok.Next(&f, &last);
      if (!s.ok()) return Status::Error(StatusCode::kInternal, "replay: " + s.ToString());
      const int32_t slot = c < slots_.size() ? slots_[c] : kIgnoredSlot;
      if (slot < 0) continue;
      s = builder->ReplayCell(r, static_cast<size_t>(slot), FieldCell(f));
      if (!s.ok()) return s;
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Dataset> ReadCsv(std::string_view text, const CsvOptions& options) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const char d = options.delimiter;
  if (d != ',' && d != ';' && d != '\t' && d != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the delimiter must be ',', ';', a tab or auto-detected");
  }
  if (options.decimal != '.' && options.decimal != ',') {
    return Status::Error(StatusCode::kInvalidArgument, "the decimal mark must be '.' or ','");
  }
  const char delimiter = d == 0 ? internal::DetectDelimiter(text) : d;
  if (options.decimal == ',' && delimiter == ',') {
    return Status::Error(StatusCode::kInvalidArgument,
                         "a decimal comma needs fields separated by ';' or a tab, not ','");
  }
  CsvReader reader(text, options, delimiter);
  return reader.Read();
}

}  // namespace urnforest
