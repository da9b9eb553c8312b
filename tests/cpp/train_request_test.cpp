#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/experiment.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/serialize.h"
#include "urnforest/train_request.h"
#include "urnforest/voteboost.h"

using namespace urnforest;

namespace {

Status Check(const TrainOptions& o, size_t features = 4) { return CheckTrainOptions(o, features); }

ExperimentOptions Synthetic() {
  ExperimentOptions o;
  o.protocol = ProtocolKind::kSynthetic;
  o.generator = "twonorm";
  o.train_rows = 40;
  o.test_rows = 20;
  o.repeats = 1;
  o.train.num_trees = 5;
  o.rules = {HaltingRule::kSiba};
  return o;
}

}  // namespace

TEST_CASE("CheckTrainOptions bounds max_depth by 100,000 for every front end", "[train][options]") {
  TrainOptions o;
  o.max_depth = TrainOptions::kMaxDepth;
  REQUIRE(TrainOptions::kMaxDepth == 100000);
  REQUIRE(Check(o).ok());
  o.max_depth = TrainOptions::kMaxDepth + 1;
  const Status s = Check(o);
  REQUIRE(s.code == StatusCode::kInvalidArgument);
  REQUIRE(s.message == "option max_depth must be in 0..100000 (0 = unlimited), got 100001");
  o.max_depth = -1;
  REQUIRE(Check(o).code == StatusCode::kInvalidArgument);
}

TEST_CASE("CheckTrainOptions holds min_leaf, trees, mtry, pruning and emphasis bounds", "[train][options]") {
  TrainOptions o;
  o.min_leaf = TrainOptions::kMaxMinLeaf;
  REQUIRE(Check(o).ok());
  o.min_leaf = TrainOptions::kMaxMinLeaf + 1;
  REQUIRE(Check(o).message == "option min_leaf must be in 1..67108864, got 67108865");
  o = TrainOptions();
  o.num_trees = 0;
  REQUIRE(Check(o).message == "option num_trees must be in 1..100000, got 0");
  o = TrainOptions();
  o.mtry = 5;
  REQUIRE(Check(o).message == "option mtry must be in 0..4 (the number of features), got 5");
  o = TrainOptions();
  o.pruning.cv_folds = 1;
  REQUIRE(Check(o).message == "option pruning.cv_folds must be in 2..100, got 1");
  o = TrainOptions();
  o.ensemble = EnsembleKind::kVoteBoost;
  o.voteboost.a = VoteBoostOptions::kMaxEmphasis * 2;
  REQUIRE(Check(o).message == "option voteboost.a must be in [1e-06, 1000000], got 2000000");
  o.voteboost.a = 2.0;
  o.voteboost.b = VoteBoostOptions::kMinEmphasis / 2;
  REQUIRE(Check(o).code == StatusCode::kInvalidArgument);
  o.voteboost.b = 0.0;
  REQUIRE(Check(o).ok());
}

TEST_CASE("Train refuses what CheckTrainOptions refuses, with its message", "[train][options]") {
  Result<Dataset> data = Twonorm(40, 1);
  REQUIRE(data.ok());
  TrainOptions o;
  o.num_trees = 3;
  o.max_depth = 200000;
  Result<Forest> trained = Train(data.value(), o);
  REQUIRE(trained.status().code == StatusCode::kInvalidArgument);
  REQUIRE(trained.status().message == CheckTrainOptions(o, data.value().num_features()).message);
}

