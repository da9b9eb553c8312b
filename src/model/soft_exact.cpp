// The exact early exit on an imported forest's soft prediction (PredictSoftExact,
// urnforest/predict_scores.h): rows walk the trees in blocks, and a row leaves its block once the
// bounds of what its remaining trees can add (internal::RemainingBounds) cannot change its class.
//
// Per tree the block's live rows first add their leaf values in one tight loop (the full soft
// vote's loop), then only rows whose next possible settling point has come are checked; the
// smallest such point over the block skips the whole check pass for trees before it. The answers
// (labels and trees used) are those of a row-by-row walk with a check at every tree
// (tests/cpp/soft_halting_reference_test.cpp).
#include <algorithm>
#include <vector>

#include "ensemble/forest_walk.h"
#include "model/imported_scores.h"
#include "tree/tree_walk.h"
#include "urnforest/predict_scores.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& what) { return Status::Error(StatusCode::kInvalidArgument, what); }

// Adds tree leaves `leaves[j]` (j < live) to the sums of rows active[j]; kNamed also marks the
// classes the leaves named.
template <bool kNamed>
void AddLeaves(const ImportedModel& m, const TreeNode* nodes, const int32_t* leaves, const size_t* active,
               size_t live, size_t k, double* sums, uint8_t* seen) {
  const double* values = m.leaf_values.data();
  for (size_t j = 0; j < live; ++j) {
    const size_t i = active[j];
    const double* v = values + static_cast<size_t>(nodes[leaves[j]].aux) * k;
    double* sum = sums + i * k;
    for (size_t c = 0; c < k; ++c) sum[c] += v[c];
    if (kNamed) internal::AddNamed(m, v, seen + i * k);
  }
}

}  // namespace

Result<ExactHaltResult> PredictSoftExact(const Forest& forest, const float* rows, size_t num_rows) {
  const ImportedModel* m = forest.imported();
  if (m == nullptr) {
    return Invalid("the exact soft early exit is for imported forests; use the alpha1 rule");
  }
  const int32_t trees = forest.num_trees();
  if (trees == 0) return Invalid("the forest has no trees");
  const internal::RemainingBounds bounds(forest);
  const double threshold = internal::SingleScoreThreshold(*m);
  ExactHaltResult out;
  out.labels.resize(num_rows);
  out.trees_used.resize(num_rows);
  double total_trees = 0;
  constexpr size_t kBlock = internal::kRowBlock;
  const size_t k = static_cast<size_t>(m->outputs);
  const size_t width = static_cast<size_t>(forest.num_features());
  const bool named = !m->named.empty();
  std::vector<double> sums(kBlock * k);
  std::vector<int32_t> next_check(kBlock);
  std::vector<uint8_t> seen(named ? kBlock * k : 0);  // classes named per row
  auto seen_of = [&seen, k](size_t slot) { return seen.empty() ? nullptr : seen.data() + slot * k; };
  const internal::WalkView view = internal::ForestWalkView(forest);
  const TreeNode* nodes = forest.node_table().nodes.data();
  size_t active[kBlock];
  int32_t leaves[kBlock];
  bool no_nan[kBlock];
  for (size_t begin = 0; begin < num_rows; begin += kBlock) {
    const size_t count = std::min(kBlock, num_rows - begin);
    const float* block = rows + begin * width;
    for (size_t i = 0; i < count; ++i) {
      active[i] = i;
      no_nan[i] = internal::NoNaN(block + i * width, width);
      next_check[i] = 0;
      internal::StartScores(*m, sums.data() + i * k);
      internal::StartNamed(*m, seen_of(i));
    }
    auto row_ptr = [&active, block, width](size_t j) { return block + active[j] * width; };
    auto row_no_nan = [&active, &no_nan](size_t j) { return no_nan[active[j]]; };
    auto finish = [&](size_t i, int32_t used) {
      out.labels[begin + i] = internal::ClassOf(*m, sums.data() + i * k, threshold, seen_of(i));
      out.trees_used[begin + i] = used;
      total_trees += used;
    };
    size_t live = count;
    int32_t block_next = 0;  // no live row can settle after fewer trees
    for (int32_t t = 0; t < trees && live > 0; ++t) {
      if (view.numeric_only) {
        view.LeavesMany<true>(t, live, row_ptr, row_no_nan, leaves);
      } else {
        view.LeavesMany<false>(t, live, row_ptr, row_no_nan, leaves);
      }
      if (named) {
        AddLeaves<true>(*m, nodes, leaves, active, live, k, sums.data(), seen.data());
      } else {
        AddLeaves<false>(*m, nodes, leaves, active, live, k, sums.data(), nullptr);
      }
      const int32_t used = t + 1;
      if (used == trees) {
        for (size_t j = 0; j < live; ++j) finish(active[j], used);
        break;
      }
      if (used < block_next) continue;
      size_t kept = 0;
      block_next = trees;
      for (size_t j = 0; j < live; ++j) {
        const size_t i = active[j];
        const double* sum = sums.data() + i * k;
        if (used >= next_check[i] &&
            bounds.SettledSkipping(sum, used, internal::ClassOf(*m, sum, threshold, seen_of(i)), threshold,
                                   &next_check[i], seen_of(i))) {
          finish(i, used);
          continue;
        }
        block_next = std::min(block_next, next_check[i]);
        active[kept++] = i;
      }
      live = kept;
    }
  }
  out.mean_trees = num_rows == 0 ? 0.0 : total_trees / static_cast<double>(num_rows);
  return out;
}

}  // namespace urnforest
