// The full vote: rows converted to a forest's layout (ModelRows), every tree's vote for every row
// in blocked batch walks (AccumulateVotes*), and the plurality labels (PredictFull*), spread over
// threads by PredictExecution.
#include "urnforest/full_vote.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/threads.h"
#include "ensemble/forest_walk.h"
#include "ensemble/full_vote_internal.h"
#include "urnforest/forest.h"
#include "urnforest/vote.h"

namespace urnforest {

namespace {

// True when `features` carry the names Dataset::FromRowMajor gives columns without names: "x0",
// "x1", ... in order (positional data).
bool PositionalNames(const std::vector<FeatureInfo>& features) {
  for (size_t f = 0; f < features.size(); ++f) {
    if (features[f].name != "x" + std::to_string(f)) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<float>> ModelRows(const Forest& forest, const Dataset& data) {
  const Schema& model = forest.schema();
  if (forest.num_trees() == 0 || forest.num_classes() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  }
  const size_t m = model.features.size();
  const std::vector<FeatureInfo>& have_features = data.schema().features;
  // Model feature f reads data column source[f]: matched by name (any order, extra columns
  // ignored); by position only for unnamed data (x0, x1, ...) of exactly the model's width.
  std::vector<size_t> source(m);
  if (PositionalNames(have_features) && !PositionalNames(model.features)) {
    if (have_features.size() != m) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "the model has " + std::to_string(m) + " feature columns, the data has " +
                               std::to_string(have_features.size()) + " (unnamed columns are read by position)");
    }
    for (size_t f = 0; f < m; ++f) source[f] = f;
  } else {
    std::unordered_map<std::string, size_t> by_name;
    for (size_t c = 0; c < have_features.size(); ++c) by_name.emplace(have_features[c].name, c);
    for (size_t f = 0; f < m; ++f) {
      auto it = by_name.find(model.features[f].name);
      if (it == by_name.end()) {
        return Status::Error(StatusCode::kColumnMismatch,
                             "the data has no column '" + model.features[f].name + "' (the model has " +
                                 std::to_string(m) + " feature columns, matched by name)");
      }
      source[f] = it->second;
    }
  }
  // Per categorical feature: data category index -> model category index (by name), or -1.
  std::vector<std::vector<float>> remap(m);
  bool identity = have_features.size() == m;
  for (size_t f = 0; f < m; ++f) {
    identity = identity && source[f] == f;
    const FeatureInfo& want = model.features[f];
    const FeatureInfo& have = have_features[source[f]];
    if (want.type != have.type) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "column '" + have.name + "' is " +
                               (have.type == FeatureType::kNumeric ? "numeric" : "categorical") +
                               " but the model expects " +
                               (want.type == FeatureType::kNumeric ? "numeric" : "categorical") +
                               " ('" + want.name + "')");
    }
    if (want.type == FeatureType::kCategorical && have.categories != want.categories) {
      std::unordered_map<std::string, float> index;
      for (size_t c = 0; c < want.categories.size(); ++c) {
        index.emplace(want.categories[c], static_cast<float>(c));
      }
      remap[f].resize(have.categories.size());
      for (size_t c = 0; c < have.categories.size(); ++c) {
        auto it = index.find(have.categories[c]);
        remap[f][c] = it == index.end() ? NAN : it->second;
      }
    }
  }
  const size_t n = data.num_rows();
  std::vector<float> rows;
  if (identity) {
    rows = data.RowMajor();
  } else {
    rows.resize(n * m);
    for (size_t f = 0; f < m; ++f) {
      const float* column = data.column(source[f]);
      for (size_t r = 0; r < n; ++r) rows[r * m + f] = column[r];
    }
  }
  for (size_t f = 0; f < m; ++f) {
    if (remap[f].empty()) continue;
    for (size_t r = 0; r < n; ++r) {
      float& v = rows[r * m + f];
      if (!std::isnan(v)) v = remap[f][static_cast<size_t>(v)];
    }
  }
  return rows;
}