TEST_CASE("CheckTrainRequest refuses an option named where it does not apply", "[train][options]") {
  TrainRequest r;
  REQUIRE(CheckTrainRequest(r, 4).ok());
  SECTION("boosting needs adaboost") {
    r.named.Add(TrainOptionKey::kBoosting);
    REQUIRE(CheckTrainRequest(r, 4).message == "option boosting needs ensemble adaboost, not rf");
    r.options.ensemble = EnsembleKind::kAdaBoost;
    REQUIRE(CheckTrainRequest(r, 4).ok());
  }
  SECTION("the emphasis needs voteboost, and so does its cross-validation") {
    r.named.Add(TrainOptionKey::kVoteBoost);
    REQUIRE(CheckTrainRequest(r, 4).code == StatusCode::kInvalidArgument);
    r.named = TrainOptionKeys();
    r.select_emphasis = true;
    REQUIRE(CheckTrainRequest(r, 4).code == StatusCode::kInvalidArgument);
    r.options.ensemble = EnsembleKind::kVoteBoost;
    REQUIRE(CheckTrainRequest(r, 4).ok());
  }
  SECTION("b and a chosen by CV exclude each other") {
    r.options.ensemble = EnsembleKind::kVoteBoost;
    r.select_emphasis = true;
    r.named.Add(TrainOptionKey::kEmphasisB);
    REQUIRE(CheckTrainRequest(r, 4).message ==
            "option voteboost.b cannot be combined with voteboost.a = cv (a = b)");
  }
  SECTION("CV trees need the CV and lie in 0..kMaxTrees") {
    r.options.ensemble = EnsembleKind::kVoteBoost;
    r.named.Add(TrainOptionKey::kCvTrees);
    REQUIRE(CheckTrainRequest(r, 4).message == "option voteboost.cv_trees needs voteboost.a = cv");
    r.select_emphasis = true;
    REQUIRE(CheckTrainRequest(r, 4).ok());
    r.cv_trees = TrainOptions::kMaxTrees + 1;
    REQUIRE(CheckTrainRequest(r, 4).code == StatusCode::kInvalidArgument);
  }
  SECTION("AdaBoost's options need adaboost") {
    r.named.Add(TrainOptionKey::kAdaBoost);
    r.options.ensemble = EnsembleKind::kBagging;
    REQUIRE(CheckTrainRequest(r, 4).message == "the adaboost options need ensemble adaboost, not bagging");
  }
}

TEST_CASE("TrainWithEmphasisSelection is the CV choice of a = b, then Train with a = choice and b = 0",
          "[train][voteboost]") {
  Result<Dataset> data = Twonorm(60, 3);
  REQUIRE(data.ok());
  TrainRequest r;
  r.options.ensemble = EnsembleKind::kVoteBoost;
  r.options.num_trees = 5;
  r.options.voteboost.b = 3.0;  // replaced by the symmetric choice
  r.options.seed = 9;
  r.select_emphasis = true;
  r.cv_trees = 3;
  std::vector<std::pair<int32_t, int32_t>> seen;
  Result<TrainedForest> trained = TrainWithEmphasisSelection(
      data.value(), r, [&seen](int32_t done, int32_t total) {
        seen.emplace_back(done, total);
        return true;
      });
  REQUIRE(trained.ok());
  REQUIRE(trained.value().emphasis_selected);

  EmphasisCvOptions cv;
  cv.seed = 9;
  cv.num_trees = 3;
  Result<EmphasisSelection> chosen = SelectEmphasisByCV(data.value(), r.options, cv);
  REQUIRE(chosen.ok());
  REQUIRE(trained.value().emphasis.chosen == chosen.value().chosen);
  REQUIRE(trained.value().emphasis.cv_error == chosen.value().cv_error);
  TrainOptions by_hand = r.options;
  by_hand.voteboost.a = chosen.value().chosen;
  by_hand.voteboost.b = 0.0;
  Result<Forest> direct = Train(data.value(), by_hand);
  REQUIRE(direct.ok());
  REQUIRE(SerializeForest(trained.value().forest) == SerializeForest(direct.value()));

  const int32_t total = static_cast<int32_t>(EmphasisCvTrees(r.options, cv)) + 5;
  REQUIRE(!seen.empty());
  for (size_t i = 0; i < seen.size(); ++i) {
    REQUIRE(seen[i].second == total);
    if (i > 0) REQUIRE(seen[i].first >= seen[i - 1].first);
  }
  REQUIRE(seen.back().first == total);
}

TEST_CASE("TrainWithEmphasisSelection without the CV is Train", "[train]") {
  Result<Dataset> data = Twonorm(40, 2);
  REQUIRE(data.ok());
  TrainRequest r;
  r.options.num_trees = 4;
  Result<TrainedForest> trained = TrainWithEmphasisSelection(data.value(), r);
  REQUIRE(trained.ok());
  REQUIRE_FALSE(trained.value().emphasis_selected);
  REQUIRE(SerializeForest(trained.value().forest) ==
          SerializeForest(Train(data.value(), r.options).value()));
  r.named.Add(TrainOptionKey::kBoosting);
  REQUIRE(TrainWithEmphasisSelection(data.value(), r).status().message ==
          "option boosting needs ensemble adaboost, not rf");
}

