// CSV text -> Dataset: header, column type inference, class labels, schema replay and limits.
#include "urnforest/csv_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "data/csv_tokenizer.h"

namespace urnforest {
namespace {

using internal::CsvField;
using internal::CsvTokenizer;
using internal::IsMissingCell;
using internal::NumberKind;
using internal::ParseCsvNumber;
using internal::QuoteForMessage;

constexpr float kMissing = std::numeric_limits<float>::quiet_NaN();

// Distinct strings in first-seen order, copied into an arena of growing blocks. Lookups of
// existing strings do not allocate, and an empty dictionary allocates nothing (there is one per
// column).
class Dictionary {
 public:
  static constexpr int64_t kFull = -1;

  // The index of `s`, inserting it if new; kFull if inserting would exceed `limit` entries.
  int64_t Intern(std::string_view s, size_t limit) {
    const auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    if (names_.size() >= limit) return kFull;
    names_.push_back(Store(s));
    const uint32_t id = static_cast<uint32_t>(names_.size() - 1);
    index_.emplace(names_.back(), id);
    return id;
  }
  size_t size() const { return names_.size(); }
  std::string_view name(size_t i) const { return names_[i]; }
  std::vector<std::string> Names() const { return {names_.begin(), names_.end()}; }

 private:
  // Copies `s` into the arena, whose blocks never move: views into them stay valid.
  std::string_view Store(std::string_view s) {
    if (s.size() > block_left_) {
      const size_t size = std::max(s.size(), next_block_);
      blocks_.push_back(std::make_unique<char[]>(size));
      block_next_ = blocks_.back().get();
      block_left_ = size;
      next_block_ = std::min<size_t>(next_block_ * 2, size_t{1} << 16);
    }
    if (!s.empty()) std::memcpy(block_next_, s.data(), s.size());
    const std::string_view stored(block_next_, s.size());
    block_next_ += s.size();
    block_left_ -= s.size();
    return stored;
  }

  std::vector<std::string_view> names_;  // Index -> text (in blocks_).
  std::unordered_map<std::string_view, uint32_t> index_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_next_ = nullptr;
  size_t block_left_ = 0;
  size_t next_block_ = 256;
};

// Inference state of one feature column (training mode).
struct ColumnState {
  bool numeric = true;
  // First data row (0-based) whose cell was text; rows before it were read as numbers.
  size_t switch_row = 0;
  Dictionary categories;
  // First non-finite number, reported only if the column ends up numeric.
  int64_t nonfinite_line = 0;
  int64_t nonfinite_column = 0;
  std::string nonfinite_text;
};

constexpr int32_t kIgnoredSlot = -1;
constexpr int32_t kTargetSlot = -2;

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

Status LimitError(const char* what, size_t limit, const CsvField& f) {
  return Status::Error(StatusCode::kLimitExceeded,
                       std::string("more than ") + std::to_string(limit) + " " + what, f.line,
                       f.column);
}

class CsvReader {
 public:
  CsvReader(std::string_view text, const CsvOptions& options, char delimiter)
      : text_(text), options_(options), delimiter_(delimiter), tok_(text, delimiter) {}

  Result<Dataset> Read();

 private:
  Status ReadHeader();
  Status PlanTraining();
  Status PlanSchema();
  Status ReadRows();
  Status FeatureCell(const CsvField& f, int32_t slot, float* out);
  Status SchemaFeatureCell(const CsvField& f, int32_t slot, float* out);
  Status LabelCell(const CsvField& f, int32_t* out);
  Status Finalize();
  Status ReplayPrefixes();

