#pragma once
// VoteMatrix: every tree's vote on every row of a labelled data set, computed once, with per-tree
// correctness bit sets; the input of ordered aggregation (static pruning) and error curves.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Votes of T trees on N labelled rows. Plain data; build it with ComputeVoteMatrix or
/// MakeVoteMatrix (which validate), never by hand.
struct VoteMatrix {
  int32_t num_trees = 0;    ///< T.
  int32_t num_classes = 0;  ///< l >= 2.
  size_t num_rows = 0;      ///< N.
  /// Tree-major: votes[t * num_rows + r] is tree t's class index for row r.
  std::vector<int32_t> votes;
  /// True class index per row (N entries).
  std::vector<int32_t> labels;
  /// Correctness bit sets, tree-major: bit r of words correct[t * words_per_tree + r / 64] is set
  /// when tree t votes labels[r]. Bits past num_rows are 0.
  std::vector<uint64_t> correct;
  size_t words_per_tree = 0;  ///< ceil(N / 64).
  /// Vote weight of each tree (AdaBoost alphas), or empty for an unweighted (plurality) ensemble.
  std::vector<double> tree_weights;

  /// True when tree t votes the right class for row r.
  bool Correct(int32_t t, size_t r) const {
    return (correct[static_cast<size_t>(t) * words_per_tree + r / 64] >> (r % 64)) & 1u;
  }
};

/// Votes of every tree of `forest` on every row of `data` (columns matched as for PredictFull).
/// The forest's tree weights are copied. Fails with kMissingLabel (no target column or a row with
/// label -1), kColumnMismatch / kInvalidArgument as ModelRows, kShapeMismatch when `data` has
/// more classes than the forest.
Result<VoteMatrix> ComputeVoteMatrix(const Forest& forest, const Dataset& data);

/// The same votes row-major, without labels: votes[r * T + t] is tree t's class index for row r
/// of `data` (the layout of sequential voting, e.g. PredictSequentialFromMatrix). Fails with
/// kColumnMismatch / kInvalidArgument as ModelRows.
Result<std::vector<int32_t>> ComputeRowVotes(const Forest& forest, const Dataset& data);

/// A vote matrix from raw tree-major votes (T x N, see VoteMatrix::votes) and N labels, e.g. for
/// tests or votes computed elsewhere. `tree_weights` is empty or has T finite entries >= 0.
/// Fails with kShapeMismatch (sizes) or kInvalidArgument (a vote or label outside [0, l), l < 2,
/// T < 1, a bad weight).
Result<VoteMatrix> MakeVoteMatrix(int32_t num_trees, int32_t num_classes,
                                  std::vector<int32_t> votes, std::vector<int32_t> labels,
                                  std::vector<double> tree_weights = {});

}  // namespace urnforest
