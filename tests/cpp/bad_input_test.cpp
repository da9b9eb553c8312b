// Bad-input matrix (C++ API; docs/reliability.md): every hostile or degenerate input either fails with its
// stable code (and position, for CSV) or has the documented behaviour checked here.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/crc32.h"
#include "ensemble/forest_access.h"
#include "fixtures.h"
#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/experiment.h"
#include "urnforest/forest.h"
#include "urnforest/json_writer.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"
#include "urnforest/status.h"
#include "urnforest/vote_matrix.h"

using urnforest::CsvOptions;
using urnforest::Dataset;
using urnforest::FeatureType;
using urnforest::Forest;
using urnforest::FullVote;
using urnforest::ReadCsv;
using urnforest::Result;
using urnforest::Schema;
using urnforest::Status;
using urnforest::StatusCode;
using urnforest::TrainOptions;
using urnforest::internal::ForestAccess;
using urnforest::test::MustOk;
using urnforest::test::MustRead;
using urnforest::test::RequireCsvError;

namespace {

Status ReadError(const std::string& text, const CsvOptions& options = {}) {
  Result<Dataset> result = ReadCsv(text, options);
  INFO("input: " << text);
  REQUIRE_FALSE(result.ok());
  return result.status();
}

Forest MustTrain(const Dataset& data, int32_t trees, uint64_t seed = 1) {
  TrainOptions options;
  options.num_trees = trees;
  options.seed = seed;
  return urnforest::test::MustTrain(data, options);
}

FullVote MustPredict(const Forest& forest, const Dataset& data) {
  return MustOk(urnforest::PredictFull(forest, data));
}

StatusCode TrainCode(const Dataset& data, const TrainOptions& options) {
  Result<Forest> forest = urnforest::Train(data, options);
  return forest.ok() ? StatusCode::kOk : forest.status().code;
}

const char kSmall[] =
    "a,b,class\n"
    "1,x,no\n2,y,yes\n3,x,no\n4,y,yes\n5,x,no\n6,y,yes\n7,x,no\n8,y,yes\n";

}  // namespace

TEST_CASE("An empty file, a BOM alone or blank lines alone fail with CsvEmpty", "[reliability][bad_input][csv]") {
  RequireCsvError("", StatusCode::kCsvEmpty, 0, 0);
  RequireCsvError("\xEF\xBB\xBF", StatusCode::kCsvEmpty, 0, 0);
  RequireCsvError("\n \r\n\t\n", StatusCode::kCsvEmpty, 0, 0);
}

TEST_CASE("A header without data rows fails with CsvNoRows", "[reliability][bad_input][csv]") {
  RequireCsvError("a,b,class\n", StatusCode::kCsvNoRows, 0, 0);
  RequireCsvError("a,b,class", StatusCode::kCsvNoRows, 0, 0);
  RequireCsvError("a,b,class\n\n\n", StatusCode::kCsvNoRows, 0, 0);
}

TEST_CASE("Ragged rows fail with CsvRaggedRow at the row's line and first odd field", "[reliability][bad_input][csv]") {
  RequireCsvError("a,b,class\n1,2,x\n1,2,3,y\n", StatusCode::kCsvRaggedRow, 3, 4);
  RequireCsvError("a,b,class\n1,2,x\n\n1,y\n", StatusCode::kCsvRaggedRow, 4, 3);
}

TEST_CASE("An unterminated quote fails with CsvUnterminatedQuote where it opened", "[reliability][bad_input][csv]") {
  RequireCsvError("a,b,class\n1,2,x\n3,\"4,y\n5,6,z\n", StatusCode::kCsvUnterminatedQuote, 3, 2);
  RequireCsvError("\"a,b,class\n", StatusCode::kCsvUnterminatedQuote, 1, 1);
}

TEST_CASE("A UTF-8 byte-order mark is skipped and never becomes part of the first name", "[reliability][bad_input][csv]") {
  const Dataset d = MustRead("\xEF\xBB\xBF" "a,b,class\n1,2,x\n3,4,y\n");
  REQUIRE(d.schema().features[0].name == "a");
  REQUIRE(d.num_rows() == 2);
}

