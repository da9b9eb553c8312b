#include "urnforest/csv_reader.h"

#include <catch2/catch.hpp>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/dataset.h"
#include "urnforest/status.h"

using urnforest::ClassOrder;
using urnforest::CsvOptions;
using urnforest::Dataset;
using urnforest::FeatureType;
using urnforest::ReadCsv;
using urnforest::Result;
using urnforest::Schema;
using urnforest::StatusCode;
using urnforest::test::MustRead;
using urnforest::test::RequireCsvError;

namespace {

std::string MessageOf(const std::string& text, const CsvOptions& options = {}) {
  Result<Dataset> result = ReadCsv(text, options);
  REQUIRE_FALSE(result.ok());
  return result.status().message;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> Categories(const Dataset& d, size_t feature) {
  return d.schema().features[feature].categories;
}

}  // namespace

TEST_CASE("ReadCsv reads numeric features and a text target with sorted class names", "[csv]") {
  Dataset d = MustRead("a,b,class\n1.5,2,yes\n-3,4e2,no\n0,.25,yes\n");
  REQUIRE(d.num_rows() == 3);
  REQUIRE(d.num_features() == 2);
  REQUIRE(d.schema().features[0].name == "a");
  REQUIRE(d.schema().features[1].name == "b");
  REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  REQUIRE(d.schema().features[1].type == FeatureType::kNumeric);
  REQUIRE(d.schema().target_name == "class");
  REQUIRE(d.schema().class_names == std::vector<std::string>{"no", "yes"});
  REQUIRE(d.labels() == std::vector<int32_t>{1, 0, 1});
  REQUIRE(d.value(0, 0) == 1.5f);
  REQUIRE(d.value(1, 0) == -3.0f);
  REQUIRE(d.value(1, 1) == 400.0f);
  REQUIRE(d.value(2, 1) == 0.25f);
}

TEST_CASE("ReadCsv follows RFC 4180 quoting", "[csv][syntax]") {
  SECTION("quoted fields hold commas, doubled quotes and line breaks") {
    Dataset d = MustRead("t,y\n\"a,b\",1\n\"say \"\"hi\"\"\",2\n\"two\nlines\",1\n\"\"\"\",2\n");
    REQUIRE(Categories(d, 0) == std::vector<std::string>{"a,b", "say \"hi\"", "two\nlines", "\""});
    REQUIRE(d.value(3, 0) == 3.0f);
  }
  SECTION("a quoted line break keeps its CRLF bytes") {
    Dataset d = MustRead("t,y\r\n\"x\r\ny\",1\r\n");
    REQUIRE(Categories(d, 0) == std::vector<std::string>{"x\r\ny"});
  }
  SECTION("quoted header names are unquoted") {
    Dataset d = MustRead("\"first, name\",\"y\"\n1,a\n");
    REQUIRE(d.schema().features[0].name == "first, name");
    REQUIRE(d.schema().target_name == "y");
  }
}

TEST_CASE("ReadCsv accepts LF, CRLF and lone CR line ends", "[csv][syntax]") {
  for (const char* text :
       {"a,y\n1,p\n2,q\n", "a,y\r\n1,p\r\n2,q\r\n", "a,y\r1,p\r2,q\r", "a,y\r\n1,p\n2,q"}) {
    Dataset d = MustRead(text);
    REQUIRE(d.num_rows() == 2);
    REQUIRE(d.value(1, 0) == 2.0f);
    REQUIRE(d.schema().class_names == std::vector<std::string>{"p", "q"});
  }
}

TEST_CASE("ReadCsv skips a UTF-8 byte-order mark", "[csv][syntax]") {
  Dataset d = MustRead(
      "\xEF\xBB\xBF"
      "a,y\n1,p\n");
  REQUIRE(d.schema().features[0].name == "a");
}

TEST_CASE("ReadCsv accepts a missing or repeated trailing newline", "[csv][syntax]") {
  REQUIRE(MustRead("a,y\n1,p").num_rows() == 1);
  REQUIRE(MustRead("a,y\n1,p\n").num_rows() == 1);
  REQUIRE(MustRead("a,y\n1,p\n\n\r\n  \n").num_rows() == 1);
}

TEST_CASE("ReadCsv skips blank lines anywhere but counts them in line numbers", "[csv][syntax]") {
  Dataset d = MustRead("\n\na,y\n\n1,p\n   \n\t\n2,q\n");
  REQUIRE(d.num_rows() == 2);
  REQUIRE(d.value(1, 0) == 2.0f);
  RequireCsvError("a,y\n\n1,p\n\n1,2,3\n", StatusCode::kCsvRaggedRow, 5, 3);
}

TEST_CASE("ReadCsv trims spaces and tabs around unquoted cells but not inside quotes",
          "[csv][syntax]") {
  Dataset d = MustRead(" a , y \n 1.5\t,  p \n\t2 , \" q \" \n");
  REQUIRE(d.schema().features[0].name == "a");
  REQUIRE(d.schema().target_name == "y");
  REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  REQUIRE(d.value(0, 0) == 1.5f);
  REQUIRE(d.schema().class_names == std::vector<std::string>{" q ", "p"});
}

TEST_CASE("ReadCsv treats empty cells, ? and NA as missing", "[csv][types]") {
  Dataset d = MustRead("a,b,y\n,x,p\n?,?,p\nNA,NA,p\n\"\",\"\",p\n  ,y,p\n4,x,p\n");
  REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  REQUIRE(d.schema().features[1].type == FeatureType::kCategorical);
  for (size_t r = 0; r < 5; ++r) REQUIRE(std::isnan(d.value(r, 0)));
  REQUIRE(d.value(5, 0) == 4.0f);
  REQUIRE(Categories(d, 1) == std::vector<std::string>{"x", "y"});
  REQUIRE(std::isnan(d.value(1, 1)));
  REQUIRE(std::isnan(d.value(2, 1)));
  REQUIRE(std::isnan(d.value(3, 1)));
}

TEST_CASE("ReadCsv treats quoted NA and ? as text", "[csv][types]") {
  Dataset d = MustRead("a,y\n\"NA\",p\n\"?\",p\n");
  REQUIRE(d.schema().features[0].type == FeatureType::kCategorical);
  REQUIRE(Categories(d, 0) == std::vector<std::string>{"NA", "?"});
}

TEST_CASE("ReadCsv makes a column numeric iff every cell is a number, quoted or not",
          "[csv][types]") {
  SECTION("quoted numbers are numbers: the values decide, not the quoting") {
    Dataset d = MustRead("a,b,y\n\"1\",1,p\n\"0\",0,q\n\"1.5\",2,p\n");
    REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
    REQUIRE(d.value(0, 0) == 1.0f);
    REQUIRE(d.value(2, 0) == 1.5f);
    REQUIRE(d.schema().features[1].type == FeatureType::kNumeric);
  }
  SECTION("a file with every cell quoted has numeric columns and text classes") {
    Dataset d = MustRead(
        "\"sepal\",\"petal\",\"species\"\n\"5.1\",\"3.5\",\"setosa\"\n\"6.2\",\"2.9\",\"virginica\"\n");
    REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
    REQUIRE(d.schema().features[1].type == FeatureType::kNumeric);
    REQUIRE(d.value(1, 1) == 2.9f);
    REQUIRE(d.schema().class_names == std::vector<std::string>{"setosa", "virginica"});
  }
  SECTION("nan is text, not a missing marker") {
    Dataset d = MustRead("a,y\n1,p\nnan,p\nNaN,p\n");
    REQUIRE(d.schema().features[0].type == FeatureType::kCategorical);
    REQUIRE(Categories(d, 0) == std::vector<std::string>{"1", "nan", "NaN"});
  }
  SECTION("a late text cell makes the column categorical in first-seen order of all cells") {
    Dataset d = MustRead("a,y\n2,p\n1.0,p\n,p\n2,p\nx,p\n1,p\n1.0,p\ninf,p\n");
    REQUIRE(d.schema().features[0].type == FeatureType::kCategorical);
    REQUIRE(Categories(d, 0) == std::vector<std::string>{"2", "1.0", "x", "1", "inf"});
    std::vector<float> expected = {0, 1, NAN, 0, 2, 3, 1, 4};
    for (size_t r = 0; r < expected.size(); ++r) {
      if (std::isnan(expected[r])) {
        REQUIRE(std::isnan(d.value(r, 0)));
      } else {
        REQUIRE(d.value(r, 0) == expected[r]);
      }
    }
  }
  SECTION("partial numbers, hex and thousands separators are text") {
    for (const char* cell : {"1e", "1.2.3", "0x10", "1_000", "1 2", "--1", "+-1", "1f", "e5"}) {
      Dataset d = MustRead(std::string("a,y\n3,p\n") + cell + ",p\n");
      INFO(cell);
      REQUIRE(d.schema().features[0].type == FeatureType::kCategorical);
    }
  }
  SECTION("signs, exponents and bare points are numbers") {
    Dataset d = MustRead("a,y\n+1.5,p\n-2E3,p\n.5,p\n7.,p\n-0,p\n1e-50,p\n");
    REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
    REQUIRE(d.value(0, 0) == 1.5f);
    REQUIRE(d.value(1, 0) == -2000.0f);
    REQUIRE(d.value(2, 0) == 0.5f);
    REQUIRE(d.value(3, 0) == 7.0f);
    REQUIRE(d.value(4, 0) == 0.0f);
    REQUIRE(std::signbit(d.value(4, 0)));
    REQUIRE(d.value(5, 0) == 0.0f);
  }
  SECTION("an all-missing column is numeric") {
    Dataset d = MustRead("a,y\n,p\nNA,q\n");
    REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  }
}

TEST_CASE("ReadCsv rejects non-finite numbers in an otherwise numeric column", "[csv][types]") {
  RequireCsvError("a,b,y\n1,2,p\n3,inf,p\n", StatusCode::kNonFiniteValue, 3, 2);
  RequireCsvError("a,b,y\n1,2,p\n3,-Infinity,p\n", StatusCode::kNonFiniteValue, 3, 2);
  RequireCsvError("a,b,y\n1,2,p\n1e39,4,p\n", StatusCode::kNonFiniteValue, 3, 1);
  RequireCsvError("a,b,y\n1,1e400,p\n-1e400,4,p\n", StatusCode::kNonFiniteValue, 2, 2);
  RequireCsvError("a,b,y\n1,2,p\n3,4,p\n+inf,4,p\n", StatusCode::kNonFiniteValue, 4, 1);
  REQUIRE(MessageOf("a,y\n1,p\n1e400,p\n").find("'1e400'") != std::string::npos);
}

TEST_CASE("ReadCsv keeps the float range edges and rounds correctly", "[csv][types]") {
  Dataset d = MustRead("a,y\n3.4028235e+38,p\n-3.4028235e38,p\n1.4e-45,p\n1.17549435e-38,p\n");
  REQUIRE(d.value(0, 0) == FLT_MAX);
  REQUIRE(d.value(1, 0) == -FLT_MAX);
  REQUIRE(d.value(2, 0) == std::numeric_limits<float>::denorm_min());
  REQUIRE(d.value(3, 0) == FLT_MIN);
  RequireCsvError("a,y\n3.4028236e+38,p\n", StatusCode::kNonFiniteValue, 2, 1);
}

TEST_CASE("ReadCsv orders classes byte-wise by default or by first appearance", "[csv][classes]") {
  const std::string text = "a,y\n1,b\n2,\xC3\xA9\n3,B\n4,a\n5,b\n6,\"10\"\n7,9\n";
  SECTION("sorted") {
    Dataset d = MustRead(text);
    REQUIRE(d.schema().class_names ==
            std::vector<std::string>{"10", "9", "B", "a", "b", "\xC3\xA9"});
    REQUIRE(d.labels() == std::vector<int32_t>{4, 5, 2, 3, 4, 0, 1});
  }
  SECTION("first seen") {
    CsvOptions options;
    options.class_order = ClassOrder::kFirstSeen;
    Dataset d = MustRead(text, options);
    REQUIRE(d.schema().class_names ==
            std::vector<std::string>{"b", "\xC3\xA9", "B", "a", "10", "9"});
    REQUIRE(d.labels() == std::vector<int32_t>{0, 1, 2, 3, 0, 4, 5});
  }
  SECTION("quoted and unquoted labels with the same text are one class") {
    Dataset d = MustRead("a,y\n1,\"1\"\n2,1\n3, 0\n");
    REQUIRE(d.schema().class_names == std::vector<std::string>{"0", "1"});
    REQUIRE(d.labels() == std::vector<int32_t>{1, 1, 0});
  }
  SECTION("a single class is accepted") { REQUIRE(MustRead("a,y\n1,p\n2,p\n").num_classes() == 1); }
}

TEST_CASE("ReadCsv picks the target column by name, or reads no target", "[csv][target]") {
  SECTION("by name, anywhere in the header") {
    CsvOptions options;
    options.target = "label";
    Dataset d = MustRead("a,label,b\n1,x,2\n3,y,4\n", options);
    REQUIRE(d.num_features() == 2);
    REQUIRE(d.schema().features[1].name == "b");
    REQUIRE(d.value(1, 1) == 4.0f);
    REQUIRE(d.schema().target_name == "label");
    REQUIRE(d.labels() == std::vector<int32_t>{0, 1});
  }
  SECTION("without a target every column is a feature") {
    CsvOptions options;
    options.has_target = false;
    Dataset d = MustRead("a,b\n1,x\n3,y\n", options);
    REQUIRE(d.num_features() == 2);
    REQUIRE_FALSE(d.has_labels());
    REQUIRE(d.num_classes() == 0);
  }
  SECTION("an unknown name fails naming it and listing a few columns") {
    CsvOptions options;
    options.target = "Class";
    RequireCsvError("a,b,c,d,e,f,g,class\n1,2,3,4,5,6,7,x\n", StatusCode::kTargetNotFound, 1, 0,
                 options);
    const std::string message = MessageOf("a,b,c,d,e,f,g,class\n1,2,3,4,5,6,7,x\n", options);
    REQUIRE(message.find("'Class'") != std::string::npos);
    REQUIRE(message.find("'a', 'b', 'c', 'd', 'e', ... (8 columns)") != std::string::npos);
  }
}

TEST_CASE("ReadCsv reports empty input and a header without rows", "[csv][errors]") {
  RequireCsvError("", StatusCode::kCsvEmpty, 0, 0);
  RequireCsvError("\xEF\xBB\xBF", StatusCode::kCsvEmpty, 0, 0);
  RequireCsvError("\n\r\n  \n", StatusCode::kCsvEmpty, 0, 0);
  RequireCsvError("a,y", StatusCode::kCsvNoRows, 0, 0);
  RequireCsvError("a,y\n\n\n", StatusCode::kCsvNoRows, 0, 0);
}

TEST_CASE("ReadCsv reports ragged rows at the record's line and first odd field", "[csv][errors]") {
  RequireCsvError("a,b,c,y\n1,2,3,p\n1,2,3,p,5\n", StatusCode::kCsvRaggedRow, 3, 5);
  RequireCsvError("a,b,c,y\n1,2,3,p\n1,2\n", StatusCode::kCsvRaggedRow, 3, 3);
  RequireCsvError("a,b,c,y\n\"x\ny\",2,3,p,9\n", StatusCode::kCsvRaggedRow, 2, 5);
  RequireCsvError("a,y\n1,p,\n", StatusCode::kCsvRaggedRow, 2, 3);
  REQUIRE(MessageOf("a,b,c,y\n1,2,3,p,5\n") == "row has 5 fields, header has 4");
}

TEST_CASE("ReadCsv reports an unterminated quote where it opened", "[csv][errors]") {
  RequireCsvError("a,y\n1,p\n2,\"open\n3,p\n4,p\n", StatusCode::kCsvUnterminatedQuote, 3, 2);
  RequireCsvError("\"a,y\n1,p\n", StatusCode::kCsvUnterminatedQuote, 1, 1);
  RequireCsvError("a,y\n1,\"\"\"", StatusCode::kCsvUnterminatedQuote, 2, 2);
}

TEST_CASE("ReadCsv reports stray quotes", "[csv][errors]") {
  RequireCsvError("a,y\n1,p\n2,ab\"c\n", StatusCode::kCsvBadQuote, 3, 2);
  RequireCsvError("a,y\n1,\"p\"x\n", StatusCode::kCsvBadQuote, 2, 2);
  RequireCsvError("a,y\n1,\"multi\nline\"x,\n", StatusCode::kCsvBadQuote, 3, 2);
  RequireCsvError("a,\"y\" \"z\"\n1,p\n", StatusCode::kCsvBadQuote, 1, 2);
}

TEST_CASE("ReadCsv rejects invalid UTF-8 at the bad byte's line and field", "[csv][errors]") {
  RequireCsvError("a,y\n1,p\n2,\xFF\n", StatusCode::kCsvInvalidUtf8, 3, 2);
  RequireCsvError("a,y\n1,\"ok\nstill ok\n\xC0\x80\"\n", StatusCode::kCsvInvalidUtf8, 4, 2);
  RequireCsvError("a,y\n\xED\xA0\x80,p\n", StatusCode::kCsvInvalidUtf8, 2, 1);
  RequireCsvError("a,y\n1,\xE2\x82\n", StatusCode::kCsvInvalidUtf8, 2, 2);
  RequireCsvError("a,\xF4\x90\x80\x80\n1,p\n", StatusCode::kCsvInvalidUtf8, 1, 2);
  Dataset d = MustRead("caf\xC3\xA9,y\n\xE2\x82\xAC,\xF0\x9F\x8C\xB2\n");
  REQUIRE(d.schema().features[0].name == "caf\xC3\xA9");
  REQUIRE(d.schema().class_names[0] == "\xF0\x9F\x8C\xB2");
}

TEST_CASE("ReadCsv rejects duplicate column names at the second occurrence", "[csv][errors]") {
  RequireCsvError("a,b,\"a\",y\n1,2,3,p\n", StatusCode::kCsvDuplicateColumn, 1, 3);
  RequireCsvError("\n,x,\n1,2,3\n", StatusCode::kCsvDuplicateColumn, 2, 3);
}

TEST_CASE("ReadCsv rejects a training row without a label", "[csv][errors]") {
  RequireCsvError("a,y\n1,p\n2,\n", StatusCode::kMissingLabel, 3, 2);
  RequireCsvError("a,y\n1,p\n2,NA\n", StatusCode::kMissingLabel, 3, 2);
  RequireCsvError("y,a\n?,1\n", StatusCode::kMissingLabel, 2, 1, [] {
    CsvOptions o;
    o.target = "y";
    return o;
  }());
}

TEST_CASE("ReadCsv enforces the class limit", "[csv][errors]") {
  std::string text = "a,y\n";
  for (size_t i = 0; i <= urnforest::DatasetLimits::kMaxClasses; ++i) {
    text += "1,c" + std::to_string(i) + "\n";
  }
  RequireCsvError(text, StatusCode::kLimitExceeded,
               static_cast<int64_t>(urnforest::DatasetLimits::kMaxClasses) + 2, 2);
}

TEST_CASE("ReadCsv conforms a new file to a trained model's schema", "[csv][schema]") {
  Dataset train = MustRead("num,cat,y\n1.5,red,yes\n2,blue,no\n3,red,no\n");
  const Schema& schema = train.schema();
  CsvOptions options;
  options.schema = &schema;
  SECTION("columns are matched by name, extras ignored, unseen categories missing") {
    Dataset d = MustRead("extra,cat,y,num\nq,blue,no,7\nq,green,yes,\nq,\"red\",,8\n", options);
    REQUIRE(d.num_features() == 2);
    REQUIRE(d.schema().features[0].name == "num");
    REQUIRE(d.schema().features[1].categories == std::vector<std::string>{"red", "blue"});
    REQUIRE(d.value(0, 0) == 7.0f);
    REQUIRE(std::isnan(d.value(1, 0)));
    REQUIRE(d.value(0, 1) == 1.0f);
    REQUIRE(std::isnan(d.value(1, 1)));
    REQUIRE(d.value(2, 1) == 0.0f);
    REQUIRE(d.schema().class_names == std::vector<std::string>{"no", "yes"});
    REQUIRE(d.labels() == std::vector<int32_t>{0, 1, -1});
  }
  SECTION("the target column is optional") {
    Dataset d = MustRead("cat,num\nred,1\n", options);
    REQUIRE_FALSE(d.has_labels());
    REQUIRE(d.schema().class_names == schema.class_names);
  }
  SECTION("an unquoted number matches a category by its text") {
    Dataset t2 = MustRead("v,y\n\"1\",p\n\"0\",q\nz,q\n");
    CsvOptions o2;
    o2.schema = &t2.schema();
    Dataset d = MustRead("v\n0\n1\n1.0\n", o2);
    REQUIRE(d.value(0, 0) == 1.0f);
    REQUIRE(d.value(1, 0) == 0.0f);
    REQUIRE(std::isnan(d.value(2, 0)));
  }
  SECTION("a missing model column fails naming it") {
    RequireCsvError("cat,y\nred,no\n", StatusCode::kColumnMismatch, 1, 0, options);
    REQUIRE(MessageOf("cat,y\nred,no\n", options).find("'num'") != std::string::npos);
  }
  SECTION("text in a numeric model column fails at the cell") {
    RequireCsvError("num,cat\n1,red\nabc,red\n", StatusCode::kColumnMismatch, 3, 1, options);
    RequireCsvError("num,cat\n\"1x\",red\n", StatusCode::kColumnMismatch, 2, 1, options);
  }
  SECTION("a quoted number in a numeric model column is that number") {
    Dataset d = MustRead("num,cat\n\"2.5\",\"red\"\n", options);
    REQUIRE(d.value(0, 0) == 2.5f);
    REQUIRE(d.value(0, 1) == 0.0f);
  }
  SECTION("a non-finite number in a numeric model column fails at the cell") {
    RequireCsvError("cat,num\nred,1\nred,inf\n", StatusCode::kNonFiniteValue, 3, 2, options);
  }
  SECTION("a label outside the model's classes fails at the cell") {
    RequireCsvError("num,cat,y\n1,red,no\n2,red,maybe\n", StatusCode::kUnknownClass, 3, 3,
                    options);
  }
  SECTION("an explicitly requested target must exist") {
    options.target = "label";
    RequireCsvError("num,cat\n1,red\n", StatusCode::kTargetNotFound, 1, 0, options);
  }
  SECTION("without a target the label column is ignored") {
    options.has_target = false;
    REQUIRE_FALSE(MustRead("num,cat,y\n1,red,maybe\n", options).has_labels());
  }
}

TEST_CASE("ReadCsv gives back the exact floats it was given", "[csv][roundtrip]") {
  std::mt19937 rng(7);
  std::vector<float> values = {
      0.0f,        -0.0f,    1.0f,    0.1f,
      FLT_MAX,     -FLT_MAX, FLT_MIN, std::numeric_limits<float>::denorm_min(),
      123456789.0f};
  std::uniform_int_distribution<uint32_t> bits;
  while (values.size() < 2000) {
    const uint32_t b = bits(rng);
    float f;
    std::memcpy(&f, &b, sizeof f);
    if (std::isfinite(f)) values.push_back(f);
  }
  std::string text = "shortest,nine,y\n";
  for (float v : values) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    text.append(buf, res.ptr);
    std::snprintf(buf, sizeof buf, ",%.9g,c\n", static_cast<double>(v));
    text += buf;
  }
  Dataset d = MustRead(text);
  REQUIRE(d.num_rows() == values.size());
  for (size_t r = 0; r < values.size(); ++r) {
    for (size_t f = 0; f < 2; ++f) {
      const float got = d.value(r, f);
      REQUIRE(std::memcmp(&got, &values[r], sizeof got) == 0);
    }
  }
}

