#include "urnforest/forest_halting.h"

#include <string>
#include <utility>
#include <vector>

namespace urnforest {

Result<Prior> PriorForForest(const Forest& forest, HaltingRule rule, int32_t num_trees) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
  return PriorForRule(rule, forest.oob_votes(), forest.train_labels(), forest.num_classes(), t);
}

Result<HaltingTable> BuildForestTable(const Forest& forest, HaltingRule rule, double alpha,
                                      int32_t num_trees, bool* from_store) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
  if (from_store != nullptr) *from_store = false;
  if (const HaltingTable* stored = forest.FindStoredTable(rule, alpha, t)) {
    if (from_store != nullptr) *from_store = true;
    return *stored;
  }
  if (t > forest.num_trees()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "a table for " + std::to_string(t) + " trees cannot be used with a forest of " +
                             std::to_string(forest.num_trees()));
  }
  HaltingTableOptions options;
  options.rule = rule;
  options.num_trees = t;
  options.num_classes = forest.num_classes();
  options.alpha = alpha;
  if (!RuleNeedsPrior(rule)) return BuildHaltingTable(options);
  Result<Prior> prior = PriorForForest(forest, rule, t);
  if (!prior.ok()) return prior.status();
  return BuildHaltingTable(options, &prior.value());
}

Status StoreForestTable(Forest* forest, HaltingRule rule, double alpha, int32_t num_trees) {
  Result<HaltingTable> table = BuildForestTable(*forest, rule, alpha, num_trees);
  if (!table.ok()) return table.status();
  return forest->StoreTable(std::move(table).value());
}

Result<SequentialVoteResult> PredictHalted(const Forest& forest, const Dataset& data,
                                           const HaltingTable& table,
                                           const SequentialVoteOptions& options) {
  Result<std::vector<float>> model_rows = ModelRows(forest, data);
  if (!model_rows.ok()) return model_rows.status();
  if (table.num_classes() != forest.num_classes()) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the table has " + std::to_string(table.num_classes()) +
                             " classes, the forest " + std::to_string(forest.num_classes()));
  }
  if (table.num_trees() > forest.num_trees()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the table is for " + std::to_string(table.num_trees()) +
                             " trees, the forest has " + std::to_string(forest.num_trees()));
  }
  for (int32_t tree : options.fixed_order) {
    if (tree < 0 || tree >= forest.num_trees()) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "query order names tree " + std::to_string(tree) +
                               ", the forest has " + std::to_string(forest.num_trees()));
    }
  }
  const std::vector<float>& rows = model_rows.value();
  const size_t features = data.num_features();
  return PredictSequential(
      table, data.num_rows(),
      [&](int32_t tree, size_t row) { return forest.TreeVote(tree, rows.data() + row * features); },
      options);
}

}  // namespace urnforest
