// Names of Train's option enums (the CLI's and JS API's strings) and base-learner resolution.
#include <string>
#include <string_view>
#include <vector>

#include "base/enum_names.h"
#include "urnforest/train.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

// AdaBoost's "depth:N": N in 1..999999, digits only, no leading zero; 0 when `name` is not one.
int32_t DepthOf(std::string_view name) {
  constexpr std::string_view kPrefix = "depth:";
  if (name.substr(0, kPrefix.size()) != kPrefix) return 0;
  const std::string_view digits = name.substr(kPrefix.size());
  if (digits.empty() || digits.size() > 6 || digits[0] == '0') return 0;
  int32_t depth = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    depth = depth * 10 + (c - '0');
  }
  return depth;
}

}  // namespace

const std::vector<std::string>& EnsembleKindNames() {
  static const std::vector<std::string> kNames = {"rf", "bagging", "adaboost", "voteboost"};
  return kNames;
}
const char* EnsembleKindName(EnsembleKind kind) {
  if (kind == EnsembleKind::kImported) return "imported";  // never parsed: not a training option
  return internal::EnumName(static_cast<size_t>(kind), EnsembleKindNames());
}
Result<EnsembleKind> ParseEnsembleKind(std::string_view name) {
  return internal::ParseEnumName<EnsembleKind>(name, EnsembleKindNames(), "ensemble");
}

const std::vector<std::string>& MtryRuleNames() {
  static const std::vector<std::string> kNames = {"sqrt", "log2", "log2plus1"};
  return kNames;
}
const char* MtryRuleName(MtryRule rule) {
  return internal::EnumName(static_cast<size_t>(rule), MtryRuleNames());
}
Result<MtryRule> ParseMtryRule(std::string_view name) {
  return internal::ParseEnumName<MtryRule>(name, MtryRuleNames(), "mtry rule");
}

const std::vector<std::string>& BoostingVariantNames() {
  static const std::vector<std::string> kNames = {"resample", "reweight"};
  return kNames;
}
const char* BoostingVariantName(BoostingVariant variant) {
  return internal::EnumName(static_cast<size_t>(variant), BoostingVariantNames());
}
Result<BoostingVariant> ParseBoostingVariant(std::string_view name) {
  return internal::ParseEnumName<BoostingVariant>(name, BoostingVariantNames(), "boosting variant");
}

const std::vector<std::string>& TreePruningNames() {
  static const std::vector<std::string> kNames = {"none", "cv"};
  return kNames;
}
const char* TreePruningName(TreePruning mode) {
  return internal::EnumName(static_cast<size_t>(mode), TreePruningNames());
}
Result<TreePruning> ParseTreePruning(std::string_view name) {
  return internal::ParseEnumName<TreePruning>(name, TreePruningNames(), "tree pruning");
}

const std::vector<std::string>& VoteBoostBaseNames() {
  static const std::vector<std::string> kNames = {"random", "unpruned", "stump", "pruned"};
  return kNames;
}
const char* VoteBoostBaseName(VoteBoostBase base) {
  return internal::EnumName(static_cast<size_t>(base), VoteBoostBaseNames());
}
Result<VoteBoostBase> ParseVoteBoostBase(std::string_view name) {
  return internal::ParseEnumName<VoteBoostBase>(name, VoteBoostBaseNames(),
                                                "vote-boosting base learner");
}

Result<BaseLearner> ParseBaseLearner(EnsembleKind ensemble, std::string_view name) {
  BaseLearner base;
  base.ensemble = ensemble;
  if (ensemble == EnsembleKind::kVoteBoost) {
    Result<VoteBoostBase> parsed = ParseVoteBoostBase(name);
    if (!parsed.ok()) return parsed.status();
    base.voteboost_base = parsed.value();
    return base;
  }
  if (ensemble != EnsembleKind::kAdaBoost) {
    return Invalid(std::string("a base learner needs ensemble voteboost or adaboost, not ") +
                   EnsembleKindName(ensemble));
  }
  if (name == "pruned") {
    base.cost_complexity_pruned = true;
  } else if (name == "stump") {
    base.max_depth = 1;
  } else if (name != "unpruned") {
    base.max_depth = DepthOf(name);
    if (base.max_depth == 0) {
      return Invalid("unknown AdaBoost base learner '" + std::string(name) +
                     "' (expected unpruned, pruned, stump or depth:N with N in 1..999999)");
    }
  }
  return base;
}

Status ApplyBaseLearner(const BaseLearner& base, TrainOptions* options) {
  if (options->ensemble != base.ensemble) {
    return Invalid(std::string("base learner for ") + EnsembleKindName(base.ensemble) +
                   " applied to ensemble " + EnsembleKindName(options->ensemble));
  }
  if (base.ensemble == EnsembleKind::kVoteBoost) {
    options->voteboost.base = base.voteboost_base;
    return Status::Ok();
  }
  if (base.max_depth > 0) {
    if (options->max_depth != 0) {
      return Invalid("the base learner sets the depth (" + std::to_string(base.max_depth) +
                     "): do not combine it with max_depth");
    }
    options->max_depth = base.max_depth;
  }
  if (base.cost_complexity_pruned) options->pruning.mode = TreePruning::kCostComplexityCV;
  return Status::Ok();
}

}  // namespace urnforest
