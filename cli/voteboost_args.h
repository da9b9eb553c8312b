#pragma once
// Shared parsing of the base-learner CLI options (train and experiment commands): vote-boosting's
// emphasis and base learner, AdaBoost's base learner, and tree pruning.
#include "args.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/voteboost.h"

namespace urnforest::cli {

/// Option names read by ParseBaseLearnerArgs (for Args::Parse's allowed lists).
#define URNFOREST_BASE_LEARNER_OPTIONS "emphasis", "emphasis-b", "base", "tree-pruning", \
    "tree-folds", "tree-se"

/// Reads, for `options->ensemble` (already set) and after options->max_depth was set:
/// - vote-boosting: --emphasis A|cv (a = b; "cv" sets *by_cv and leaves a = 1), --emphasis-b B
///   (asymmetric, two classes), --base random|unpruned|stump|pruned (default random);
/// - AdaBoost: --base unpruned|pruned|stump|depth:N (default unpruned, the thesis's CART;
///   [SMS18]'s baseline is pruned); names resolved by the core's ParseBaseLearner and
///   ApplyBaseLearner (stump and depth:N set the depth: not combinable with a non-zero --max-depth);
/// - any ensemble: --tree-pruning none|cv (every tree; AdaBoost's --base pruned implies cv),
///   --tree-folds V (2..100, default 10), --tree-se K (k-SE rule, [0, 10], default 1).
/// kInvalidArgument names the option for unknown values, options of another ensemble kind and
/// conflicting combinations.
Status ParseBaseLearnerArgs(const Args& args, TrainOptions* options, bool* by_cv);

}  // namespace urnforest::cli
