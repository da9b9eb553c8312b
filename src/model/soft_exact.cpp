// The exact early exit on an imported forest's soft prediction (PredictSoftExact,
// urnforest/predict_scores.h): rows walk the trees in blocks, and a row leaves its block once the
// bounds of what its remaining trees can add (internal::RemainingBounds) cannot change its class.
//
// Per tree the block's live rows first add their leaf values in one tight loop (the full soft
// vote's loop; a tree whose leaves add to one class only, as boosting's trees do, adds that
// class's value alone), then only rows whose next possible settling point has come are checked; the
// smallest such point over the block skips the whole check pass for trees before it. Halting
// rows answer and stop as a row-by-row walk with a check at every tree does
// (tests/cpp/soft_halting_reference_test.cpp). A call first halts a probe of its rows and, when
// their trees and checks would cost as much as walking every tree (small boosted trees, where a
// check costs several trees' walks, and models whose rows settle late), walks the other rows
// through every tree without checks: the same labels (model/soft_exact.h).
#include "model/soft_exact.h"

#include <algorithm>
#include <cmath>
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

// Adds tree leaves `leaves[j]` (j < live) to the sums of rows active[j] for the tree's one class
// `c`: every other class's value is zero at every leaf of the tree (boosting's one tree per class
// and stage), and adding a zero changes no sum (at most the sign of a zero sum, which no
// comparison sees).
void AddLeavesOneClass(const ImportedModel& m, const TreeNode* nodes, const int32_t* leaves, const size_t* active,
                       size_t live, size_t k, size_t c, double* sums) {
  const double* values = m.leaf_values.data() + c;
  double* column = sums + c;
  for (size_t j = 0; j < live; ++j) {
    column[active[j] * k] += values[static_cast<size_t>(nodes[leaves[j]].aux) * k];
  }
}

// Per tree, its one class when every other class's value is zero at all its leaves (from the
// tree's leaf-value bounds), else -1. All -1 for models with a `named` table (its marks need every
// leaf's row) and for one output.
std::vector<int32_t> OneClassTrees(const Forest& forest) {
  const ImportedModel& m = *forest.imported();
  const size_t trees = static_cast<size_t>(forest.num_trees());
  const size_t k = static_cast<size_t>(m.outputs);
  std::vector<int32_t> out(trees, -1);
  if (k < 2 || !m.named.empty() || m.tree_low.size() != trees * k || m.tree_high.size() != trees * k) return out;
  for (size_t t = 0; t < trees; ++t) {
    int32_t one = -1;
    size_t nonzero = 0;
    for (size_t c = 0; c < k; ++c) {
      if (m.tree_low[t * k + c] != 0.0 || m.tree_high[t * k + c] != 0.0) {
        ++nonzero;
        one = static_cast<int32_t>(c);
      }
    }
    if (nonzero == 1) out[t] = one;
  }
  return out;
}

// The exact exit's state for one call: rows rows[begin..end) walk in blocks, halting when
// `check`, else through every tree.
class ExactWalker {
 public:
  ExactWalker(const Forest& forest, const float* rows, ExactHaltResult* out)
      : forest_(forest), m_(*forest.imported()), rows_(rows), out_(out), bounds_(forest),
        threshold_(internal::SingleScoreThreshold(m_)), k_(static_cast<size_t>(m_.outputs)),
        width_(static_cast<size_t>(forest.num_features())), named_(!m_.named.empty()),
        view_(internal::ForestWalkView(forest)), nodes_(forest.node_table().nodes.data()),
        sums_(kBlock * k_), next_check_(kBlock), seen_(named_ ? kBlock * k_ : 0),
        one_class_(OneClassTrees(forest)) {}

  void Walk(size_t begin, size_t end, bool check) {
    for (size_t b = begin; b < end; b += kBlock) {
      if (check) {
        HaltingBlock(b, std::min(kBlock, end - b));
      } else {
        FullBlock(b, std::min(kBlock, end - b));
      }
    }
  }
  double trees_used() const { return trees_used_; }
  double checks() const { return checks_; }

