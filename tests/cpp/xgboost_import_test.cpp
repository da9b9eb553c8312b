// XGBoost's own JSON model, imported without a converter: the fixtures in tests/fixtures/xgboost
// (scripts/xgboost_fixtures.py, real XGBoost 1.7) predict what xgboost predicted, halt exactly, and
// the importer refuses what it does not run.
#include "urnforest/xgboost_import.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"
#include "xgboost/json_value.h"

// The libFuzzer target's entry with its oracle (tests/fuzz/fuzz_xgboost.cpp); aborts on a
// violation.
extern "C" int UrnforestFuzzXGBoost(const uint8_t* data, size_t size);

namespace urnforest {
namespace {

using internal::JsonValue;
using test::MustOk;

std::string ReadFile(const std::string& name) {
  std::ifstream in(std::string(URNFOREST_XGBOOST_FIXTURES_DIR) + "/" + name, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<Forest> Import(const std::string& bytes, const XGBoostImportOptions& options = {}) {
  return ImportXGBoost(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), options);
}

// A fixture's record (rows and xgboost's answers), read with the importer's own JSON reader.
struct Expected {
  JsonValue doc;
  std::vector<float> rows;  // row-major, NaN for null
  size_t num_rows = 0;
};
Expected ReadExpected(const std::string& fixture) {
  const std::string text = ReadFile(fixture + ".json");
  Expected e;
  e.doc = MustOk(internal::ParseJson(reinterpret_cast<const uint8_t*>(text.data()), text.size(), {},
                                     "fixture"));
  for (const JsonValue& row : e.doc.Find("rows")->items) {
    for (size_t i = 0; i < row.size(); ++i) {
      double v = 0.0;
      float unused = 0.0f;
      e.rows.push_back(row.NumberAt(i, &v, &unused) ? static_cast<float>(v)
                                                    : std::numeric_limits<float>::quiet_NaN());
    }
    ++e.num_rows;
  }
  return e;
}

Forest ImportFixture(const std::string& fixture) {
  return MustOk(Import(ReadFile(fixture + ".model.json")));
}

const char* const kFixtures[] = {"wdbc_binary_missing", "vehicle_softprob_missing", "iris_softmax",
                                 "wdbc_logitraw"};

TEST_CASE(
    "An XGBoost JSON model predicts xgboost's class on every row and its probabilities within 1e-6",
    "[xgboost_import]") {
  const std::string fixture = GENERATE(from_range(std::begin(kFixtures), std::end(kFixtures)));
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const Expected e = ReadExpected(fixture);
  const JsonValue& source = *e.doc.Find("source");
  const size_t k = static_cast<size_t>(forest.num_classes());
  REQUIRE(forest.num_trees() == static_cast<int32_t>(e.doc.Find("n_trees")->number));
  REQUIRE(forest.imported() != nullptr);
  CHECK(forest.imported()->kind == ImportedKind::kAdditive);
  const ScorePrediction p =
      MustOk(PredictScoresRows(forest, e.rows.data(), e.num_rows, VoteKind::kSoft));
  double worst = 0.0;
  for (size_t r = 0; r < e.num_rows; ++r) {
    INFO("row " << r);
    REQUIRE(p.labels[r] == static_cast<int32_t>(source.Find("predict")->numbers[r]));
    const JsonValue& proba = source.Find("predict_proba")->items[r];
    REQUIRE(proba.numbers.size() == k);
    for (size_t c = 0; c < k; ++c)
      worst = std::max(worst, std::fabs(p.scores[r * k + c] - proba.numbers[c]));
  }
  INFO("largest difference " << worst);
  CHECK(worst <= 1e-6);
  const bool has_missing =
      std::any_of(e.rows.begin(), e.rows.end(), [](float v) { return std::isnan(v); });
  CHECK(has_missing == (fixture.find("missing") != std::string::npos));
}

TEST_CASE(
    "The exact early exit halts an imported XGBoost model with the full prediction's class on "
    "every row",
    "[xgboost_import]") {
  const std::string fixture = GENERATE(from_range(std::begin(kFixtures), std::end(kFixtures)));
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const Expected e = ReadExpected(fixture);
  const ScorePrediction full =
      MustOk(PredictScoresRows(forest, e.rows.data(), e.num_rows, VoteKind::kSoft));
  const ExactHaltResult exact = MustOk(PredictSoftExact(forest, e.rows.data(), e.num_rows));
  CHECK(exact.labels == full.labels);
  CHECK(exact.mean_trees < forest.num_trees());
  for (int32_t used : exact.trees_used) REQUIRE((used >= 1 && used <= forest.num_trees()));
}

TEST_CASE("An imported XGBoost model keeps its predictions through its bytes", "[xgboost_import]") {
  const Forest forest = ImportFixture("vehicle_softprob_missing");
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  const Forest loaded = MustOk(DeserializeForest(bytes.data(), bytes.size()));
  const Expected e = ReadExpected("vehicle_softprob_missing");
  const ScorePrediction a =
      MustOk(PredictScoresRows(forest, e.rows.data(), e.num_rows, VoteKind::kSoft));
  const ScorePrediction b =
      MustOk(PredictScoresRows(loaded, e.rows.data(), e.num_rows, VoteKind::kSoft));
  CHECK(a.labels == b.labels);
  CHECK(a.scores == b.scores);
  CHECK(loaded.imported()->source == "xgboost 1.7.4");
}

TEST_CASE(
    "Columns take the names the model stores (else f0, f1 and so on), classes are 0..K-1, and options "
    "rename both",
    "[xgboost_import]") {
  const Forest named = ImportFixture("wdbc_binary_missing");
  CHECK(named.schema().features.front().name == "mean_radius");
  CHECK(named.schema().class_names == std::vector<std::string>{"0", "1"});
  const Forest unnamed = ImportFixture("vehicle_softprob_missing");
  REQUIRE(unnamed.num_features() == 18);
  CHECK(unnamed.schema().features[0].name == "f0");
  CHECK(unnamed.schema().features[17].name == "f17");
  XGBoostImportOptions options;
  options.class_names = {"setosa", "versicolor", "virginica"};
  options.feature_names = {"a", "b", "c", "d"};
  options.target_name = "species";
  const Forest renamed = MustOk(Import(ReadFile("iris_softmax.model.json"), options));
  CHECK(renamed.schema().class_names == options.class_names);
  CHECK(renamed.schema().features[3].name == "d");
  CHECK(renamed.schema().target_name == "species");
  options.class_names = {"only", "two"};
  Result<Forest> wrong = Import(ReadFile("iris_softmax.model.json"), options);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.status().code == StatusCode::kInvalidArgument);
  CHECK(wrong.status().message == "class names: the model has 3 classes, 2 names were given");
}

TEST_CASE(
    "Models XGBoost saved that are not gbtree classifiers are refused as unsupported, naming what "
    "they are",
    "[xgboost_import]") {
  const auto [file, words] = GENERATE(table<const char*, const char*>({
      {"bad_regression.model.json", "reg:squarederror"},
      {"bad_dart.model.json", "dart"},
      {"bad_gblinear.model.json", "gblinear"},
      {"bad_categorical.model.json", "categorical"},
  }));
  INFO(file);
  Result<Forest> r = Import(ReadFile(file));
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code == StatusCode::kUnsupportedModel);
  CHECK(r.status().message.find(words) != std::string::npos);
}

// The import of `bytes` either succeeds or fails with one of the model errors and a message.
void RequireCleanOutcome(const std::string& bytes) {
  Result<Forest> r = Import(bytes);
  if (r.ok()) return;
  const StatusCode code = r.status().code;
  INFO(r.status().ToString());
  REQUIRE((code == StatusCode::kCorruptModel || code == StatusCode::kUnsupportedModel ||
           code == StatusCode::kLimitExceeded));
  REQUIRE_FALSE(r.status().message.empty());
}

TEST_CASE("A model file cut short at every 1 % of its length is refused as corrupt",
          "[xgboost_import]") {
  const std::string bytes = ReadFile("iris_softmax.model.json");
  for (int percent = 0; percent < 100; ++percent) {
    const std::string cut = bytes.substr(0, bytes.size() * percent / 100);
    Result<Forest> r = Import(cut);
    INFO(percent << "%");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code == StatusCode::kCorruptModel);
  }
}

