// Option names, defaults and limits for the JS side, and the options decoders (see options.h).
#include "options.h"

#include <string>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"
#include "urnforest/double_pruning.h"
#include "urnforest/experiment.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/halting_rule.h"
#include "urnforest/ordering.h"

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
  Result<BaseLearner> base = ParseBaseLearner(ensemble, o["base"].as<std::string>());
  if (!base.ok()) return base.status();
  return ApplyBaseLearner(base.value(), options);
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
  defaults.set("classes", table.num_classes);
  defaults.set("costSamples", static_cast<double>(kDefaultCostSamples));
  val limits = val::object();
  limits.set("maxTrees", TrainOptions::kMaxTrees);
  limits.set("maxClasses", HaltingTableOptions::kMaxClasses);
  limits.set("treeFolds", Range(TreePruningOptions::kMinCvFolds, TreePruningOptions::kMaxCvFolds));
  limits.set("treeSe", Range(0, TreePruningOptions::kMaxSeRule));
  limits.set("emphasis", Range(VoteBoostOptions::kMinEmphasis, VoteBoostOptions::kMaxEmphasis));
  val out = val::object();
  out.set("names", names);
  out.set("defaults", defaults);
  out.set("limits", limits);
  return out;
}

Status TrainOptionsFromJs(const val& o, TrainOptions* options, EmphasisCvRequest* cv) {
  Status status = NameInto(o, "ensemble", ParseEnsembleKind, &options->ensemble);
  if (status.ok()) status = NameInto(o, "boosting", ParseBoostingVariant, &options->boosting);
  if (status.ok()) status = NameInto(o, "mtryRule", ParseMtryRule, &options->mtry_rule);
  if (status.ok()) status = NameInto(o, "treePruning", ParseTreePruning, &options->pruning.mode);
  if (!status.ok()) return status;
  ValueInto(o, "trees", &options->num_trees);
  ValueInto(o, "mtry", &options->mtry);
  ValueInto(o, "maxDepth", &options->max_depth);
  ValueInto(o, "minLeaf", &options->min_leaf);
  ValueInto(o, "treeFolds", &options->pruning.cv_folds);
  ValueInto(o, "treeSe", &options->pruning.se_rule);
  if (Has(o, "voteboost")) {
    const val vb = o["voteboost"];
    ValueInto(vb, "a", &options->voteboost.a);
    ValueInto(vb, "b", &options->voteboost.b);
    status = BaseLearnerInto(vb, EnsembleKind::kVoteBoost, options);
    if (!status.ok()) return status;
    if (cv != nullptr) {
      ValueInto(vb, "cv", &cv->select);
      ValueInto(vb, "cvTrees", &cv->num_trees);
    }
  }
  if (Has(o, "adaboost")) return BaseLearnerInto(o["adaboost"], EnsembleKind::kAdaBoost, options);
  return Status::Ok();
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
  emscripten::function("_checkBaseLearner", &CheckBaseLearner);
}

}  // namespace urnforest::wasm
