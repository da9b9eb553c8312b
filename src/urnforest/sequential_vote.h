#pragma once
// Sequential voting that halts early: trees are queried one at a time and the vote stops as soon as
// the halting table says so. Depends only on votes, never on trees.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/status.h"

namespace urnforest {

/// Order in which the table.num_trees() trees are queried.
enum class QueryOrder : int32_t {
  kGeneration = 0,    ///< Tree ids 0, 1, ..., T-1 (or fixed_order if given).
  kFixed = 1,         ///< fixed_order (e.g. an ordered-aggregation pruning order); required.
  kRandomPerRow = 2,  ///< A seeded random permutation per row of the base order (deterministic:
                      ///< SplitMix64 started at a hash of (seed, row); identical natively and
                      ///< in wasm). Fisher-Yates from the first position with Lemire's bounded
                      ///< draws, taken only as far as the row is queried; QueryOrderForRow gives
                      ///< the whole permutation.
};

/// Stable name of a query order: "generation", "fixed" or "random" (the CLI's and JS API's
/// strings). Never null.
const char* QueryOrderName(QueryOrder order);
/// Parses a query-order name. Fails with kInvalidArgument naming the string and listing the names.
Result<QueryOrder> ParseQueryOrder(std::string_view name);
/// The query-order names in enum order.
const std::vector<std::string>& QueryOrderNames();

/// Options of sequential voting.
struct SequentialVoteOptions {
  QueryOrder order = QueryOrder::kGeneration;
  /// Tree ids to query (length = table.num_trees(), distinct, >= 0): the sub-ensemble actually
  /// queried. Empty = 0..T-1.
  std::vector<int32_t> fixed_order;
  uint64_t seed = 1;  ///< For kRandomPerRow.
  /// The index of the batch's first row in the whole data (kRandomPerRow draws row r's order from
  /// the stream of row first_row + r): a part of a larger batch passes its offset, so that a batch
  /// split into parts gets the orders of the whole. 0 for a whole batch.
  size_t first_row = 0;
};

/// Caller-owned per-row outputs of a batch: SequentialVoteResult's arrays, borrowed. Each points to
/// num_rows entries (tallies: num_rows x classes, row-major); none may be null.
struct SequentialVoteSpans {
  int32_t* labels;
  int32_t* trees_used;
  double* confidence;
  uint8_t* halted_early;
  int32_t* tallies;
};

/// Per-row outcome of a batch; every vector has one entry per row.
struct SequentialVoteResult {
  std::vector<int32_t> labels;      ///< Predicted class (full-vote ties: lowest class index).
  std::vector<int32_t> trees_used;  ///< Trees queried, 1..T.
  /// Rule confidence at the stop (HaltingTable::Confidence); 1 for finite-T rules when all T
  /// votes were used (the label is then the full vote by construction).
  std::vector<double> confidence;
  std::vector<uint8_t> halted_early;  ///< 1 when the rule stopped before the T-th vote.
  /// The votes drawn per class up to the stop, rows x classes row-major (each row sums to
  /// trees_used); the input of the posterior mean of the final vote shares
  /// (PosteriorMeanShares).
  std::vector<int32_t> tallies;
  /// Mean of trees_used (0 for no rows).
  double MeanTrees() const;
  /// Sizes every vector for `num_rows` rows of `num_classes` classes (new entries 0).
  void Resize(size_t num_rows, size_t num_classes);
  /// The arrays from row `first_row` on (within the current sizes; `num_classes` as in Resize), for
  /// the calls that write a batch, or a part of one, in place.
  SequentialVoteSpans SpansFrom(size_t first_row, size_t num_classes);
};

/// Mean of the `num_rows` entries of `trees_used` (0 for no rows): SequentialVoteResult::MeanTrees
/// of borrowed trees-used counts.
double MeanTreesOf(const int32_t* trees_used, size_t num_rows);

/// The vote of tree `tree` for row `row`: a class index in [0, table.num_classes()).
using TreeVoteFn = std::function<int32_t(int32_t tree, size_t row)>;

/// Sequential voting over rows 0..num_rows-1. Fails with kInvalidArgument (bad order, a vote out
/// of range: the message names the row and tree).
Result<SequentialVoteResult> PredictSequential(const HaltingTable& table, size_t num_rows,
                                               const TreeVoteFn& vote,
                                               const SequentialVoteOptions& options = {});

/// The batch form of TreeVoteFn, for speed: one call votes one tree for many rows.
class BlockVoter {
 public:
  virtual ~BlockVoter() = default;
  /// out[i] = the vote of tree `tree` for row rows[i] (a class index), for i < count.
  virtual void Vote(int32_t tree, const size_t* rows, size_t count, int32_t* out) const = 0;
  /// out[j] = the vote of tree trees[j] for row `row`, for j < count: one row through several
  /// trees (the few rows that have not halted after the first trees). The default calls Vote once
  /// per tree; a voter may walk the trees together, the votes must be the same.
  virtual void VoteTrees(const int32_t* trees, size_t count, size_t row, int32_t* out) const {
    for (size_t j = 0; j < count; ++j) Vote(trees[j], &row, 1, out + j);
  }
  /// out[j] = the vote of tree trees[j] for row rows[j], for j < count: rows side by side, each at
  /// its own tree (random query orders). The default calls Vote once per pair; a voter may walk the
  /// pairs together, the votes must be the same.
  virtual void VotePairs(const int32_t* trees, const size_t* rows, size_t count, int32_t* out) const {
    for (size_t j = 0; j < count; ++j) Vote(trees[j], rows + j, 1, out + j);
  }
};

/// Identical results to PredictSequential with the same votes, computed faster: for generation and
/// fixed orders the rows go in blocks, tree by tree (every row of a block still votes in query
/// order and leaves the block when it halts), so the first trees, which every row queries, stay
/// hot in cache and each tree is entered once per block; no per-vote indirect call, no per-row
/// allocation. Blocks are large (up to 4,096 rows) so that the later trees, which only the rows
/// that have not halted reach, are shared by as many rows as possible; the trees voted before the
/// fewest votes with which any tally can halt (HaltingTable::MinVotesToHalt) are walked without
/// halting checks, 256 rows at a time; two-class tables with bounds (BinaryZeroWinsUpTo) check a
/// row with two comparisons on its class-1 count. Once fewer than 4 rows of a block are left, each
/// goes on alone through its next trees 4 at a time (BlockVoter::VoteTrees). kRandomPerRow (up to
/// 1,024 trees) goes in blocks of rows side by side, every row at its own next tree
/// (BlockVoter::VotePairs), each row's order drawn as PredictSequential draws it; beyond 1,024
/// trees, row by row 4 trees at a time; votes past a row's stop are computed but never used nor checked. Fails
/// like PredictSequential; a vote out of range is reported for the first (tree, row) met in the
/// order the votes are computed.
Result<SequentialVoteResult> PredictSequentialBlocked(const HaltingTable& table, size_t num_rows,
                                                      const BlockVoter& voter,
                                                      const SequentialVoteOptions& options = {});

/// PredictSequentialBlocked writing every row's outcome into `out` (caller-owned, num_rows rows)
/// instead of new vectors: the same values, nothing allocated per row. Fails like
/// PredictSequentialBlocked; on failure the contents of `out` are unspecified.
Status PredictSequentialBlockedInto(const HaltingTable& table, size_t num_rows,
                                    const BlockVoter& voter, const SequentialVoteOptions& options,
                                    const SequentialVoteSpans& out);

/// PredictSequential's results from a precomputed vote matrix: votes[row * num_trees_in_matrix +
/// tree] (num_trees_in_matrix >= every queried tree id + 1). Fails with kShapeMismatch on bad sizes.
Result<SequentialVoteResult> PredictSequentialFromMatrix(const HaltingTable& table,
                                                         const std::vector<int32_t>& votes,
                                                         size_t num_rows,
                                                         int32_t num_trees_in_matrix,
                                                         const SequentialVoteOptions& options = {});

/// Every vote of one row in query order, with the stop point (for the demo).
struct VoteTrace {
  std::vector<int32_t> trees;        ///< Tree ids in query order (all T).
  std::vector<int32_t> votes;        ///< Their votes (all T, also after the stop).
  std::vector<double> confidence;    ///< Rule confidence after each vote.
  /// The strict leader of the tally after each vote (all T): leaders[i] is the class with more of
  /// votes[0..i] than any other, or -1 when two or more classes tie for the most.
  std::vector<int32_t> leaders;
  int32_t label = -1;                ///< The sequential prediction.
  /// The full vote's label: plurality of all T votes, ties to the lowest class index.
  int32_t full_label = -1;
  int32_t trees_used = 0;            ///< Stop point: votes[0..trees_used-1] were used.
  bool halted_early = false;
};

/// Trace of one row. Fails like PredictSequential.
Result<VoteTrace> TraceVotes(const HaltingTable& table, size_t row, const TreeVoteFn& vote,
                             const SequentialVoteOptions& options = {});

/// The query order used for `row` (length T). Fails with kInvalidArgument on a bad fixed_order.
Result<std::vector<int32_t>> QueryOrderForRow(const HaltingTable& table, size_t row,
                                              const SequentialVoteOptions& options);

}  // namespace urnforest
