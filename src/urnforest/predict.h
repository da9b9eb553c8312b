#pragma once
// Prediction with a trained Forest: rows prepared once in the model's layout, and halted
// (sequential) prediction compared with the full vote of the queried trees. The full vote itself
// is declared in urnforest/full_vote.h (included). Every front end (CLI, wasm bindings) predicts
// through these calls.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/full_vote.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"

namespace urnforest {

class Forest;

/// Rows of a Dataset converted once to a model's layout, for repeated predictions with any model of
/// the same layout (feature names, count, types, and categories of categorical features).
struct PreparedRows {
  std::vector<float> values;         ///< num_rows x layout.size() floats, row-major (ModelRows).
  std::vector<uint8_t> without_nan;  ///< Per row: 1 when no value is NaN (RowsWithoutNaN).
  size_t num_rows = 0;
  /// The features of the model the rows were converted for: ModelRows reads each feature's name,
  /// type and, for categorical features, its categories.
  std::vector<FeatureInfo> layout;
  /// Forest::layout_id() of the forest the rows were converted for (0: none). When it equals the
  /// forest's id, Fits needs no comparison of names and categories.
  uint64_t layout_id = 0;
  /// True when these rows are valid input for `forest`: it has trees and classes, and its features
  /// have the same names, count, types and categorical categories as `layout`.
  bool Fits(const Forest& forest) const;
};

/// The rows of `data` converted to `forest`'s layout (ModelRows) with their NaN flags. Fails like
/// ModelRows: kColumnMismatch (other feature count or types), kInvalidArgument (no trees).
Result<PreparedRows> PrepareRows(const Forest& forest, const Dataset& data);

/// A halted prediction of every row, with the figures a front end reports.
struct HaltedPrediction {
  SequentialVoteResult halted;  ///< Per row: label, trees used, confidence, halted early.
  /// With `compare`: the full vote of the queried trees (the table's T trees: 0..T-1, or
  /// options.fixed_order), labels by plurality with ties to the lowest class index. Else empty.
  std::optional<FullVote> full;
  double mean_trees = 0.0;  ///< halted.MeanTrees(): mean trees queried per row, 0 for no rows.
  /// With `compare`: the fraction of rows whose halted label differs from full->labels (0 for no
  /// rows). Without: NaN.
  double disagreement = 0.0;
};

/// The posterior mean of the final vote shares of every row of a halted prediction under `prior`
/// for `num_trees` (T) queried trees: PosteriorMeanShares of each row's drawn tally (`tallies`,
/// rows x num_classes, as SequentialVoteResult::tallies); a row that drew all T votes gets its
/// vote shares t / T. Rows with the same tally share one computation. Fails like
/// PosteriorMeanShares.
Result<std::vector<double>> HaltedVoteShares(const Prior& prior, int32_t num_trees,
                                             int32_t num_classes,
                                             const std::vector<int32_t>& tallies);

/// Halted prediction of `rows` (prepared for this forest: PreparedRows::Fits, else
/// kInvalidArgument) with `table`, querying the table's T trees in the order of `options`:
/// generation (trees 0..T-1), a seeded random permutation per row, or options.fixed_order (which
/// then names exactly T trees). Uses the blocked tree walks (PredictHaltedRows). With `compare`
/// the full vote of the same T trees is computed too; without, none is. Fails with
/// kShapeMismatch when the table does not fit: another class count, or T above the forest's trees
/// ("the halting table does not fit this forest"); with a fixed order, another class count or a
/// length other than T ("the halting table does not fit this forest and order"). Else fails like
/// PredictHaltedRows (e.g. a fixed order naming a missing tree: kInvalidArgument).
Result<HaltedPrediction> PredictHalted(const Forest& forest, const PreparedRows& rows,
                                       const HaltingTable& table,
                                       const SequentialVoteOptions& options, bool compare);

/// PredictHalted with the rows spread over threads as `execution` says (each part in random order
/// with its options.first_row offset): the same results for every thread count, and the same
/// failures (of the first part in row order that fails).
Result<HaltedPrediction> PredictHalted(const Forest& forest, const PreparedRows& rows,
                                       const HaltingTable& table,
                                       const SequentialVoteOptions& options, bool compare,
                                       const PredictExecution& execution);

/// PredictHalted without the full vote (compare false), writing every row's outcome into `out`
/// (caller-owned, rows.num_rows rows: PredictHaltedRowsInto) and the mean trees queried per row
/// into *mean_trees (HaltedPrediction::mean_trees). The same values and failures as PredictHalted;
/// on failure the contents of `out` and *mean_trees are unspecified.
Status PredictHaltedInto(const Forest& forest, const PreparedRows& rows, const HaltingTable& table,
                         const SequentialVoteOptions& options, const SequentialVoteSpans& out,
                         double* mean_trees);

/// One row's halted vote, traced: every vote in query order (VoteTrace) and the full vote's counts
/// per class over the same T trees.
struct RowTrace {
  VoteTrace trace;
  std::vector<uint32_t> full_votes;  ///< num_classes counts; they sum to the table's T.
};

/// Traces row `row` of `data` (columns as for ModelRows) with `table` in the order of `options`;
/// the query order depends on the row index (random order), as in PredictHalted of all of `data`.
/// Fails like PredictHalted's table checks (kShapeMismatch), with kInvalidArgument for a row out
/// of range, like ModelRows for the columns, else like TraceVotes.
Result<RowTrace> TraceRow(const Forest& forest, const Dataset& data, size_t row,
                          const HaltingTable& table, const SequentialVoteOptions& options);

}  // namespace urnforest
