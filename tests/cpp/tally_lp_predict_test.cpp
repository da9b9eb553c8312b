#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest_tally_minimean.h"
#include "urnforest/minimax_stopping.h"
#include "urnforest/predict.h"
#include "urnforest/predict_request.h"
#include "urnforest/train.h"

namespace urnforest {
namespace {

using test::MustOk;

Dataset LoadVehicle() {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/vehicle.csv", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return MustOk(ReadCsv(text.str()));
}

TEST_CASE("Rule lp on four classes stops where its strategy stops and its mean trees match the exact outcomes", "[tally_stopping]") {
  const Dataset vehicle = LoadVehicle();
  TrainOptions train;
  train.num_trees = 15;
  train.seed = 5;
  const Forest forest = MustOk(Train(vehicle, train));
  REQUIRE(forest.num_classes() == 4);
  const std::shared_ptr<const TallyStoppingStrategy> strategy = MustOk(ForestTallyMinimean(forest, 0.95));
  const TallyLattice lattice = MustOk(TallyLattice::Make(15, 4));
  const PreparedRows rows = MustOk(PrepareRows(forest, vehicle));
  PredictRequest request;
  request.rule = "lp";
  request.alpha = 0.95;
  request.compare = true;
  double sampled = 0.0;
  const int seeds = 40;
  std::vector<uint32_t> finals;
  for (int seed = 1; seed <= seeds; ++seed) {
    request.seed = static_cast<uint64_t>(seed);
    const Prediction p = MustOk(Predict(forest, rows, request));
    REQUIRE(p.path == PredictPath::kLp);
    if (finals.empty()) finals = p.full_votes;
    for (size_t r = 0; r < p.labels.size(); ++r) {
      const int32_t* x = p.tallies.data() + 4 * r;
      CHECK(x[0] + x[1] + x[2] + x[3] == p.trees_used[r]);
      CHECK(p.labels[r] == TallyLeader(x, 4));
      const size_t s = static_cast<size_t>(lattice.Index(x, p.trees_used[r]));
      CHECK((strategy->first.stop[s] == 1 || strategy->second.stop[s] == 1));
      sampled += p.trees_used[r];
    }
  }
  const size_t n = finals.size() / 4;
  sampled /= static_cast<double>(seeds) * n;
  double exact = 0.0;
  for (const TallyOutcome& o : MustOk(ExactTallyOutcomes(*strategy, finals))) exact += o.trees / n;
  CHECK(sampled == Approx(exact).margin(0.1));
  CHECK(exact < 15.0);
}

TEST_CASE("Rule lp with objective minimax keeps every final count's exact disagreement within 1 - alpha", "[minimax_stopping]") {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/wdbc.csv", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const Dataset wdbc = MustOk(ReadCsv(text.str()));
  TrainOptions train;
  train.num_trees = 31;
  train.seed = 2;
  const Forest forest = MustOk(Train(wdbc, train));
  const std::shared_ptr<const BinaryStoppingStrategy> minimax = MustOk(ForestMinimax(forest, 0.99));
  for (const BinaryOutcome& o : MustOk(ExactBinaryOutcomes(minimax->first))) CHECK(o.disagreement <= 0.01 + 1e-12);
  PredictRequest request;
  request.rule = "lp";
  request.objective = LpObjective::kMinimax;
  request.alpha = 0.99;
  request.seed = 4;
  const Prediction p = MustOk(Predict(forest, MustOk(PrepareRows(forest, wdbc)), request));
  CHECK(p.path == PredictPath::kLp);
  CHECK(p.mean_trees < 31.0);
  for (size_t r = 0; r < p.labels.size(); ++r) {
    const int32_t i = p.trees_used[r], j = p.tallies[2 * r + 1];
    CHECK(minimax->first.stop[static_cast<size_t>(BinaryStoppingSet::Rank(i, j))] == 1);
  }
}

}  // namespace
}  // namespace urnforest
