#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/experiment.h"
#include "urnforest/experiment_json.h"
#include "urnforest/json_writer.h"

using namespace urnforest;

namespace {

ExperimentOptions Synthetic(int32_t trees) {
  ExperimentOptions o;
  o.protocol = ProtocolKind::kSynthetic;
  o.generator = "twonorm";
  o.train_rows = 60;
  o.test_rows = 50;
  o.repeats = 2;
  o.train.num_trees = trees;
  o.rules = {HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper};
  return o;
}

}  // namespace

TEST_CASE("Pruning with the early ordering and keep = T changes nothing", "[experiment][pruning]") {
  ExperimentOptions o = Synthetic(15);
  const ExperimentResult plain = RunExperiment(o).value();
  o.prune = true;
  o.ordering.ordering = Ordering::kEarly;
  o.keep = 15;
  const ExperimentResult pruned = RunExperiment(o).value();
  REQUIRE(plain.pruned_size == 0);
  REQUIRE(pruned.pruned_size == 15);
  REQUIRE(pruned.pruned_error.mean == plain.full_error.mean);
  REQUIRE(pruned.full_error.mean == plain.full_error.mean);
  for (size_t i = 0; i < plain.rules.size(); ++i) {
    REQUIRE(pruned.rules[i].summary.trees.mean == plain.rules[i].summary.trees.mean);
    REQUIRE(pruned.rules[i].summary.disagreement.mean == plain.rules[i].summary.disagreement.mean);
    REQUIRE(pruned.rules[i].summary.expected_trees.mean ==
            plain.rules[i].summary.expected_trees.mean);
  }
}

TEST_CASE("Rules on a pruned ensemble query at most the kept trees and alpha1 matches its vote", "[experiment][pruning]") {
  ExperimentOptions o = Synthetic(21);
  o.prune = true;
  o.ordering.ordering = Ordering::kBoosting;
  o.keep = 7;
  const ExperimentResult r = RunExperiment(o).value();
  REQUIRE(r.pruned_size == 7);
  REQUIRE(r.trees == 21);
  REQUIRE(r.pruned_error.count == 2);
  const RuleResult& a1 = r.rules[0];
  REQUIRE(a1.rule == HaltingRule::kAlpha1);
  REQUIRE(a1.summary.disagreement.mean == 0.0);
  REQUIRE(a1.summary.error.mean == Approx(r.pruned_error.mean).epsilon(1e-12));
  for (const RuleResult& rr : r.rules) REQUIRE(rr.summary.trees.mean <= 7.0);
  REQUIRE(r.full_trees_alpha1.mean > 7.0);

  SECTION("the default keep is DefaultKeep(T)") {
    o.keep = 0;
    REQUIRE(RunExperiment(o).value().pruned_size == DefaultKeep(21));
  }
}

TEST_CASE("A random query order per row keeps alpha1 exact and is deterministic", "[experiment][pruning]") {
  ExperimentOptions o = Synthetic(21);
  o.query_order = PrunedQueryOrder::kRandomPerRow;
  const ExperimentResult r = RunExperiment(o).value();
  const ExperimentResult again = RunExperiment(o).value();
  REQUIRE(r.rules[0].summary.disagreement.mean == 0.0);
  for (size_t i = 0; i < r.rules.size(); ++i) {
    REQUIRE(again.rules[i].summary.trees.mean == r.rules[i].summary.trees.mean);
  }
  o.query_order = PrunedQueryOrder::kOrdered;
  const ExperimentResult ordered = RunExperiment(o).value();
  REQUIRE(ordered.full_error.mean == r.full_error.mean);
  bool any_differs = false;
  for (size_t i = 0; i < r.rules.size(); ++i) {
    any_differs |= ordered.rules[i].summary.trees.mean != r.rules[i].summary.trees.mean;
  }
  REQUIRE(any_differs);
}

TEST_CASE("AdaBoost runs in the harness, weighted full vote beside the unweighted one", "[experiment][pruning][boost]") {
  ExperimentOptions o = Synthetic(11);
  o.train.ensemble = EnsembleKind::kAdaBoost;
  o.rules = {HaltingRule::kAlpha1, HaltingRule::kSiba};
  const ExperimentResult r = RunExperiment(o).value();
  REQUIRE(r.full_error.count == 2);
  REQUIRE(r.full_unweighted_error.count == 2);
  REQUIRE(r.rules[0].summary.error.mean == Approx(r.full_unweighted_error.mean).epsilon(1e-12));
  o.prune = true;
  o.ordering.ordering = Ordering::kGreedySdp;
  o.keep = 5;
  o.rules = {HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper};
  const ExperimentResult p = RunExperiment(o).value();
  REQUIRE(p.pruned_size == 5);
  REQUIRE(p.rules[2].available);
  REQUIRE(p.rules[2].summary.trees.mean <= 5.0);
}

TEST_CASE("Pruning options are validated", "[experiment][pruning][errors]") {
  ExperimentOptions o = Synthetic(11);
  o.prune = true;
  o.keep = 12;
  REQUIRE(RunExperiment(o).status().code == StatusCode::kInvalidArgument);
  o.keep = -1;
  REQUIRE(RunExperiment(o).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("The experiment report has the pruned block beside full", "[experiment][pruning][json]") {
  ExperimentOptions o = Synthetic(11);
  o.prune = true;
  o.keep = 3;
  o.ordering.ordering = Ordering::kReduceError;
  const ExperimentResult r = RunExperiment(o).value();
  const std::string json = ExperimentJson(o, r, 0.5);
  REQUIRE(json.find("\"pruned\":{\"size\":3,\"ordering\":\"reduce-error\",\"error\":{\"mean\":") !=
          std::string::npos);
  REQUIRE(json.find("\"full\":{\"error\":") != std::string::npos);
  REQUIRE(json.find("\"query_order\":\"ordered\"") != std::string::npos);
  REQUIRE(json.find("\"seconds\":0.5") != std::string::npos);
}

TEST_CASE("JsonWriter writes the shortest doubles that round-trip and null for NaN", "[json]") {
  JsonWriter json;
  json.BeginArray().Double(0.1 + 0.2).Double(100.0).Double(0.5).Double(std::stod("nan")).EndArray();
  REQUIRE(json.str() == "[0.30000000000000004,100,0.5,null]");
}