TEST_CASE("CRLF and LF files give the same data set", "[reliability][bad_input][csv]") {
  const Dataset lf = MustRead("a,b,class\n1,p,x\n3,q,y\n");
  const Dataset crlf = MustRead("a,b,class\r\n1,p,x\r\n3,q,y\r\n");
  REQUIRE(crlf.schema().features[1].categories == lf.schema().features[1].categories);
  REQUIRE(crlf.schema().class_names == lf.schema().class_names);
  REQUIRE(crlf.RowMajor() == lf.RowMajor());
  REQUIRE(crlf.labels() == lf.labels());
}

TEST_CASE("Non-UTF-8 bytes fail with CsvInvalidUtf8 at the bad byte's line and field", "[reliability][bad_input][csv]") {
  RequireCsvError("a,b,class\n1,2,x\n1,\xFF,y\n", StatusCode::kCsvInvalidUtf8, 3, 2);
  RequireCsvError("a,b,class\n1,\xC0\xAF,x\n", StatusCode::kCsvInvalidUtf8, 2, 2);
  RequireCsvError("a,b,cl\xE9\n1,2,x\n", StatusCode::kCsvInvalidUtf8, 1, 3);
}

TEST_CASE("Infinite and out-of-float-range numbers fail with NonFiniteValue at the cell", "[reliability][bad_input][csv]") {
  RequireCsvError("a,class\n1,x\ninf,y\n", StatusCode::kNonFiniteValue, 3, 1);
  RequireCsvError("a,class\n1,x\n-Infinity,y\n", StatusCode::kNonFiniteValue, 3, 1);
  RequireCsvError("a,class\n1,x\n1e39,y\n", StatusCode::kNonFiniteValue, 3, 1);
  RequireCsvError("a,class\n1,x\n-3.5e38,y\n", StatusCode::kNonFiniteValue, 3, 1);
}

TEST_CASE("NaN is text, float range edges are kept and underflow becomes zero", "[reliability][bad_input][csv]") {
  const Dataset nan = MustRead("a,class\n1,x\nnan,y\n");
  REQUIRE(nan.schema().features[0].type == FeatureType::kCategorical);
  const Dataset edges = MustRead("a,class\n3.4028235e38,x\n-3.4028235e38,y\n1e-50,x\n");
  REQUIRE(edges.schema().features[0].type == FeatureType::kNumeric);
  REQUIRE(edges.value(0, 0) == std::numeric_limits<float>::max());
  REQUIRE(edges.value(1, 0) == -std::numeric_limits<float>::max());
  REQUIRE(edges.value(2, 0) == 0.0f);
}

TEST_CASE("Typed arrays with Inf fail with NonFiniteValue and NaN means missing", "[reliability][bad_input][arrays]") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> bad = {1, inf, 3, 4};
  const std::vector<int32_t> labels = {0, 1};
  Result<Dataset> d = Dataset::FromRowMajor(bad.data(), 2, 2, labels.data(), {}, {});
  REQUIRE(d.status().code == StatusCode::kNonFiniteValue);
  const std::vector<float> missing = {1, NAN, 3, 4};
  Result<Dataset> ok = Dataset::FromRowMajor(missing.data(), 2, 2, labels.data(), {}, {});
  REQUIRE(ok.ok());
  REQUIRE(std::isnan(ok.value().value(0, 1)));
}

TEST_CASE("One class only is read but training fails with TooFewClasses", "[reliability][bad_input][train]") {
  const Dataset d = MustRead("a,b,class\n1,2,x\n3,4,x\n5,6,x\n");
  REQUIRE(d.num_classes() == 1);
  REQUIRE(TrainCode(d, TrainOptions{}) == StatusCode::kTooFewClasses);
}

TEST_CASE("A class with a single row trains and predicts every row", "[reliability][bad_input][train]") {
  const Dataset d = MustRead("a,b,class\n1,2,x\n3,4,x\n5,6,x\n7,8,x\n9,10,y\n");
  const Forest forest = MustTrain(d, 11);
  const FullVote vote = MustPredict(forest, d);
  REQUIRE(vote.labels.size() == 5);
  for (size_t r = 0; r < 5; ++r) REQUIRE(vote.votes[2 * r] + vote.votes[2 * r + 1] == 11);
}