TEST_CASE("ReadCsv loads the bundled real data sets with the right shapes and types",
          "[csv][datasets]") {
  struct Expect {
    const char* file;
    size_t rows, features, classes;
    size_t categorical;
  };
  const Expect expects[] = {
      {"iris.csv", 150, 4, 3, 0},        {"wine.csv", 178, 13, 3, 0},
      {"wdbc.csv", 569, 30, 2, 0},       {"sonar.csv", 208, 60, 2, 0},
      {"ionosphere.csv", 351, 34, 2, 0}, {"soybean.csv", 683, 35, 19, 0},
      {"vehicle.csv", 846, 18, 4, 0},
  };
  for (const Expect& e : expects) {
    INFO(e.file);
    Dataset d = MustRead(ReadFile(std::string(URNFOREST_DATASETS_DIR) + "/" + e.file));
    CHECK(d.num_rows() == e.rows);
    CHECK(d.num_features() == e.features);
    CHECK(d.num_classes() == e.classes);
    CHECK(d.schema().target_name == "class");
    size_t categorical = 0;
    for (const auto& info : d.schema().features) {
      categorical += info.type == FeatureType::kCategorical ? 1 : 0;
    }
    CHECK(categorical == e.categorical);
  }
}

TEST_CASE("ReadCsv reads iris values exactly", "[csv][datasets]") {
  Dataset d = MustRead(ReadFile(std::string(URNFOREST_DATASETS_DIR) + "/iris.csv"));
  REQUIRE(d.schema().features[0].name == "sepal_length_(cm)");
  REQUIRE(d.value(0, 0) == 5.1f);
  REQUIRE(d.value(0, 3) == 0.2f);
  REQUIRE(d.schema().class_names == std::vector<std::string>{"setosa", "versicolor", "virginica"});
  REQUIRE(d.labels().front() == 0);
  REQUIRE(d.labels().back() == 2);
}