namespace {

// Adds the votes of the trees tree_at(0..num_queried-1) for num_rows rows to votes (row-major,
// num_rows x num_classes). Rows in blocks, trees inside a block: one tree's top levels stay in cache
// for the whole block, and the block's rows (a few KB) stay in cache across the trees.
template <typename TreeAt>
void AccumulateBlocked(const Forest& forest, const float* rows, size_t num_rows, size_t num_queried,
                       TreeAt tree_at, uint32_t* votes) {
  constexpr size_t kBlock = 256;
  const internal::WalkView view = internal::ForestWalkView(forest);
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  int32_t out[kBlock];
  bool no_nan[kBlock];
  for (size_t begin = 0; begin < num_rows; begin += kBlock) {
    const size_t count = num_rows - begin < kBlock ? num_rows - begin : kBlock;
    const float* block = rows + begin * m;
    auto row_ptr = [block, m](size_t i) { return block + i * m; };
    for (size_t i = 0; i < count; ++i) no_nan[i] = internal::NoNaN(row_ptr(i), m);
    auto row_no_nan = [&no_nan](size_t i) { return no_nan[i]; };
    uint32_t* block_votes = votes + begin * k;
    for (size_t j = 0; j < num_queried; ++j) {
      const int32_t t = tree_at(j);
      if (view.numeric_only) {
        view.VoteMany<true>(t, count, row_ptr, row_no_nan, out);
      } else {
        view.VoteMany<false>(t, count, row_ptr, row_no_nan, out);
      }
      for (size_t i = 0; i < count; ++i) ++block_votes[i * k + static_cast<size_t>(out[i])];
    }
  }
}

}  // namespace

void AccumulateVotes(const Forest& forest, const float* rows, size_t num_rows, int32_t num_trees,
                     uint32_t* votes) {
  AccumulateBlocked(forest, rows, num_rows, static_cast<size_t>(num_trees),
                    [](size_t j) { return static_cast<int32_t>(j); }, votes);
}

void AccumulateVotesOf(const Forest& forest, const float* rows, size_t num_rows,
                       const int32_t* trees, size_t num_queried, uint32_t* votes) {
  AccumulateBlocked(forest, rows, num_rows, num_queried, [trees](size_t j) { return trees[j]; },
                    votes);
}

Result<FullVote> PredictFull(const Forest& forest, const Dataset& data) {
  Result<std::vector<float>> model_rows = ModelRows(forest, data);
  if (!model_rows.ok()) return model_rows.status();
  return PredictFullRows(forest, model_rows.value().data(), data.num_rows());
}

Result<FullVote> PredictFullRows(const Forest& forest, const float* rows, size_t num_rows) {
  return PredictFullRows(forest, rows, num_rows, PredictExecution());
}

Result<FullVote> PredictFullRows(const Forest& forest, const float* rows, size_t num_rows,
                                 const PredictExecution& execution) {
  if (forest.num_trees() == 0 || forest.num_classes() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  }
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  FullVote out;
  out.votes.assign(num_rows * k, 0);
  forest.compact_trees();  // built here once, not by each part's thread
  Status status = internal::RunRowParts(num_rows, internal::PartsFor(num_rows, execution), [&](size_t begin, size_t end) {
    AccumulateVotes(forest, rows + begin * m, end - begin, forest.num_trees(), out.votes.data() + begin * k);
    return Status::Ok();
  });
  if (!status.ok()) return status;
  out.labels = internal::PluralityLabels(out.votes, num_rows, k);
  return out;
}

namespace internal {

std::vector<int32_t> PluralityLabels(const std::vector<uint32_t>& votes, size_t num_rows,
                                     size_t k) {
  std::vector<int32_t> labels(num_rows, 0);
  for (size_t r = 0; r < num_rows; ++r) {
    labels[r] = Plurality(votes.data() + r * k, k);
  }
  return labels;
}

int32_t PartsFor(size_t num_rows, const PredictExecution& execution) {
  const size_t per_thread = std::max<size_t>(execution.min_rows_per_thread, 1);
  // At most as many parts as the CLI's --threads allows.
  const size_t most = std::min<size_t>(std::max<size_t>(num_rows / per_thread, 1), 4096);
  return ResolveThreads(execution.threads, static_cast<int32_t>(most));
}

}  // namespace internal
}  // namespace urnforest