 private:
  static constexpr size_t kBlock = internal::kRowBlock;

  uint8_t* seen_of(size_t slot) { return named_ ? seen_.data() + slot * k_ : nullptr; }

  // Adds tree t's leaves (leaves_[j]) to the sums of the `live` rows active_[j].
  void Add(int32_t t, size_t live) {
    const int32_t one = one_class_[static_cast<size_t>(t)];
    if (one >= 0) {
      AddLeavesOneClass(m_, nodes_, leaves_, active_, live, k_, static_cast<size_t>(one), sums_.data());
    } else if (named_) {
      AddLeaves<true>(m_, nodes_, leaves_, active_, live, k_, sums_.data(), seen_.data());
    } else {
      AddLeaves<false>(m_, nodes_, leaves_, active_, live, k_, sums_.data(), nullptr);
    }
  }

  // Every row of the block through every tree, no checks: rows stay in place (no indirection).
  void FullBlock(size_t begin, size_t count) {
    const int32_t trees = forest_.num_trees();
    const float* block = rows_ + begin * width_;
    for (size_t i = 0; i < count; ++i) {
      active_[i] = i;
      no_nan_[i] = internal::NoNaN(block + i * width_, width_);
      internal::StartScores(m_, sums_.data() + i * k_);
      internal::StartNamed(m_, seen_of(i));
    }
    const size_t width = width_;
    const bool* no_nan = no_nan_;
    auto row_ptr = [block, width](size_t i) { return block + i * width; };
    auto row_no_nan = [no_nan](size_t i) { return no_nan[i]; };
    for (int32_t t = 0; t < trees; ++t) {
      if (view_.numeric_only) {
        view_.LeavesMany<true>(t, count, row_ptr, row_no_nan, leaves_);
      } else {
        view_.LeavesMany<false>(t, count, row_ptr, row_no_nan, leaves_);
      }
      Add(t, count);
    }
    for (size_t i = 0; i < count; ++i) {
      out_->labels[begin + i] = internal::ClassOf(m_, sums_.data() + i * k_, threshold_, seen_of(i));
      out_->trees_used[begin + i] = trees;
      trees_used_ += trees;
    }
  }

  // The block's rows halt: each leaves the walk at the first tree count its bounds settle.
  void HaltingBlock(size_t begin, size_t count) {
    const int32_t trees = forest_.num_trees();
    const float* block = rows_ + begin * width_;
    for (size_t i = 0; i < count; ++i) {
      active_[i] = i;
      no_nan_[i] = internal::NoNaN(block + i * width_, width_);
      next_check_[i] = 0;
      internal::StartScores(m_, sums_.data() + i * k_);
      internal::StartNamed(m_, seen_of(i));
    }
    const size_t width = width_;
    const size_t* active = active_;
    const bool* no_nan = no_nan_;
    auto row_ptr = [active, block, width](size_t j) { return block + active[j] * width; };
    auto row_no_nan = [active, no_nan](size_t j) { return no_nan[active[j]]; };
    auto finish = [&](size_t i, int32_t used) {
      out_->labels[begin + i] = internal::ClassOf(m_, sums_.data() + i * k_, threshold_, seen_of(i));
      out_->trees_used[begin + i] = used;
      trees_used_ += used;
    };
    size_t live = count;
    int32_t block_next = 0;  // no live row can settle after fewer trees
    for (int32_t t = 0; t < trees && live > 0; ++t) {
      if (view_.numeric_only) {
        view_.LeavesMany<true>(t, live, row_ptr, row_no_nan, leaves_);
      } else {
        view_.LeavesMany<false>(t, live, row_ptr, row_no_nan, leaves_);
      }
      Add(t, live);
      const int32_t used = t + 1;
      if (used == trees) {
        for (size_t j = 0; j < live; ++j) finish(active_[j], used);
        break;
      }
      if (used < block_next) continue;
      size_t kept = 0;
      block_next = trees;
      for (size_t j = 0; j < live; ++j) {
        const size_t i = active_[j];
        const double* sum = sums_.data() + i * k_;
        if (used >= next_check_[i]) {
          ++checks_;
          if (bounds_.SettledSkipping(sum, used, internal::ClassOf(m_, sum, threshold_, seen_of(i)), threshold_,
                                      &next_check_[i], seen_of(i))) {
            finish(i, used);
            continue;
          }
        }
        block_next = std::min(block_next, next_check_[i]);
        active_[kept++] = i;
      }
      live = kept;
    }
  }