  std::string_view text_;
  const CsvOptions& options_;
  char delimiter_;
  CsvTokenizer tok_;
  int64_t header_line_ = 1;
  std::vector<std::string> header_;
  std::vector<int32_t> slots_;  // Header column -> feature index, kTargetSlot or kIgnoredSlot.
  std::string target_name_;
  Schema schema_;
  size_t data_pos_ = 0;
  int64_t data_line_ = 1;
  size_t rows_ = 0;
  std::vector<float> row_major_;  // rows_ x features, row-major while reading.
  std::vector<int32_t> labels_;
  bool has_labels_ = false;
  // Training mode.
  std::vector<ColumnState> columns_;
  Dictionary classes_;
  // Schema mode: category -> index per schema feature, class name -> index.
  std::vector<std::unordered_map<std::string_view, int32_t>> schema_categories_;
  std::unordered_map<std::string_view, int32_t> schema_classes_;
};

Result<Dataset> CsvReader::Read() {
  Status s = ReadHeader();
  if (!s.ok()) return s;
  s = options_.schema != nullptr ? PlanSchema() : PlanTraining();
  if (!s.ok()) return s;
  s = ReadRows();
  if (!s.ok()) return s;
  if (options_.schema == nullptr) {
    s = Finalize();
    if (!s.ok()) return s;
  }
  const size_t features = schema_.features.size();
  std::vector<float> column_major(rows_ * features);
  for (size_t r = 0; r < rows_; ++r) {
    const float* src = row_major_.data() + r * features;
    for (size_t f = 0; f < features; ++f) column_major[f * rows_ + r] = src[f];
  }
  std::vector<float>().swap(row_major_);
  return Dataset::Create(std::move(schema_), rows_, std::move(column_major),
                         has_labels_ ? std::move(labels_) : std::vector<int32_t>());
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

Status CsvReader::PlanTraining() {
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
  const size_t features = header_.size() - (target >= 0 ? 1 : 0);
  if (features > DatasetLimits::kMaxFeatures) {
    return Status::Error(StatusCode::kLimitExceeded,
                         std::to_string(features) + " feature columns exceed the limit of " +
                             std::to_string(DatasetLimits::kMaxFeatures),
                         header_line_);
  }
  schema_.features.reserve(features);
  for (size_t c = 0; c < header_.size(); ++c) {
    if (static_cast<int64_t>(c) == target) {
      slots_[c] = kTargetSlot;
      target_name_ = header_[c];
      continue;
    }
    slots_[c] = static_cast<int32_t>(schema_.features.size());
    FeatureInfo info;
    info.name = header_[c];
    schema_.features.push_back(std::move(info));
  }
  schema_.target_name = target_name_;
  columns_.resize(features);
  has_labels_ = target >= 0;
  return Status::Ok();
}

Status CsvReader::PlanSchema() {
  const Schema& model = *options_.schema;
  std::unordered_map<std::string_view, size_t> by_name;
  by_name.reserve(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) by_name.emplace(header_[c], c);
  for (size_t f = 0; f < model.features.size(); ++f) {
    const auto it = by_name.find(model.features[f].name);
    if (it == by_name.end()) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "the model needs column " + QuoteForMessage(model.features[f].name) +
                               ", which the CSV lacks; the columns are " + ListColumns(header_),
                           header_line_);
    }
    slots_[it->second] = static_cast<int32_t>(f);
  }
  if (options_.has_target) {
    const std::string& name = options_.target.empty() ? model.target_name : options_.target;
    const auto it = name.empty() ? by_name.end() : by_name.find(name);
    if (it != by_name.end() && slots_[it->second] == kIgnoredSlot) {
      slots_[it->second] = kTargetSlot;
      has_labels_ = true;
    } else if (!options_.target.empty() && it == by_name.end()) {
      return Status::Error(StatusCode::kTargetNotFound,
                           "no column named " + QuoteForMessage(options_.target) +
                               "; the columns are " + ListColumns(header_),
                           header_line_);
    }
  }
  schema_ = model;
  schema_categories_.resize(model.features.size());
  for (size_t f = 0; f < model.features.size(); ++f) {
    const std::vector<std::string>& cats = schema_.features[f].categories;
    for (size_t k = 0; k < cats.size(); ++k) {
      schema_categories_[f].emplace(cats[k], static_cast<int32_t>(k));
    }
  }
  for (size_t k = 0; k < schema_.class_names.size(); ++k) {
    schema_classes_.emplace(schema_.class_names[k], static_cast<int32_t>(k));
  }
  return Status::Ok();
}

Status CsvReader::ReadRows() {
  data_pos_ = tok_.pos();
  data_line_ = tok_.line();
  const size_t features = schema_.features.size();
  const size_t width = header_.size();
  const bool schema_mode = options_.schema != nullptr;
  CsvField f;
  while (tok_.StartRecord()) {
    if (rows_ + 1 > DatasetLimits::kMaxRows ||
        (features != 0 && rows_ + 1 > DatasetLimits::kMaxCells / features)) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "the data exceeds " + std::to_string(DatasetLimits::kMaxRows) +
                               " rows or " + std::to_string(DatasetLimits::kMaxCells) + " cells",
                           tok_.record_line());
    }
    const int64_t record_line = tok_.record_line();
    row_major_.resize(row_major_.size() + features, kMissing);
    float* row = row_major_.data() + rows_ * features;
    int32_t label = -1;
    size_t count = 0;
    bool last = false;
    while (!last) {
      Status s = tok_.Next(&f, &last);
      if (!s.ok()) return s;
      if (count < width) {
        const int32_t slot = slots_[count];
        if (slot >= 0) {
          s = schema_mode ? SchemaFeatureCell(f, slot, row + slot)
                          : FeatureCell(f, slot, row + slot);
        } else if (slot == kTargetSlot) {
          s = LabelCell(f, &label);
        }
        if (!s.ok()) return s;
      }
      ++count;
    }
    if (count != width) {
      return Status::Error(StatusCode::kCsvRaggedRow,
                           "row has " + std::to_string(count) + " field" + (count == 1 ? "" : "s") +
                               ", header has " + std::to_string(width),
                           record_line, static_cast<int64_t>(std::min(count, width)) + 1);
    }
    if (has_labels_) labels_.push_back(label);
    ++rows_;
  }
  if (rows_ == 0) {
    return Status::Error(StatusCode::kCsvNoRows, "the CSV has a header row but no data rows");
  }
  return Status::Ok();
}

