#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ensemble/forest_access.h"
#include "fixtures.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"

using namespace urnforest;
using namespace urnforest::test;
using urnforest::internal::ForestAccess;

namespace {

Forest SmallForest() {
  // Numeric and categorical columns with missing values, three classes.
  Schema schema;
  schema.target_name = "y";
  schema.class_names = {"p", "q", "r"};
  FeatureInfo num;
  num.name = "x";
  FeatureInfo cat;
  cat.name = "c";
  cat.type = FeatureType::kCategorical;
  cat.categories = {"a", "b", "c", "d"};
  schema.features = {num, cat};
  const size_t rows = 60;
  std::vector<float> values(rows * 2);
  std::vector<int32_t> labels(rows);
  for (size_t r = 0; r < rows; ++r) {
    values[r] = (r % 7 == 0) ? NAN : static_cast<float>((r * 37) % 23);
    values[rows + r] = (r % 11 == 0) ? NAN : static_cast<float>(r % 4);
    labels[r] = static_cast<int32_t>((r % 4 + (r * 37) % 23 / 8) % 3);
  }
  Result<Dataset> data = Dataset::Create(schema, rows, values, labels);
  REQUIRE(data.ok());
  TrainOptions o;
  o.num_trees = 3;
  o.seed = 99;
  return MustTrain(data.value(), o);
}

}  // namespace

TEST_CASE("A serialized forest loads back with identical predictions and identical bytes", "[serialize]") {
  Result<Dataset> data = Twonorm(300, 1);
  TrainOptions o;
  o.num_trees = 11;
  Forest forest = Train(data.value(), o).value();
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  REQUIRE(bytes.size() > 20);
  REQUIRE(std::string(bytes.begin(), bytes.begin() + 4) == "URNF");
  Result<Forest> loaded = DeserializeForest(bytes.data(), bytes.size());
  INFO(loaded.status().ToString());
  REQUIRE(loaded.ok());
  REQUIRE(SerializeForest(loaded.value()) == bytes);
  REQUIRE(PredictFull(loaded.value(), data.value()).value().votes ==
          PredictFull(forest, data.value()).value().votes);
  REQUIRE(loaded.value().oob_votes() == forest.oob_votes());
  REQUIRE(loaded.value().oob_error() == forest.oob_error());
  REQUIRE(loaded.value().options().seed == o.seed);
}

TEST_CASE("A forest with categorical splits and missing values round-trips", "[serialize]") {
  Forest forest = SmallForest();
  REQUIRE_FALSE(forest.node_table().category_bits.empty());
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  Result<Forest> loaded = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(loaded.ok());
  REQUIRE(loaded.value().schema().features[1].categories == forest.schema().features[1].categories);
  REQUIRE(SerializeForest(loaded.value()) == bytes);
}

TEST_CASE("Every truncation of a model fails with kCorruptModel", "[serialize][corrupt]") {
  const std::vector<uint8_t> bytes = SerializeForest(SmallForest());
  for (size_t n = 0; n < bytes.size(); ++n) {
    Result<Forest> r = DeserializeForest(bytes.data(), n);
    REQUIRE(r.status().code == StatusCode::kCorruptModel);
  }
  REQUIRE(DeserializeForest(nullptr, 0).status().code == StatusCode::kCorruptModel);
}

TEST_CASE("Every flipped byte of a model is detected", "[serialize][corrupt]") {
  const std::vector<uint8_t> bytes = SerializeForest(SmallForest());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> bad = bytes;
    bad[i] ^= 0x5A;
    Result<Forest> r = DeserializeForest(bad.data(), bad.size());
    REQUIRE_FALSE(r.ok());
    const StatusCode code = r.status().code;
    REQUIRE((code == StatusCode::kCorruptModel ||
             (code == StatusCode::kUnsupportedVersion && i >= 4 && i < 8)));
  }
}

TEST_CASE("Wrong magic is kCorruptModel and version 999 is kUnsupportedVersion", "[serialize][corrupt]") {
  std::vector<uint8_t> bytes = SerializeForest(SmallForest());
  std::vector<uint8_t> magic = bytes;
  magic[0] = 'X';
  REQUIRE(DeserializeForest(magic.data(), magic.size()).status().code == StatusCode::kCorruptModel);
  std::vector<uint8_t> version = bytes;
  version[4] = 999 & 0xFF;
  version[5] = 999 >> 8;
  Result<Forest> r = DeserializeForest(version.data(), version.size());
  REQUIRE(r.status().code == StatusCode::kUnsupportedVersion);
  REQUIRE(r.status().message.find("999") != std::string::npos);
}

TEST_CASE("Unknown sections are skipped", "[serialize]") {
  Forest forest = SmallForest();
  std::vector<uint8_t> bytes = SerializeForest(forest);
  PutU32(&bytes, 0x54534554u);  // "TEST"
  PutU64(&bytes, 3);
  bytes.insert(bytes.end(), {1, 2, 3});
  bytes = ResealModel(bytes);
  Result<Forest> loaded = DeserializeForest(bytes.data(), bytes.size());
  INFO(loaded.status().ToString());
  REQUIRE(loaded.ok());
  REQUIRE(SerializeForest(loaded.value()) == SerializeForest(forest));
}

