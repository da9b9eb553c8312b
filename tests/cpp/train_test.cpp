#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "base/crc32.h"
#include "base/random.h"
#include "fixtures.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"

using namespace urnforest;
using namespace urnforest::test;

namespace {

double TestError(const Forest& forest, const Dataset& test) {
  Result<FullVote> vote = PredictFull(forest, test);
  REQUIRE(vote.ok());
  size_t wrong = 0;
  for (size_t r = 0; r < test.num_rows(); ++r) wrong += vote.value().labels[r] != test.labels()[r];
  return static_cast<double>(wrong) / static_cast<double>(test.num_rows());
}

Dataset OneCategoricalColumn(const std::vector<int>& cats, const std::vector<int32_t>& labels,
                             size_t num_categories, size_t num_classes) {
  Schema schema;
  FeatureInfo f;
  f.name = "c";
  f.type = FeatureType::kCategorical;
  for (size_t c = 0; c < num_categories; ++c) f.categories.push_back(std::string(1, 'a' + c));
  schema.features.push_back(f);
  schema.target_name = "y";
  for (size_t k = 0; k < num_classes; ++k) schema.class_names.push_back("k" + std::to_string(k));
  std::vector<float> values(cats.begin(), cats.end());
  Result<Dataset> d = Dataset::Create(schema, cats.size(), values, labels);
  REQUIRE(d.ok());
  return std::move(d).value();
}

}  // namespace

TEST_CASE("Training twice with the same data, options and seed gives byte-identical models", "[train][determinism]") {
  Dataset data = MustTwonorm(300, 5);
  TrainOptions o;
  o.num_trees = 15;
  o.seed = 42;
  REQUIRE(SerializeForest(MustTrain(data, o)) == SerializeForest(MustTrain(data, o)));
  o.ensemble = EnsembleKind::kBagging;
  REQUIRE(SerializeForest(MustTrain(data, o)) == SerializeForest(MustTrain(data, o)));
}

TEST_CASE("A small twonorm model has pinned bytes on every platform", "[train][determinism]") {
  // The same CRC must come out of the wasm build (libc++); bench/train_twonorm prints it too.
  Dataset data = MustTwonorm(300, 1);
  TrainOptions o;
  o.num_trees = 11;
  const std::vector<uint8_t> bytes = SerializeForest(MustTrain(data, o));
  const uint32_t crc = internal::Crc32(bytes.data(), bytes.size());
  INFO("crc " << crc);
  REQUIRE(crc == 0x06722677u);
}

TEST_CASE("Different seeds give different models", "[train][determinism]") {
  Dataset data = MustTwonorm(300, 5);
  TrainOptions a;
  a.num_trees = 5;
  TrainOptions b = a;
  b.seed = 2;
  REQUIRE(SerializeForest(MustTrain(data, a)) != SerializeForest(MustTrain(data, b)));
}

TEST_CASE("Tree t of a forest depends only on the seed and t, not on the number of trees", "[train][determinism]") {
  Dataset data = MustTwonorm(200, 9);
  TrainOptions small;
  small.num_trees = 3;
  TrainOptions large = small;
  large.num_trees = 7;
  Forest a = MustTrain(data, small), b = MustTrain(data, large);
  std::vector<float> row(data.num_features());
  for (size_t r = 0; r < data.num_rows(); ++r) {
    data.CopyRow(r, row.data());
    for (int32_t t = 0; t < 3; ++t) REQUIRE(a.TreeVote(t, row.data()) == b.TreeVote(t, row.data()));
  }
}

