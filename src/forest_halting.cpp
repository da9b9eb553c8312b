#include "urnforest/forest_halting.h"

#include <string>
#include <vector>

namespace urnforest {

Result<Prior> PriorForForest(const Forest& forest, HaltingRule rule, int32_t num_trees) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
  return PriorForRule(rule, forest.oob_votes(), forest.train_labels(), forest.num_classes(), t);
}

Result<HaltingTable> BuildForestTable(const Forest& forest, HaltingRule rule, double alpha,
                                      int32_t num_trees) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
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

Status CheckSchemaMatches(const Forest& forest, const Dataset& data) {
  const Schema& want = forest.schema();
  const Schema& have = data.schema();
  if (want.features.size() != have.features.size()) {
    return Status::Error(StatusCode::kColumnMismatch,
                         "the model has " + std::to_string(want.features.size()) +
                             " features, the data has " + std::to_string(have.features.size()));
  }
  for (size_t f = 0; f < want.features.size(); ++f) {
    if (want.features[f].type != have.features[f].type) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "feature " + std::to_string(f) + " ('" + want.features[f].name +
                               "') has a different type in the data");
    }
    if (want.features[f].type == FeatureType::kCategorical &&
        have.features[f].categories.size() > want.features[f].categories.size()) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "feature '" + want.features[f].name +
                               "' has categories the model has never seen");
    }
  }
  return Status::Ok();
}

Result<SequentialVoteResult> PredictHalted(const Forest& forest, const Dataset& data,
                                           const HaltingTable& table,
                                           const SequentialVoteOptions& options) {
  Status schema = CheckSchemaMatches(forest, data);
  if (!schema.ok()) return schema;
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
  const std::vector<float> rows = data.RowMajor();
  const size_t features = data.num_features();
  return PredictSequential(
      table, data.num_rows(),
      [&](int32_t tree, size_t row) { return forest.TreeVote(tree, rows.data() + row * features); },
      options);
}

}  // namespace urnforest