TEST_CASE("Hostile lengths fail without huge allocations", "[serialize][corrupt]") {
  std::vector<uint8_t> bytes = {'U', 'R', 'N', 'F', 1, 0, 0, 0};
  PutU64(&bytes, 0);
  PutU32(&bytes, 0);
  PutU32(&bytes, 0x45444F4Eu);  // "NODE" with a 2^40-node count in 8 bytes
  PutU64(&bytes, 8);
  PutU64(&bytes, uint64_t{1} << 40);
  PutU32(&bytes, 0x4D484353u);  // "SCHM" claiming 2^32 - 1 classes
  PutU64(&bytes, 12);
  PutU32(&bytes, 0);
  PutU32(&bytes, 0xFFFFFFFFu);
  PutU32(&bytes, 0);
  bytes = ResealModel(bytes);
  REQUIRE(bytes.size() < 100);
  REQUIRE(DeserializeForest(bytes.data(), bytes.size()).status().code == StatusCode::kCorruptModel);
  std::vector<uint8_t> section_too_long = {'U', 'R', 'N', 'F', 1, 0, 0, 0};
  PutU64(&section_too_long, 0);
  PutU32(&section_too_long, 0);
  PutU32(&section_too_long, 0x45444F4Eu);
  PutU64(&section_too_long, ~uint64_t{0});
  section_too_long = ResealModel(section_too_long);
  REQUIRE(DeserializeForest(section_too_long.data(), section_too_long.size()).status().code ==
          StatusCode::kCorruptModel);
}

TEST_CASE("Structurally invalid trees are rejected even with a valid checksum", "[serialize][corrupt]") {
  const Forest good = SmallForest();
  REQUIRE(good.node_table().nodes[0].feature >= 0);
  auto rejects = [](const Forest& f) {
    const std::vector<uint8_t> bytes = SerializeForest(f);
    return DeserializeForest(bytes.data(), bytes.size()).status().code == StatusCode::kCorruptModel;
  };
  Forest cycle = good;
  ForestAccess::table(cycle).nodes[0].child_or_class = 0;
  REQUIRE(rejects(cycle));
  Forest past_end = good;
  ForestAccess::table(past_end).nodes[0].child_or_class =
      static_cast<uint32_t>(good.node_table().nodes.size() - 1);
  REQUIRE(rejects(past_end));
  Forest bad_feature = good;
  ForestAccess::table(bad_feature).nodes[0].feature = 2;
  REQUIRE(rejects(bad_feature));
  Forest bad_class = good;
  for (Forest::Node& n : ForestAccess::table(bad_class).nodes) {
    if (n.feature < 0) {
      n.child_or_class = 3;
      break;
    }
  }
  REQUIRE(rejects(bad_class));
  Forest bad_root = good;
  ForestAccess::tree_roots(bad_root)[1] = static_cast<uint32_t>(good.node_table().nodes.size());
  REQUIRE(rejects(bad_root));
  Forest bad_bits = good;
  ForestAccess::table(bad_bits).category_bits.clear();
  REQUIRE(rejects(bad_bits));
  Forest bad_label = good;
  ForestAccess::train_labels(bad_label)[0] = 5;
  REQUIRE(rejects(bad_label));
  Forest bad_oob = good;
  ForestAccess::oob_votes(bad_oob)[0] = 1000;
  REQUIRE(rejects(bad_oob));
}

TEST_CASE("Trees that share nodes are rejected so a file cannot cost more time than its size", "[serialize][corrupt]") {
  const Forest good = SmallForest();
  auto code = [](const Forest& f) {
    const std::vector<uint8_t> bytes = SerializeForest(f);
    return DeserializeForest(bytes.data(), bytes.size()).status().code;
  };
  Forest shared = good;
  ForestAccess::tree_roots(shared)[1] = 0;
  ForestAccess::tree_roots(shared)[2] = 0;
  REQUIRE(code(shared) == StatusCode::kCorruptModel);
  Forest reordered = good;
  std::swap(ForestAccess::tree_roots(reordered)[1], ForestAccess::tree_roots(reordered)[2]);
  REQUIRE(code(reordered) == StatusCode::kCorruptModel);
  Forest crossing = good;
  for (size_t i = 0; i < ForestAccess::tree_roots(crossing)[1]; ++i) {
    Forest::Node& n = ForestAccess::table(crossing).nodes[i];
    if (n.feature >= 0) {
      n.child_or_class =
          ForestAccess::tree_roots(crossing)[1];  // A child inside the next tree's block.
      break;
    }
  }
  REQUIRE(code(crossing) == StatusCode::kCorruptModel);
  REQUIRE(code(good) == StatusCode::kOk);
}

TEST_CASE("Payload bytes altered behind a valid checksum never load an unsafe model", "[serialize][corrupt]") {
  const Forest forest = SmallForest();
  const std::vector<uint8_t> bytes = SerializeForest(forest);
  std::vector<float> rows;
  for (float x : {0.0f, 3.0f, 11.0f, 22.0f, NAN}) {
    for (float c : {0.0f, 1.0f, 2.0f, 3.0f, NAN}) {
      rows.push_back(x);
      rows.push_back(c);
    }
  }
  for (size_t i = 20; i < bytes.size(); ++i) {
    for (uint8_t mask : {0x01, 0x80, 0xFF}) {
      std::vector<uint8_t> bad = bytes;
      bad[i] ^= mask;
      bad = ResealModel(bad);
      Result<Forest> r = DeserializeForest(bad.data(), bad.size());
      if (!r.ok()) {
        REQUIRE(r.status().code == StatusCode::kCorruptModel);
        continue;
      }
      const Forest& f = r.value();
      for (int32_t t = 0; t < f.num_trees(); ++t) {
        for (size_t row = 0; row < rows.size(); row += 2) {
          const int32_t vote = f.TreeVote(t, &rows[row]);
          REQUIRE(vote >= 0);
          REQUIRE(vote < f.num_classes());
        }
      }
    }
  }
}
