#include "urnforest/forest_builder.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/full_vote.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"

using namespace urnforest;

namespace {

Schema OneFeatureTwoClasses() {
  Schema schema;
  schema.target_name = "y";
  schema.class_names = {"no", "yes"};
  FeatureInfo x;
  x.name = "x";
  x.type = FeatureType::kNumeric;
  schema.features.push_back(x);
  return schema;
}

ImportedModel VotingRecord() {
  ImportedModel m;
  m.kind = ImportedKind::kVoting;
  m.transform = ScoreTransform::kNone;
  m.outputs = 2;
  m.default_vote = VoteKind::kSoft;
  m.source = "hand-built 1";
  return m;
}

// A builder with the schema, record and two leaf rows: row 0 (0.6, 0.4) votes "no", row 1
// (0.1, 0.9) votes "yes".
ForestBuilder ReadyBuilder() {
  ForestBuilder b;
  REQUIRE(b.SetSchema(OneFeatureTwoClasses()).ok());
  REQUIRE(b.SetImported(VotingRecord()).ok());
  REQUIRE(b.SetLeaves({0.6, 0.4, 0.1, 0.9}, {0, 1}).ok());
  return b;
}

// Tree 0: x <= 0.5 (NaN left) ? row 0 : row 1.
// Tree 1: x <= 1.5 (NaN right) ? (x <= -1 ? row 1 : row 0) : a copy of the row-1 leaf.
Forest TwoTrees() {
  ForestBuilder b = ReadyBuilder();
  REQUIRE(b.BeginTree().ok());
  const uint32_t r0 = b.AddNodes(1).value();
  const uint32_t k0 = b.AddNodes(2).value();
  REQUIRE(b.SetSplit(r0, 0, 0.5f, k0, true).ok());
  REQUIRE(b.SetLeaf(k0, 0).ok());
  REQUIRE(b.SetLeaf(k0 + 1, 1).ok());
  REQUIRE(b.BeginTree().ok());
  const uint32_t r1 = b.AddNodes(1).value();
  const uint32_t k1 = b.AddNodes(2).value();
  REQUIRE(b.SetSplit(r1, 0, 1.5f, k1, false).ok());
  const uint32_t k2 = b.AddNodes(2).value();
  REQUIRE(b.SetSplit(k1, 0, -1.0f, k2, false).ok());
  REQUIRE(b.SetLeaf(k2, 1).ok());
  REQUIRE(b.SetLeaf(k2 + 1, 0).ok());
  REQUIRE(b.CopyNode(k1 + 1, k2).ok());
  REQUIRE(b.num_trees() == 2);
  Result<Forest> forest = b.Finish();
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

const std::vector<float> kRows = {0.0f, 1.0f, 2.0f, -2.0f, NAN};

}  // namespace

TEST_CASE("A forest built node by node through ForestBuilder predicts as its trees say",
          "[forest_builder]") {
  const Forest forest = TwoTrees();
  REQUIRE(forest.num_trees() == 2);
  REQUIRE(forest.num_nodes() == 8);
  CHECK(forest.tree_roots() == std::vector<uint32_t>{0, 3});
  CHECK(forest.options().ensemble == EnsembleKind::kImported);
  CHECK(forest.options().num_trees == 2);
  REQUIRE(forest.imported() != nullptr);
  CHECK(forest.imported()->source == "hand-built 1");
  CHECK(forest.imported()->leaf_values == std::vector<double>{0.6, 0.4, 0.1, 0.9});
  CHECK(forest.imported()->tree_low.size() == 4);

  SECTION("each tree votes its leaf's class") {
    const std::vector<int32_t> tree0 = {0, 1, 1, 0, 0};
    const std::vector<int32_t> tree1 = {0, 0, 1, 1, 1};
    for (size_t r = 0; r < kRows.size(); ++r) {
      CHECK(forest.TreeVote(0, &kRows[r]) == tree0[r]);
      CHECK(forest.TreeVote(1, &kRows[r]) == tree1[r]);
    }
  }
  SECTION("the hard vote counts the trees, ties to the first class") {
    Result<FullVote> full = PredictFullRows(forest, kRows.data(), kRows.size());
    REQUIRE(full.ok());
    CHECK(full.value().votes == std::vector<uint32_t>{2, 0, 1, 1, 0, 2, 1, 1, 1, 1});
    CHECK(full.value().labels == std::vector<int32_t>{0, 0, 1, 0, 0});
  }
  SECTION("the soft vote sums the leaf values") {
    Result<ScorePrediction> soft = PredictScoresRows(forest, kRows.data(), kRows.size(), VoteKind::kSoft);
    REQUIRE(soft.ok());
    CHECK(soft.value().labels == std::vector<int32_t>{0, 1, 1, 1, 1});
    const std::vector<double> want = {1.2, 0.8, 0.7, 1.3, 0.2, 1.8, 0.7, 1.3, 0.7, 1.3};
    REQUIRE(soft.value().scores.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(soft.value().scores[i] == Approx(want[i]).margin(1e-12));
  }
  SECTION("the model bytes load back into the same forest") {
    const std::vector<uint8_t> bytes = SerializeForest(forest);
    Result<Forest> loaded = DeserializeForest(bytes.data(), bytes.size());
    REQUIRE(loaded.ok());
    CHECK(SerializeForest(loaded.value()) == bytes);
  }
}

TEST_CASE("ForestBuilder::AddLeaf numbers leaf rows in the order they are given", "[forest_builder]") {
  ForestBuilder b;
  REQUIRE(b.SetSchema(OneFeatureTwoClasses()).ok());
  REQUIRE(b.SetImported(VotingRecord()).ok());
  REQUIRE(b.BeginTree().ok());
  const uint32_t root = b.AddNodes(1).value();
  const uint32_t kids = b.AddNodes(2).value();
  const double low[] = {0.9, 0.1}, high[] = {0.2, 0.8};
  CHECK(b.AddLeaf(low, 0).value() == 0);
  CHECK(b.AddLeaf(high, 1).value() == 1);
  REQUIRE(b.SetSplit(root, 0, 3.0f, kids, false).ok());
  REQUIRE(b.SetLeaf(kids, 1).ok());
  REQUIRE(b.SetLeaf(kids + 1, 0).ok());
  Result<Forest> forest = b.Finish();
  REQUIRE(forest.ok());
  const float x[] = {2.0f, 4.0f};
  CHECK(forest.value().TreeVote(0, &x[0]) == 1);
  CHECK(forest.value().TreeVote(0, &x[1]) == 0);
  CHECK(forest.value().imported()->leaf_values == std::vector<double>{0.9, 0.1, 0.2, 0.8});
}

TEST_CASE("ForestBuilder refuses a malformed build with a Status naming the fault", "[forest_builder]") {
  auto refused = [](const Status& s, StatusCode code, const std::string& words) {
    INFO(s.message);
    CHECK(s.code == code);
    CHECK(s.message.find(words) != std::string::npos);
  };
  SECTION("a child index out of range") {
    ForestBuilder b = ReadyBuilder();
    REQUIRE(b.BeginTree().ok());
    const uint32_t root = b.AddNodes(1).value();
    refused(b.SetSplit(root, 0, 0.5f, 7, false), StatusCode::kCorruptModel, "names children 7 and 8, out of range");
    refused(b.SetSplit(root, 0, 0.5f, root, false), StatusCode::kCorruptModel, "out of range");
  }
  SECTION("a leaf without leaf values") {
    ForestBuilder b = ReadyBuilder();
    REQUIRE(b.BeginTree().ok());
    const uint32_t root = b.AddNodes(1).value();
    refused(b.SetLeaf(root, 2), StatusCode::kCorruptModel, "names leaf-value row 2, but there are 2 rows");
  }
  SECTION("a leaf vote for a class that does not exist, or values that do not fill the rows") {
    ForestBuilder b;
    REQUIRE(b.SetSchema(OneFeatureTwoClasses()).ok());
    REQUIRE(b.SetImported(VotingRecord()).ok());
    refused(b.SetLeaves({0.5, 0.5}, {2}), StatusCode::kCorruptModel, "votes for class 2 of 2");
    refused(b.SetLeaves({0.5, 0.5, 0.5}, {0}), StatusCode::kCorruptModel, "3 leaf values for 1 leaves");
    const double v[] = {0.5, 0.5};
    refused(b.AddLeaf(v, 5).status(), StatusCode::kCorruptModel, "votes for class 5 of 2");
  }
  SECTION("a split on a feature out of range or at a NaN threshold") {
    ForestBuilder b = ReadyBuilder();
    REQUIRE(b.BeginTree().ok());
    const uint32_t root = b.AddNodes(1).value();
    const uint32_t kids = b.AddNodes(2).value();
    refused(b.SetSplit(root, 1, 0.5f, kids, false), StatusCode::kCorruptModel, "splits on feature 1 of 1");
    refused(b.SetSplit(root, 0, NAN, kids, false), StatusCode::kCorruptModel, "NaN threshold");
  }
  SECTION("a node set twice, or never") {
    ForestBuilder b = ReadyBuilder();
    REQUIRE(b.BeginTree().ok());
    const uint32_t root = b.AddNodes(1).value();
    const uint32_t kids = b.AddNodes(2).value();
    REQUIRE(b.SetSplit(root, 0, 0.5f, kids, false).ok());
    refused(b.SetLeaf(root, 0), StatusCode::kCorruptModel, "node 0 is set twice");
    REQUIRE(b.SetLeaf(kids, 0).ok());
    refused(b.Finish().status(), StatusCode::kCorruptModel, "node 2 of tree 0 is neither a split nor a leaf");
  }
  SECTION("a node outside the current tree, and a copy whose children would come before it") {
    ForestBuilder b = ReadyBuilder();
    REQUIRE(b.BeginTree().ok());
    const uint32_t root = b.AddNodes(1).value();
    const uint32_t kids = b.AddNodes(2).value();
    REQUIRE(b.SetSplit(root, 0, 0.5f, kids, false).ok());
    REQUIRE(b.SetLeaf(kids, 0).ok());
    REQUIRE(b.SetLeaf(kids + 1, 1).ok());
    REQUIRE(b.BeginTree().ok());
    const uint32_t next = b.AddNodes(1).value();
    refused(b.SetLeaf(kids, 0), StatusCode::kCorruptModel, "is not a reserved node of tree 1");
    refused(b.CopyNode(next, root), StatusCode::kCorruptModel, "which is not a node of this tree set before");
  }
  SECTION("a schema or record a forest cannot hold") {
    ForestBuilder b;
    Schema one_class = OneFeatureTwoClasses();
    one_class.class_names = {"only"};
    refused(b.SetSchema(one_class), StatusCode::kCorruptModel, "2 to 4,096 classes, not 1");
    Schema twice = OneFeatureTwoClasses();
    twice.features.push_back(twice.features[0]);
    refused(b.SetSchema(twice), StatusCode::kCorruptModel, "feature name 'x' appears twice");
    REQUIRE(b.SetSchema(OneFeatureTwoClasses()).ok());
    ImportedModel three = VotingRecord();
    three.outputs = 3;
    refused(b.SetImported(three), StatusCode::kCorruptModel, "3 values per leaf for 2 classes");
    ImportedModel with_leaves = VotingRecord();
    with_leaves.leaf_values = {1.0, 0.0};
    refused(b.SetImported(with_leaves), StatusCode::kCorruptModel, "without leaves");
  }
  SECTION("calls out of order") {
    ForestBuilder b;
    refused(b.BeginTree(), StatusCode::kInvalidArgument, "before the trees");
    refused(b.SetImported(VotingRecord()), StatusCode::kInvalidArgument, "set the schema before");
    REQUIRE(b.SetSchema(OneFeatureTwoClasses()).ok());
    refused(b.SetSchema(OneFeatureTwoClasses()), StatusCode::kInvalidArgument, "already set");
    REQUIRE(b.SetImported(VotingRecord()).ok());
    refused(b.AddNodes(1).status(), StatusCode::kInvalidArgument, "begin a tree");
    refused(b.Finish().status(), StatusCode::kCorruptModel, "no trees");
  }
  SECTION("a failed call changes nothing: the build goes on after it") {
    ForestBuilder b = ReadyBuilder();
    REQUIRE(b.BeginTree().ok());
    const uint32_t root = b.AddNodes(1).value();
    CHECK_FALSE(b.SetLeaf(root, 9).ok());
    REQUIRE(b.SetLeaf(root, 1).ok());
    Result<Forest> forest = b.Finish();
    REQUIRE(forest.ok());
    const float x = 0.0f;
    CHECK(forest.value().TreeVote(0, &x) == 1);
  }
}
