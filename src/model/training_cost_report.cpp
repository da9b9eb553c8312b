// How a table's cost predicted from training data is reported: exact or Monte Carlo, explicitly,
// and how many Monte Carlo draws a front end's request means (urnforest/forest_halting.h).
#include <utility>

#include "urnforest/forest_halting.h"

namespace urnforest {

TrainingCostReport ReportTrainingCost(const TrainingCost& cost) {
  TrainingCostReport out;
  if (cost.method != "exact") {
    out.monte_carlo = cost.estimate;
    return out;
  }
  out.exact = cost.estimate;
  if (cost.has_monte_carlo) out.monte_carlo = cost.monte_carlo;
  return out;
}

int64_t TrainingCostSamples(int32_t num_classes, int32_t num_trees, int64_t samples) {
  if (samples < 0) samples = 0;
  return !TrainingCostIsExact(num_classes, num_trees) && samples == 0 ? kManyClassCostSamples
                                                                      : samples;
}

Result<TrainingCostReport> ReportCostFromTraining(const Forest& forest, const HaltingTable& table,
                                                  int64_t samples, uint64_t seed) {
  TrainingCostOptions options;
  options.monte_carlo_samples = TrainingCostSamples(forest.num_classes(), table.num_trees(), samples);
  options.seed = seed;
  options.stop_probability = true;
  Result<TrainingCost> cost = PredictCostFromTraining(forest, table, options);
  if (!cost.ok()) return cost.status();
  return ReportTrainingCost(cost.value());
}

}  // namespace urnforest