Status CsvReader::FeatureCell(const CsvField& f, int32_t slot, float* out) {
  if (IsMissingCell(f)) return Status::Ok();
  ColumnState& col = columns_[slot];
  if (col.numeric) {
    const NumberKind kind = ParseCsvNumber(f.value, out, options_.decimal);
    if (kind == NumberKind::kNumber) return Status::Ok();
    if (kind == NumberKind::kNonFinite) {
      if (col.nonfinite_line == 0) {
        col.nonfinite_line = f.line;
        col.nonfinite_column = f.column;
        col.nonfinite_text = std::string(f.value);
      }
      return Status::Ok();
    }
    col.numeric = false;
    col.switch_row = rows_;
  }
  const int64_t id = col.categories.Intern(f.value, DatasetLimits::kMaxCategories);
  if (id == Dictionary::kFull)
    return LimitError("distinct values in a column", DatasetLimits::kMaxCategories, f);
  *out = static_cast<float>(id);
  return Status::Ok();
}

Status CsvReader::SchemaFeatureCell(const CsvField& f, int32_t slot, float* out) {
  if (IsMissingCell(f)) return Status::Ok();
  const FeatureInfo& info = schema_.features[slot];
  if (info.type == FeatureType::kCategorical) {
    const auto it = schema_categories_[slot].find(f.value);
    if (it != schema_categories_[slot].end()) *out = static_cast<float>(it->second);
    return Status::Ok();
  }
  const NumberKind kind = ParseCsvNumber(f.value, out, options_.decimal);
  if (kind == NumberKind::kNonFinite) {
    return Status::Error(StatusCode::kNonFiniteValue,
                         QuoteForMessage(f.value) + " in column " + QuoteForMessage(info.name) +
                             " is infinite or beyond float's range (magnitude at most 3.4028235e38); write "
                             "missing values as empty, ? or NA",
                         f.line, f.column);
  }
  if (kind == NumberKind::kText) {
    return Status::Error(
        StatusCode::kColumnMismatch,
        "column " + QuoteForMessage(info.name) + " is numeric in the model, but this cell " +
            "holds text " + QuoteForMessage(f.value),
        f.line, f.column);
  }
  return Status::Ok();
}

Status CsvReader::LabelCell(const CsvField& f, int32_t* out) {
  if (IsMissingCell(f)) {
    if (options_.schema != nullptr) return Status::Ok();  // Label unknown (-1).
    return Status::Error(
        StatusCode::kMissingLabel,
        "the row has no class label in target column " + QuoteForMessage(target_name_), f.line,
        f.column);
  }
  if (options_.schema != nullptr) {
    const auto it = schema_classes_.find(f.value);
    if (it == schema_classes_.end()) {
      return Status::Error(StatusCode::kUnknownClass,
                           "label " + QuoteForMessage(f.value) + " is not one of the model's " +
                               std::to_string(schema_.class_names.size()) + " classes",
                           f.line, f.column);
    }
    *out = it->second;
    return Status::Ok();
  }
  const int64_t id = classes_.Intern(f.value, DatasetLimits::kMaxClasses);
  if (id == Dictionary::kFull)
    return LimitError("distinct class labels", DatasetLimits::kMaxClasses, f);
  *out = static_cast<int32_t>(id);
  return Status::Ok();
}