TEST_CASE("OOB votes of a row sum to the number of trees whose bootstrap missed it", "[train][oob]") {
  Dataset data = MustTwonorm(150, 3);
  TrainOptions o;
  o.num_trees = 21;
  o.seed = 11;
  Forest forest = MustTrain(data, o);
  const size_t n = data.num_rows();
  std::vector<uint32_t> missed(n, 0);
  for (int32_t t = 0; t < o.num_trees; ++t) {
    internal::Rng rng = internal::Rng::ForStream(o.seed, static_cast<uint64_t>(t));
    std::vector<uint32_t> w(n, 0);
    for (size_t i = 0; i < n; ++i) ++w[rng.Below(static_cast<uint32_t>(n))];
    for (size_t r = 0; r < n; ++r) missed[r] += w[r] == 0;
  }
  REQUIRE(forest.oob_votes().size() == n * 2);
  REQUIRE(forest.train_labels() == data.labels());
  for (size_t r = 0; r < n; ++r) {
    REQUIRE(forest.oob_votes()[2 * r] + forest.oob_votes()[2 * r + 1] == missed[r]);
  }
}

TEST_CASE("A random forest on twonorm reaches a test error near the Bayes rate", "[train][accuracy]") {
  Dataset train = MustTwonorm(2000, 1);
  Dataset test = MustTwonorm(5000, 2);
  TrainOptions o;
  Forest forest = MustTrain(train, o);
  REQUIRE(forest.num_trees() == 101);
  const double error = TestError(forest, test);
  CAPTURE(error, forest.oob_error());
  REQUIRE(error < 0.05);
  REQUIRE(std::fabs(forest.oob_error() - error) < 0.02);
}

TEST_CASE("Bagging on threenorm and ringnorm learns better than chance", "[train][accuracy]") {
  TrainOptions o;
  o.ensemble = EnsembleKind::kBagging;
  o.num_trees = 25;
  Result<Dataset> three = Threenorm(600, 1), three_test = Threenorm(1000, 2);
  Result<Dataset> ring = Ringnorm(600, 1), ring_test = Ringnorm(1000, 2);
  REQUIRE(TestError(MustTrain(three.value(), o), three_test.value()) < 0.3);
  REQUIRE(TestError(MustTrain(ring.value(), o), ring_test.value()) < 0.2);
}

TEST_CASE("A categorical subset split separates {a,c} from {b} in one split", "[train][categorical]") {
  std::vector<int> cats;
  std::vector<int32_t> labels;
  for (int i = 0; i < 60; ++i) {
    cats.push_back(i % 3);
    labels.push_back(i % 3 == 1 ? 1 : 0);
  }
  Dataset data = OneCategoricalColumn(cats, labels, 3, 2);
  TrainOptions o;
  o.num_trees = 1;
  o.ensemble = EnsembleKind::kBagging;
  Forest forest = MustTrain(data, o);
  REQUIRE(forest.num_nodes() == 3);
  REQUIRE((forest.node_table().nodes[0].aux & Forest::kCategoricalSplit) != 0);
  for (float c : {0.0f, 1.0f, 2.0f}) REQUIRE(forest.TreeVote(0, &c) == (c == 1.0f ? 1 : 0));
}

TEST_CASE("Categories absent from a node follow its larger child", "[train][categorical]") {
  // Category d never occurs in training; a and c (40 rows) outnumber b (20 rows).
  std::vector<int> cats;
  std::vector<int32_t> labels;
  for (int i = 0; i < 60; ++i) {
    cats.push_back(i % 3);
    labels.push_back(i % 3 == 1 ? 1 : 0);
  }
  Dataset data = OneCategoricalColumn(cats, labels, 4, 2);
  TrainOptions o;
  o.num_trees = 1;
  o.ensemble = EnsembleKind::kBagging;
  Forest forest = MustTrain(data, o);
  const float unseen = 3.0f;
  REQUIRE(forest.TreeVote(0, &unseen) == 0);
}

TEST_CASE("Missing values are routed by the learned direction", "[train][missing]") {
  std::vector<float> x;
  std::vector<int32_t> y;
  for (int i = 0; i < 40; ++i) {
    x.push_back(static_cast<float>(i % 20));
    y.push_back(i % 20 < 10 ? 0 : 1);
  }
  for (int i = 0; i < 10; ++i) {
    x.push_back(NAN);
    y.push_back(0);
  }
  Result<Dataset> data = Dataset::FromRowMajor(x.data(), x.size(), 1, y.data(), {}, {});
  REQUIRE(data.ok());
  TrainOptions o;
  o.num_trees = 5;
  o.ensemble = EnsembleKind::kBagging;
  Forest forest = MustTrain(data.value(), o);
  const float missing = NAN;
  for (int32_t t = 0; t < 5; ++t) {
    REQUIRE(forest.TreeVote(t, &missing) == 0);
    REQUIRE((forest.node_table().nodes[forest.tree_roots()[t]].aux & Forest::kMissingLeft) != 0);
  }
}