TEST_CASE("GrownToPurity is: no pruning (PrunesTrees false), no depth limit, one-row leaves, no stumps",
          "[train][pruning]") {
  const EnsembleKind kinds[] = {EnsembleKind::kRandomForest, EnsembleKind::kBagging,
                                EnsembleKind::kAdaBoost, EnsembleKind::kVoteBoost};
  const VoteBoostBase bases[] = {VoteBoostBase::kRandomTree, VoteBoostBase::kUnprunedCart,
                                 VoteBoostBase::kStump, VoteBoostBase::kPrunedCart};
  for (EnsembleKind kind : kinds) {
    for (VoteBoostBase base : bases) {
      for (TreePruning mode : {TreePruning::kNone, TreePruning::kCostComplexityCV}) {
        for (int32_t depth : {0, 3}) {
          for (int32_t leaf : {1, 5}) {
            TrainOptions o;
            o.ensemble = kind;
            o.voteboost.base = base;
            o.pruning.mode = mode;
            o.max_depth = depth;
            o.min_leaf = leaf;
            const bool stumps = kind == EnsembleKind::kVoteBoost && base == VoteBoostBase::kStump;
            REQUIRE(GrownToPurity(o) == (!PrunesTrees(o) && !stumps && depth == 0 && leaf == 1));
          }
        }
      }
    }
  }
  TrainOptions pruned_base;
  pruned_base.ensemble = EnsembleKind::kVoteBoost;
  pruned_base.voteboost.base = VoteBoostBase::kPrunedCart;
  REQUIRE(PrunesTrees(pruned_base));
  REQUIRE_FALSE(GrownToPurity(pruned_base));
}

TEST_CASE("CheckExperimentOptions holds the experiment's bounds and rules before any work",
          "[experiment][options]") {
  ExperimentOptions o = Synthetic();
  REQUIRE(CheckExperimentOptions(o).ok());
  SECTION("keep needs prune") {
    o.keep = 3;
    REQUIRE(CheckExperimentOptions(o).message == "option keep needs prune (an ordering)");
    o.prune = true;
    REQUIRE(CheckExperimentOptions(o).ok());
  }
  SECTION("repeats, samples and max_work have the documented ranges") {
    o.repeats = ExperimentOptions::kMaxRepeats + 1;
    REQUIRE(CheckExperimentOptions(o).message == "option repeats must be in 1..100000, got 100001");
    o = Synthetic();
    o.monte_carlo_samples = ExperimentOptions::kMaxMonteCarloSamples + 1;
    REQUIRE(CheckExperimentOptions(o).code == StatusCode::kInvalidArgument);
    o = Synthetic();
    o.max_work = 0.5;
    REQUIRE(CheckExperimentOptions(o).code == StatusCode::kInvalidArgument);
  }
  SECTION("the training options go through CheckTrainRequest, mtry bounded by the generator's features") {
    o.train.max_depth = TrainOptions::kMaxDepth + 1;
    REQUIRE(CheckExperimentOptions(o).message ==
            "option max_depth must be in 0..100000 (0 = unlimited), got 100001");
    o = Synthetic();
    o.train.mtry = 21;  // twonorm has 20 features
    REQUIRE(CheckExperimentOptions(o).message ==
            "option mtry must be in 0..20 (the number of features), got 21");
    o = Synthetic();
    o.train_named.Add(TrainOptionKey::kBoosting);
    REQUIRE(CheckExperimentOptions(o).message == "option boosting needs ensemble adaboost, not rf");
    o = Synthetic();
    o.select_emphasis = true;
    REQUIRE(CheckExperimentOptions(o).code == StatusCode::kInvalidArgument);
  }
  SECTION("a rule named twice and folds beyond the rows are refused") {
    o.rules = {HaltingRule::kSiba, HaltingRule::kSiba};
    REQUIRE(CheckExperimentOptions(o).message == "option rules names 'siba' twice");
    Result<Dataset> data = Twonorm(30, 1);
    ExperimentOptions k;
    k.data = &data.value();
    k.folds = 31;
    REQUIRE(CheckExperimentOptions(k).message ==
            "option folds must be in 2..30 (the data's rows), got 31");
  }
  SECTION("RunExperiment refuses with the same status") {
    o.keep = 2;
    REQUIRE(RunExperiment(o).status().message == CheckExperimentOptions(o).message);
  }
}

TEST_CASE("The experiment's default rules are alpha1, siba and hyper, repeats 10 for k-fold, else 100",
          "[experiment][options]") {
  REQUIRE(ExperimentOptions().rules ==
          std::vector<HaltingRule>{HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper});
  REQUIRE(DefaultRepeats(ProtocolKind::kKFold) == 10);
  REQUIRE(DefaultRepeats(ProtocolKind::kHoldout) == 100);
  REQUIRE(DefaultRepeats(ProtocolKind::kSynthetic) == 100);
}
