// SetFieldRow (a text format's whole record per call) builds exactly what SetFeature and SetLabel
// build cell by cell: the same datasets, the same errors at the same positions.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/random.h"
#include "urnforest/dataset_builder.h"

namespace urnforest {
namespace {

// Field texts that exercise every path: plain numbers, exponents, blanks around numbers, long
// digit strings, non-finite numbers, text, and blank fields.
const char* const kTexts[] = {"1.5",   "-0.25", "+3",    "007",      ".5",
                              "2.",    "1e3",   "-1.5E-2", " 4.25",   "6\t",
                              "  ",    "",      "inf",   "-1e39",    "abc",
                              "nan",   "1.2.3", "-",     "0.000",    "-0",
                              "12345678901234567890",    "16777217", "0.1",
                              "x y"};

struct Record {
  std::vector<std::string> texts;
  std::vector<bool> missing;
  std::vector<int64_t> lines;
};

std::vector<Record> RandomRecords(internal::Rng* rng, size_t rows, size_t width, uint32_t text_odds) {
  std::vector<Record> records(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < width; ++c) {
      // Mostly plain numbers, so that columns often stay numeric for a while.
      const uint32_t pick = rng->Below(text_odds);
      const bool plain = pick >= 24;
      records[r].texts.push_back(plain ? std::to_string(rng->Below(100000)) + "." +
                                             std::to_string(rng->Below(1000))
                                       : kTexts[pick]);
      records[r].missing.push_back(rng->Below(20) == 0);
      records[r].lines.push_back(static_cast<int64_t>(2 + r) + (c == 2 ? 1 : 0));
    }
  }
  return records;
}

struct Outcome {
  Status status;
  Dataset data;
};

Outcome Build(const std::vector<ColumnSpec>& specs, const DatasetBuilderOptions& options,
              const std::vector<int32_t>& slots, const std::vector<Record>& records, bool whole_rows) {
  Result<DatasetBuilder> created = DatasetBuilder::Create(specs, options);
  REQUIRE(created.ok());
  DatasetBuilder& b = created.value();
  const auto cell = [&](size_t r, size_t c) {
    Cell out;
    out.kind = records[r].missing[c] ? CellKind::kMissing : CellKind::kField;
    out.text = records[r].texts[c];
    out.line = records[r].lines[c];
    out.column = static_cast<int64_t>(c) + 1;
    return out;
  };
  for (size_t r = 0; r < records.size(); ++r) {
    Status s = b.StartRow(records[r].lines[0]);
    if (!s.ok()) return {s, {}};
    if (whole_rows) {
      std::vector<FieldRef> fields;
      for (size_t c = 0; c < slots.size(); ++c) {
        fields.push_back(FieldRef{records[r].texts[c], records[r].lines[c], records[r].missing[c]});
      }
      s = b.SetFieldRow(fields.data(), slots.data(), fields.size());
    } else {
      for (size_t c = 0; c < slots.size() && s.ok(); ++c) {
        if (slots[c] >= 0) s = b.SetFeature(static_cast<size_t>(slots[c]), cell(r, c));
        if (slots[c] == kFieldIsLabel) s = b.SetLabel(cell(r, c));
      }
    }
    if (!s.ok()) return {s, {}};
  }
  Result<Dataset> data = b.Finish([&](size_t rows) {
    for (size_t r = 0; r < rows; ++r) {
      for (size_t c = 0; c < slots.size(); ++c) {
        if (slots[c] < 0) continue;
        Status s = b.ReplayCell(r, static_cast<size_t>(slots[c]), cell(r, c));
        if (!s.ok()) return s;
      }
    }
    return Status::Ok();
  });
  if (!data.ok()) return {data.status(), {}};
  return {Status::Ok(), std::move(data).value()};
}

void RequireSame(const Outcome& a, const Outcome& b) {
  REQUIRE(a.status.code == b.status.code);
  REQUIRE(a.status.message == b.status.message);
  REQUIRE(a.status.line == b.status.line);
  REQUIRE(a.status.column == b.status.column);
  if (!a.status.ok()) return;
  REQUIRE(a.data.schema().class_names == b.data.schema().class_names);
  REQUIRE(a.data.labels() == b.data.labels());
  REQUIRE(a.data.num_rows() == b.data.num_rows());
  REQUIRE(a.data.num_features() == b.data.num_features());
  for (size_t f = 0; f < a.data.num_features(); ++f) {
    REQUIRE(a.data.schema().features[f].type == b.data.schema().features[f].type);
    REQUIRE(a.data.schema().features[f].categories == b.data.schema().features[f].categories);
    REQUIRE(std::memcmp(a.data.column(f), b.data.column(f), a.data.num_rows() * sizeof(float)) == 0);
  }
}

TEST_CASE("SetFieldRow builds the same datasets and errors as SetFeature and SetLabel cell by cell", "[dataset_builder]") {
  internal::Rng rng(20261128);
  // Columns: feature 1, ignored, label, feature 0, feature 2.
  const std::vector<int32_t> slots = {1, kFieldIgnored, kFieldIsLabel, 0, 2};
  int ok = 0, failed = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<ColumnSpec> specs(3);
    for (size_t f = 0; f < specs.size(); ++f) specs[f].name = "f" + std::to_string(f);
    DatasetBuilderOptions options;
    options.has_labels = true;
    options.target_name = "class";
    options.target_categorical = trial % 2 == 0;
    options.missing_label_is_unknown = trial % 3 == 0;
    if (trial % 5 == 1) {  // a model's columns: declared numeric and fixed categories
      specs[0].rule = ColumnRule::kNumeric;
      specs[1].rule = ColumnRule::kCategorical;
      specs[1].fixed_categories = true;
      specs[1].categories = {"abc", "1.5", "x y"};
    }
    const uint32_t text_odds = trial % 4 == 0 ? 30 : 400;  // often numbers only, sometimes text
    const std::vector<Record> records = RandomRecords(&rng, 1 + rng.Below(40), slots.size(), text_odds);
    const Outcome by_cell = Build(specs, options, slots, records, false);
    const Outcome by_row = Build(specs, options, slots, records, true);
    INFO("trial " << trial << ": " << by_cell.status.ToString());
    RequireSame(by_cell, by_row);
    (by_cell.status.ok() ? ok : failed) += 1;
  }
  // Both outcomes occur often enough for the comparison to mean something.
  REQUIRE(ok > 40);
  REQUIRE(failed > 40);
}

}  // namespace
}  // namespace urnforest