TEST_CASE("Constant features train single-leaf trees voting the bootstrap majority", "[reliability][bad_input][train]") {
  const Dataset d = MustRead("a,b,class\n1,k,x\n1,k,y\n1,k,x\n1,k,y\n1,k,x\n");
  const Forest forest = MustTrain(d, 7);
  REQUIRE(forest.num_nodes() == 7);
  const FullVote vote = MustPredict(forest, d);
  for (size_t r = 1; r < 5; ++r) REQUIRE(vote.labels[r] == vote.labels[0]);
}

TEST_CASE("A data set whose feature values are all missing trains single-leaf trees", "[reliability][bad_input][train]") {
  const Dataset d = MustRead("a,b,class\n?,NA,x\n,?,y\nNA,,x\n?,?,y\n");
  REQUIRE(d.schema().features[0].type == FeatureType::kNumeric);
  for (size_t r = 0; r < 4; ++r) REQUIRE(std::isnan(d.value(r, 0)));
  const Forest forest = MustTrain(d, 5);
  REQUIRE(forest.num_nodes() == 5);
  REQUIRE(MustPredict(forest, d).labels.size() == 4);
}

TEST_CASE("Duplicate column names fail with CsvDuplicateColumn at the second one", "[reliability][bad_input][csv]") {
  RequireCsvError("a,b,a,class\n1,2,3,x\n", StatusCode::kCsvDuplicateColumn, 1, 3);
  RequireCsvError("\n\"a\",a,class\n1,2,x\n", StatusCode::kCsvDuplicateColumn, 2, 2);
}

TEST_CASE("An unknown target name fails with TargetNotFound on the header line", "[reliability][bad_input][csv]") {
  CsvOptions options;
  options.target = "label";
  RequireCsvError(kSmall, StatusCode::kTargetNotFound, 1, 0, options);
  REQUIRE(ReadError(kSmall, options).message.find("label") != std::string::npos);
}

TEST_CASE("A nameless default target column fails with TargetNotFound at that column", "[reliability][bad_input][csv][fuzz]") {
  RequireCsvError("a,b,\n1,2,x\n3,4,y\n", StatusCode::kTargetNotFound, 1, 3);
  RequireCsvError("a,b,\"\"\n1,2,x\n", StatusCode::kTargetNotFound, 1, 3);
  CsvOptions by_name;
  by_name.target = "a";
  REQUIRE(MustRead("a,b,\n1,2,x\n3,4,y\n", by_name).schema().features[1].name.empty());
  CsvOptions no_target;
  no_target.has_target = false;
  REQUIRE(MustRead("a,b,\n1,2,x\n3,4,y\n", no_target).num_features() == 3);
}

TEST_CASE("A trained schema reads its own file back with the same labels", "[reliability][bad_input][csv][fuzz]") {
  const std::string text = "a,b,class\n1,x,p\n2,y,q\n";
  const Dataset trained = MustRead(text);
  CsvOptions options;
  options.schema = &trained.schema();
  const Dataset again = MustRead(text, options);
  REQUIRE(again.labels() == trained.labels());
  REQUIRE(again.RowMajor() == trained.RowMajor());
}

TEST_CASE("T = 0 and T < 0 fail with InvalidArgument naming num_trees", "[reliability][bad_input][train]") {
  const Dataset d = MustRead(kSmall);
  for (int32_t trees : {0, -1, std::numeric_limits<int32_t>::min()}) {
    TrainOptions options;
    options.num_trees = trees;
    Result<Forest> forest = urnforest::Train(d, options);
    REQUIRE(forest.status().code == StatusCode::kInvalidArgument);
    REQUIRE(forest.status().message.find("num_trees") != std::string::npos);
  }
}

