// Parsing of the base-learner CLI options: vote-boosting's a, b and base, AdaBoost's base tree.
#include "voteboost_args.h"

#include <string>

namespace urnforest::cli {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

Status ParseEmphasis(const Args& args, VoteBoostOptions* options, bool* by_cv) {
  const std::string emphasis = args.Get("emphasis", "1");
  if (emphasis == "cv") {
    *by_cv = true;
    options->a = 1.0;
  } else {
    Result<double> a = args.Real("emphasis", 1.0, VoteBoostOptions::kMinEmphasis,
                                       VoteBoostOptions::kMaxEmphasis);
    if (!a.ok()) return a.status();
    options->a = a.value();
  }
  if (args.Has("emphasis-b")) {
    if (*by_cv) return Invalid("option --emphasis-b cannot be combined with --emphasis cv (a = b)");
    Result<double> b = args.Real("emphasis-b", 0.0, VoteBoostOptions::kMinEmphasis,
                                         VoteBoostOptions::kMaxEmphasis);
    if (!b.ok()) return b.status();
    options->b = b.value();
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
  Result<TreePruning> pruning =
      ParseOption(args, "tree-pruning", options->pruning.mode, ParseTreePruning);
  if (!pruning.ok()) return pruning.status();
  options->pruning.mode = pruning.value();
  Result<int64_t> folds = args.Int("tree-folds", options->pruning.cv_folds, 2, 100);
  if (!folds.ok()) return folds.status();
  options->pruning.cv_folds = static_cast<int32_t>(folds.value());
  Result<double> se = args.Real("tree-se", options->pruning.se_rule, 0.0, 10.0);
  if (!se.ok()) return se.status();
  options->pruning.se_rule = se.value();
  if (vb) {
    Status emphasis = ParseEmphasis(args, &options->voteboost, by_cv);
    if (!emphasis.ok()) return emphasis;
  }
  if (!args.Has("base")) return Status::Ok();
  Result<BaseLearner> base = ParseBaseLearner(options->ensemble, args.Get("base", ""));
  if (!base.ok()) return OptionError("base", base.status());
  Status applied = ApplyBaseLearner(base.value(), options);
  if (!applied.ok()) return OptionError("base", applied);
  return Status::Ok();
}

}  // namespace urnforest::cli