// Columns that turned categorical after some rows of numbers: read those rows again to give
// their cells category indices, keeping first-seen order over the whole column.
Status CsvReader::ReplayPrefixes() {
  const size_t features = schema_.features.size();
  size_t replay_rows = 0;
  for (const ColumnState& col : columns_) {
    if (!col.numeric) replay_rows = std::max(replay_rows, col.switch_row);
  }
  if (replay_rows == 0) return Status::Ok();
  std::vector<Dictionary> prefix(features);
  CsvTokenizer tok(text_, delimiter_);
  tok.Seek(data_pos_, data_line_);
  CsvField f;
  for (size_t r = 0; r < replay_rows && tok.StartRecord(); ++r) {
    bool last = false;
    for (size_t c = 0; !last; ++c) {
      Status s = tok.Next(&f, &last);
      if (!s.ok()) return Status::Error(StatusCode::kInternal, "replay: " + s.ToString());
      const int32_t slot = c < slots_.size() ? slots_[c] : kIgnoredSlot;
      if (slot < 0 || columns_[slot].numeric || r >= columns_[slot].switch_row) continue;
      if (IsMissingCell(f)) continue;
      const int64_t id = prefix[slot].Intern(f.value, DatasetLimits::kMaxCategories);
      if (id == Dictionary::kFull)
        return LimitError("distinct values in a column", DatasetLimits::kMaxCategories, f);
      row_major_[r * features + slot] = static_cast<float>(id);
    }
  }
  for (size_t slot = 0; slot < features; ++slot) {
    ColumnState& col = columns_[slot];
    if (col.numeric || col.switch_row == 0) continue;
    Dictionary& merged = prefix[slot];
    std::vector<float> remap(col.categories.size());
    for (size_t k = 0; k < col.categories.size(); ++k) {
      const int64_t id = merged.Intern(col.categories.name(k), DatasetLimits::kMaxCategories);
      if (id == Dictionary::kFull) {
        return Status::Error(StatusCode::kLimitExceeded,
                             "column " + QuoteForMessage(schema_.features[slot].name) +
                                 " has more than " + std::to_string(DatasetLimits::kMaxCategories) +
                                 " distinct values");
      }
      remap[k] = static_cast<float>(id);
    }
    for (size_t r = col.switch_row; r < rows_; ++r) {
      float& v = row_major_[r * features + slot];
      if (!std::isnan(v)) v = remap[static_cast<size_t>(v)];
    }
    col.categories = std::move(merged);
  }
  return Status::Ok();
}

Status CsvReader::Finalize() {
  // The first non-finite number (in file order) among columns that stayed numeric.
  const ColumnState* worst = nullptr;
  size_t worst_slot = 0;
  for (size_t slot = 0; slot < columns_.size(); ++slot) {
    const ColumnState& col = columns_[slot];
    if (!col.numeric || col.nonfinite_line == 0) continue;
    if (worst == nullptr || col.nonfinite_line < worst->nonfinite_line ||
        (col.nonfinite_line == worst->nonfinite_line &&
         col.nonfinite_column < worst->nonfinite_column)) {
      worst = &col;
      worst_slot = slot;
    }
  }
  if (worst != nullptr) {
    return Status::Error(StatusCode::kNonFiniteValue,
                         QuoteForMessage(worst->nonfinite_text) + " in numeric column " +
                             QuoteForMessage(schema_.features[worst_slot].name) +
                             " is infinite or beyond float's range (magnitude at most 3.4028235e38); write "
                             "missing values as empty, ? or NA",
                         worst->nonfinite_line, worst->nonfinite_column);
  }
  Status s = ReplayPrefixes();
  if (!s.ok()) return s;
  for (size_t slot = 0; slot < columns_.size(); ++slot) {
    FeatureInfo& info = schema_.features[slot];
    if (columns_[slot].numeric) continue;
    info.type = FeatureType::kCategorical;
    info.categories = columns_[slot].categories.Names();
  }
  schema_.class_names = classes_.Names();
  if (options_.class_order == ClassOrder::kSorted && !schema_.class_names.empty()) {
    std::vector<int32_t> order(schema_.class_names.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int32_t>(k);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      return schema_.class_names[a] < schema_.class_names[b];
    });
    std::vector<int32_t> rank(order.size());
    std::vector<std::string> sorted(order.size());
    for (size_t k = 0; k < order.size(); ++k) {
      rank[order[k]] = static_cast<int32_t>(k);
      sorted[k] = std::move(schema_.class_names[order[k]]);
    }
    schema_.class_names = std::move(sorted);
    for (int32_t& label : labels_) label = rank[label];
  }
  if (has_labels_ && !options_.target_categorical) {
    return CheckClassTarget(schema_.class_names, rows_, target_name_);
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
