#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fixtures.h"
#include "urnforest/forest.h"
#include "urnforest/experiment.h"
#include "urnforest/generators.h"
#include "urnforest/label_noise.h"
#include "urnforest/predict.h"
#include "urnforest/serialize.h"
#include "urnforest/voteboost.h"

using namespace urnforest;
using namespace urnforest::test;

namespace {

// One row per x in [0, 1), class B inside the band (1/3, 2/3): no single stump can separate it.
Dataset Band(size_t rows) {
  std::vector<float> x;
  std::vector<int32_t> y;
  for (size_t i = 0; i < rows; ++i) {
    const float v = (static_cast<float>(i) + 0.5f) / static_cast<float>(rows);
    x.push_back(v);
    y.push_back(v > 1.0f / 3.0f && v < 2.0f / 3.0f ? 1 : 0);
  }
  return SmallDataset(x, y, 2);
}

}  // namespace

TEST_CASE("Vote-boosting weights match a hand computation on five rows", "[voteboost]") {
  // After t = 3 trees the rows hold 0, 1, 2, 3, 3 votes for class 1: Laplace pi_+ = (k + 1) / 5 =
  // 1/5, 2/5, 3/5, 4/5, 4/5.
  const std::vector<uint32_t> votes = {3, 0, 2, 1, 1, 2, 0, 3, 0, 3};
  SECTION("a = b = 2: g = p (1 - p) = 4, 6, 6, 4, 4 (/25), normalised by 24") {
    Result<std::vector<double>> w = VoteBoostWeights(votes, 2, 3, 2.0, 2.0);
    REQUIRE(w.ok());
    const std::vector<double> expected = {1.0 / 6, 1.0 / 4, 1.0 / 4, 1.0 / 6, 1.0 / 6};
    for (size_t i = 0; i < 5; ++i) REQUIRE(w.value()[i] == Approx(expected[i]).epsilon(1e-12));
  }
  SECTION("a = b = 1/2: g = 1 / sqrt(p (1 - p)), proportional to 1/2, 1/sqrt 6, 1/sqrt 6, 1/2, 1/2") {
    Result<std::vector<double>> w = VoteBoostWeights(votes, 2, 3, 0.5, 0.5);
    REQUIRE(w.ok());
    const double s6 = 1.0 / std::sqrt(6.0);
    const double z = 1.5 + 2.0 * s6;
    const std::vector<double> expected = {0.5 / z, s6 / z, s6 / z, 0.5 / z, 0.5 / z};
    for (size_t i = 0; i < 5; ++i) REQUIRE(w.value()[i] == Approx(expected[i]).epsilon(1e-12));
  }
  SECTION("asymmetric a = 2, b = 1: g = p, i.e. 1, 2, 3, 4, 4 over 14") {
    Result<std::vector<double>> w = VoteBoostWeights(votes, 2, 3, 2.0, 1.0);
    REQUIRE(w.ok());
    const std::vector<double> expected = {1.0 / 14, 2.0 / 14, 3.0 / 14, 4.0 / 14, 4.0 / 14};
    for (size_t i = 0; i < 5; ++i) REQUIRE(w.value()[i] == Approx(expected[i]).epsilon(1e-12));
  }
  SECTION("a = b = 1 is exactly uniform") {
    Result<std::vector<double>> w = VoteBoostWeights(votes, 2, 3, 1.0, 1.0);
    REQUIRE(w.ok());
    for (double x : w.value()) REQUIRE(x == 0.2);
  }
}