TEST_CASE(
    "Random bit flips in a model file never crash the importer: it imports or refuses with a model "
    "error",
    "[xgboost_import]") {
  const std::string original =
      ReadFile(GENERATE("wdbc_logitraw.model.json", "iris_softmax.model.json"));
  uint64_t state = 88172645463325252ull;
  auto next = [&state]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::string bytes = original;
    for (int flip = 0; flip < 1 + trial % 4; ++flip) {
      bytes[next() % bytes.size()] ^= static_cast<char>(1u << (next() % 8));
    }
    RequireCleanOutcome(bytes);
    REQUIRE(UrnforestFuzzXGBoost(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) ==
            0);
  }
}

TEST_CASE(
    "Deep nesting, huge arrays and text that is not an XGBoost model are refused with clear "
    "messages",
    "[xgboost_import]") {
  Result<Forest> deep = Import(std::string(100000, '[') + std::string(100000, ']'));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.status().code == StatusCode::kCorruptModel);
  CHECK(deep.status().message.find("nested deeper than 64") != std::string::npos);

  std::string huge = "[";
  for (int i = 0; i < 3000000; ++i) huge += "0,";
  huge += "0]";
  XGBoostImportOptions small;
  small.max_memory_bytes = 16 << 20;
  Result<Forest> big =
      ImportXGBoost(reinterpret_cast<const uint8_t*>(huge.data()), huge.size(), small);
  REQUIRE_FALSE(big.ok());
  CHECK(big.status().code == StatusCode::kLimitExceeded);
  CHECK(big.status().message.find("16 MiB") != std::string::npos);

  for (const char* text : {"", "{}", "{\"learner\": 1}", "[1, 2", "{\"a\": \"\\ud800\"}",
                           "{\"learner\": {}} x", "onnx", "{\"a\": 01}", "{\"a\": \"\x01\"}"}) {
    INFO(text);
    Result<Forest> r = Import(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code == StatusCode::kCorruptModel);
    CHECK(r.status().message.rfind("XGBoost JSON: ", 0) == 0);
  }
}