TEST_CASE("ReadCsv reads ionosphere's quoted 0/1 columns V1 and V2 as numbers", "[csv][datasets]") {
  Dataset d = MustRead(ReadFile(std::string(URNFOREST_DATASETS_DIR) + "/ionosphere.csv"));
  REQUIRE(d.schema().features[0].name == "V1");
  REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  REQUIRE(d.value(0, 0) == 1.0f);
  REQUIRE(d.schema().features[1].type == FeatureType::kNumeric);
  REQUIRE(d.schema().features[2].type == FeatureType::kNumeric);
  REQUIRE(d.value(0, 2) == 0.99539f);
}

TEST_CASE("ReadCsv reads soybean's missing cells as NaN", "[csv][datasets]") {
  Dataset d = MustRead(ReadFile(std::string(URNFOREST_DATASETS_DIR) + "/soybean.csv"));
  size_t missing = 0;
  for (size_t f = 0; f < d.num_features(); ++f) {
    for (size_t r = 0; r < d.num_rows(); ++r) missing += std::isnan(d.value(r, f)) ? 1 : 0;
  }
  REQUIRE(missing > 0);
}

TEST_CASE("ReadCsv reads vehicle's unquoted numbers and quoted classes", "[csv][datasets]") {
  Dataset d = MustRead(ReadFile(std::string(URNFOREST_DATASETS_DIR) + "/vehicle.csv"));
  REQUIRE(d.value(0, 0) == 95.0f);
  REQUIRE(d.schema().class_names == std::vector<std::string>{"bus", "opel", "saab", "van"});
  REQUIRE(d.labels().front() == 3);
}

