// Parsing of the base-learner CLI options: vote-boosting's a, b and base, AdaBoost's base tree.
#include "voteboost_args.h"

#include <string>

namespace urnforest::cli {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

Status ParseVoteBoost(const Args& args, VoteBoostOptions* options, bool* by_cv) {
  const std::string emphasis = args.Get("emphasis", "1");
  if (emphasis == "cv") {
    *by_cv = true;
    options->a = 1.0;
  } else {
    Result<double> a = args.Real("emphasis", 1.0, 1e-6, 1e6);
    if (!a.ok()) return a.status();
    options->a = a.value();
  }
  if (args.Has("emphasis-b")) {
    if (*by_cv) return Invalid("option --emphasis-b cannot be combined with --emphasis cv (a = b)");
    Result<double> b = args.Real("emphasis-b", 0.0, 1e-6, 1e6);
    if (!b.ok()) return b.status();
    options->b = b.value();
  }
  const std::string base = args.Get("base", "random");
  if (base == "random") {
    options->base = VoteBoostBase::kRandomTree;
  } else if (base == "unpruned") {
    options->base = VoteBoostBase::kUnprunedCart;
  } else if (base == "stump") {
    options->base = VoteBoostBase::kStump;
  } else if (base == "pruned") {
    options->base = VoteBoostBase::kPrunedCart;
  } else {
    return Invalid("option --base must be random, unpruned, stump or pruned, got '" + base + "'");
  }
  return Status::Ok();
}

Status ParseAdaBoostBase(const Args& args, TrainOptions* options) {
  if (!args.Has("base")) return Status::Ok();
  const std::string base = args.Get("base", "unpruned");
  const bool sets_depth = base == "stump" || base.rfind("depth:", 0) == 0;
  if (sets_depth && args.Has("max-depth")) {
    return Invalid("option --base " + base + " sets the depth: do not combine it with --max-depth");
  }
  if (base == "unpruned") return Status::Ok();
  if (base == "pruned") {
    options->pruning.mode = TreePruning::kCostComplexityCV;
  } else if (base == "stump") {
    options->max_depth = 1;
  } else if (sets_depth) {
    const std::string digits = base.substr(6);
    if (digits.empty() || digits.size() > 6 ||
        digits.find_first_not_of("0123456789") != std::string::npos || std::stoi(digits) < 1) {
      return Invalid("option --base depth:N needs an integer N in 1..999999, got '" + base + "'");
    }
    options->max_depth = std::stoi(digits);
  } else {
    return Invalid("option --base must be unpruned, pruned, stump or depth:N for adaboost, got '" +
                   base + "'");
  }
  return Status::Ok();
}

}  // namespace

Status ParseBaseLearnerArgs(const Args& args, TrainOptions* options, bool* by_cv) {
  *by_cv = false;
  const bool vb = options->ensemble == EnsembleKind::kVoteBoost;
  const bool ada = options->ensemble == EnsembleKind::kAdaBoost;
  if (!vb && (args.Has("emphasis") || args.Has("emphasis-b"))) {
    return Invalid("options --emphasis and --emphasis-b need --ensemble voteboost");
  }
  if (!vb && !ada && args.Has("base")) {
    return Invalid("option --base needs --ensemble voteboost or adaboost");
  }
  const std::string pruning = args.Get("tree-pruning", "none");
  if (pruning == "cv") {
    options->pruning.mode = TreePruning::kCostComplexityCV;
  } else if (pruning != "none") {
    return Invalid("option --tree-pruning must be none or cv, got '" + pruning + "'");
  }
  Result<int64_t> folds = args.Int("tree-folds", 10, 2, 100);
  if (!folds.ok()) return folds.status();
  options->pruning.cv_folds = static_cast<int32_t>(folds.value());
  Result<double> se = args.Real("tree-se", 1.0, 0.0, 10.0);
  if (!se.ok()) return se.status();
  options->pruning.se_rule = se.value();
  if (vb) return ParseVoteBoost(args, &options->voteboost, by_cv);
  if (ada) return ParseAdaBoostBase(args, options);
  return Status::Ok();
}

}  // namespace urnforest::cli
