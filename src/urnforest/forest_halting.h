#pragma once
// Glue between a trained Forest and the halting engine: priors from the forest's out-of-bag votes,
// tables for the forest's size, and halted (sequential) prediction of a Dataset.
#include <cstdint>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"

namespace urnforest {

/// The prior `rule` needs, estimated from the forest's out-of-bag votes and training labels, for
/// tables of `num_trees` queried trees (0 = forest.num_trees()). Uniform for alpha1/siba/infinite.
/// Fails like PriorForRule (e.g. kLimitExceeded for hyper with more than 4 classes).
Result<Prior> PriorForForest(const Forest& forest, HaltingRule rule, int32_t num_trees = 0);

/// The halting table of `rule` at confidence `alpha` for the forest's own size (or `num_trees`
/// queried trees, e.g. after static pruning): a copy of the table stored with the forest when one
/// matches exactly (Forest::FindStoredTable: same rule, bit-identical alpha, same T), else built
/// from the forest's out-of-bag prior (a built table is not stored; see StoreForestTable). Fails
/// like BuildHaltingTable, or kInvalidArgument when `num_trees` exceeds the forest's trees.
/// `from_store`, when given, is set to whether the stored table was used.
Result<HaltingTable> BuildForestTable(const Forest& forest, HaltingRule rule, double alpha,
                                      int32_t num_trees = 0, bool* from_store = nullptr);

/// Builds the table of `rule` at `alpha` for `num_trees` queried trees (0 = all) with
/// BuildForestTable and stores it in `forest` (Forest::StoreTable), so that SerializeForest writes
/// it. Fails like BuildForestTable.
Status StoreForestTable(Forest* forest, HaltingRule rule, double alpha, int32_t num_trees = 0);

/// Halted prediction of every row of `data` (columns as for PredictFull/ModelRows: kColumnMismatch).
/// The table's T must not exceed the forest's trees (kInvalidArgument); the query order is that
/// of `options` (generation order by default).
Result<SequentialVoteResult> PredictHalted(const Forest& forest, const Dataset& data,
                                           const HaltingTable& table,
                                           const SequentialVoteOptions& options = {});

/// PredictHalted on `num_rows` rows already in the forest's layout (ModelRows: row-major,
/// num_features() floats per row). Same checks except the column ones. Blocked and inlined tree
/// walks (PredictSequentialBlocked); results identical to PredictSequential with TreeVote.
Result<SequentialVoteResult> PredictHaltedRows(const Forest& forest, const float* rows,
                                               size_t num_rows, const HaltingTable& table,
                                               const SequentialVoteOptions& options = {});

}  // namespace urnforest
