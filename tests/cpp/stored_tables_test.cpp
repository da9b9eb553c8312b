#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "fixtures.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"

using namespace urnforest;
using namespace urnforest::test;

namespace {

struct Fixture {
  Dataset data;
  Forest forest;
};

Fixture TwonormForest() {
  Dataset data = MustTwonorm(200, 3);
  TrainOptions o;
  o.num_trees = 15;
  Forest forest = MustTrain(data, o);
  return {std::move(data), std::move(forest)};
}


constexpr uint32_t kHtbl = 0x4C425448u;  // "HTBL"

std::vector<uint8_t> WithSection(const Forest& forest, const std::vector<uint8_t>& body) {
  std::vector<uint8_t> bytes = SerializeForest(forest);
  PutU32(&bytes, kHtbl);
  PutU64(&bytes, body.size());
  bytes.insert(bytes.end(), body.begin(), body.end());
  return ResealModel(bytes);
}

std::vector<uint8_t> OneTableBody(const std::vector<uint8_t>& table) {
  std::vector<uint8_t> body;
  PutU32(&body, 1);
  PutU64(&body, table.size());
  body.insert(body.end(), table.begin(), table.end());
  return body;
}

StatusCode LoadCode(const std::vector<uint8_t>& bytes) {
  return DeserializeForest(bytes.data(), bytes.size()).status().code;
}

}  // namespace

TEST_CASE("A model with stored hyper and siba tables round-trips to identical bytes", "[stored_tables][serialize]") {
  Fixture fx = TwonormForest();
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kHyper, 0.99).ok());
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kSiba, 0.99).ok());
  REQUIRE(fx.forest.stored_tables().size() == 2);
  const std::vector<uint8_t> bytes = SerializeForest(fx.forest);
  Result<Forest> loaded = DeserializeForest(bytes.data(), bytes.size());
  INFO(loaded.status().ToString());
  REQUIRE(loaded.ok());
  REQUIRE(SerializeForest(loaded.value()) == bytes);
  REQUIRE(loaded.value().stored_tables().size() == 2);
  REQUIRE(loaded.value().stored_tables()[0].rule() == HaltingRule::kHyper);
  REQUIRE(loaded.value().stored_tables()[1].rule() == HaltingRule::kSiba);
  REQUIRE(loaded.value().stored_tables()[0].ToBytes() == fx.forest.stored_tables()[0].ToBytes());
}

TEST_CASE("Predictions with a stored table equal predictions with a freshly built one", "[stored_tables]") {
  Fixture fx = TwonormForest();
  const Forest plain = fx.forest;
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kHyper, 0.99).ok());
  const std::vector<uint8_t> bytes = SerializeForest(fx.forest);
  Forest loaded = DeserializeForest(bytes.data(), bytes.size()).value();
  bool from_store = false;
  HaltingTable stored = BuildForestTable(loaded, HaltingRule::kHyper, 0.99, 0, &from_store).value();
  REQUIRE(from_store);
  HaltingTable built = BuildForestTable(plain, HaltingRule::kHyper, 0.99, 0, &from_store).value();
  REQUIRE_FALSE(from_store);
  REQUIRE(stored.ToBytes() == built.ToBytes());
  SequentialVoteResult a = PredictHalted(loaded, fx.data, stored).value();
  SequentialVoteResult b = PredictHalted(plain, fx.data, built).value();
  REQUIRE(a.labels == b.labels);
  REQUIRE(a.trees_used == b.trees_used);
}

TEST_CASE("A stored table matches only its rule, its exact alpha and its tree count", "[stored_tables]") {
  Fixture fx = TwonormForest();
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kHyper, 0.99).ok());
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kSiba, 0.95, 9).ok());
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kHyper, 0.99) != nullptr);
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kHyper, 0.99, 15) != nullptr);
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kHyper, 0.95) == nullptr);
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kHyper, std::nextafter(0.99, 1.0)) == nullptr);
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kSiba, 0.99) == nullptr);
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kHyper, 0.99, 9) == nullptr);
  REQUIRE(fx.forest.FindStoredTable(HaltingRule::kSiba, 0.95, 9) != nullptr);
  bool from_store = true;
  Result<HaltingTable> other = BuildForestTable(fx.forest, HaltingRule::kHyper, 0.95, 0, &from_store);
  REQUIRE(other.ok());
  REQUIRE_FALSE(from_store);
  REQUIRE(other.value().alpha() == 0.95);
}

TEST_CASE("Storing a table with the same rule, alpha and trees replaces it in place", "[stored_tables]") {
  Fixture fx = TwonormForest();
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kHyper, 0.99).ok());
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kSiba, 0.99).ok());
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kHyper, 0.99).ok());
  REQUIRE(fx.forest.stored_tables().size() == 2);
  REQUIRE(fx.forest.stored_tables()[0].rule() == HaltingRule::kHyper);
}

