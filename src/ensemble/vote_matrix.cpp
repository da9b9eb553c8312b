// Every tree's vote on every row of a data set, in the vote-matrix and the per-row layouts.
#include "urnforest/vote_matrix.h"

#include <cmath>
#include <string>
#include <utility>

#include "ensemble/forest_walk.h"
#include "urnforest/full_vote.h"

namespace urnforest {
namespace {

void FillCorrect(VoteMatrix* m) {
  m->words_per_tree = (m->num_rows + 63) / 64;
  m->correct.assign(static_cast<size_t>(m->num_trees) * m->words_per_tree, 0);
  for (int32_t t = 0; t < m->num_trees; ++t) {
    const int32_t* v = m->votes.data() + static_cast<size_t>(t) * m->num_rows;
    uint64_t* bits = m->correct.data() + static_cast<size_t>(t) * m->words_per_tree;
    for (size_t r = 0; r < m->num_rows; ++r) {
      if (v[r] == m->labels[r]) bits[r / 64] |= uint64_t{1} << (r % 64);
    }
  }
}

// Vote of tree t on row r of `rows` (model layout) at out[r * row_stride + t * tree_stride]: the
// one vote loop behind both layouts.
Status TreeVotes(const Forest& forest, const Dataset& data, size_t row_stride, size_t tree_stride,
                 std::vector<int32_t>* out) {
  Result<std::vector<float>> rows = ModelRows(forest, data);
  if (!rows.ok()) return rows.status();
  const size_t n = data.num_rows();
  const size_t features = static_cast<size_t>(forest.num_features());
  const float* x = rows.value().data();
  out->resize(static_cast<size_t>(forest.num_trees()) * n);
  // One tree at a time over all rows, kWalkGroup rows per step (the batch predictor's walker,
  // same votes as Forest::TreeVote); NaN is checked once per row, not once per walk.
  const internal::WalkView view = internal::ForestWalkView(forest);
  std::vector<uint8_t> no_nan(n);
  for (size_t r = 0; r < n; ++r) no_nan[r] = internal::NoNaN(x + r * features, features) ? 1 : 0;
  const auto row_ptr = [&](size_t r) { return x + r * features; };
  const auto row_has_no_nan = [&](size_t r) { return no_nan[r] != 0; };
  std::vector<int32_t> tree_votes(row_stride == 1 ? 0 : n);
  for (int32_t t = 0; t < forest.num_trees(); ++t) {
    int32_t* dest = row_stride == 1 ? out->data() + t * tree_stride : tree_votes.data();
    if (view.numeric_only) {
      view.VoteMany<true>(t, n, row_ptr, row_has_no_nan, dest);
    } else {
      view.VoteMany<false>(t, n, row_ptr, row_has_no_nan, dest);
    }
    if (row_stride != 1) {
      for (size_t r = 0; r < n; ++r) (*out)[r * row_stride + t * tree_stride] = tree_votes[r];
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<int32_t>> ComputeRowVotes(const Forest& forest, const Dataset& data) {
  std::vector<int32_t> votes;
  Status s = TreeVotes(forest, data, static_cast<size_t>(forest.num_trees()), 1, &votes);
  if (!s.ok()) return s;
  return votes;
}

Result<VoteMatrix> ComputeVoteMatrix(const Forest& forest, const Dataset& data) {
  if (data.num_rows() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "ordering needs labelled rows; the data set is empty (0 rows)");
  }
  if (!data.has_labels()) {
    return Status::Error(StatusCode::kMissingLabel, "ordering needs labelled data (no target column)");
  }
  if (data.num_classes() > static_cast<size_t>(forest.num_classes())) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the data has " + std::to_string(data.num_classes()) +
                             " classes, the forest " + std::to_string(forest.num_classes()));
  }
  for (size_t r = 0; r < data.num_rows(); ++r) {
    if (data.labels()[r] < 0) {
      return Status::Error(StatusCode::kMissingLabel, "row " + std::to_string(r) + " has no label");
    }
  }
  VoteMatrix m;
  m.num_trees = forest.num_trees();
  m.num_classes = forest.num_classes();
  m.num_rows = data.num_rows();
  m.labels = data.labels();
  m.tree_weights = forest.tree_weights();
  Status s = TreeVotes(forest, data, 1, m.num_rows, &m.votes);
  if (!s.ok()) return s;
  FillCorrect(&m);
  return m;
}

Result<VoteMatrix> MakeVoteMatrix(int32_t num_trees, int32_t num_classes,
                                  std::vector<int32_t> votes, std::vector<int32_t> labels,
                                  std::vector<double> tree_weights) {
  if (num_trees < 1 || num_classes < 2) {
    return Status::Error(StatusCode::kInvalidArgument, "a vote matrix needs T >= 1 and l >= 2");
  }
  const size_t n = labels.size();
  if (votes.size() != static_cast<size_t>(num_trees) * n) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "votes has " + std::to_string(votes.size()) + " entries, expected T x N = " +
                             std::to_string(static_cast<size_t>(num_trees) * n));
  }
  if (!tree_weights.empty() && tree_weights.size() != static_cast<size_t>(num_trees)) {
    return Status::Error(StatusCode::kShapeMismatch, "tree_weights must have T entries");
  }
  for (double w : tree_weights) {
    if (!std::isfinite(w) || w < 0) {
      return Status::Error(StatusCode::kInvalidArgument, "tree weights must be finite and >= 0");
    }
  }
  for (int32_t v : votes) {
    if (v < 0 || v >= num_classes) {
      return Status::Error(StatusCode::kInvalidArgument, "a vote is not a class index");
    }
  }
  for (int32_t y : labels) {
    if (y < 0 || y >= num_classes) {
      return Status::Error(StatusCode::kInvalidArgument, "a label is not a class index");
    }
  }
  VoteMatrix m;
  m.num_trees = num_trees;
  m.num_classes = num_classes;
  m.num_rows = n;
  m.votes = std::move(votes);
  m.labels = std::move(labels);
  m.tree_weights = std::move(tree_weights);
  FillCorrect(&m);
  return m;
}

}  // namespace urnforest
