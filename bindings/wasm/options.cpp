// Option names, defaults and limits for the JS side, and the options decoders (see options.h).
#include "options.h"

#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"
#include "urnforest/certified_halting.h"
#include "urnforest/double_pruning.h"
#include "urnforest/experiment.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/halting_rule.h"
#include "urnforest/ordering.h"
#include "urnforest/train_request.h"

namespace urnforest::wasm {
namespace {

val Range(double min, double max) {
  val out = val::array();
  out.set(0, min);
  out.set(1, max);
  return out;
}

// Writes Parse(o[key]) into *field when `o` has `key`.
template <typename Enum, typename Parse>
Status NameInto(const val& o, const char* key, Parse parse, Enum* field) {
  if (!Has(o, key)) return Status::Ok();
  Result<Enum> parsed = parse(o[key].as<std::string>());
  if (!parsed.ok()) return parsed.status();
  *field = parsed.value();
  return Status::Ok();
}

// Writes o[key] into *field when `o` has `key`.
template <typename T>
void ValueInto(const val& o, const char* key, T* field) {
  if (Has(o, key)) *field = o[key].as<T>();
}

Status BaseLearnerInto(const val& o, EnsembleKind ensemble, TrainOptions* options) {
  if (!Has(o, "base")) return Status::Ok();
  // A base learner named for another ensemble is the core's refusal (CheckTrainRequest), not
  // ApplyBaseLearner's: the ensemble group's key is marked by the caller.
  if (options->ensemble != ensemble) return Status::Ok();
  Result<BaseLearner> base = ParseBaseLearner(ensemble, o["base"].as<std::string>());
  if (!base.ok()) return base.status();
  return ApplyBaseLearner(base.value(), options);
}

// The names of `rules`, in order.
std::vector<std::string> RuleNamesOf(const std::vector<HaltingRule>& rules) {
  std::vector<std::string> names;
  for (HaltingRule rule : rules) names.push_back(RuleName(rule));
  return names;
}

}  // namespace

bool Has(const val& o, const char* key) {
  return o.typeOf().as<std::string>() == "object" && !o.isNull() && !o[key].isUndefined();
}

val OptionTables() {
  val names = val::object();
  names.set("rules", StringArray(RuleNames()));
  std::vector<std::string> priorless;
  for (int32_t i = 0; i < kNumHaltingRules; ++i) {
    if (!RuleNeedsPrior(static_cast<HaltingRule>(i))) priorless.push_back(RuleNames()[i]);
  }
  names.set("priorlessRules", StringArray(priorless));
  names.set("orderings", StringArray(OrderingNames()));
  names.set("ensembles", StringArray(EnsembleKindNames()));
  names.set("mtryRules", StringArray(MtryRuleNames()));
  names.set("boostingVariants", StringArray(BoostingVariantNames()));
  names.set("treePrunings", StringArray(TreePruningNames()));
  names.set("voteBoostBases", StringArray(VoteBoostBaseNames()));
  names.set("queryOrders", StringArray(QueryOrderNames()));
  names.set("prunedQueryOrders", StringArray(PrunedQueryOrderNames()));
  names.set("generators", StringArray(GeneratorNames()));
  const TrainOptions train;
  const HaltingTableOptions table;
  val defaults = val::object();
  defaults.set("trees", train.num_trees);
  defaults.set("alpha", table.alpha);
  defaults.set("delta", kDefaultDelta);  // rule 'auto' (CheckDelta: the open interval of limits.delta)
  defaults.set("classes", table.num_classes);
  defaults.set("costSamples", static_cast<double>(kDefaultCostSamples));
  defaults.set("rules", StringArray(RuleNamesOf(ExperimentOptions().rules)));
  val limits = val::object();
  limits.set("maxTrees", TrainOptions::kMaxTrees);
  limits.set("maxClasses", HaltingTableOptions::kMaxClasses);
  limits.set("maxRows", static_cast<double>(DatasetLimits::kMaxRows));
  limits.set("maxFeatures", static_cast<double>(DatasetLimits::kMaxFeatures));
  limits.set("maxLabelClasses", static_cast<double>(DatasetLimits::kMaxClasses));
  limits.set("trees", Range(1, TrainOptions::kMaxTrees));
  limits.set("delta", Range(0, 1));
  limits.set("maxDepth", Range(0, TrainOptions::kMaxDepth));
  limits.set("minLeaf", Range(1, TrainOptions::kMaxMinLeaf));
  limits.set("cvTrees", Range(0, TrainOptions::kMaxTrees));
  limits.set("repeats", Range(1, ExperimentOptions::kMaxRepeats));
  limits.set("samples", Range(1, static_cast<double>(ExperimentOptions::kMaxMonteCarloSamples)));
  limits.set("costSamples", Range(0, static_cast<double>(kMaxCostSamples)));
  limits.set("backfit", Range(0, OrderingOptions::kMaxBackfitPasses));
  limits.set("maxWork", Range(ExperimentOptions::kMinMaxWork, ExperimentOptions::kMaxMaxWork));
  limits.set("trainRows", Range(2, static_cast<double>(DatasetLimits::kMaxRows)));
  limits.set("testRows", Range(1, static_cast<double>(DatasetLimits::kMaxRows)));
  limits.set("treeFolds", Range(TreePruningOptions::kMinCvFolds, TreePruningOptions::kMaxCvFolds));
  limits.set("treeSe", Range(0, TreePruningOptions::kMaxSeRule));
  limits.set("emphasis", Range(VoteBoostOptions::kMinEmphasis, VoteBoostOptions::kMaxEmphasis));
  val out = val::object();
  out.set("names", names);
  out.set("defaults", defaults);
  out.set("limits", limits);
  return out;
}

Status TrainRequestFromJs(const val& o, TrainRequest* request) {
  TrainOptions* options = &request->options;
  Status status = NameInto(o, "ensemble", ParseEnsembleKind, &options->ensemble);
  if (status.ok()) status = NameInto(o, "boosting", ParseBoostingVariant, &options->boosting);
  if (status.ok()) status = NameInto(o, "mtryRule", ParseMtryRule, &options->mtry_rule);
  if (status.ok()) status = NameInto(o, "treePruning", ParseTreePruning, &options->pruning.mode);
  if (!status.ok()) return status;
  if (Has(o, "boosting")) request->named.Add(TrainOptionKey::kBoosting);
  ValueInto(o, "trees", &options->num_trees);
  ValueInto(o, "mtry", &options->mtry);
  ValueInto(o, "maxDepth", &options->max_depth);
  ValueInto(o, "minLeaf", &options->min_leaf);
  ValueInto(o, "treeFolds", &options->pruning.cv_folds);
  ValueInto(o, "treeSe", &options->pruning.se_rule);
  if (Has(o, "voteboost")) {
    const val vb = o["voteboost"];
    request->named.Add(TrainOptionKey::kVoteBoost);
    if (Has(vb, "b")) request->named.Add(TrainOptionKey::kEmphasisB);
    if (Has(vb, "cvTrees")) request->named.Add(TrainOptionKey::kCvTrees);
    ValueInto(vb, "a", &options->voteboost.a);
    ValueInto(vb, "b", &options->voteboost.b);
    ValueInto(vb, "cv", &request->select_emphasis);
    ValueInto(vb, "cvTrees", &request->cv_trees);
    status = BaseLearnerInto(vb, EnsembleKind::kVoteBoost, options);
    if (!status.ok()) return status;
  }
  if (!Has(o, "adaboost")) return Status::Ok();
  request->named.Add(TrainOptionKey::kAdaBoost);
  return BaseLearnerInto(o["adaboost"], EnsembleKind::kAdaBoost, options);
}

uint64_t SeedFromJs(const val& o, uint64_t fallback) {
  if (!Has(o, "seedHi")) return fallback;
  return Seed64(o["seedHi"].as<double>(), o["seedLo"].as<double>());
}

Result<SequentialVoteOptions> VoteOptionsFromJs(const std::string& name, double seed_hi,
                                                double seed_lo) {
  Result<QueryOrder> order = ParseQueryOrder(name);
  if (!order.ok()) return order.status();
  SequentialVoteOptions options;
  options.order = order.value();
  options.seed = Seed64(seed_hi, seed_lo);
  return options;
}

/// {setsDepth: whether the base learner sets the tree depth (BaseLearner::max_depth > 0)} when
/// ParseBaseLearner accepts base learner `name` for ensemble `ensemble` (names), else
/// {problem: the core's message}.
val CheckBaseLearner(const std::string& ensemble, const std::string& name) {
  val out = val::object();
  Result<EnsembleKind> kind = ParseEnsembleKind(ensemble);
  Result<BaseLearner> base =
      kind.ok() ? ParseBaseLearner(kind.value(), name) : Result<BaseLearner>(kind.status());
  if (!base.ok()) {
    out.set("problem", base.status().message);
  } else {
    out.set("setsDepth", base.value().max_depth > 0);
  }
  return out;
}

void RegisterOptions() {
  emscripten::function("_optionTables", &OptionTables);
  emscripten::function("_defaultKeep", &DefaultKeep);
  emscripten::function("_checkBaseLearner", &CheckBaseLearner);
}

}  // namespace urnforest::wasm