TEST_CASE("max_depth bounds the depth of every tree", "[train][options]") {
  Dataset data = MustTwonorm(300, 4);
  TrainOptions o;
  o.num_trees = 4;
  o.max_depth = 1;
  Forest forest = MustTrain(data, o);
  REQUIRE(forest.num_nodes() == 12);
  o.max_depth = 2;
  REQUIRE(MustTrain(data, o).num_nodes() <= 28);
}

TEST_CASE("A larger min_leaf grows smaller trees", "[train][options]") {
  Dataset data = MustTwonorm(300, 4);
  TrainOptions o;
  o.num_trees = 3;
  Forest deep = MustTrain(data, o);
  o.min_leaf = 20;
  Forest shallow = MustTrain(data, o);
  REQUIRE(shallow.num_nodes() < deep.num_nodes() / 2);
}

TEST_CASE("ResolveMtry follows the documented rules", "[train][options]") {
  TrainOptions o;
  REQUIRE(ResolveMtry(o, 20) == 4);
  REQUIRE(ResolveMtry(o, 16) == 4);
  REQUIRE(ResolveMtry(o, 1) == 1);
  o.mtry_rule = MtryRule::kLog2;
  REQUIRE(ResolveMtry(o, 20) == 4);
  REQUIRE(ResolveMtry(o, 2) == 1);
  o.mtry_rule = MtryRule::kLog2Plus1;
  REQUIRE(ResolveMtry(o, 20) == 5);
  o.mtry = 7;
  REQUIRE(ResolveMtry(o, 20) == 7);
  o.ensemble = EnsembleKind::kBagging;
  REQUIRE(ResolveMtry(o, 20) == 20);
}

TEST_CASE("Options out of range fail with kInvalidArgument naming the option", "[train][errors]") {
  Dataset data = MustTwonorm(50, 1);
  auto fails_naming = [&](TrainOptions o, const std::string& name) {
    Result<Forest> f = Train(data, o);
    REQUIRE_FALSE(f.ok());
    REQUIRE(f.status().code == StatusCode::kInvalidArgument);
    REQUIRE(f.status().message.find(name) != std::string::npos);
  };
  TrainOptions o;
  o.num_trees = 0;
  fails_naming(o, "num_trees");
  o = TrainOptions();
  o.num_trees = TrainOptions::kMaxTrees + 1;
  fails_naming(o, "num_trees");
  o = TrainOptions();
  o.mtry = 21;
  fails_naming(o, "mtry");
  o = TrainOptions();
  o.mtry = -1;
  fails_naming(o, "mtry");
  o = TrainOptions();
  o.max_depth = -1;
  fails_naming(o, "max_depth");
  o = TrainOptions();
  o.min_leaf = 0;
  fails_naming(o, "min_leaf");
  o = TrainOptions();
  o.ensemble = static_cast<EnsembleKind>(7);
  fails_naming(o, "ensemble");
  o = TrainOptions();
  o.mtry_rule = static_cast<MtryRule>(9);
  fails_naming(o, "mtry_rule");
}

TEST_CASE("A dataset with one class fails with kTooFewClasses", "[train][errors]") {
  const std::vector<float> x = {1, 2, 3, 4};
  const std::vector<int32_t> y = {1, 1, 1, 1};
  Result<Dataset> data = Dataset::FromRowMajor(x.data(), 4, 1, y.data(), {}, {"a", "b"});
  REQUIRE(data.ok());
  Result<Forest> f = Train(data.value(), TrainOptions());
  REQUIRE(f.status().code == StatusCode::kTooFewClasses);
}

