// The options every halting-rule command shares (see rule_setup.h).
#include "rule_setup.h"

#include <utility>

#include "model_file.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/train.h"

namespace urnforest::cli {

Result<RuleSetup> ReadRuleSetup(const Args& args) {
  RuleSetup setup;
  Result<HaltingRule> rule = ParseRule(args.Get("rule", RuleName(setup.rule)));
  if (!rule.ok()) return rule.status();
  setup.rule = rule.value();
  Result<double> alpha = args.Real("alpha", setup.alpha, 0.0, 1.0);
  if (!alpha.ok()) return alpha.status();
  if (alpha.value() <= 0.0) {
    return Status::Error(StatusCode::kInvalidArgument, "option --alpha must be in (0, 1]");
  }
  setup.alpha = alpha.value();
  if (args.Has("model")) {
    Result<Forest> forest = LoadModel(args.Get("model", ""));
    if (!forest.ok()) return forest.status();
    Result<int64_t> trees = args.Int("trees", forest.value().num_trees(), 1,
                                     forest.value().num_trees());
    if (!trees.ok()) return trees.status();
    setup.trees = static_cast<int32_t>(trees.value());
    setup.classes = forest.value().num_classes();
    if (args.Has("classes")) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --classes comes from the model; do not give it with --model");
    }
    if (RuleNeedsPrior(setup.rule)) {
      Result<Prior> prior = PriorForForest(forest.value(), setup.rule, setup.trees);
      if (!prior.ok()) return prior.status();
      setup.prior = std::move(prior).value();
      setup.has_prior = true;
    }
    setup.oob_votes = forest.value().oob_votes();
  } else {
    Result<int64_t> trees = args.Int("trees", setup.trees, 1, TrainOptions::kMaxTrees);
    if (!trees.ok()) return trees.status();
    setup.trees = static_cast<int32_t>(trees.value());
    Result<int64_t> classes = args.Int("classes", setup.classes, 2, HaltingTableOptions::kMaxClasses);
    if (!classes.ok()) return classes.status();
    setup.classes = static_cast<int32_t>(classes.value());
    if (RuleNeedsPrior(setup.rule)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           std::string("rule '") + RuleName(setup.rule) +
                               "' needs a prior estimated from a model: give --model MODEL");
    }
  }
  if (!setup.has_prior) {
    Result<Prior> uniform = Prior::Uniform(setup.classes);
    if (!uniform.ok()) return uniform.status();
    setup.prior = std::move(uniform).value();
  }
  return setup;
}

Result<HaltingTable> BuildTable(const RuleSetup& setup) {
  HaltingTableOptions options;
  options.rule = setup.rule;
  options.num_trees = setup.trees;
  options.num_classes = setup.classes;
  options.alpha = setup.alpha;
  return BuildHaltingTable(options, RuleNeedsPrior(setup.rule) ? &setup.prior : nullptr);
}

Result<std::vector<int32_t>> ReadCounts(const Args& args, const std::string& name,
                                        int32_t classes) {
  Result<std::vector<std::string>> items = args.List(name);
  if (!items.ok()) return items.status();
  if (items.value().size() != static_cast<size_t>(classes)) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "option --" + name + " needs " + std::to_string(classes) +
                             " comma-separated counts, got " +
                             std::to_string(items.value().size()));
  }
  std::vector<int32_t> counts;
  for (const std::string& item : items.value()) {
    int64_t value = 0;
    if (!ParsePlainInteger(item, &value) || value < 0 || value > TrainOptions::kMaxTrees) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --" + name + ": '" + item + "' is not a count");
    }
    counts.push_back(static_cast<int32_t>(value));
  }
  return counts;
}

void WriteHeader(JsonWriter& json, const RuleSetup& setup) {
  json.Key("trees").Int(setup.trees);
  json.Key("alpha").Double(setup.alpha);
  json.Key("classes").Int(setup.classes);
  json.Key("rule").String(RuleName(setup.rule));
}

}  // namespace urnforest::cli