TEST_CASE("ReadCsv never crashes or hangs on arbitrary bytes", "[csv][robustness]") {
  std::mt19937 rng(12345);
  const std::string seed = "a,\"b\",y\r\n1.5,\"x,\"\"y\",p\n?,\"\n\",NA\n2e3,q,\xC3\xA9\n";
  const char alphabet[] = {',', '"', '\n',   '\r',   ' ',    'a',  '1',  '.',
                           'e', '?', '\xC3', '\xA9', '\xFF', '\0', '\t', '-'};
  size_t ok = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = seed;
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < edits; ++k) {
      const size_t at = text.empty() ? 0 : rng() % text.size();
      const char c = alphabet[rng() % sizeof alphabet];
      switch (rng() % 3) {
        case 0:
          if (!text.empty()) text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + at, c);
          break;
        default:
          if (!text.empty()) text.erase(at, 1);
          break;
      }
    }
    if (i % 10 == 0) {
      text.resize(rng() % 64);
      for (char& c : text) c = static_cast<char>(rng());
    }
    Result<Dataset> result = ReadCsv(text);
    if (result.ok()) {
      ++ok;
      REQUIRE(result.value().labels().size() == result.value().num_rows());
    } else {
      REQUIRE(result.status().code != StatusCode::kInternal);
    }
  }
  REQUIRE(ok > 0);
}