TEST_CASE("Vote-boosting weights stay finite for extreme emphasis and long ensembles", "[voteboost]") {
  std::vector<uint32_t> votes = {501, 0, 250, 251, 0, 501};
  Result<std::vector<double>> w = VoteBoostWeights(votes, 2, 501, 40.0, 40.0);
  REQUIRE(w.ok());
  double sum = 0.0;
  for (double x : w.value()) {
    REQUIRE(std::isfinite(x));
    sum += x;
  }
  REQUIRE(sum == Approx(1.0));
  REQUIRE(w.value()[1] == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("Vote-boosting weights reject bad input", "[voteboost]") {
  REQUIRE(VoteBoostWeights({1, 0}, 2, 2, 1.0, 1.0).status().code == StatusCode::kInvalidArgument);
  REQUIRE(VoteBoostWeights({1, 0}, 2, 1, 0.0, 1.0).status().code == StatusCode::kInvalidArgument);
  REQUIRE(VoteBoostWeights({1, 0, 0}, 3, 1, 2.0, 1.0).status().code ==
          StatusCode::kInvalidArgument);
  REQUIRE(VoteBoostWeights({1, 0, 0}, 2, 1, 1.0, 1.0).status().code == StatusCode::kShapeMismatch);
}

TEST_CASE("Multi-class vote-boosting weights emphasise the leading class's Laplace share", "[voteboost]") {
  // Three classes, t = 4: leading counts 4 and 2 -> p = 5/7 and 3/7; a = b = 2 -> g = p (1 - p).
  Result<std::vector<double>> w = VoteBoostWeights({4, 0, 0, 1, 2, 1}, 3, 4, 2.0, 2.0);
  REQUIRE(w.ok());
  const double g0 = 5.0 / 7 * 2.0 / 7, g1 = 3.0 / 7 * 4.0 / 7;
  REQUIRE(w.value()[0] == Approx(g0 / (g0 + g1)));
}

TEST_CASE("Vote-boosting with a = b = 1 and random trees is the random forest of the same seed",
          "[voteboost]") {
  const Dataset d = MustTwonorm(200, 7);
  TrainOptions rf;
  rf.num_trees = 25;
  rf.seed = 11;
  TrainOptions vb = rf;
  vb.ensemble = EnsembleKind::kVoteBoost;
  vb.voteboost.a = 1.0;
  Result<Forest> f = Train(d, rf);
  Result<Forest> g = Train(d, vb);
  REQUIRE(f.ok());
  REQUIRE(g.ok());
  REQUIRE(f.value().tree_roots() == g.value().tree_roots());
  REQUIRE(f.value().node_table().nodes.size() == g.value().node_table().nodes.size());
  REQUIRE(std::memcmp(f.value().node_table().nodes.data(), g.value().node_table().nodes.data(),
                      f.value().node_table().nodes.size() * sizeof(Forest::Node)) == 0);
  REQUIRE(f.value().oob_votes() == g.value().oob_votes());
  REQUIRE(g.value().tree_weights().empty());
  const Dataset test = MustTwonorm(300, 8);
  Result<FullVote> vf = PredictFull(f.value(), test);
  Result<FullVote> vg = PredictFull(g.value(), test);
  REQUIRE(vf.ok());
  REQUIRE(vg.ok());
  REQUIRE(vf.value().votes == vg.value().votes);
}

TEST_CASE("Vote-boosting with emphasis differs from the random forest after the first tree",
          "[voteboost]") {
  const Dataset d = MustTwonorm(200, 7);
  TrainOptions rf;
  rf.num_trees = 5;
  TrainOptions vb = rf;
  vb.ensemble = EnsembleKind::kVoteBoost;
  vb.voteboost.a = 5.0;
  Result<Forest> f = Train(d, rf);
  Result<Forest> g = Train(d, vb);
  REQUIRE(f.ok());
  REQUIRE(g.ok());
  REQUIRE(f.value().tree_roots()[1] == g.value().tree_roots()[1]);
  REQUIRE(f.value().node_table().nodes.size() != g.value().node_table().nodes.size());
}

TEST_CASE("Vote-boosting is deterministic and round-trips through model bytes", "[voteboost][serialize]") {
  const Dataset d = MustTwonorm(150, 3);
  TrainOptions o;
  o.ensemble = EnsembleKind::kVoteBoost;
  o.num_trees = 9;
  o.voteboost.a = 2.5;
  o.voteboost.b = 0.5;
  o.voteboost.base = VoteBoostBase::kUnprunedCart;
  Result<Forest> f = Train(d, o);
  Result<Forest> g = Train(d, o);
  REQUIRE(f.ok());
  REQUIRE(g.ok());
  const std::vector<uint8_t> bytes = SerializeForest(f.value());
  REQUIRE(bytes == SerializeForest(g.value()));
  Result<Forest> back = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  REQUIRE(back.value().options().ensemble == EnsembleKind::kVoteBoost);
  REQUIRE(back.value().options().voteboost.a == 2.5);
  REQUIRE(back.value().options().voteboost.b == 0.5);
  REQUIRE(back.value().options().voteboost.base == VoteBoostBase::kUnprunedCart);
  REQUIRE(SerializeForest(back.value()) == bytes);
}

TEST_CASE("Vote-boosting stumps have depth one and unpruned CART uses every feature", "[voteboost]") {
  const Dataset d = MustTwonorm(150, 3);
  TrainOptions o;
  o.ensemble = EnsembleKind::kVoteBoost;
  o.num_trees = 7;
  o.voteboost.a = 10.0;
  o.voteboost.base = VoteBoostBase::kStump;
  Result<Forest> f = Train(d, o);
  REQUIRE(f.ok());
  REQUIRE(f.value().num_nodes() == 7 * 3);
  REQUIRE(ResolveMtry(o, 20) == 20);
  o.voteboost.base = VoteBoostBase::kRandomTree;
  REQUIRE(ResolveMtry(o, 20) == 4);
}

TEST_CASE("Vote-boosting rejects bad emphasis options", "[voteboost]") {
  const Dataset d = MustTwonorm(50, 3);
  TrainOptions o;
  o.ensemble = EnsembleKind::kVoteBoost;
  o.voteboost.a = 0.0;
  REQUIRE(Train(d, o).status().code == StatusCode::kInvalidArgument);
  o.voteboost.a = 1.0;
  o.voteboost.b = -1.0;
  REQUIRE(Train(d, o).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("Emphasis CV breaks ties toward a = b = 1", "[voteboost][cv]") {
  // Separable by one threshold: every stump is the perfect one whatever the weights.
  std::vector<float> x;
  std::vector<int32_t> y;
  for (int i = 0; i < 40; ++i) {
    x.push_back(static_cast<float>(i < 20 ? i : i + 100));
    y.push_back(i < 20 ? 0 : 1);
  }
  const Dataset d = SmallDataset(x, y, 2);
  TrainOptions o;
  o.ensemble = EnsembleKind::kVoteBoost;
  o.voteboost.base = VoteBoostBase::kStump;
  o.num_trees = 5;
  EmphasisCvOptions cv;
  cv.grid = {0.25, 0.75, 1.5, 40.0};
  Result<EmphasisSelection> s = SelectEmphasisByCV(d, o, cv);
  REQUIRE(s.ok());
  for (double e : s.value().cv_error) REQUIRE(e == 0.0);
  REQUIRE(s.value().chosen == 0.75);
}

TEST_CASE("Emphasis CV picks the emphasis that lets stumps build a band no single stump can fit",
          "[voteboost][cv]") {
  // a < 1 keeps emphasising the rows the stumps already agree on, so the vote stays one stump's
  // (about a third of the rows wrong); a = 40 concentrates on the rows in dispute and the majority
  // of differently placed stumps recovers the band.
  const Dataset d = Band(90);
  TrainOptions o;
  o.ensemble = EnsembleKind::kVoteBoost;
  o.voteboost.base = VoteBoostBase::kStump;
  o.num_trees = 51;
  EmphasisCvOptions cv;
  cv.grid = {0.25, 0.5, 40.0};
  Result<EmphasisSelection> s = SelectEmphasisByCV(d, o, cv);
  REQUIRE(s.ok());
  REQUIRE(s.value().cv_error[0] > 25.0);
  REQUIRE(s.value().cv_error[1] > 25.0);
  REQUIRE(s.value().cv_error[2] < 15.0);
  REQUIRE(s.value().chosen == 40.0);
}

TEST_CASE("FlipLabels flips exactly the requested fraction of training labels, seeded", "[voteboost][noise]") {
  const Dataset d = MustTwonorm(200, 5);
  std::vector<size_t> flipped;
  Result<Dataset> noisy = FlipLabels(d, 0.2, 9, &flipped);
  REQUIRE(noisy.ok());
  REQUIRE(flipped.size() == 40);
  size_t changed = 0;
  for (size_t r = 0; r < 200; ++r) changed += noisy.value().labels()[r] != d.labels()[r];
  REQUIRE(changed == 40);
  for (size_t r : flipped) REQUIRE(noisy.value().labels()[r] == 1 - d.labels()[r]);
  REQUIRE(noisy.value().value(17, 3) == d.value(17, 3));
  Result<Dataset> again = FlipLabels(d, 0.2, 9);
  REQUIRE(again.ok());
  REQUIRE(again.value().labels() == noisy.value().labels());
  REQUIRE(FlipLabels(d, 1.5, 9).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("The experiment harness runs vote-boosting with CV emphasis on noisy training labels",
          "[voteboost][experiment]") {
  ExperimentOptions o;
  o.protocol = ProtocolKind::kSynthetic;
  o.generator = "twonorm";
  o.train_rows = 120;
  o.test_rows = 200;
  o.repeats = 2;
  o.train.ensemble = EnsembleKind::kVoteBoost;
  o.train.num_trees = 21;
  o.rules = {HaltingRule::kSiba};
  o.label_noise = 0.2;
  o.select_emphasis = true;
  o.emphasis_cv.grid = {0.5, 1.0, 5.0};
  o.emphasis_cv.num_trees = 11;
  o.emphasis_cv.folds = 5;
  Result<ExperimentResult> r = RunExperiment(o);
  REQUIRE(r.ok());
  REQUIRE(r.value().emphasis.size() == 2);
  for (double a : r.value().emphasis) REQUIRE((a == 0.5 || a == 1.0 || a == 5.0));
  REQUIRE(r.value().full_error.mean < 30.0);
  REQUIRE(r.value().rules[0].summary.disagreement.mean <= 5.0);
}

TEST_CASE("VoteBoostShares are the Laplace shares the weights are the emphasis of", "[voteboost]") {
  // Two classes: (t_1 + 1) / (t + 2); three classes: (max + 1) / (t + 3).
  Result<std::vector<double>> two = VoteBoostShares({3, 0, 1, 2}, 2, 3);
  REQUIRE(two.ok());
  REQUIRE(two.value() == std::vector<double>{1.0 / 5.0, 3.0 / 5.0});
  Result<std::vector<double>> three = VoteBoostShares({1, 2, 1, 0, 0, 4}, 3, 4);
  REQUIRE(three.ok());
  REQUIRE(three.value() == std::vector<double>{3.0 / 7.0, 5.0 / 7.0});
  REQUIRE(VoteBoostShares({1, 1}, 2, 3).status().code == StatusCode::kInvalidArgument);
  REQUIRE(VoteBoostShares({1, 1, 1}, 2, 2).status().code == StatusCode::kShapeMismatch);
}
