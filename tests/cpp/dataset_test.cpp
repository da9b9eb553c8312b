#include "urnforest/dataset.h"

#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

using namespace urnforest;

namespace {

Schema TwoNumericColumns() {
  Schema schema;
  schema.features = {FeatureInfo{"a", FeatureType::kNumeric, {}},
                     FeatureInfo{"b", FeatureType::kNumeric, {}}};
  schema.class_names = {"no", "yes"};
  return schema;
}

}  // namespace

TEST_CASE("Dataset stores columns and reads back rows in both layouts", "[dataset]") {
  Result<Dataset> d = Dataset::Create(TwoNumericColumns(), 3, {1, 2, 3, 10, 20, NAN}, {0, 1, -1});
  REQUIRE(d.ok());
  REQUIRE(d.value().value(1, 1) == 20);
  REQUIRE(std::isnan(d.value().value(2, 1)));
  REQUIRE(d.value().RowMajor()[2] == 2);
  float row[2];
  d.value().CopyRow(0, row);
  REQUIRE(row[0] == 1);
  REQUIRE(row[1] == 10);
  Dataset picked = d.value().Subset({2, 0, 0});
  REQUIRE(picked.num_rows() == 3);
  REQUIRE(picked.value(1, 0) == 1);
  REQUIRE(picked.labels() == std::vector<int32_t>{-1, 0, 0});
}

TEST_CASE("Dataset::Create rejects wrong shapes, infinities, bad labels and duplicate names", "[dataset]") {
  REQUIRE(Dataset::Create(TwoNumericColumns(), 3, {1, 2, 3}, {}).status().code ==
          StatusCode::kShapeMismatch);
  REQUIRE(Dataset::Create(TwoNumericColumns(), 1, {1, 2}, {0, 1}).status().code ==
          StatusCode::kShapeMismatch);
  REQUIRE(Dataset::Create(TwoNumericColumns(), 1, {INFINITY, 2}, {}).status().code ==
          StatusCode::kNonFiniteValue);
  REQUIRE(Dataset::Create(TwoNumericColumns(), 1, {1, 2}, {2}).status().code ==
          StatusCode::kInvalidArgument);
  Schema duplicate = TwoNumericColumns();
  duplicate.features[1].name = "a";
  Result<Dataset> d = Dataset::Create(duplicate, 1, {1, 2}, {});
  REQUIRE(d.status().code == StatusCode::kInvalidArgument);
  REQUIRE(d.status().message.find("'a'") != std::string::npos);
}

TEST_CASE("Categorical values must be category indices", "[dataset]") {
  Schema schema;
  schema.features = {FeatureInfo{"colour", FeatureType::kCategorical, {"red", "blue"}}};
  REQUIRE(Dataset::Create(schema, 2, {0, 1}, {}).ok());
  REQUIRE(Dataset::Create(schema, 2, {0, NAN}, {}).ok());
  REQUIRE(Dataset::Create(schema, 1, {2}, {}).status().code == StatusCode::kInvalidArgument);
  REQUIRE(Dataset::Create(schema, 1, {0.5f}, {}).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("FromRowMajor names columns and classes by default", "[dataset]") {
  const float x[] = {1, 2, 3, 4, 5, 6};
  const int32_t y[] = {0, 2};
  Result<Dataset> d = Dataset::FromRowMajor(x, 2, 3, y, {}, {});
  REQUIRE(d.ok());
  REQUIRE(d.value().schema().features[2].name == "x2");
  REQUIRE(d.value().schema().class_names == std::vector<std::string>{"0", "1", "2"});
  REQUIRE(d.value().value(1, 0) == 4);
  REQUIRE(Dataset::FromRowMajor(x, 2, 3, y, {"a", "b"}, {}).status().code ==
          StatusCode::kShapeMismatch);
  REQUIRE(Dataset::FromRowMajor(nullptr, 2, 3, nullptr, {}, {}).status().code ==
          StatusCode::kInvalidArgument);
}
