#include "urnforest/dataset_builder.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

using urnforest::Cell;
using urnforest::CellKind;
using urnforest::ClassOrder;
using urnforest::ClassSource;
using urnforest::ColumnRule;
using urnforest::ColumnSpec;
using urnforest::Dataset;
using urnforest::DatasetBuilder;
using urnforest::DatasetBuilderOptions;
using urnforest::DatasetLimits;
using urnforest::FeatureType;
using urnforest::Result;
using urnforest::Status;
using urnforest::StatusCode;

namespace {

Cell Field(const char* text) { return Cell{CellKind::kField, 0, text}; }
Cell Text(const char* text) { return Cell{CellKind::kText, 0, text}; }
Cell Number(double v, const char* name = "") { return Cell{CellKind::kNumber, v, name}; }
Cell Missing() { return Cell{}; }

std::vector<ColumnSpec> Columns(std::vector<std::string> names, ColumnRule rule = ColumnRule::kInfer) {
  std::vector<ColumnSpec> specs;
  for (std::string& name : names) specs.push_back(ColumnSpec{std::move(name), rule, false, {}});
  return specs;
}

DatasetBuilder Make(std::vector<ColumnSpec> specs, DatasetBuilderOptions options = {}) {
  Result<DatasetBuilder> b = DatasetBuilder::Create(std::move(specs), std::move(options));
  REQUIRE(b.ok());
  return std::move(b).value();
}

// One column of cells, one label per row (none when `labels` is empty).
Result<Dataset> BuildColumn(const std::vector<Cell>& cells, const std::vector<Cell>& labels = {},
                            DatasetBuilderOptions options = {}) {
  options.has_labels = !labels.empty();
  DatasetBuilder b = Make(Columns({"a"}), options);
  for (size_t r = 0; r < cells.size(); ++r) {
    Status s = b.StartRow();
    if (s.ok()) s = b.SetFeature(0, cells[r]);
    if (s.ok() && !labels.empty()) s = b.SetLabel(labels[r]);
    if (!s.ok()) return s;
  }
  return b.Finish([&](size_t rows) {
    for (size_t r = 0; r < rows; ++r) {
      Status s = b.ReplayCell(r, 0, cells[r]);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  });
}

std::vector<Cell> Labels(std::vector<const char*> names, CellKind kind = CellKind::kField) {
  std::vector<Cell> cells;
  for (const char* n : names) cells.push_back(Cell{kind, 0, n});
  return cells;
}

}  // namespace

TEST_CASE("A column of fields is numeric iff every non-missing field reads as a number, surrounding blanks ignored", "[dataset_builder]") {
  Result<Dataset> d = BuildColumn({Field(" 1"), Field("2\t"), Missing(), Field("  "), Field("3e0")});
  REQUIRE(d.ok());
  REQUIRE(d.value().schema().features[0].type == FeatureType::kNumeric);
  CHECK(d.value().value(0, 0) == 1.0f);
  CHECK(d.value().value(1, 0) == 2.0f);
  CHECK(std::isnan(d.value().value(2, 0)));
  CHECK(std::isnan(d.value().value(3, 0)));
  CHECK(d.value().value(4, 0) == 3.0f);
}

TEST_CASE("A column that turns categorical after numbers keeps every cell's text in first-seen order", "[dataset_builder]") {
  Result<Dataset> d = BuildColumn({Field("1.0"), Field("2"), Field("x"), Field("1.0"), Field(" 1")});
  REQUIRE(d.ok());
  const auto& info = d.value().schema().features[0];
  REQUIRE(info.type == FeatureType::kCategorical);
  CHECK(info.categories == std::vector<std::string>{"1.0", "2", "x", " 1"});
  CHECK(d.value().value(3, 0) == 0.0f);
  CHECK(d.value().value(4, 0) == 3.0f);
}

TEST_CASE("Finish without a replay fails with Internal when a column turned categorical after numbers", "[dataset_builder]") {
  DatasetBuilder b = Make(Columns({"a"}));
  REQUIRE(b.StartRow().ok());
  REQUIRE(b.SetFeature(0, Field("1")).ok());
  REQUIRE(b.StartRow().ok());
  REQUIRE(b.SetFeature(0, Field("x")).ok());
  CHECK(b.Finish().status().code == StatusCode::kInternal);
}

TEST_CASE("A column whose text follows only missing cells needs no replay", "[dataset_builder]") {
  DatasetBuilder b = Make(Columns({"a"}));
  REQUIRE(b.StartRow().ok());
  REQUIRE(b.StartRow().ok());
  REQUIRE(b.SetFeature(0, Text("x")).ok());
  Result<Dataset> d = b.Finish();
  REQUIRE(d.ok());
  CHECK(d.value().schema().features[0].categories == std::vector<std::string>{"x"});
}

TEST_CASE("Typed numbers and typed strings in one column are InvalidArgument naming both cells", "[dataset_builder]") {
  Result<Dataset> d = BuildColumn({Number(1), Missing(), Text("x")});
  REQUIRE_FALSE(d.ok());
  CHECK(d.status().code == StatusCode::kInvalidArgument);
  CHECK(d.status().message == "column 'a' mixes numbers and strings: row 0, column 'a' is a number, row 2, column 'a' is text 'x'");
}

TEST_CASE("A non-finite field fails only in a column that stays numeric", "[dataset_builder]") {
  CHECK(BuildColumn({Field("1"), Field("inf")}).status().code == StatusCode::kNonFiniteValue);
  Result<Dataset> d = BuildColumn({Field("1"), Field("inf"), Field("x")});
  REQUIRE(d.ok());
  CHECK(d.value().schema().features[0].categories == std::vector<std::string>{"1", "inf", "x"});
  CHECK(BuildColumn({Number(1e39)}).status().code == StatusCode::kNonFiniteValue);
}

TEST_CASE("Discovered class names are byte-wise sorted by default, first-seen on request, numbers are named by their text", "[dataset_builder]") {
  const std::vector<Cell> cells(4, Field("0"));
  Result<Dataset> sorted = BuildColumn(cells, {Number(2, "2"), Number(10, "10"), Number(1, "1"), Number(2, "2")});
  REQUIRE(sorted.ok());
  CHECK(sorted.value().schema().class_names == std::vector<std::string>{"1", "10", "2"});
  CHECK(sorted.value().labels() == std::vector<int32_t>{2, 1, 0, 2});
  DatasetBuilderOptions first;
  first.class_order = ClassOrder::kFirstSeen;
  Result<Dataset> seen = BuildColumn(cells, Labels({"2", "10", "1", "2"}), first);
  REQUIRE(seen.ok());
  CHECK(seen.value().schema().class_names == std::vector<std::string>{"2", "10", "1"});
  CHECK(seen.value().labels() == std::vector<int32_t>{0, 1, 2, 0});
}

TEST_CASE("Labels mixing numbers and strings, or names and indices, are InvalidArgument", "[dataset_builder]") {
  CHECK(BuildColumn({Field("0"), Field("0")}, {Number(1, "1"), Text("a")}).status().code == StatusCode::kInvalidArgument);
  DatasetBuilderOptions options;
  options.has_labels = true;
  DatasetBuilder b = Make(Columns({"a"}), options);
  REQUIRE(b.StartRow().ok());
  REQUIRE(b.SetLabelIndex(0).ok());
  REQUIRE(b.StartRow().ok());
  CHECK(b.SetLabel(Text("a")).code == StatusCode::kInvalidArgument);
}

TEST_CASE("Class indices name the classes 0 to the largest index, or index given class names", "[dataset_builder]") {
  DatasetBuilderOptions options;
  options.has_labels = true;
  DatasetBuilder b = Make(Columns({"a"}), options);
  for (int32_t label : {2, -1, 0}) {
    REQUIRE(b.StartRow().ok());
    REQUIRE(b.SetLabelIndex(label).ok());
  }
  Result<Dataset> d = b.Finish();
  REQUIRE(d.ok());
  CHECK(d.value().schema().class_names == std::vector<std::string>{"0", "1", "2"});
  CHECK(d.value().labels() == std::vector<int32_t>{2, -1, 0});
  options.class_source = ClassSource::kGiven;
  options.class_names = {"p", "q"};
  DatasetBuilder given = Make(Columns({"a"}), options);
  REQUIRE(given.StartRow().ok());
  CHECK(given.SetLabelIndex(2).code == StatusCode::kInvalidArgument);
}

TEST_CASE("A label outside given or model classes is UnknownClass", "[dataset_builder]") {
  DatasetBuilderOptions options;
  options.class_source = ClassSource::kGiven;
  options.class_names = {"a", "b"};
  Result<Dataset> d = BuildColumn({Field("0")}, {Text("c")}, options);
  CHECK(d.status().code == StatusCode::kUnknownClass);
  CHECK(d.status().message == "row 0's label: label 'c' is not one of the 2 class names given");
  options.class_source = ClassSource::kModel;
  CHECK(BuildColumn({Field("0")}, {Text("c")}, options).status().message ==
        "row 0's label: label 'c' is not one of the model's 2 classes");
}

TEST_CASE("A missing label is MissingLabel unless unknown labels are allowed", "[dataset_builder]") {
  DatasetBuilderOptions options;
  options.target_name = "y";
  CHECK(BuildColumn({Field("0"), Field("1")}, {Field("a"), Field(" ")}, options).status().code ==
        StatusCode::kMissingLabel);
  options.missing_label_is_unknown = true;
  Result<Dataset> d = BuildColumn({Field("0"), Field("1")}, {Field("a"), Missing()}, options);
  REQUIRE(d.ok());
  CHECK(d.value().labels() == std::vector<int32_t>{0, -1});
}

TEST_CASE("The numeric-target rule applies to number and field labels, not to typed text or a model's classes", "[dataset_builder]") {
  std::vector<std::string> names;
  for (int i = 0; i < 60; ++i) names.push_back(std::to_string(i) + ".5");
  const std::vector<Cell> cells(60, Field("0"));
  std::vector<Cell> fields, numbers, texts;
  for (const std::string& n : names) {
    fields.push_back(Cell{CellKind::kField, 0, n});
    numbers.push_back(Cell{CellKind::kNumber, 0, n});
    texts.push_back(Cell{CellKind::kText, 0, n});
  }
  CHECK(BuildColumn(cells, fields).status().code == StatusCode::kNumericTarget);
  CHECK(BuildColumn(cells, numbers).status().code == StatusCode::kNumericTarget);
  CHECK(BuildColumn(cells, texts).ok());
  DatasetBuilderOptions categorical;
  categorical.target_categorical = true;
  CHECK(BuildColumn(cells, fields, categorical).ok());
  DatasetBuilderOptions model;
  model.class_source = ClassSource::kModel;
  model.class_names = names;
  CHECK(BuildColumn(cells, fields, model).ok());
}

TEST_CASE("Declared columns: text in a numeric one is ColumnMismatch, fixed categories map unseen values to missing", "[dataset_builder]") {
  Result<Dataset> numeric = [] {
    DatasetBuilder b = Make(Columns({"a"}, ColumnRule::kNumeric));
    REQUIRE(b.StartRow().ok());
    Status s = b.SetFeature(0, Field("x"));
    REQUIRE_FALSE(s.ok());
    return Result<Dataset>(s);
  }();
  CHECK(numeric.status().code == StatusCode::kColumnMismatch);
  std::vector<ColumnSpec> specs{ColumnSpec{"c", ColumnRule::kCategorical, true, {"red", "blue"}}};
  DatasetBuilder b = Make(std::move(specs));
  for (const char* v : {"blue", "green", "red"}) {
    REQUIRE(b.StartRow().ok());
    REQUIRE(b.SetFeature(0, Field(v)).ok());
  }
  Result<Dataset> d = b.Finish();
  REQUIRE(d.ok());
  CHECK(d.value().value(0, 0) == 1.0f);
  CHECK(std::isnan(d.value().value(1, 0)));
  CHECK(d.value().value(2, 0) == 0.0f);
  CHECK(d.value().schema().features[0].categories == std::vector<std::string>{"red", "blue"});
}

TEST_CASE("More feature columns than DatasetLimits allows is LimitExceeded at the given line", "[dataset_builder]") {
  std::vector<ColumnSpec> specs(DatasetLimits::kMaxFeatures + 1);
  Result<DatasetBuilder> b = DatasetBuilder::Create(std::move(specs), {}, 3);
  REQUIRE_FALSE(b.ok());
  CHECK(b.status().code == StatusCode::kLimitExceeded);
  CHECK(b.status().line == 3);
}
