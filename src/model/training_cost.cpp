// TrainingCostPredictor: a halting table's cost predicted from the out-of-bag votes alone.
#include <string>
#include <utility>
#include <vector>

#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/prior.h"

namespace urnforest {

bool TrainingCostIsExact(int32_t num_classes, int32_t num_trees) {
  if (num_classes > 4 || num_trees < 0) return false;
  double tallies = 1.0;  // C(T + l - 1, l - 1)
  for (int32_t i = 1; i < num_classes; ++i) tallies = tallies * (num_trees + i) / i;
  return tallies <= 200000.0;
}

Result<TrainingCostPredictor> TrainingCostPredictor::FromOob(const std::vector<uint32_t>& oob_votes,
                                                             int32_t num_classes, int32_t num_trees,
                                                             const TrainingCostOptions& options) {
  if (options.monte_carlo_samples < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "monte_carlo_samples must be >= 0");
  }
  TrainingCostPredictor p;
  p.num_classes_ = num_classes;
  p.num_trees_ = num_trees;
  p.options_ = options;
  if (TrainingCostIsExact(num_classes, num_trees)) {
    Result<Prior> prior = PriorForRule(HaltingRule::kHyper, oob_votes, {}, num_classes, num_trees,
                                       options.prior);
    if (!prior.ok()) return prior.status();
    p.prior_ = std::move(prior).value();
    p.has_prior_ = true;
  } else {
    if (options.monte_carlo_samples < 1) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "the prediction for " + std::to_string(num_classes) + " classes and " +
                               std::to_string(num_trees) +
                               " trees is Monte Carlo: samples must be >= 1");
    }
    Result<std::vector<int32_t>> tallies = RescaledOobTallies(oob_votes, num_classes, num_trees);
    if (!tallies.ok()) return tallies.status();
    p.tallies_ = std::move(tallies).value();
  }
  return p;
}

Result<TrainingCostPredictor> TrainingCostPredictor::FromForest(const Forest& forest,
                                                                int32_t num_trees,
                                                                const TrainingCostOptions& options) {
  return FromOob(forest.oob_votes(), forest.num_classes(),
                 num_trees > 0 ? num_trees : forest.num_trees(), options);
}

Result<TrainingCost> TrainingCostPredictor::Predict(const HaltingTable& table) const {
  if (table.num_classes() != num_classes_ || table.num_trees() != num_trees_) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the table is for " + std::to_string(table.num_classes()) + " classes and " +
                             std::to_string(table.num_trees()) + " trees, the predictor for " +
                             std::to_string(num_classes_) + " and " + std::to_string(num_trees_));
  }
  TrainingCost out;
  if (!has_prior_) {
    Result<CostEstimate> mc = MonteCarloCostOverTallies(table, tallies_, options_.monte_carlo_samples,
                                                        options_.seed);
    if (!mc.ok()) return mc.status();
    out.estimate = std::move(mc).value();
    out.method = "monte_carlo_oob_tallies";
    return out;
  }
  Result<CostEstimate> exact = Status::Error(StatusCode::kLimitExceeded, "not tried");
  if (options_.stop_probability) exact = ExactCostOverPrior(table, prior_);
  if (!exact.ok() && exact.status().code != StatusCode::kLimitExceeded) return exact.status();
  if (!exact.ok()) exact = ExactCostByRecursion(table, prior_);
  if (!exact.ok()) return exact.status();
  out.estimate = std::move(exact).value();
  out.method = "exact";
  if (options_.monte_carlo_samples > 0) {
    Result<CostEstimate> mc =
        MonteCarloCost(table, prior_, options_.monte_carlo_samples, options_.seed);
    if (!mc.ok()) return mc.status();
    out.monte_carlo = std::move(mc).value();
    out.has_monte_carlo = true;
  }
  return out;
}

Result<std::vector<TrainingCost>> TrainingCostPredictor::PredictMany(
    const std::vector<const HaltingTable*>& tables) const {
  std::vector<TrainingCost> out;
  if (!has_prior_ || options_.stop_probability || options_.monte_carlo_samples > 0) {
    for (const HaltingTable* table : tables) {
      Result<TrainingCost> one = Predict(*table);
      if (!one.ok()) return one.status();
      out.push_back(std::move(one).value());
    }
    return out;
  }
  for (const HaltingTable* table : tables) {
    if (table->num_classes() != num_classes_ || table->num_trees() != num_trees_) {
      return Status::Error(StatusCode::kShapeMismatch, "a table does not fit the predictor");
    }
  }
  Result<std::vector<CostEstimate>> exact = ExactCostsByRecursion(tables, prior_);
  if (!exact.ok()) return exact.status();
  for (CostEstimate& e : exact.value()) {
    TrainingCost cost;
    cost.estimate = std::move(e);
    cost.method = "exact";
    out.push_back(std::move(cost));
  }
  return out;
}

Result<TrainingCost> PredictCostFromTraining(const Forest& forest, const HaltingTable& table,
                                             const TrainingCostOptions& options) {
  Result<TrainingCostPredictor> p =
      TrainingCostPredictor::FromForest(forest, table.num_trees(), options);
  if (!p.ok()) return p.status();
  return p.value().Predict(table);
}

}  // namespace urnforest