TEST_CASE("A model whose trees would exceed the memory budget is refused before it is built",
          "[xgboost_import]") {
  XGBoostImportOptions options;
  options.max_memory_bytes = 200 << 10;
  Result<Forest> r = Import(ReadFile("wdbc_binary_missing.model.json"), options);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code == StatusCode::kLimitExceeded);
}

TEST_CASE(
    "Splits send x < condition left exactly in float32: the condition itself and NaN follow "
    "XGBoost",
    "[xgboost_import]") {
  // One tree: x0 < 0.5 (missing goes right) -> leaf -1, else leaf +1; binary:logitraw, base 0.
  const std::string model =
      R"({"learner":{"feature_names":[],"gradient_booster":{"model":{"tree_info":[0],
    "trees":[{"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],
    "split_conditions":[0.5,-1.0,1.0],"default_left":[0,0,0],"split_type":[0,0,0]}]},"name":"gbtree"},
    "learner_model_param":{"base_score":"0E0","num_class":"0","num_feature":"1"},
    "objective":{"name":"binary:logitraw"}},"version":[1,7,4]})";
  const Forest forest = MustOk(Import(model));
  const float below = std::nextafter(0.5f, 0.0f);
  const std::vector<float> rows = {below, 0.5f, std::numeric_limits<float>::quiet_NaN(), -1e30f,
                                   1e30f};
  const ScorePrediction p =
      MustOk(PredictScoresRows(forest, rows.data(), rows.size(), VoteKind::kSoft));
  CHECK(p.labels == std::vector<int32_t>{0, 1, 1, 0, 1});
  CHECK(p.scores[0] == 1.0);
  CHECK(p.scores[1] == -1.0);
}

}  // namespace
}  // namespace urnforest

namespace urnforest {
namespace {

internal::JsonValue MustParse(const std::string& text) {
  return test::MustOk(internal::ParseJson(reinterpret_cast<const uint8_t*>(text.data()),
                                          text.size(), {}, "test"));
}

TEST_CASE("The JSON reader keeps arrays of numbers compact, with each literal's nearest float32",
          "[xgboost_import]") {
  const internal::JsonValue numbers = MustParse("[0.1, -2, 1e-3, NaN, -Infinity]");
  REQUIRE(numbers.size() == 5);
  CHECK(numbers.items.empty());
  CHECK(numbers.numbers32[0] == 0.1f);
  CHECK(numbers.numbers[0] == 0.1);
  CHECK(numbers.numbers32[2] == 1e-3f);
  CHECK(std::isnan(numbers.numbers32[3]));
  CHECK(numbers.numbers32[4] == -std::numeric_limits<float>::infinity());
  // A value that is not a number turns the array into items, the numbers before it kept.
  const internal::JsonValue mixed = MustParse(R"([1, 2, null, true, "x\u00e9\ud83d\ude00", {"k": [3]}])");
  REQUIRE(mixed.size() == 6);
  CHECK(mixed.numbers.empty());
  double d = 0.0;
  float f = 0.0f;
  CHECK(mixed.NumberAt(1, &d, &f));
  CHECK(d == 2.0);
  CHECK_FALSE(mixed.NumberAt(2, &d, &f));
  CHECK(mixed.items[3].boolean);
  CHECK(mixed.items[4].text == "x\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(mixed.items[5].Find("k")->numbers == std::vector<double>{3.0});
}

}  // namespace
}  // namespace urnforest
