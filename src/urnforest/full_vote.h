#pragma once
// The full vote of a trained Forest: every tree's vote for every row, counted per class, with the
// rows first converted to the forest's layout (columns matched by name). The batch walks behind
// it (AccumulateVotes, AccumulateVotesOf) also serve halted prediction's comparison with the full
// vote (urnforest/predict.h) and the ensemble's own users (weighted vote, vote matrix, emphasis CV).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

class Forest;

/// Full-ensemble vote for every row of `data` (whose schema must match the forest's features).
/// Votes are counted unweighted, also for AdaBoost (whose own prediction is PredictWeighted).
struct FullVote {
  std::vector<uint32_t> votes;  ///< rows x classes, row-major: votes[r * num_classes + c].
  std::vector<int32_t> labels;  ///< Majority class per row; ties go to the lowest class index.
};
/// The rows of `data` in the forest's layout, row-major (rows x num_features floats, NaN = missing),
/// ready for Forest::TreeVote. Columns are matched by name: every model feature must be a column
/// of `data` (any order; extra columns are ignored) with the same type, else kColumnMismatch
/// naming the column. Unnamed data (Dataset::FromRowMajor's default names x0, x1, ...) is read by
/// position and must have exactly the model's width. Categorical columns whose category
/// lists differ from the model's are mapped by category name; a category the model never saw
/// becomes a missing value. kInvalidArgument for a forest without trees.
Result<std::vector<float>> ModelRows(const Forest& forest, const Dataset& data);

/// How a large batch of rows is spread over threads: contiguous parts of at least
/// min_rows_per_thread rows, one thread each. The results do not depend on it (a row's outcome
/// depends only on the row and, in random query order, on its index in the batch).
struct PredictExecution {
  /// 0 = every hardware thread, 1 = the calling thread only (the default). WebAssembly builds
  /// always use one thread.
  int32_t threads = 1;
  /// Fewer rows than this per thread are not worth a thread (a thread's start costs about what
  /// walking a few thousand rows through a tree does). At least 1.
  size_t min_rows_per_thread = 16384;
};

/// Votes of all trees for every row of `data`. Columns are matched as by ModelRows (by name;
/// unnamed data by position), else kColumnMismatch. Categorical columns
/// whose category lists differ from the model's are mapped by category name; a category the model
/// never saw is treated as a missing value. Labels of `data` are ignored. kInvalidArgument for a
/// forest without trees (default-constructed).
Result<FullVote> PredictFull(const Forest& forest, const Dataset& data);

/// PredictFull on `num_rows` rows already in the forest's layout (ModelRows: row-major,
/// num_features() floats per row; borrowed for the call), for callers that keep the converted rows
/// across calls. kInvalidArgument for a forest without trees.
Result<FullVote> PredictFullRows(const Forest& forest, const float* rows, size_t num_rows);

/// PredictFullRows with the rows spread over threads as `execution` says: the same votes and
/// labels for every thread count.
Result<FullVote> PredictFullRows(const Forest& forest, const float* rows, size_t num_rows,
                                 const PredictExecution& execution);

/// Adds the votes of trees 0..num_trees-1 for `num_rows` rows in the forest's layout (ModelRows:
/// row-major, num_features() floats per row) to `votes` (num_rows x num_classes(), row-major).
/// The batch form of TreeVote, with identical votes: walks each tree over blocks of rows, several
/// rows at a time. Precondition: 0 <= num_trees <= forest.num_trees(). No allocation.
void AccumulateVotes(const Forest& forest, const float* rows, size_t num_rows, int32_t num_trees,
                     uint32_t* votes);

/// Adds the votes of the `num_queried` trees `trees` (ids in [0, forest.num_trees()), borrowed)
/// for `num_rows` rows in the forest's layout to `votes` (num_rows x num_classes(), row-major):
/// AccumulateVotes for any set of trees, e.g. a fixed query order. Votes identical to TreeVote.
/// Precondition: every id in range. No allocation.
void AccumulateVotesOf(const Forest& forest, const float* rows, size_t num_rows,
                       const int32_t* trees, size_t num_queried, uint32_t* votes);

}  // namespace urnforest