TEST_CASE("ReadCsv keeps long and many category texts intact", "[csv][types]") {
  const std::string long_text(5000, 'z');
  std::string text = "a,y\n\"" + long_text + "\",p\n";
  for (int i = 0; i < 3000; ++i) text += "v" + std::to_string(i) + ",p\n";
  text += "\"" + long_text + "\",p\n";
  Dataset d = MustRead(text);
  const std::vector<std::string> categories = Categories(d, 0);
  REQUIRE(categories.size() == 3001);
  REQUIRE(categories[0] == long_text);
  REQUIRE(categories[2999] == "v2998");
  REQUIRE(d.value(3001, 0) == 0.0f);
  REQUIRE(d.value(3000, 0) == 3000.0f);
}

TEST_CASE("ReadCsv separates fields by the delimiter option", "[csv][delimiter]") {
  CsvOptions options;
  SECTION("semicolon") {
    options.delimiter = ';';
    Dataset d = MustRead("a;b;y\n1;x,y;p\n2;z;q\n", options);
    REQUIRE(d.num_features() == 2);
    REQUIRE(Categories(d, 1) == std::vector<std::string>{"x,y", "z"});
  }
  SECTION("tab, with empty cells between tabs kept") {
    options.delimiter = '\t';
    Dataset d = MustRead("a\tb\ty\n1\t\tp\n 2 \t3\tq\n", options);
    REQUIRE(d.num_features() == 2);
    REQUIRE(std::isnan(d.value(0, 1)));
    REQUIRE(d.value(1, 0) == 2.0f);
  }
  SECTION("auto detects semicolon, tab and comma from the header line") {
    options.delimiter = 0;
    REQUIRE(MustRead("a;b;y\n1;2;p\n", options).num_features() == 2);
    REQUIRE(MustRead("a\tb\ty\n1\t2\tp\n", options).num_features() == 2);
    REQUIRE(MustRead("a,b,y\n1,2,p\n", options).num_features() == 2);
    REQUIRE(MustRead("\"a;x\",b,y\n1,2,p\n", options).num_features() == 2);
  }
  SECTION("an unknown delimiter is InvalidArgument") {
    options.delimiter = '|';
    RequireCsvError("a|y\n1|p\n", StatusCode::kInvalidArgument, 0, 0, options);
  }
}

