#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/calibrate.h"
#include "urnforest/forest_halting.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_request.h"
#include "urnforest/predict_scores.h"
#include "urnforest/train.h"

namespace urnforest {
namespace {

using test::MustOk;

using test::ImportFixture;

// `rows` rows of the forest's width read by position, values drawn from [-3, 3) (deterministic).
PreparedRows SomeRows(const Forest& forest, size_t rows) {
  const size_t width = static_cast<size_t>(forest.num_features());
  std::vector<float> x(rows * width);
  uint32_t state = 77;
  for (float& v : x) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>((state >> 8) % 6000) / 1000.0f - 3.0f;
  }
  Dataset data = MustOk(Dataset::FromRowMajor(x.data(), rows, width, nullptr, {}, {}));
  return MustOk(PrepareRows(forest, data));
}

Forest Trained(EnsembleKind kind, int32_t trees) {
  TrainOptions options;
  options.ensemble = kind;
  options.num_trees = trees;
  options.seed = 5;
  return test::MustTrain(test::MustTwonorm(300, 9), options);
}

int32_t ArgmaxLowest(const double* p, size_t k) {
  size_t best = 0;
  for (size_t c = 1; c < k; ++c) {
    if (p[c] > p[best]) best = c;
  }
  return static_cast<int32_t>(best);
}

// Each row's probabilities computed from the trees one by one: every tree adds its weight (1
// without tree weights) to the class it votes, and the row is divided by its total.
std::vector<double> BruteForceShares(const Forest& forest, const PreparedRows& rows) {
  const size_t k = static_cast<size_t>(forest.num_classes());
  const size_t m = static_cast<size_t>(forest.num_features());
  std::vector<double> p(rows.num_rows * k, 0.0);
  for (size_t r = 0; r < rows.num_rows; ++r) {
    double total = 0.0;
    for (int32_t t = 0; t < forest.num_trees(); ++t) {
      const double w = forest.tree_weights().empty() ? 1.0 : forest.tree_weights()[t];
      p[r * k + static_cast<size_t>(forest.TreeVote(t, rows.values.data() + r * m))] += w;
      total += w;
    }
    for (size_t c = 0; c < k; ++c) p[r * k + c] /= total;
  }
  return p;
}

void RequireLabelsAreArgmax(const Prediction& p, size_t k) {
  REQUIRE(p.probabilities.size() == p.labels.size() * k);
  for (size_t r = 0; r < p.labels.size(); ++r) {
    double sum = 0.0;
    for (size_t c = 0; c < k; ++c) sum += p.probabilities[r * k + c];
    CHECK(sum == Approx(1.0).margin(1e-12));
    CHECK(p.labels[r] == ArgmaxLowest(p.probabilities.data() + r * k, k));
  }
}

Prediction MustPredict(const Forest& forest, const PreparedRows& rows, const PredictRequest& request) {
  return MustOk(Predict(forest, rows, request));
}

TEST_CASE("A full prediction's probabilities are its trees' (weighted) vote shares, and its labels their argmax",
          "[predict_request]") {
  for (EnsembleKind kind : {EnsembleKind::kRandomForest, EnsembleKind::kAdaBoost, EnsembleKind::kVoteBoost}) {
    const Forest forest = Trained(kind, 24);
    const PreparedRows rows = SomeRows(forest, 200);
    PredictRequest request;
    request.probabilities = true;
    const Prediction p = MustPredict(forest, rows, request);
    INFO("ensemble " << static_cast<int>(kind));
    CHECK(p.path == (kind == EnsembleKind::kAdaBoost ? PredictPath::kWeightedVote : PredictPath::kFullVote));
    const std::vector<double> want = BruteForceShares(forest, rows);
    REQUIRE(p.probabilities.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) CHECK(std::abs(p.probabilities[i] - want[i]) < 1e-12);
    RequireLabelsAreArgmax(p, 2);
  }
}

TEST_CASE("An imported model's probabilities are its source's scores for the soft vote and vote shares for the hard vote",
          "[predict_request]") {
  for (const char* name : {"sk_rf_iris_nozipmap", "sk_rf_wdbc_binary_zipmap", "xgb_vehicle_softprob_missing"}) {
    INFO(name);
    const Forest forest = ImportFixture(name);
    const size_t k = static_cast<size_t>(forest.num_classes());
    const PreparedRows rows = SomeRows(forest, 150);
    PredictRequest request;
    request.probabilities = true;
    const Prediction soft = MustPredict(forest, rows, request);
    CHECK(soft.path == PredictPath::kSoftScores);
    const ScorePrediction scores = MustOk(PredictScoresRows(forest, rows.values.data(), rows.num_rows, VoteKind::kSoft));
    CHECK(soft.probabilities == scores.scores);
    CHECK(soft.labels == scores.labels);
    RequireLabelsAreArgmax(soft, k);
    if (forest.imported()->kind == ImportedKind::kAdditive) continue;
    request.vote = VoteKind::kHard;
    const Prediction hard = MustPredict(forest, rows, request);
    CHECK(hard.path == PredictPath::kFullVote);
    const std::vector<double> want = BruteForceShares(forest, rows);
    for (size_t i = 0; i < want.size(); ++i) CHECK(std::abs(hard.probabilities[i] - want[i]) < 1e-12);
    RequireLabelsAreArgmax(hard, k);
  }
}

TEST_CASE("A table rule's probabilities are the posterior mean of the final vote shares of the votes drawn",
          "[predict_request]") {
  const Forest forest = Trained(EnsembleKind::kAdaBoost, 31);
  const PreparedRows rows = SomeRows(forest, 120);
  PredictRequest request;
  request.rule = "hyper";
  request.alpha = 0.95;
  request.probabilities = true;
  request.compare = true;
  const Prediction p = MustPredict(forest, rows, request);
  CHECK(p.path == PredictPath::kTableRule);
  CHECK(p.table_source == TableSource::kBuilt);
  const Prior prior = MustOk(PriorForForest(forest, HaltingRule::kHyper, 31));
  CHECK(p.probabilities == MustOk(HaltedVoteShares(prior, 31, 2, p.tallies)));
  // compare: the plurality of the queried trees, unweighted (what the urn model bounds).
  const FullVote full = MustOk(PredictFullRows(forest, rows.values.data(), rows.num_rows));
  CHECK(p.full_labels == full.labels);
  size_t differ = 0;
  for (size_t r = 0; r < rows.num_rows; ++r) differ += p.labels[r] != full.labels[r];
  CHECK(p.disagreement == static_cast<double>(differ) / rows.num_rows);
}

TEST_CASE("Predict takes the exact early exit on an imported model's soft vote and compares it with its own prediction",
          "[predict_request]") {
  const Forest forest = ImportFixture("xgb_wdbc_binary_missing");
  const PreparedRows rows = SomeRows(forest, 100);
  PredictRequest request;
  request.rule = "alpha1";
  request.compare = true;
  request.probabilities = true;
  const Prediction p = MustPredict(forest, rows, request);
  CHECK(p.path == PredictPath::kExactExit);
  CHECK(p.full_labels == p.labels);
  CHECK(p.disagreement == 0.0);
  CHECK(p.full_votes.empty());
  const ScorePrediction scores = MustOk(PredictScoresRows(forest, rows.values.data(), rows.num_rows, VoteKind::kSoft));
  CHECK(p.probabilities == scores.scores);
  for (size_t r = 0; r < rows.num_rows; ++r) {
    CHECK(p.confidence[r] == 1.0);
    CHECK(p.halted_early[r] == (p.trees_used[r] < forest.num_trees() ? 1 : 0));
  }
  CHECK(std::isnan(p.lambda));
}

TEST_CASE("The margin rule needs a calibrated imported voting forest and reports its threshold",
          "[predict_request]") {
  Forest forest = ImportFixture("sk_rf_iris_nozipmap");
  const PreparedRows rows = SomeRows(forest, 90);
  PredictRequest request;
  request.rule = "margin";
  RequestFault fault = RequestFault::kNone;
  CHECK(CheckPredictRequest(forest, request, &fault).message.find("calibrate") != std::string::npos);
  CHECK(fault == RequestFault::kModel);
  REQUIRE(CalibrateForest(&forest, rows.values.data(), rows.num_rows).ok());
  request.alpha = 0.9;
  request.compare = true;
  const Prediction p = MustPredict(forest, rows, request);
  CHECK(p.path == PredictPath::kMargin);
  CHECK_FALSE(std::isnan(p.lambda));
  CHECK(p.confidence.front() == 0.9);
  const ScorePrediction scores = MustOk(PredictScoresRows(forest, rows.values.data(), rows.num_rows, VoteKind::kSoft));
  CHECK(p.full_labels == scores.labels);
}

struct Refusal {
  const char* what;
  PredictRequest request;
  RequestFault fault;
  const char* message;
};

PredictRequest With(const std::string& rule, void (*edit)(PredictRequest*)) {
  PredictRequest r;
  r.rule = rule;
  edit(&r);
  return r;
}

TEST_CASE("CheckPredictRequest refuses every request a forest trained here cannot serve, saying why",
          "[predict_request]") {
  const Forest forest = Trained(EnsembleKind::kRandomForest, 11);
  const std::vector<Refusal> refusals = {
      {"compare without a rule", With("", [](PredictRequest* r) { r->compare = true; }), RequestFault::kMisplaced,
       "option compare needs a rule"},
      {"seed without a rule", With("", [](PredictRequest* r) { r->seed = 3; }), RequestFault::kMisplaced,
       "option seed needs a rule"},
      {"an unknown rule", With("fast", [](PredictRequest*) {}), RequestFault::kOutOfRange, "rule must be one of alpha1, siba"},
      {"alpha 0", With("siba", [](PredictRequest* r) { r->alpha = 0.0; }), RequestFault::kOutOfRange,
       "alpha must be in (0, 1]"},
      {"alpha NaN", With("hyper", [](PredictRequest* r) { r->alpha = std::nan(""); }), RequestFault::kOutOfRange,
       "alpha must be in (0, 1]"},
      {"trees 12 of 11", With("siba", [](PredictRequest* r) { r->trees = 12; }), RequestFault::kOutOfRange,
       "trees must be in [1, 11]"},
      {"order fixed without ids", With("siba", [](PredictRequest* r) { r->order = QueryOrder::kFixed; }),
       RequestFault::kMisplaced, "needs fixedOrder"},
      {"ids without order fixed", With("siba", [](PredictRequest* r) { r->fixed_order = {1, 2}; }),
       RequestFault::kMisplaced, "needs order 'fixed'"},
      {"a fixed order with a seed", With("siba", [](PredictRequest* r) {
         r->order = QueryOrder::kFixed;
         r->fixed_order = {1, 2};
         r->seed = 4;
       }), RequestFault::kMisplaced, "seed applies to order 'random'"},
      {"a fixed order of another length than trees", With("siba", [](PredictRequest* r) {
         r->order = QueryOrder::kFixed;
         r->fixed_order = {1, 2};
         r->trees = 3;
       }), RequestFault::kOutOfRange, "must equal fixedOrder's length"},
      {"a fixed order naming a tree twice", With("siba", [](PredictRequest* r) {
         r->order = QueryOrder::kFixed;
         r->fixed_order = {1, 1};
       }), RequestFault::kOutOfRange, "distinct tree ids"},
      {"margin on a forest trained here", With("margin", [](PredictRequest*) {}), RequestFault::kModel,
       "imported voting forests"},
  };
  for (const Refusal& refusal : refusals) {
    INFO(refusal.what);
    RequestFault fault = RequestFault::kNone;
    const Status s = CheckPredictRequest(forest, refusal.request, &fault);
    CHECK(s.code == StatusCode::kInvalidArgument);
    CHECK(fault == refusal.fault);
    CHECK(s.message.find(refusal.message) != std::string::npos);
  }
}

TEST_CASE("CheckPredictRequest refuses what an imported model's soft rules and an additive model cannot do",
          "[predict_request]") {
  const Forest additive = ImportFixture("xgb_wdbc_binary_missing");
  const Forest voting = ImportFixture("sk_rf_wdbc_binary_zipmap");
  RequestFault fault = RequestFault::kNone;
  CHECK(CheckPredictRequest(additive, With("hyper", [](PredictRequest*) {}), &fault).message.find("alpha1") !=
        std::string::npos);
  CHECK(fault == RequestFault::kModel);
  CHECK(CheckPredictRequest(additive, With("", [](PredictRequest* r) { r->vote = VoteKind::kHard; }), &fault)
            .message.find("no hard vote") != std::string::npos);
  CHECK(CheckPredictRequest(voting, With("margin", [](PredictRequest* r) { r->vote = VoteKind::kHard; }), &fault)
            .message.find("vote must be 'soft'") != std::string::npos);
  CHECK(fault == RequestFault::kMisplaced);
  CHECK(CheckPredictRequest(voting, With("alpha1", [](PredictRequest* r) { r->trees = 3; }), &fault)
            .message.find("option trees does not apply") != std::string::npos);
  CHECK(fault == RequestFault::kMisplaced);
  CHECK(CheckPredictRequest(voting, With("alpha1", [](PredictRequest* r) { r->vote = VoteKind::kHard; })).ok());
  CHECK(MustOk(PlanPredict(voting, With("alpha1", [](PredictRequest* r) { r->vote = VoteKind::kHard; }))).path ==
        PredictPath::kTableRule);
  CHECK(MustOk(PlanPredict(voting, With("hyper", [](PredictRequest*) {}))).path == PredictPath::kTableRule);
}

TEST_CASE("A plan resolves alpha, trees and the query order from the core's defaults", "[predict_request]") {
  const Forest forest = Trained(EnsembleKind::kVoteBoost, 9);
  const PredictPlan plan = MustOk(PlanPredict(forest, With("siba", [](PredictRequest*) {})));
  CHECK(plan.alpha == kDefaultAlpha);
  CHECK(plan.trees == 9);
  CHECK(plan.order.order == QueryOrder::kRandomPerRow);
  CHECK(plan.order.seed == 1);
  CHECK(plan.InPlace());
  CHECK_FALSE(MustOk(PlanPredict(forest, With("siba", [](PredictRequest* r) { r->compare = true; }))).InPlace());
}

TEST_CASE("Predict uses a table the caller gives and reports it as cached", "[predict_request]") {
  const Forest forest = Trained(EnsembleKind::kRandomForest, 15);
  const PreparedRows rows = SomeRows(forest, 50);
  const PredictRequest request = With("siba", [](PredictRequest* r) { r->alpha = 0.9; });
  const HaltingTable table = MustOk(BuildForestTable(forest, HaltingRule::kSiba, 0.9));
  const GivenTable given{&table, nullptr};
  const Prediction cached = MustOk(Predict(forest, rows, request, &given));
  const Prediction built = MustPredict(forest, rows, request);
  CHECK(cached.table_source == TableSource::kCached);
  CHECK(built.table_source == TableSource::kBuilt);
  CHECK(cached.labels == built.labels);
  CHECK(cached.trees_used == built.trees_used);
  CHECK(std::isnan(cached.disagreement));
}

TEST_CASE("Halting asked for with an alpha or a delta but no rule gets the certified rule auto", "[predict_request]") {
  const Forest forest = Trained(EnsembleKind::kRandomForest, 11);
  for (PredictRequest request : {With("", [](PredictRequest* r) { r->alpha = 0.9; }),
                                 With("", [](PredictRequest* r) { r->delta = 0.1; }),
                                 With("", [](PredictRequest* r) {
                                   r->alpha = 0.95;
                                   r->order = QueryOrder::kGeneration;
                                 })}) {
    Result<PredictPlan> plan = PlanPredict(forest, request, nullptr);
    REQUIRE(plan.ok());
    CHECK(plan.value().path == PredictPath::kCertified);
    CHECK(plan.value().alpha == request.alpha.value_or(kDefaultAlpha));
    CHECK(plan.value().delta == request.delta.value_or(kDefaultDelta));
  }
  // Without alpha or delta it is still the full prediction, and the options of a rule are refused.
  Result<PredictPlan> full = PlanPredict(forest, PredictRequest{}, nullptr);
  REQUIRE(full.ok());
  CHECK(full.value().path == PredictPath::kFullVote);
  RequestFault fault = RequestFault::kNone;
  CHECK_FALSE(PlanPredict(forest, With("", [](PredictRequest* r) { r->order = QueryOrder::kGeneration; }), &fault).ok());
  CHECK(fault == RequestFault::kMisplaced);
}

}  // namespace
}  // namespace urnforest
