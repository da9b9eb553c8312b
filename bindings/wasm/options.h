// Options across the boundary: the option names, defaults and limits the JS side validates with
// (asked once per module instance), and the decoders of the JS option objects into the core's
// options structs. Enums cross as names, parsed by the core's Parse* functions; a decoder sets only
// the keys present, so that every other field keeps the core's default.
#pragma once

#include <cstdint>

#include <emscripten/val.h>

#include "urnforest/forest.h"
#include "urnforest/halting_table.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"
#include "urnforest/train_request.h"

namespace urnforest::wasm {

using emscripten::val;

/// {names: {rules, priorlessRules (those RuleNeedsPrior says need no data prior), orderings,
/// ensembles, mtryRules, boostingVariants, treePrunings, voteBoostBases, queryOrders,
/// prunedQueryOrders, generators} (each the core's list in enum order), defaults: {trees, alpha,
/// classes, costSamples, rules (ExperimentOptions' default rules)} (the core's defaults the JS side
/// reports or validates with), limits: {maxTrees, maxClasses, maxRows, maxFeatures, and [min, max]
/// of trees, maxDepth, minLeaf, cvTrees, treeFolds, treeSe, emphasis, repeats, samples, maxWork,
/// trainRows, testRows}: the core's bounds (TrainOptions, TreePruningOptions, VoteBoostOptions,
/// ExperimentOptions, DatasetLimits constants), which CheckTrainOptions and CheckExperimentOptions
/// hold too}.
val OptionTables();

/// Sets the fields of `request` whose keys `o` has (validated for type by the JS side; bounds and
/// the rules between options are the core's, CheckTrainRequest): ensemble, boosting, mtryRule,
/// treePruning (names), trees, mtry, maxDepth, minLeaf, treeFolds, treeSe, voteboost {a, b, base
/// (name), cv (select_emphasis), cvTrees}, adaboost {base (name: ParseBaseLearner)}; marks
/// `boosting`, `voteboost` (and its b, cvTrees) and `adaboost` in request->named. A base learner in
/// the group of another ensemble is left for CheckTrainRequest to refuse. Fails with
/// kInvalidArgument on a name the core does not parse or a base learner ApplyBaseLearner refuses;
/// `request` may then be partly set.
Status TrainRequestFromJs(const val& o, TrainRequest* request);

/// The 64-bit seed of `o.seedHi` and `o.seedLo` (its 32-bit halves), or `fallback` when absent.
uint64_t SeedFromJs(const val& o, uint64_t fallback);

/// The query order of `name` (one of names.queryOrders) with the seed's halves. kInvalidArgument
/// for an unknown name.
Result<SequentialVoteOptions> VoteOptionsFromJs(const std::string& name, double seed_hi,
                                                double seed_lo);

/// True when `o` is an object with own key `key` whose value is not undefined.
bool Has(const val& o, const char* key);

}  // namespace urnforest::wasm