TEST_CASE("ReadCsv reads decimal commas when asked", "[csv][decimal]") {
  CsvOptions options;
  options.delimiter = ';';
  options.decimal = ',';
  Dataset d = MustRead("a;b;y\n5,1;\"3,5\";p\n-0,25;1e2;q\n", options);
  REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  REQUIRE(d.value(0, 0) == 5.1f);
  REQUIRE(d.value(0, 1) == 3.5f);
  REQUIRE(d.value(1, 0) == -0.25f);
  REQUIRE(d.value(1, 1) == 100.0f);
  SECTION("a point is text under a decimal comma") {
    Dataset p = MustRead("a;y\n1.5;p\n", options);
    REQUIRE(p.schema().features[0].type == FeatureType::kCategorical);
  }
  SECTION("a decimal comma with comma-separated fields is InvalidArgument") {
    options.delimiter = ',';
    RequireCsvError("a,y\n1,p\n", StatusCode::kInvalidArgument, 0, 0, options);
  }
  SECTION("without the option, decimal commas in a semicolon file are text") {
    options.decimal = '.';
    REQUIRE(MustRead("a;y\n5,1;p\n", options).schema().features[0].type ==
            FeatureType::kCategorical);
  }
}

TEST_CASE("ReadCsv refuses a numeric target with many distinct values unless declared categorical",
          "[csv][target]") {
  std::string many = "x,price\n";
  for (int i = 0; i < 60; ++i) many += std::to_string(i) + "," + std::to_string(i * 1.5) + "\n";
  RequireCsvError(many, StatusCode::kNumericTarget, 0, 0);
  REQUIRE(MessageOf(many).find("classifies") != std::string::npos);
  std::string few = "x,price\n";
  for (int i = 0; i < 20; ++i) few += std::to_string(i) + "," + std::to_string(i * 0.5) + "\n";
  RequireCsvError(few, StatusCode::kNumericTarget, 0, 0);
  CsvOptions options;
  options.target_categorical = true;
  REQUIRE(MustRead(many, options).num_classes() == 60);
  SECTION("few numeric classes over many rows are classes") {
    std::string digits = "x,digit\n";
    for (int i = 0; i < 200; ++i) digits += std::to_string(i) + "," + std::to_string(i % 10) + "\n";
    REQUIRE(MustRead(digits).num_classes() == 10);
  }
  SECTION("many text classes are classes") {
    std::string names = "x,name\n";
    for (int i = 0; i < 60; ++i) names += std::to_string(i) + ",c" + std::to_string(i) + "\n";
    REQUIRE(MustRead(names).num_classes() == 60);
  }
}

