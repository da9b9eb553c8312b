// The halting rules' stable names, their parsing, and which rules need a prior.
#include "urnforest/halting_rule.h"

namespace urnforest {

const char* RuleName(HaltingRule rule) {
  switch (rule) {
    case HaltingRule::kAlpha1: return "alpha1";
    case HaltingRule::kSiba: return "siba";
    case HaltingRule::kHyper: return "hyper";
    case HaltingRule::kOneDir: return "1dir";
    case HaltingRule::kNDir: return "ndir";
    case HaltingRule::kInfinite: return "infinite";
    case HaltingRule::kOptimal: return "optimal";
  }
  return "unknown";
}

Result<HaltingRule> ParseRule(const std::string& name) {
  for (int32_t i = 0; i < kNumHaltingRules; ++i) {
    HaltingRule rule = static_cast<HaltingRule>(i);
    if (name == RuleName(rule)) return rule;
  }
  return Status::Error(StatusCode::kInvalidArgument,
                       "unknown halting rule '" + name +
                           "' (expected alpha1, siba, hyper, 1dir, ndir, infinite or optimal)");
}

const std::vector<std::string>& RuleNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (int32_t i = 0; i < kNumHaltingRules; ++i) names.push_back(RuleName(static_cast<HaltingRule>(i)));
    return names;
  }();
  return kNames;
}

bool RuleNeedsPrior(HaltingRule rule) {
  return rule == HaltingRule::kHyper || rule == HaltingRule::kOneDir ||
         rule == HaltingRule::kNDir || rule == HaltingRule::kOptimal;
}

}  // namespace urnforest