TEST_CASE("Even T is allowed and a tied full vote goes to the lowest class index", "[reliability][bad_input][train]") {
  const Dataset d = MustRead(kSmall);
  const Forest trained = MustTrain(d, 4);
  REQUIRE(trained.num_trees() == 4);
  Forest tie;
  ForestAccess::schema(tie) = d.schema();
  ForestAccess::RebuildCaches(tie);
  ForestAccess::table(tie).nodes = {{-1, 0.0f, 1u, 0u}, {-1, 0.0f, 0u, 0u}};
  ForestAccess::tree_roots(tie) = {0u, 1u};
  const FullVote vote = MustPredict(tie, d);
  for (size_t r = 0; r < d.num_rows(); ++r) {
    REQUIRE(vote.votes[2 * r] == 1);
    REQUIRE(vote.votes[2 * r + 1] == 1);
    REQUIRE(vote.labels[r] == 0);
  }
}

TEST_CASE("T = 100,000 passes validation and T = 100,001 fails fast with InvalidArgument", "[reliability][bad_input][train]") {
  const Dataset d = MustRead(kSmall);
  TrainOptions at_limit;
  at_limit.num_trees = TrainOptions::kMaxTrees;
  REQUIRE(at_limit.num_trees == 100000);
  int32_t calls = 0;
  auto stop_after_one = [&calls](int32_t done, int32_t total) {
    ++calls;
    return done < 1 && total == 100000;
  };
  Result<Forest> stopped = urnforest::Train(d, at_limit, stop_after_one);
  REQUIRE(stopped.status().code == StatusCode::kInvalidArgument);
  REQUIRE(stopped.status().message == "cancelled");
  REQUIRE(calls == 1);
  TrainOptions over;
  over.num_trees = 100001;
  int32_t over_calls = 0;
  auto count = [&over_calls](int32_t, int32_t) { return ++over_calls > 0; };
  Result<Forest> rejected = urnforest::Train(d, over, count);
  REQUIRE(rejected.status().code == StatusCode::kInvalidArgument);
  REQUIRE(rejected.status().message.find("num_trees") != std::string::npos);
  REQUIRE(over_calls == 0);
}

