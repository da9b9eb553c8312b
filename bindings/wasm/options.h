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

namespace urnforest::wasm {

using emscripten::val;

/// {names: {rules, priorlessRules (those RuleNeedsPrior says need no data prior), orderings, ensembles, mtryRules, boostingVariants, treePrunings,
/// voteBoostBases, queryOrders, prunedQueryOrders, generators} (each the core's list in enum
/// order), defaults: {trees, alpha, classes, costSamples, minLeaf, ...} (the core's defaults the
/// JS side reports or validates with), limits: {maxTrees, maxClasses, treeFolds: [min, max],
/// treeSe: [min, max], emphasis: [min, max]}}.
val OptionTables();

/// Vote-boosting's cross-validated emphasis choice requested by a JS `voteboost: {cv: true}`.
struct EmphasisCvRequest {
  bool select = false;   ///< voteboost.cv: choose a = b by SelectEmphasisByCV first.
  int32_t num_trees = 0; ///< voteboost.cvTrees (0 = the training trees).
};

/// Sets the fields of `options` whose keys `o` has (validated for type and range by the JS side):
/// ensemble, boosting, mtryRule, treePruning (names), trees, mtry, maxDepth, minLeaf, treeFolds,
/// treeSe, voteboost {a, b, base (name), cv, cvTrees}, adaboost {base (name: ParseBaseLearner)}.
/// `cv` (may be null) receives voteboost.cv and cvTrees. Fails with kInvalidArgument on a name the
/// core does not parse or a base learner ApplyBaseLearner refuses; `options` may then be partly set.
Status TrainOptionsFromJs(const val& o, TrainOptions* options, EmphasisCvRequest* cv);

/// The 64-bit seed of `o.seedHi` and `o.seedLo` (its 32-bit halves), or `fallback` when absent.
uint64_t SeedFromJs(const val& o, uint64_t fallback);

/// The query order of `name` (one of names.queryOrders) with the seed's halves. kInvalidArgument
/// for an unknown name.
Result<SequentialVoteOptions> VoteOptionsFromJs(const std::string& name, double seed_hi,
                                                double seed_lo);

/// True when `o` is an object with own key `key` whose value is not undefined.
bool Has(const val& o, const char* key);

}  // namespace urnforest::wasm
