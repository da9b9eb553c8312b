// Train's options: their check (every bound and rule between fields), the names of their enums
// (the CLI's and JS API's strings), base-learner resolution and the tree-growth predicates.
#include <cmath>
#include <cstdio>
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

Status InvalidOption(const std::string& name, const std::string& why) {
  return Invalid("option " + name + " " + why);
}

// "must be in MIN..MAX[ (note)], got VALUE" for an integer field outside [min, max].
Status IntOutside(const std::string& name, int64_t value, int64_t min, int64_t max,
                  const std::string& note = "") {
  return InvalidOption(name, "must be in " + std::to_string(min) + ".." + std::to_string(max) +
                                 (note.empty() ? "" : " (" + note + ")") + ", got " +
                                 std::to_string(value));
}

std::string Real(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

Status CheckEnums(const TrainOptions& o) {
  if (o.ensemble != EnsembleKind::kRandomForest && o.ensemble != EnsembleKind::kBagging &&
      o.ensemble != EnsembleKind::kAdaBoost && o.ensemble != EnsembleKind::kVoteBoost) {
    return InvalidOption("ensemble", "is not a known ensemble kind");
  }
  if (o.boosting != BoostingVariant::kResample && o.boosting != BoostingVariant::kReweight) {
    return InvalidOption("boosting", "is not a known boosting variant");
  }
  if (o.mtry_rule != MtryRule::kSqrt && o.mtry_rule != MtryRule::kLog2 &&
      o.mtry_rule != MtryRule::kLog2Plus1) {
    return InvalidOption("mtry_rule", "is not a known rule");
  }
  if (o.pruning.mode != TreePruning::kNone && o.pruning.mode != TreePruning::kCostComplexityCV) {
    return InvalidOption("pruning", "is not a known tree pruning mode");
  }
  const VoteBoostBase base = o.voteboost.base;
  if (base != VoteBoostBase::kRandomTree && base != VoteBoostBase::kUnprunedCart &&
      base != VoteBoostBase::kStump && base != VoteBoostBase::kPrunedCart) {
    return InvalidOption("voteboost.base", "is not a known base learner");
  }
  return Status::Ok();
}

Status CheckEmphasis(const VoteBoostOptions& vb) {
  constexpr double kMin = VoteBoostOptions::kMinEmphasis;
  constexpr double kMax = VoteBoostOptions::kMaxEmphasis;
  const std::string range = "[" + Real(kMin) + ", " + Real(kMax) + "]";
  if (!(vb.a >= kMin && vb.a <= kMax)) {
    return InvalidOption("voteboost.a", "must be in " + range + ", got " + Real(vb.a));
  }
  if (!(vb.b == 0.0 || (vb.b >= kMin && vb.b <= kMax))) {
    return InvalidOption("voteboost.b", "must be in " + range + " (or 0 = same as a), got " +
                                            Real(vb.b));
  }
  return Status::Ok();
}

}  // namespace

Status CheckTrainOptions(const TrainOptions& o, size_t num_features) {
  Status status = CheckEnums(o);
  if (!status.ok()) return status;
  if (o.num_trees < 1 || o.num_trees > TrainOptions::kMaxTrees) {
    return IntOutside("num_trees", o.num_trees, 1, TrainOptions::kMaxTrees);
  }
  if (o.mtry < 0 || static_cast<size_t>(o.mtry) > num_features) {
    return IntOutside("mtry", o.mtry, 0, static_cast<int64_t>(num_features),
                      "the number of features");
  }
  if (o.max_depth < 0 || o.max_depth > TrainOptions::kMaxDepth) {
    return IntOutside("max_depth", o.max_depth, 0, TrainOptions::kMaxDepth, "0 = unlimited");
  }
  if (o.min_leaf < 1 || o.min_leaf > TrainOptions::kMaxMinLeaf) {
    return IntOutside("min_leaf", o.min_leaf, 1, TrainOptions::kMaxMinLeaf);
  }
  using Pruning = TreePruningOptions;
  if (o.pruning.cv_folds < Pruning::kMinCvFolds || o.pruning.cv_folds > Pruning::kMaxCvFolds) {
    return IntOutside("pruning.cv_folds", o.pruning.cv_folds, Pruning::kMinCvFolds,
                      Pruning::kMaxCvFolds);
  }
  if (!(o.pruning.se_rule >= 0.0 && o.pruning.se_rule <= Pruning::kMaxSeRule)) {
    return InvalidOption("pruning.se_rule", "must be in [0, " + std::to_string(Pruning::kMaxSeRule) +
                                                "], got " + Real(o.pruning.se_rule));
  }
  if (o.ensemble == EnsembleKind::kVoteBoost) return CheckEmphasis(o.voteboost);
  return Status::Ok();
}

bool PrunesTrees(const TrainOptions& options) {
  return options.pruning.mode != TreePruning::kNone ||
         (options.ensemble == EnsembleKind::kVoteBoost &&
          options.voteboost.base == VoteBoostBase::kPrunedCart);
}

bool GrownToPurity(const TrainOptions& options) {
  const bool stumps = options.ensemble == EnsembleKind::kVoteBoost &&
                      options.voteboost.base == VoteBoostBase::kStump;
  return !PrunesTrees(options) && !stumps && options.max_depth == 0 && options.min_leaf <= 1;
}

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