  const Forest& forest_;
  const ImportedModel& m_;
  const float* rows_;
  ExactHaltResult* out_;
  const internal::RemainingBounds bounds_;
  const double threshold_;
  const size_t k_, width_;
  const bool named_;
  const internal::WalkView view_;
  const TreeNode* nodes_;
  std::vector<double> sums_;
  std::vector<int32_t> next_check_;
  std::vector<uint8_t> seen_;  // classes named per row
  const std::vector<int32_t> one_class_;  // per tree: OneClassTrees
  size_t active_[kBlock];
  int32_t leaves_[kBlock];
  bool no_nan_[kBlock];
  double trees_used_ = 0.0;
  double checks_ = 0.0;
};

}  // namespace

namespace internal {

bool HaltingPays(const Forest& forest, double trees_used, double checks, size_t rows) {
  const ImportedModel& m = *forest.imported();
  const double trees = forest.num_trees();
  // A check's cost in walks of a tree of depth 4, measured natively (bench/imported_halting.cpp):
  // about 1.6 for one compared score, 6 for boosted trees that each add to one of several
  // classes (the gaps close a little at every tree, so checks come often and search far), 3
  // for voting forests. Deeper trees cost more per walk, so a check costs fewer of them.
  const double base = m.single_score || m.second_class_threshold ? 1.6
                      : m.kind == ImportedKind::kAdditive     ? 6.0
                                                              : 3.0;
  const double leaves_per_tree = (static_cast<double>(forest.num_nodes()) / trees + 1.0) / 2.0;
  const double check_cost = base * 4.0 / std::max(4.0, std::log2(std::max(1.0, leaves_per_tree)));
  return trees_used + check_cost * checks < 0.95 * static_cast<double>(rows) * trees;
}

Result<ExactHaltResult> PredictSoftExactWalk(const Forest& forest, const float* rows, size_t num_rows,
                                             ExactWalk walk) {
  const ImportedModel* m = forest.imported();
  if (m == nullptr) {
    return Invalid("the exact soft early exit is for imported forests; use the alpha1 rule");
  }
  if (forest.num_trees() == 0) return Invalid("the forest has no trees");
  ExactHaltResult out;
  out.labels.resize(num_rows);
  out.trees_used.resize(num_rows);
  ExactWalker walker(forest, rows, &out);
  if (walk == ExactWalk::kAlwaysHalt || num_rows <= kExactProbeRows) {
    walker.Walk(0, num_rows, true);
  } else {
    walker.Walk(0, kExactProbeRows, true);
    const bool pays = HaltingPays(forest, walker.trees_used(), walker.checks(), kExactProbeRows);
    walker.Walk(kExactProbeRows, num_rows, pays);
  }
  out.mean_trees = num_rows == 0 ? 0.0 : walker.trees_used() / static_cast<double>(num_rows);
  return out;
}

}  // namespace internal

Result<ExactHaltResult> PredictSoftExact(const Forest& forest, const float* rows, size_t num_rows) {
  return internal::PredictSoftExactWalk(forest, rows, num_rows, internal::ExactWalk::kProbeThenDecide);
}

}  // namespace urnforest