TEST_CASE("Wrong array lengths fail with ShapeMismatch before any value is read", "[reliability][bad_input][arrays]") {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const std::vector<int32_t> labels = {0, 1, 0};
  SECTION("feature names do not match the column count") {
    Result<Dataset> d = Dataset::FromRowMajor(x.data(), 3, 2, labels.data(), {"only"}, {});
    REQUIRE(d.status().code == StatusCode::kShapeMismatch);
  }
  SECTION("a column-major vector of the wrong size") {
    Schema schema;
    schema.features = {{"a", FeatureType::kNumeric, {}}, {"b", FeatureType::kNumeric, {}}};
    schema.class_names = {"0", "1"};
    Result<Dataset> d = Dataset::Create(schema, 3, {1, 2, 3, 4, 5}, {0, 1, 0});
    REQUIRE(d.status().code == StatusCode::kShapeMismatch);
    Result<Dataset> short_labels = Dataset::Create(schema, 3, x, {0, 1});
    REQUIRE(short_labels.status().code == StatusCode::kShapeMismatch);
  }
  SECTION("labels outside the class names") {
    const std::vector<int32_t> bad = {0, 2, 0};
    Result<Dataset> d = Dataset::FromRowMajor(x.data(), 3, 2, bad.data(), {}, {"a", "b"});
    REQUIRE(d.status().code == StatusCode::kInvalidArgument);
    const std::vector<int32_t> negative = {0, -2, 0};
    Result<Dataset> n = Dataset::FromRowMajor(x.data(), 3, 2, negative.data(), {}, {});
    REQUIRE(n.status().code == StatusCode::kInvalidArgument);
  }
  SECTION("a row count beyond the limits fails without touching the matrix") {
    Result<Dataset> d = Dataset::FromRowMajor(x.data(), size_t{1} << 40, 2, nullptr, {}, {});
    REQUIRE(d.status().code == StatusCode::kLimitExceeded);
    Result<Dataset> cells =
        Dataset::FromRowMajor(x.data(), size_t{1} << 20, size_t{1} << 10, nullptr, {}, {});
    REQUIRE(cells.status().code == StatusCode::kLimitExceeded);
  }
  SECTION("a null matrix with rows") {
    Result<Dataset> d = Dataset::FromRowMajor(nullptr, 3, 2, nullptr, {}, {});
    REQUIRE(d.status().code == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("Predicting with a different column set fails with ColumnMismatch", "[reliability][bad_input][predict]") {
  const Dataset train = MustRead(kSmall);
  const Forest forest = MustTrain(train, 3);
  SECTION("typed data with fewer columns") {
    const std::vector<float> x = {1, 2};
    Result<Dataset> narrow = Dataset::FromRowMajor(x.data(), 2, 1, nullptr, {}, {});
    REQUIRE(urnforest::PredictFull(forest, narrow.value()).status().code ==
            StatusCode::kColumnMismatch);
  }
  SECTION("typed data with a numeric column where the model has a categorical one") {
    const std::vector<float> x = {1, 2, 3, 4};
    Result<Dataset> numeric = Dataset::FromRowMajor(x.data(), 2, 2, nullptr, {"a", "b"}, {});
    REQUIRE(urnforest::PredictFull(forest, numeric.value()).status().code ==
            StatusCode::kColumnMismatch);
  }
  SECTION("a CSV that lacks a model column, at the header line") {
    CsvOptions options;
    options.schema = &forest.schema();
    const Status status = ReadError("a,c,class\n1,x,no\n", options);
    REQUIRE(status.code == StatusCode::kColumnMismatch);
    REQUIRE(status.line == 1);
    REQUIRE(status.message.find("'b'") != std::string::npos);
  }
  SECTION("a CSV with text in a numeric model column, at the cell") {
    CsvOptions options;
    options.schema = &forest.schema();
    RequireCsvError("a,b\n1,x\nhigh,y\n", StatusCode::kColumnMismatch, 3, 1, options);
  }
  SECTION("a CSV with reordered and extra columns is matched by name") {
    CsvOptions options;
    options.schema = &forest.schema();
    const Dataset d = MustRead("extra,b,a\n9,y,2\n9,x,1\n", options);
    REQUIRE_FALSE(d.has_labels());
    REQUIRE(d.value(0, 0) == 2.0f);
    REQUIRE(d.value(1, 1) == 0.0f);
    REQUIRE(MustPredict(forest, d).labels.size() == 2);
  }
  SECTION("an unseen category is missing and an unseen label is UnknownClass") {
    CsvOptions options;
    options.schema = &forest.schema();
    const Dataset d = MustRead("a,b\n1,z\n", options);
    REQUIRE(std::isnan(d.value(0, 1)));
    RequireCsvError("a,b,class\n1,x,maybe\n", StatusCode::kUnknownClass, 2, 3, options);
  }
}

TEST_CASE("Model bytes that are not a model fail with CorruptModel or UnsupportedVersion", "[reliability][bad_input][model]") {
  const std::string csv = kSmall;
  Result<Forest> text = urnforest::DeserializeForest(
      reinterpret_cast<const uint8_t*>(csv.data()), csv.size());
  REQUIRE(text.status().code == StatusCode::kCorruptModel);
  REQUIRE(urnforest::DeserializeForest(nullptr, 0).status().code == StatusCode::kCorruptModel);
  std::vector<uint8_t> bytes =
      urnforest::SerializeForest(MustTrain(MustRead(kSmall), 3));
  bytes[4] = 2;
  REQUIRE(urnforest::DeserializeForest(bytes.data(), bytes.size()).status().code ==
          StatusCode::kUnsupportedVersion);
  bytes[4] = 1;
  bytes.pop_back();
  REQUIRE(urnforest::DeserializeForest(bytes.data(), bytes.size()).status().code ==
          StatusCode::kCorruptModel);
}

namespace {

// `bytes` (a serialised model) with the first occurrence of `from` replaced by `to` (same length)
// and the header's CRC recomputed, as a hostile writer would.
std::vector<uint8_t> Patched(std::vector<uint8_t> bytes, const std::string& from, const std::string& to) {
  REQUIRE(from.size() == to.size());
  auto at = std::search(bytes.begin() + 20, bytes.end(), from.begin(), from.end());
  REQUIRE(at != bytes.end());
  std::copy(to.begin(), to.end(), at);
  const uint32_t crc = urnforest::internal::Crc32(bytes.data() + 20, bytes.size() - 20);
  for (int i = 0; i < 4; ++i) bytes[16 + i] = static_cast<uint8_t>(crc >> (8 * i));
  return bytes;
}

}  // namespace

TEST_CASE("A model whose class or feature name is not UTF-8 fails with CorruptModel even with a valid CRC",
          "[reliability][bad_input][model]") {
  const std::vector<uint8_t> bytes = urnforest::SerializeForest(MustTrain(MustRead(
      "alpha,beta,class\n1,x,klasse\n2,y,other\n3,x,klasse\n4,y,other\n"), 3));
  REQUIRE(urnforest::DeserializeForest(bytes.data(), bytes.size()).ok());
  const std::string bad_byte("\xFF");
  for (const std::string& name : {"klasse", "beta"}) {
    INFO(name);
    const std::vector<uint8_t> patched = Patched(bytes, name, name.substr(0, 2) + bad_byte + name.substr(3));
    const Result<Forest> loaded = urnforest::DeserializeForest(patched.data(), patched.size());
    REQUIRE(loaded.status().code == StatusCode::kCorruptModel);
    REQUIRE(loaded.status().message.find("not UTF-8") != std::string::npos);
  }
  // An overlong encoding of '/' (C0 AF) and a lone surrogate (ED A0 80) are not UTF-8 either.
  for (const std::string& bad : {std::string("\xC0\xAF"), std::string("\xED\xA0\x80")}) {
    const std::vector<uint8_t> patched = Patched(bytes, std::string("klasse").substr(0, bad.size()), bad);
    REQUIRE(urnforest::DeserializeForest(patched.data(), patched.size()).status().code == StatusCode::kCorruptModel);
  }
}

TEST_CASE("The JSON writer writes a byte that breaks UTF-8 as U+FFFD, so its output stays valid JSON",
          "[reliability][bad_input][json]") {
  urnforest::JsonWriter w;
  w.BeginObject().Key(std::string("k\xFF", 2)).String(std::string("a\xC0\xAF" "b\xE2\x82\xAC", 7)).EndObject();
  REQUIRE(w.str() == "{\"k\xEF\xBF\xBD\":\"a\xEF\xBF\xBD\xEF\xBF\xBD" "b\xE2\x82\xAC\"}");
}

TEST_CASE("An empty data set fails with InvalidArgument saying it is empty, one without labels with MissingLabel",
          "[reliability][bad_input][train]") {
  const Dataset data = MustRead(kSmall);
  const Dataset empty = data.Subset({});
  TrainOptions options;
  options.num_trees = 3;
  Result<Forest> trained = urnforest::Train(empty, options);
  REQUIRE(trained.status().code == StatusCode::kInvalidArgument);
  REQUIRE(trained.status().message.find("empty (0 rows)") != std::string::npos);
  CsvOptions no_target;
  no_target.has_target = false;
  const Dataset unlabeled = MustRead(kSmall, no_target);
  REQUIRE(TrainCode(unlabeled, options) == StatusCode::kMissingLabel);
  const Forest forest = MustTrain(data, 3);
  REQUIRE(urnforest::ComputeVoteMatrix(forest, empty).status().code == StatusCode::kInvalidArgument);
  REQUIRE(urnforest::ComputeVoteMatrix(forest, unlabeled).status().code == StatusCode::kMissingLabel);
  urnforest::ExperimentOptions experiment;
  experiment.train.num_trees = 3;
  experiment.data = &empty;
  REQUIRE(urnforest::RunExperiment(experiment).status().code == StatusCode::kInvalidArgument);
  experiment.data = &unlabeled;
  REQUIRE(urnforest::RunExperiment(experiment).status().code == StatusCode::kMissingLabel);
}