TEST_CASE("StoreTable rejects tables of another class count or more trees than the forest", "[stored_tables]") {
  Fixture fx = TwonormForest();
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_classes = 3;
  o.num_trees = 15;
  REQUIRE(fx.forest.StoreTable(BuildHaltingTable(o).value()).code == StatusCode::kShapeMismatch);
  o.num_classes = 2;
  o.num_trees = 16;
  REQUIRE(fx.forest.StoreTable(BuildHaltingTable(o).value()).code == StatusCode::kInvalidArgument);
  REQUIRE(fx.forest.stored_tables().empty());
}

TEST_CASE("Models without stored tables keep their bytes and clearing tables restores them", "[stored_tables][serialize]") {
  Fixture fx = TwonormForest();
  const std::vector<uint8_t> plain = SerializeForest(fx.forest);
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kSiba, 0.99).ok());
  REQUIRE(SerializeForest(fx.forest) != plain);
  fx.forest.ClearStoredTables();
  REQUIRE(SerializeForest(fx.forest) == plain);
  Forest loaded = DeserializeForest(plain.data(), plain.size()).value();
  REQUIRE(loaded.stored_tables().empty());
}

TEST_CASE("Hostile stored-table sections fail with kCorruptModel", "[stored_tables][corrupt]") {
  Fixture fx = TwonormForest();
  HaltingTableOptions o;
  o.rule = HaltingRule::kSiba;
  o.num_trees = 15;
  const std::vector<uint8_t> good = BuildHaltingTable(o).value().ToBytes();
  REQUIRE(LoadCode(WithSection(fx.forest, OneTableBody(good))) == StatusCode::kOk);

  std::vector<uint8_t> huge_count;
  PutU32(&huge_count, 0xFFFFFFFFu);
  PutU64(&huge_count, 16);
  REQUIRE(LoadCode(WithSection(fx.forest, huge_count)) == StatusCode::kCorruptModel);

  std::vector<uint8_t> two_claimed = OneTableBody(good);
  two_claimed[0] = 2;
  REQUIRE(LoadCode(WithSection(fx.forest, two_claimed)) == StatusCode::kCorruptModel);

  std::vector<uint8_t> long_length;
  PutU32(&long_length, 1);
  PutU64(&long_length, ~uint64_t{0});
  long_length.insert(long_length.end(), good.begin(), good.end());
  REQUIRE(LoadCode(WithSection(fx.forest, long_length)) == StatusCode::kCorruptModel);

  std::vector<uint8_t> truncated(good.begin(), good.end() - 9);
  REQUIRE(LoadCode(WithSection(fx.forest, OneTableBody(truncated))) == StatusCode::kCorruptModel);

  std::vector<uint8_t> flipped = good;
  flipped[30] ^= 0x40;
  REQUIRE(LoadCode(WithSection(fx.forest, OneTableBody(flipped))) == StatusCode::kCorruptModel);

  HaltingTableOptions three = o;
  three.num_classes = 3;
  const std::vector<uint8_t> classes = BuildHaltingTable(three).value().ToBytes();
  REQUIRE(LoadCode(WithSection(fx.forest, OneTableBody(classes))) == StatusCode::kCorruptModel);

  HaltingTableOptions more = o;
  more.num_trees = 16;
  const std::vector<uint8_t> trees = BuildHaltingTable(more).value().ToBytes();
  REQUIRE(LoadCode(WithSection(fx.forest, OneTableBody(trees))) == StatusCode::kCorruptModel);

  std::vector<uint8_t> twice = OneTableBody(good);
  twice[0] = 2;
  PutU64(&twice, good.size());
  twice.insert(twice.end(), good.begin(), good.end());
  REQUIRE(LoadCode(WithSection(fx.forest, twice)) == StatusCode::kCorruptModel);

  std::vector<uint8_t> trailing = OneTableBody(good);
  trailing.push_back(0);
  REQUIRE(LoadCode(WithSection(fx.forest, trailing)) == StatusCode::kCorruptModel);

  std::vector<uint8_t> body = OneTableBody(good);
  std::vector<uint8_t> duplicate = WithSection(fx.forest, body);
  PutU32(&duplicate, kHtbl);
  PutU64(&duplicate, body.size());
  duplicate.insert(duplicate.end(), body.begin(), body.end());
  REQUIRE(LoadCode(ResealModel(duplicate)) == StatusCode::kCorruptModel);
}

TEST_CASE("Every truncation of a model with stored tables fails with kCorruptModel", "[stored_tables][corrupt]") {
  Fixture fx = TwonormForest();
  REQUIRE(StoreForestTable(&fx.forest, HaltingRule::kSiba, 0.99).ok());
  const std::vector<uint8_t> bytes = SerializeForest(fx.forest);
  for (size_t n = bytes.size() - 200; n < bytes.size(); ++n) {
    REQUIRE(DeserializeForest(bytes.data(), n).status().code == StatusCode::kCorruptModel);
  }
}