namespace urnforest {
TEST_CASE("A number beyond float's range is NonFiniteValue naming the range, natively and against a schema",
          "[csv]") {
  Result<Dataset> wide = ReadCsv("a,class\n1,x\n1e39,y\n");
  REQUIRE(wide.status().code == StatusCode::kNonFiniteValue);
  REQUIRE(wide.status().message.find("3.4028235e38") != std::string::npos);
  REQUIRE(wide.status().line == 3);
}
}  // namespace urnforest

TEST_CASE("Quoting never decides a column's type: quoted and unquoted numbers with surrounding spaces read alike", "[csv]") {
  const Dataset quoted = MustRead("a,b,y\n\" 1\",\"x\",p\n\"2 \",\" \",q\n3,z,p\n");
  const Dataset unquoted = MustRead("a,b,y\n 1,x,p\n2 , ,q\n3,z,p\n");
  REQUIRE(quoted.schema().features[0].type == FeatureType::kNumeric);
  CHECK(quoted.value(0, 0) == 1.0f);
  CHECK(quoted.value(1, 0) == 2.0f);
  CHECK(std::isnan(quoted.value(1, 1)));
  CHECK(quoted.schema().features[1].categories == unquoted.schema().features[1].categories);
  for (size_t r = 0; r < 3; ++r) CHECK(quoted.value(r, 0) == unquoted.value(r, 0));
}

TEST_CASE("A quoted number with spaces in a numeric column of a model's schema is that number", "[csv]") {
  const Dataset train = MustRead("a,y\n1,p\n2,q\n");
  CsvOptions options;
  options.schema = &train.schema();
  const Dataset data = MustRead("a,y\n\" 2 \",q\n", options);
  CHECK(data.value(0, 0) == 2.0f);
}