TEST_CASE("Rows without a label or data without a target fail with kMissingLabel", "[train][errors]") {
  const std::vector<float> x = {1, 2, 3, 4};
  const std::vector<int32_t> y = {0, 1, -1, 1};
  Result<Dataset> data = Dataset::FromRowMajor(x.data(), 4, 1, y.data(), {}, {"a", "b"});
  REQUIRE(Train(data.value(), TrainOptions()).status().code == StatusCode::kMissingLabel);
  Result<Dataset> unlabeled = Dataset::FromRowMajor(x.data(), 4, 1, nullptr, {}, {"a", "b"});
  REQUIRE(Train(unlabeled.value(), TrainOptions()).status().code == StatusCode::kMissingLabel);
}

TEST_CASE("Training stops with 'cancelled' when progress returns false", "[train][progress]") {
  Dataset data = MustTwonorm(100, 1);
  TrainOptions o;
  o.num_trees = 10;
  int32_t calls = 0;
  auto progress = [&](int32_t done, int32_t total) {
    ++calls;
    REQUIRE(total == 10);
    return done < 3;
  };
  Result<Forest> f = Train(data, o, progress);
  REQUIRE(f.status().code == StatusCode::kInvalidArgument);
  REQUIRE(f.status().message == "cancelled");
  REQUIRE(calls == 3);
}

TEST_CASE("PredictFull counts every tree's vote and breaks ties towards the lowest class", "[predict]") {
  Dataset data = MustTwonorm(200, 8);
  TrainOptions o;
  o.num_trees = 4;
  Forest forest = MustTrain(data, o);
  Result<FullVote> vote = PredictFull(forest, data);
  REQUIRE(vote.ok());
  std::vector<float> row(data.num_features());
  for (size_t r = 0; r < data.num_rows(); ++r) {
    data.CopyRow(r, row.data());
    uint32_t ones = 0;
    for (int32_t t = 0; t < 4; ++t) ones += forest.TreeVote(t, row.data()) == 1;
    REQUIRE(vote.value().votes[2 * r + 1] == ones);
    REQUIRE(vote.value().votes[2 * r] == 4 - ones);
    REQUIRE(vote.value().labels[r] == (ones > 2 ? 1 : 0));
  }
}

TEST_CASE("PredictFull rejects data whose columns differ from the model's", "[predict][errors]") {
  Dataset data = MustTwonorm(100, 8);
  TrainOptions o;
  o.num_trees = 3;
  Forest forest = MustTrain(data, o);
  const std::vector<float> x = {1, 2, 3};
  Result<Dataset> narrow = Dataset::FromRowMajor(x.data(), 1, 3, nullptr, {}, {});
  REQUIRE(PredictFull(forest, narrow.value()).status().code == StatusCode::kColumnMismatch);
  Schema schema = data.schema();
  schema.features[4].type = FeatureType::kCategorical;
  schema.features[4].categories = {"u", "v"};
  std::vector<float> values(20 * 2, 0.0f);
  Result<Dataset> typed = Dataset::Create(schema, 2, values, {});
  REQUIRE(typed.ok());
  REQUIRE(PredictFull(forest, typed.value()).status().code == StatusCode::kColumnMismatch);
}

TEST_CASE("PredictFull maps categories by name when the data lists them differently", "[predict][categorical]") {
  std::vector<int> cats;
  std::vector<int32_t> labels;
  for (int i = 0; i < 60; ++i) {
    cats.push_back(i % 3);
    labels.push_back(i % 3 == 1 ? 1 : 0);
  }
  Dataset data = OneCategoricalColumn(cats, labels, 3, 2);
  TrainOptions o;
  o.num_trees = 3;
  Forest forest = MustTrain(data, o);
  Schema schema = data.schema();
  schema.features[0].categories = {"b", "z", "a"};
  Result<Dataset> other = Dataset::Create(schema, 3, {0, 1, 2}, {});
  REQUIRE(other.ok());
  Result<FullVote> vote = PredictFull(forest, other.value());
  REQUIRE(vote.ok());
  REQUIRE(vote.value().labels[0] == 1);
  REQUIRE(vote.value().labels[2] == 0);
}
