// A prediction request checked against a forest and resolved into a plan (urnforest/predict_request.h):
// every refusal of a prediction, and the choice of its path.
#include "urnforest/predict_request.h"

#include <algorithm>
#include <string>
#include <vector>

#include "urnforest/query_order.h"
#include "urnforest/tally_stopping.h"

namespace urnforest {
namespace {

Status Refuse(RequestFault kind, const std::string& message, RequestFault* fault) {
  if (fault != nullptr) *fault = kind;
  return Status::Error(StatusCode::kInvalidArgument, message);
}

}  // namespace

const char* LpObjectiveName(LpObjective objective) {
  return objective == LpObjective::kMinimax ? "minimax" : "minimean";
}

Result<LpObjective> ParseLpObjective(const std::string& name) {
  if (name == "minimean") return LpObjective::kMinimean;
  if (name == "minimax") return LpObjective::kMinimax;
  return Status::Error(StatusCode::kInvalidArgument, "objective must be one of minimean, minimax, got '" + name + "'");
}

namespace {

// The first option of `request` that needs a rule, or nullptr.
const char* OptionNeedingRule(const PredictRequest& request) {
  if (request.compare) return "compare";
  if (request.objective.has_value()) return "objective";
  if (request.order.has_value()) return "order";
  if (request.seed.has_value()) return "seed";
  if (request.trees.has_value()) return "trees";
  if (!request.fixed_order.empty()) return "fixedOrder";
  if (request.first_row.has_value()) return "firstRow";
  return nullptr;
}

// The first option of `request` that a soft rule (exact exit, margin: generation order over every
// tree) cannot honour, or nullptr.
const char* OptionOfTableRules(const PredictRequest& request) {
  if (request.order.has_value() && *request.order != QueryOrder::kGeneration) return "order";
  if (request.seed.has_value()) return "seed";
  if (request.trees.has_value()) return "trees";
  if (!request.fixed_order.empty()) return "fixedOrder";
  return nullptr;
}

// A table rule's query order, fixed order and trees (plan->order, plan->trees).
Status PlanOrder(const Forest& forest, const PredictRequest& request, PredictPlan* plan,
                 RequestFault* fault) {
  const int32_t all = forest.num_trees();
  const QueryOrder order = request.order.value_or(DefaultQueryOrder(forest));
  plan->order.order = order;
  plan->order.seed = request.seed.value_or(1);
  if (order != QueryOrder::kFixed) {
    if (!request.fixed_order.empty()) {
      return Refuse(RequestFault::kMisplaced, "fixedOrder (the tree ids to query) needs order 'fixed'", fault);
    }
    plan->trees = request.trees.value_or(all);
    if (plan->trees < 1 || plan->trees > all) {
      return Refuse(RequestFault::kOutOfRange, "trees must be in [1, " + std::to_string(all) +
                                                   "], got " + std::to_string(plan->trees), fault);
    }
    return Status::Ok();
  }
  const std::vector<int32_t>& ids = request.fixed_order;
  if (ids.empty()) return Refuse(RequestFault::kMisplaced, "order 'fixed' needs fixedOrder (the tree ids to query)", fault);
  if (request.seed.has_value()) {
    return Refuse(RequestFault::kMisplaced, "seed applies to order 'random', not 'fixed'", fault);
  }
  const int32_t length = static_cast<int32_t>(std::min<size_t>(ids.size(), INT32_MAX));
  if (request.trees.has_value() && *request.trees != length) {
    return Refuse(RequestFault::kOutOfRange, "trees (" + std::to_string(*request.trees) +
                                                 ") must equal fixedOrder's length (" +
                                                 std::to_string(ids.size()) + ")", fault);
  }
  std::vector<uint8_t> seen(static_cast<size_t>(all), 0);
  for (int32_t id : ids) {
    if (id < 0 || id >= all || seen[static_cast<size_t>(id)] != 0) {
      return Refuse(RequestFault::kOutOfRange, "fixedOrder must name distinct tree ids in [0, " +
                                                   std::to_string(all) + "), got " + std::to_string(id),
                    fault);
    }
    seen[static_cast<size_t>(id)] = 1;
  }
  plan->order.fixed_order = ids;
  plan->trees = length;
  plan->compare = true;  // a fixed order always reports the full vote of its trees
  return Status::Ok();
}

// The plan of a rule on an imported model's soft prediction (exact exit or margin).
Status PlanSoftRule(const Forest& forest, const PredictRequest& request, bool margin,
                    PredictPlan* plan, RequestFault* fault) {
  if (const char* option = OptionOfTableRules(request)) {
    return Refuse(RequestFault::kMisplaced,
                  std::string(margin ? "the margin rule" : "the exact early exit (rule alpha1 on the soft vote)") +
                      " queries every tree in generation order: option " + option + " does not apply",
                  fault);
  }
  plan->path = margin ? PredictPath::kMargin : PredictPath::kExactExit;
  plan->trees = forest.num_trees();
  return Status::Ok();
}

// The plan of rule "auto" or "lp": random (default) or generation order over every tree.
Status PlanStoppingStrategy(const Forest& forest, const PredictRequest& request, bool certified,
                            PredictPlan* plan, RequestFault* fault) {
  const std::string rule = certified ? kAutoRuleName : kLpRuleName;
  const ImportedModel* imported = forest.imported();
  if (imported != nullptr && imported->kind == ImportedKind::kAdditive) {
    return Refuse(RequestFault::kModel, "an additive model (boosted trees) halts with rule 'alpha1' (the exact early "
                  "exit) only, not '" + rule + "': its trees add margins, they do not vote", fault);
  }
  if (request.trees.has_value() || !request.fixed_order.empty() || request.probabilities ||
      (request.order.has_value() && *request.order == QueryOrder::kFixed)) {
    const char* option = request.trees.has_value() ? "trees" : request.probabilities ? "probabilities" : "fixedOrder";
    return Refuse(RequestFault::kMisplaced, "rule '" + rule + "' queries all trees in random or generation order: "
                  "option " + option + " does not apply", fault);
  }
  if (request.delta.has_value() && !certified) {
    return Refuse(RequestFault::kMisplaced, "delta applies to rule 'auto' (its certificate), not 'lp'", fault);
  }
  if (request.objective.has_value() && certified) {
    return Refuse(RequestFault::kMisplaced, "objective applies to rule 'lp', not 'auto'", fault);
  }
  if (!certified && request.objective == LpObjective::kMinimax && forest.num_classes() != 2) {
    return Refuse(RequestFault::kModel, "rule 'lp' with objective 'minimax' is for two classes; this model has " +
                  std::to_string(forest.num_classes()) + " (objective 'minimean' serves any number)", fault);
  }
  if (!certified && forest.num_classes() < 2) {
    return Refuse(RequestFault::kModel, "rule 'lp' needs two or more classes", fault);
  }
  if (!certified && forest.num_classes() > 2) {
    if (Result<TallyLattice> fits = TallyLattice::Make(forest.num_trees(), forest.num_classes()); !fits.ok()) {
      if (fault != nullptr) *fault = RequestFault::kModel;
      return Status::Error(fits.status().code, "rule 'lp': " + fits.status().message + " (rule 'auto' serves any number)");
    }
  }
  if (!certified && forest.num_classes() == 2 && forest.num_trees() > kMaxBinaryStoppingTrees) {
    return Refuse(RequestFault::kModel, "rule 'lp' is for at most " + std::to_string(kMaxBinaryStoppingTrees) +
                  " trees", fault);
  }
  if (!certified && imported != nullptr && !imported->calibrated) {
    return Refuse(RequestFault::kModel, "rule 'lp' needs a calibrated forest: calibrate it on unlabeled rows first",
                  fault);
  }
  plan->delta = request.delta.value_or(kDefaultDelta);
  if (Status d = CheckDelta(plan->delta); !d.ok()) return Refuse(RequestFault::kOutOfRange, d.message, fault);
  plan->path = certified ? PredictPath::kCertified : PredictPath::kLp;
  plan->objective = request.objective.value_or(LpObjective::kMinimean);
  plan->order.order = request.order.value_or(QueryOrder::kRandomPerRow);
  plan->order.seed = request.seed.value_or(1);
  plan->trees = forest.num_trees();
  return Status::Ok();
}

// The plan of rule "stratified": two classes, a calibrated forest, random or generation order.
Status PlanStratified(const Forest& forest, const PredictRequest& request, PredictPlan* plan,
                      RequestFault* fault) {
  if (request.objective.has_value() || request.delta.has_value()) {
    return Refuse(RequestFault::kMisplaced, std::string("option ") + (request.delta ? "delta" : "objective") +
                  " does not apply to rule 'stratified'", fault);
  }
  if (forest.num_classes() != 2) {
    return Refuse(RequestFault::kModel, "rule 'stratified' is for two classes; this model has " +
                  std::to_string(forest.num_classes()), fault);
  }
  if (Status s = PlanStoppingStrategy(forest, request, false, plan, fault); !s.ok()) {
    std::string message = s.message;
    for (size_t at = message.find("rule 'lp'"); at != std::string::npos; at = message.find("rule 'lp'", at)) {
      message.replace(at, 9, "rule 'stratified'");
    }
    return Status::Error(s.code, message, s.line, s.column);
  }
  if (forest.stratified_calibration() == nullptr) {
    return Refuse(RequestFault::kModel, "rule 'stratified' needs a calibrated forest: calibrate it on unlabeled "
                  "rows first (its surrogate is fitted then)", fault);
  }
  plan->path = PredictPath::kStratified;
  return Status::Ok();
}

Status PlanRule(const Forest& forest, const PredictRequest& request, PredictPlan* plan,
                RequestFault* fault) {
  if (request.rule == kStratifiedRuleName) return PlanStratified(forest, request, plan, fault);
  if (request.rule == kAutoRuleName || request.rule == kLpRuleName) {
    return PlanStoppingStrategy(forest, request, request.rule == kAutoRuleName, plan, fault);
  }
  if (request.delta.has_value()) {
    return Refuse(RequestFault::kMisplaced, "delta applies to rule 'auto' (its certificate) only", fault);
  }
  if (request.objective.has_value()) {
    return Refuse(RequestFault::kMisplaced, "objective applies to rule 'lp' only", fault);
  }
  const ImportedModel* imported = forest.imported();
  const bool soft = imported != nullptr && plan->vote == VoteKind::kSoft;
  const bool additive = imported != nullptr && imported->kind == ImportedKind::kAdditive;
  if (request.rule == kMarginRuleName) {
    if (imported != nullptr && !soft) {
      return Refuse(RequestFault::kMisplaced, "rule 'margin' halts the soft prediction; vote must be 'soft'", fault);
    }
    if (imported == nullptr || additive) {
      return Refuse(RequestFault::kModel,
                    "the margin rule is for imported voting forests (random forests from other libraries)", fault);
    }
    if (!imported->calibrated || imported->margin.rows == 0) {
      return Refuse(RequestFault::kModel,
                    "the margin rule needs a calibrated forest: calibrate it on unlabeled rows first", fault);
    }
    return PlanSoftRule(forest, request, true, plan, fault);
  }
  Result<HaltingRule> rule = ParseRule(request.rule);
  if (!rule.ok()) {
    std::string names;
    for (const std::string& name : RuleNames()) names += name + ", ";
    return Refuse(RequestFault::kOutOfRange, "rule must be one of " + names + kMarginRuleName + ", " +
                                                 kLpRuleName + ", " + kStratifiedRuleName + ", " + kAutoRuleName + ", got '" +
                                                 request.rule + "'", fault);
  }
  plan->rule = rule.value();
  if (soft && plan->rule == HaltingRule::kAlpha1) return PlanSoftRule(forest, request, false, plan, fault);
  if (additive) {
    return Refuse(RequestFault::kModel,
                  "an additive model (boosted trees) halts with rule 'alpha1' (the exact early exit) only, not '" +
                      request.rule + "': its trees add margins, they do not vote", fault);
  }
  plan->path = PredictPath::kTableRule;
  return PlanOrder(forest, request, plan, fault);
}

}  // namespace

const char* PredictPathName(PredictPath path) {
  switch (path) {
    case PredictPath::kFullVote: return "full";
    case PredictPath::kWeightedVote: return "weighted";
    case PredictPath::kSoftScores: return "soft";
    case PredictPath::kTableRule: return "table";
    case PredictPath::kExactExit: return "exact";
    case PredictPath::kMargin: return "margin";
    case PredictPath::kLp: return "lp";
    case PredictPath::kCertified: return "auto";
    case PredictPath::kStratified: return "stratified";
  }
  return "full";
}

const char* PlannedRuleName(const PredictPlan& plan) {
  switch (plan.path) {
    case PredictPath::kFullVote:
    case PredictPath::kWeightedVote:
    case PredictPath::kSoftScores: return "";
    case PredictPath::kTableRule:
    case PredictPath::kExactExit: return RuleName(plan.rule);
    case PredictPath::kMargin: return kMarginRuleName;
    case PredictPath::kLp: return kLpRuleName;
    case PredictPath::kCertified: return kAutoRuleName;
    case PredictPath::kStratified: return kStratifiedRuleName;
  }
  return "";
}

const char* TableSourceName(TableSource source) {
  switch (source) {
    case TableSource::kNone: return "none";
    case TableSource::kBuilt: return "built";
    case TableSource::kStored: return "stored";
    case TableSource::kCached: return "cached";
  }
  return "none";
}

Status CheckPredictRequest(const Forest& forest, const PredictRequest& request, RequestFault* fault) {
  return PlanPredict(forest, request, fault).status();
}

Result<PredictPlan> PlanPredict(const Forest& forest, const PredictRequest& request,
                                RequestFault* fault) {
  if (fault != nullptr) *fault = RequestFault::kNone;
  if (forest.num_trees() == 0 || forest.num_classes() == 0) {
    return Refuse(RequestFault::kModel, "the forest has no trees", fault);
  }
  PredictPlan plan;
  const ImportedModel* imported = forest.imported();
  plan.vote = request.vote.value_or(imported != nullptr ? imported->default_vote : VoteKind::kHard);
  plan.compare = request.compare;
  plan.probabilities = request.probabilities;
  plan.execution = request.execution;
  plan.trees = forest.num_trees();
  if (imported != nullptr && imported->kind == ImportedKind::kAdditive && plan.vote == VoteKind::kHard) {
    return Refuse(RequestFault::kModel, "an additive model (boosted trees) has no hard vote: its trees add margins",
                  fault);
  }
  if (request.rule.empty() && (request.alpha.has_value() || request.delta.has_value())) {
    // Halting asked for without naming a rule (an alpha or a delta alone): the certified rule.
    PredictRequest certified = request;
    certified.rule = kAutoRuleName;
    return PlanPredict(forest, certified, fault);
  }
  if (request.rule.empty()) {
    if (const char* option = OptionNeedingRule(request)) {
      return Refuse(RequestFault::kMisplaced, std::string("option ") + option + " needs a rule", fault);
    }
    plan.path = imported != nullptr && plan.vote == VoteKind::kSoft ? PredictPath::kSoftScores
                : imported == nullptr && !forest.tree_weights().empty() ? PredictPath::kWeightedVote
                                                                         : PredictPath::kFullVote;
    return plan;
  }
  plan.alpha = request.alpha.value_or(kDefaultAlpha);
  if (Status a = CheckAlpha(plan.alpha); !a.ok()) return Refuse(RequestFault::kOutOfRange, a.message, fault);
  if (Status s = PlanRule(forest, request, &plan, fault); !s.ok()) return s;
  plan.order.first_row = static_cast<size_t>(request.first_row.value_or(0));
  return plan;
}

bool Prediction::Halted() const {
  return path == PredictPath::kTableRule || path == PredictPath::kExactExit ||
         path == PredictPath::kMargin || path == PredictPath::kLp || path == PredictPath::kCertified ||
         path == PredictPath::kStratified;
}

}  // namespace urnforest
