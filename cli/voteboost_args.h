#pragma once
// Shared parsing of the learner CLI options (train and experiment commands): the ensemble, its
// size and tree shape, AdaBoost's boosting variant and base learner, vote-boosting's emphasis and
// base learner, and tree pruning, into the core's TrainRequest. Bounds are the core's constants;
// the rules between options are the core's (CheckTrainRequest), so that the CLI and the JS API
// refuse the same combinations with the same message.
#include "args.h"
#include "urnforest/status.h"
#include "urnforest/train_request.h"

namespace urnforest::cli {

/// Option names read by ParseLearnerArgs (for Args::Parse's allowed lists).
#define URNFOREST_LEARNER_OPTIONS "ensemble", "boosting", "trees", "mtry", "max-depth", \
    "emphasis", "emphasis-b", "base", "cv-trees", "tree-pruning", "tree-folds", "tree-se"

/// Reads into `request` (whose other fields keep their values):
/// - --ensemble rf|bagging|adaboost|voteboost, --trees T (1..kMaxTrees), --mtry M
///   (0..DatasetLimits::kMaxFeatures; Train bounds it by the data's features), --max-depth D
///   (0..TrainOptions::kMaxDepth);
/// - AdaBoost: --boosting resample|reweight, --base unpruned|pruned|stump|depth:N (default
///   unpruned, the thesis's CART; [SMS18]'s baseline is pruned; stump and depth:N set the depth:
///   not combinable with a non-zero --max-depth);
/// - vote-boosting: --emphasis A|cv (a = b; "cv" sets select_emphasis), --emphasis-b B (asymmetric,
///   two classes), --base random|unpruned|stump|pruned (default random), --cv-trees N (trees per
///   CV ensemble, with --emphasis cv);
/// - any ensemble: --tree-pruning none|cv (every tree; AdaBoost's --base pruned implies cv),
///   --tree-folds V, --tree-se K (TreePruningOptions' ranges).
/// Names are resolved by the core's parsers; options that apply to one ensemble only are marked in
/// request->named for CheckTrainRequest. kInvalidArgument names the option for a value that does
/// not parse or lies outside its bounds.
Status ParseLearnerArgs(const Args& args, TrainRequest* request);

}  // namespace urnforest::cli
