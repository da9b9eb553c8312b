#pragma once
// The options every halting-rule command shares (`table`, `pstar`, `expected`): the rule, alpha,
// T, l and the prior, read from the command line, and the table they describe.
#include <cstdint>
#include <string>
#include <vector>

#include "args.h"
#include "urnforest/halting_table.h"
#include "urnforest/json_writer.h"
#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest::cli {

/// Rule, alpha, T and l from the options, and the prior: from --model's out-of-bag votes when a
/// model is given, else the uniform prior (rules needing a data prior then fail).
struct RuleSetup {
  HaltingRule rule = HaltingTableOptions{}.rule;
  double alpha = HaltingTableOptions{}.alpha;
  int32_t trees = HaltingTableOptions{}.num_trees;
  int32_t classes = HaltingTableOptions{}.num_classes;
  bool has_prior = false;
  Prior prior;  ///< The table's prior (uniform unless the rule needs a data prior).
  /// With --model: the model's OOB votes, from which `expected` predicts the cost from training
  /// data alone (TrainingCostPredictor). Without a model: empty, and costs average the table's prior.
  std::vector<uint32_t> oob_votes;
};

/// --rule, --alpha, and --model (T from --trees up to the model's, l and the prior from the model)
/// or --trees and --classes (the uniform prior). kInvalidArgument for a bad option, --classes with
/// --model, or a rule needing a data prior without --model; the model's load failure otherwise.
Result<RuleSetup> ReadRuleSetup(const Args& args);

/// The halting table of `setup` (its prior when the rule needs one); fails as BuildHaltingTable.
Result<HaltingTable> BuildTable(const RuleSetup& setup);

/// Option --`name`: exactly `classes` comma-separated counts, each in 0..TrainOptions::kMaxTrees
/// (kShapeMismatch for another number of counts, kInvalidArgument for a bad count).
Result<std::vector<int32_t>> ReadCounts(const Args& args, const std::string& name, int32_t classes);

/// Writes "trees", "alpha", "classes" and "rule" of `setup` into the open JSON object.
void WriteHeader(JsonWriter& json, const RuleSetup& setup);

}  // namespace urnforest::cli
