// Soft votes and scores of imported forests (as ONNX Runtime computes them) and the exact early
// exit on those scores (urnforest/predict_scores.h).
#include "urnforest/predict_scores.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ensemble/forest_access.h"
#include "model/imported_scores.h"
#include "ensemble/forest_walk.h"
#include "tree/tree_walk.h"
#include "urnforest/forest.h"
#include "urnforest/predict.h"

namespace urnforest {
namespace internal {

using internal::ForestAccess;

// The summed scores of one row start from the base values.
void StartScores(const ImportedModel& m, double* sum) {
  for (int32_t c = 0; c < m.outputs; ++c) sum[c] = m.base_values.empty() ? 0.0 : m.base_values[c];
}

const double* LeafValuesOf(const Forest& forest, int32_t tree, const float* row) {
  const TreeNode* nodes = forest.node_table().nodes.data();
  const uint32_t leaf = WalkToLeaf(nodes, forest.node_table().category_bits.data(),
                                   forest.category_counts().data(), forest.tree_roots()[tree], row);
  const ImportedModel& m = *forest.imported();
  return m.leaf_values.data() + static_cast<size_t>(nodes[leaf].aux) * m.outputs;
}

void FillTreeBounds(Forest* forest) {
  if (forest->imported() == nullptr) return;
  ImportedModel& m = ForestAccess::imported(*forest)[0];
  const size_t k = static_cast<size_t>(m.outputs);
  const int32_t trees = forest->num_trees();
  const std::vector<TreeNode>& nodes = forest->node_table().nodes;
  m.tree_low.assign(static_cast<size_t>(trees) * k, std::numeric_limits<double>::infinity());
  m.tree_high.assign(static_cast<size_t>(trees) * k, -std::numeric_limits<double>::infinity());
  for (int32_t t = 0; t < trees; ++t) {
    const size_t begin = forest->tree_roots()[t];
    const size_t end = t + 1 < trees ? forest->tree_roots()[t + 1] : nodes.size();
    double* lo = m.tree_low.data() + t * k;
    double* hi = m.tree_high.data() + t * k;
    for (size_t i = begin; i < end; ++i) {
      if (nodes[i].feature >= 0) continue;
      const double* v = m.leaf_values.data() + static_cast<size_t>(nodes[i].aux) * k;
      for (size_t c = 0; c < k; ++c) {
        lo[c] = std::min(lo[c], v[c]);
        hi[c] = std::max(hi[c], v[c]);
      }
    }
  }
}

RemainingBounds::RemainingBounds(const Forest& forest)
    : m_(*forest.imported()), k_(static_cast<size_t>(m_.outputs)),
      // A transformed output need not order classes as their sums do (SOFTMAX_ZERO), and float32
      // saturates (LOGISTIC of large margins): such labels are known only after the last tree.
      settles_early_(!(m_.label_from_scores && m_.transform != ScoreTransform::kNone)),
      float_ties_(m_.label_from_scores || (!m_.single_score && m_.outputs >= 3)) {
  const int32_t trees = forest.num_trees();
  const size_t k = k_;
  low_.assign((trees + 1) * k, 0.0);
  high_.assign((trees + 1) * k, 0.0);
  reach_.assign((trees + 1) * k, 0.0);
  // Forests built by hand (not imported or loaded) may lack the derived bounds.
  Forest copy;
  const ImportedModel* m = &m_;
  if (m_.tree_low.size() != static_cast<size_t>(trees) * k) {
    copy = forest;
    FillTreeBounds(&copy);
    m = copy.imported();
  }
  for (int32_t t = trees - 1; t >= 0; --t) {
    for (size_t c = 0; c < k; ++c) {
      low_[t * k + c] = low_[(t + 1) * k + c] + m->tree_low[t * k + c];
      high_[t * k + c] = high_[(t + 1) * k + c] + m->tree_high[t * k + c];
    }
  }
  for (int32_t t = 0; t < trees; ++t) {
    for (size_t c = 0; c < k; ++c) {
      reach_[(t + 1) * k + c] = reach_[t * k + c] + (m->tree_high[t * k + c] - m->tree_low[t * k + c]);
    }
  }
  // Settled() needs some class's sum + low bound above another's sum + high bound; after j trees
  // a class's sum lies between its base value plus those trees' smallest and plus their largest
  // leaf values, for every row. So no row settles before the first j where the largest
  // "base + highs + low bound" reaches the smallest "base + lows + high bound" (the slack covers
  // sums rounded in another order, far below Settled's own). Two-class single scores and the
  // second class's threshold (a score against 0.5, not against a rival): not used.
  first_possible_ = 0;
  if (!m_.single_score && !m_.second_class_threshold && k >= 2) {
    std::vector<double> up(k), down(k);
    double magnitude = 1.0;  // bounds the absolute values added so far
    for (size_t c = 0; c < k; ++c) {
      up[c] = down[c] = m_.base_values.empty() ? 0.0 : m_.base_values[c];
      magnitude += std::fabs(up[c]);
    }
    int32_t j = 0;
    for (; j < trees; ++j) {
      double a = -std::numeric_limits<double>::infinity();
      double b = std::numeric_limits<double>::infinity();
      for (size_t c = 0; c < k; ++c) {
        a = std::max(a, up[c] + low_[j * k + c]);
        b = std::min(b, down[c] + high_[j * k + c]);
      }
      if (a >= b - 1e-7 * (magnitude + std::fabs(a) + std::fabs(b))) break;
      double largest = 0.0;
      for (size_t c = 0; c < k; ++c) {
        up[c] += m->tree_high[j * k + c];
        down[c] += m->tree_low[j * k + c];
        largest = std::max({largest, std::fabs(m->tree_high[j * k + c]), std::fabs(m->tree_low[j * k + c])});
      }
      magnitude += largest;
    }
    first_possible_ = j;
  }
}

bool RemainingBounds::Settled(const double* sum, int32_t used, int32_t label, double threshold,
                              const uint8_t* seen) const {
  if (!settles_early_) return false;
  const double* lo = low_.data() + static_cast<size_t>(used) * k_;
  const double* hi = high_.data() + static_cast<size_t>(used) * k_;
  // A bound settles only with room for the rounding of sums taken in another order, and, where
  // the label compares float32 values (three or more classes, or the transformed output), for
  // the rounding to float32, under which two sums 2^-24 apart (relative) may tie.
  const double float_room = float_ties_ ? std::ldexp(1.0, -22) : 0.0;
  auto ahead = [float_room](double a, double b) {
    return a - b > 1e-9 * (1.0 + std::fabs(a) + std::fabs(b)) + float_room * std::max(std::fabs(a), std::fabs(b));
  };
  if (m_.single_score || m_.second_class_threshold) {
    const size_t c = m_.single_score ? 0 : 1;
    return label == 1 ? ahead(sum[c] + lo[c], threshold) : ahead(threshold, sum[c] + hi[c]);
  }
  // A class no leaf has named yet may still win only once named: the leader must be named, and
  // every other class, named or not, beaten by its largest reach.
  if (seen != nullptr && !m_.named.empty() && !seen[label]) return false;
  const double worst = sum[label] + lo[label];
  for (size_t c = 0; c < k_; ++c) {
    if (static_cast<int32_t>(c) != label && !ahead(worst, sum[c] + hi[c])) return false;
  }
  return true;
}

double RemainingBounds::Moved(int32_t used, int32_t j, size_t a, int64_t b) const {
  double d = reach_[j * k_ + a] - reach_[used * k_ + a];
  if (b >= 0) d += reach_[j * k_ + b] - reach_[used * k_ + b];
  return d;
}

bool RemainingBounds::Reaches(int32_t used, int32_t j, size_t a, int64_t b, double gap) const {
  // The slack keeps the skip on the safe side of rounding (as FirstReaching's).
  return Moved(used, j, a, b) >= gap - 1e-9 * (1.0 + std::fabs(gap));
}

int32_t RemainingBounds::FirstReaching(int32_t used, size_t a, int64_t b, double gap) const {
  const int32_t trees = static_cast<int32_t>(reach_.size() / k_) - 1;
  auto moved = [&](int32_t j) { return Moved(used, j, a, b); };
  // The slack keeps the skip on the safe side of rounding.
  const double target = gap - 1e-9 * (1.0 + std::fabs(gap));
  // moved() is non-decreasing in j. The answer is usually a few trees on (a check fails when a
  // gap is about to close), so a galloping search from used + 1 brackets it in about
  // 2 log2(distance) evaluations, then a binary search inside the bracket finds the first.
  if (used >= trees) return trees + 1;
  int32_t lo = used + 1, hi = used + 1;
  for (int32_t step = 1; moved(hi) < target; step *= 2) {
    if (hi >= trees) return trees + 1;
    lo = hi + 1;
    hi = std::min(trees, hi + step);
  }
  while (lo < hi) {
    const int32_t mid = lo + (hi - lo) / 2;
    if (moved(mid) >= target) hi = mid; else lo = mid + 1;
  }
  return lo;
}

int32_t RemainingBounds::NextPossibleSettle(const double* sum, int32_t used, double threshold) const {
  const double* lo = low_.data() + static_cast<size_t>(used) * k_;
  const double* hi = high_.data() + static_cast<size_t>(used) * k_;
  if (!settles_early_) return std::numeric_limits<int32_t>::max();
  if (m_.single_score || m_.second_class_threshold) {
    const size_t c = m_.single_score ? 0 : 1;
    const double gap = std::min(threshold - (sum[c] + lo[c]), sum[c] + hi[c] - threshold);
    return FirstReaching(used, c, -1, gap);
  }
  // Class x settles only once sum[x] + lo[x] passes its strongest rival's sum[c] + hi[c]. One
  // pass finds the largest sum[c] + hi[c] (the first on ties), the largest of the others, and the
  // class with the largest sum[x] + lo[x] (searched first below: its gap is the smallest or near).
  size_t top = 0, second = k_, first = 0;
  double top_u = sum[0] + hi[0], second_u = 0.0, first_l = sum[0] + lo[0];
  for (size_t c = 1; c < k_; ++c) {
    const double u = sum[c] + hi[c];
    if (u > top_u) {
      second = top;
      second_u = top_u;
      top = c;
      top_u = u;
    } else if (second == k_ || u > second_u) {
      second = c;
      second_u = u;
    }
    const double l = sum[c] + lo[c];
    if (l > first_l) {
      first = c;
      first_l = l;
    }
  }
  // The smallest of the classes' first reaching trees. One class is searched first; another class
  // x can only lower the result below `next` when its bound moves far enough by tree next - 1
  // (moved() is non-decreasing), which one comparison tells, so most classes cost O(1) rather
  // than a binary search. The result is the same minimum.
  auto gap_of = [&](size_t x) { return (x == top ? second_u : top_u) - (sum[x] + lo[x]); };
  int32_t next = FirstReaching(used, first, static_cast<int64_t>(first == top ? second : top), gap_of(first));
  for (size_t x = 0; x < k_ && next > used + 1; ++x) {
    if (x == first) continue;
    const size_t rival = x == top ? second : top;
    const double gap = gap_of(x);
    if (!Reaches(used, next - 1, x, static_cast<int64_t>(rival), gap)) continue;
    next = std::min(next, FirstReaching(used, x, static_cast<int64_t>(rival), gap));
  }
  return next;
}

bool RemainingBounds::SettledSkipping(const double* sum, int32_t used, int32_t label, double threshold,
                                      int32_t* next_check, const uint8_t* seen) const {
  if (used < *next_check) return false;
  if (used < first_possible_) {
    *next_check = first_possible_;
    return false;
  }
  if (Settled(sum, used, label, threshold, seen)) return true;
  *next_check = std::max(used + 1, NextPossibleSettle(sum, used, threshold));
  return false;
}

}  // namespace internal

namespace {

using internal::AddNamed;
using internal::ClassOf;
using internal::ScoresOf;
using internal::StartNamed;
using internal::SingleScoreThreshold;
using internal::StartScores;


Status Invalid(const std::string& what) { return Status::Error(StatusCode::kInvalidArgument, what); }

}  // namespace

Result<ScorePrediction> PredictScoresRows(const Forest& forest, const float* rows,
                                          size_t num_rows, VoteKind vote) {
  if (forest.num_trees() == 0) return Invalid("the forest has no trees");
  const ImportedModel* m = forest.imported();
  const size_t l = static_cast<size_t>(forest.num_classes());
  ScorePrediction out;
  if (vote == VoteKind::kHard || m == nullptr) {
    if (m != nullptr && m->kind == ImportedKind::kAdditive) {
      return Invalid("an additive model (boosted trees) has no hard vote: its trees add margins");
    }
    Result<FullVote> full = PredictFullRows(forest, rows, num_rows);
    if (!full.ok()) return full.status();
    out.labels = std::move(full.value().labels);
    out.votes = std::move(full.value().votes);
    out.scores.resize(out.votes.size());
    for (size_t i = 0; i < out.scores.size(); ++i) {
      out.scores[i] = static_cast<double>(out.votes[i]) / forest.num_trees();
    }
    return out;
  }
  // Blocks of rows walk every tree together (the hard vote's blocked walk, WalkView::LeavesMany):
  // each row still adds its trees' values in tree order, so the sums are those of a row-by-row walk.
  constexpr size_t kBlock = 256;
  const size_t m_features = static_cast<size_t>(forest.num_features());
  const internal::WalkView view = internal::ForestWalkView(forest);
  const TreeNode* nodes = forest.node_table().nodes.data();
  const double threshold = SingleScoreThreshold(*m);
  const size_t k = static_cast<size_t>(m->outputs);
  const double* values = m->leaf_values.data();
  const bool voting = m->kind == ImportedKind::kVoting;
  // Without votes a walk only needs its leaf's value row, which the compact layout of an imported
  // forest holds in the leaf itself (WalkView::LeafRowsMany): no node-table read per tree and row.
  // Not in WebAssembly: there V8 ran this loop slower with the leaf rows (XGBoost depth 6,
  // bench/boosted_kernel.mjs, 1.2x), so it reads the rows from the node table as before.
#if defined(__EMSCRIPTEN__)
  const bool by_row = false;
#else
  const bool by_row = !voting;
#endif
  out.labels.resize(num_rows);
  out.scores.resize(num_rows * l);
  if (voting) out.votes.assign(num_rows * l, 0);
  std::vector<double> sums(kBlock * k);
  std::vector<uint8_t> seen(m->named.empty() ? 0 : kBlock * k);  // classes named per row
  auto seen_of = [&seen, k](size_t i) { return seen.empty() ? nullptr : seen.data() + i * k; };
  int32_t leaves[kBlock];
  int32_t tree_ids[kBlock];
  bool no_nan[kBlock];
  for (size_t begin = 0; begin < num_rows; begin += kBlock) {
    const size_t count = std::min(kBlock, num_rows - begin);
    const float* block = rows + begin * m_features;
    auto row_ptr = [block, m_features](size_t i) { return block + i * m_features; };
    for (size_t i = 0; i < count; ++i) {
      no_nan[i] = internal::NoNaN(row_ptr(i), m_features);
      StartScores(*m, sums.data() + i * k);
      StartNamed(*m, seen_of(i));
    }
    auto row_no_nan = [&no_nan](size_t i) { return no_nan[i]; };
    if (count < internal::kWalkGroup) {
      // Too few rows to walk side by side: each row walks several trees side by side instead.
      for (size_t i = 0; i < count; ++i) {
        double* sum = sums.data() + i * k;
        for (int32_t first = 0; first < forest.num_trees(); first += static_cast<int32_t>(kBlock)) {
          const size_t n = std::min<size_t>(kBlock, static_cast<size_t>(forest.num_trees() - first));
          for (size_t j = 0; j < n; ++j) tree_ids[j] = first + static_cast<int32_t>(j);
          if (by_row) {
            if (view.numeric_only) {
              view.LeafRowsOfTrees<true>(tree_ids, n, row_ptr(i), no_nan[i], leaves);
            } else {
              view.LeafRowsOfTrees<false>(tree_ids, n, row_ptr(i), no_nan[i], leaves);
            }
          } else if (view.numeric_only) {
            view.LeavesOfTrees<true>(tree_ids, n, row_ptr(i), no_nan[i], leaves);
          } else {
            view.LeavesOfTrees<false>(tree_ids, n, row_ptr(i), no_nan[i], leaves);
          }
          for (size_t j = 0; j < n; ++j) {
            const uint32_t value_row = by_row ? static_cast<uint32_t>(leaves[j]) : nodes[leaves[j]].aux;
            const double* v = values + static_cast<size_t>(value_row) * k;
            for (size_t c = 0; c < k; ++c) sum[c] += v[c];
            AddNamed(*m, v, seen_of(i));
            if (voting) ++out.votes[(begin + i) * l + nodes[leaves[j]].child_or_class];
          }
        }
        out.labels[begin + i] = ClassOf(*m, sum, threshold, seen_of(i));
        ScoresOf(*m, sum, threshold, out.scores.data() + (begin + i) * l);
      }
      continue;
    }
    for (int32_t t = 0; t < forest.num_trees(); ++t) {
      if (by_row) {
        if (view.numeric_only) {
          view.LeafRowsMany<true>(t, count, row_ptr, row_no_nan, leaves);
        } else {
          view.LeafRowsMany<false>(t, count, row_ptr, row_no_nan, leaves);
        }
      } else if (view.numeric_only) {
        view.LeavesMany<true>(t, count, row_ptr, row_no_nan, leaves);
      } else {
        view.LeavesMany<false>(t, count, row_ptr, row_no_nan, leaves);
      }
      for (size_t i = 0; i < count; ++i) {
        const uint32_t value_row = by_row ? static_cast<uint32_t>(leaves[i]) : nodes[leaves[i]].aux;
        const double* v = values + static_cast<size_t>(value_row) * k;
        double* sum = sums.data() + i * k;
        for (size_t c = 0; c < k; ++c) sum[c] += v[c];
        AddNamed(*m, v, seen_of(i));
        if (voting) ++out.votes[(begin + i) * l + nodes[leaves[i]].child_or_class];
      }
    }
    for (size_t i = 0; i < count; ++i) {
      out.labels[begin + i] = ClassOf(*m, sums.data() + i * k, threshold, seen_of(i));
      ScoresOf(*m, sums.data() + i * k, threshold, out.scores.data() + (begin + i) * l);
    }
  }
  return out;
}

}  // namespace urnforest
