// The calibrated margin rule on an imported forest's soft prediction (urnforest/margin_rule.h).
#include "urnforest/margin_rule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ensemble/forest_walk.h"
#include "model/imported_scores.h"
#include "urnforest/alpha.h"

namespace urnforest {
namespace {

constexpr double kLambdaStep = 0.25;
constexpr int kLambdaCount = 49;  // 0 .. 12

Status Invalid(const std::string& what) { return Status::Error(StatusCode::kInvalidArgument, what); }

Status NeedsVotingForest(const Forest& forest) {
  const ImportedModel* m = forest.imported();
  if (m == nullptr || m->kind != ImportedKind::kVoting) {
    return Invalid("the margin rule is for imported voting forests (random forests from other libraries)");
  }
  return Status::Ok();
}

// The per-tree scale s: the mean over trees of the largest total of a leaf's values.
double TreeScale(const Forest& forest) {
  const ImportedModel& m = *forest.imported();
  const std::vector<TreeNode>& nodes = forest.node_table().nodes;
  const int32_t trees = forest.num_trees();
  double total = 0.0;
  for (int32_t t = 0; t < trees; ++t) {
    const size_t begin = forest.tree_roots()[t];
    const size_t end = t + 1 < trees ? forest.tree_roots()[t + 1] : nodes.size();
    double best = 0.0;
    for (size_t i = begin; i < end; ++i) {
      if (nodes[i].feature >= 0) continue;
      const double* v = m.leaf_values.data() + static_cast<size_t>(nodes[i].aux) * m.outputs;
      double sum = 0.0;
      for (int32_t c = 0; c < m.outputs; ++c) sum += v[c];
      best = std::max(best, sum);
    }
    total += best;
  }
  return trees > 0 ? total / trees : 0.0;
}

// One row walked tree by tree: after each tree, the exact verdict, the partial leader and z_k.
class RowWalk {
 public:
  // `threshold`: internal::SingleScoreThreshold of the forest's model (computed once by the caller:
  // it reads every leaf).
  // `spreads`: Spreads(forest.num_trees()) (borrowed); `sum` and `seen`: the row's storage,
  // outputs values each (borrowed), so that a call's walks share one allocation.
  RowWalk(const Forest& forest, const internal::RemainingBounds& bounds, double scale, double threshold,
          const std::vector<double>& spreads, double* sum, uint8_t* seen)
      : forest_(forest), m_(*forest.imported()), bounds_(bounds), scale_(scale),
        threshold_(threshold), spreads_(spreads), sum_(sum), seen_(seen) {}

  void Start(const float* row) {
    row_ = row;
    used_ = 0;
    next_check_ = 0;
    internal::StartScores(m_, sum_);
    internal::StartNamed(m_, seen_);
  }
  // Adds the next tree; then settled(), exact_label(), leader() and z() describe the state.
  void Step() { Add(internal::LeafValuesOf(forest_, used_, row_)); }
  // Adds the next tree's leaf values `v` (found by the caller's walk).
  void Add(const double* v) {
    for (int32_t c = 0; c < m_.outputs; ++c) sum_[c] += v[c];
    internal::AddNamed(m_, v, seen_);
    ++used_;
    exact_label_ = internal::ClassOf(m_, sum_, threshold_, seen_);
    const int32_t t = forest_.num_trees();
    settled_ = used_ == t ||
               bounds_.SettledSkipping(sum_, used_, exact_label_, threshold_, &next_check_, seen_);
    double& margin = margin_;
    if (m_.single_score) {
      // The partial analogue of "s > threshold": the partial sum against k/T of the threshold.
      const double centre = threshold_ * used_ / t;
      leader_ = sum_[0] > centre ? 1 : 0;
      margin = std::fabs(sum_[0] - centre) * 2.0;
    } else {
      leader_ = exact_label_;
      double second = -std::numeric_limits<double>::infinity();
      for (int32_t c = 0; c < m_.outputs; ++c) {
        if (c != leader_) second = std::max(second, sum_[c]);
      }
      margin = sum_[leader_] - second;
    }
  }
  int32_t used() const { return used_; }
  bool settled() const { return settled_; }
  int32_t exact_label() const { return exact_label_; }
  int32_t leader() const { return leader_; }
  /// z_k = (margin / k / s) / spread(k), +infinity when spread(k) or s is 0.
  double z() const {
    const double k = used_;
    const double spread = spreads_[used_];
    return spread > 0 && scale_ > 0 ? (margin_ / k / scale_) / spread : std::numeric_limits<double>::infinity();
  }
  /// z() < lambda (lambda finite and >= 0), computing z() only when the margin lies within a
  /// relative 1e-9 of lambda * k * s * spread(k): further off, the rounding of either side
  /// (a few units in the last place) cannot change the comparison.
  bool Below(double lambda) const {
    const double spread = spreads_[used_];
    if (spread > 0 && scale_ > 0) {
      const double need = lambda * used_ * scale_ * spread;
      const double room = 1e-9 * need;
      if (margin_ < need - room) return true;
      if (margin_ > need + room) return false;
    }
    return z() < lambda;
  }

 private:
  const Forest& forest_;
  const ImportedModel& m_;
  const internal::RemainingBounds& bounds_;
  double scale_;
  double threshold_;
  const std::vector<double>& spreads_;
  double* sum_;
  uint8_t* seen_;  // classes the row's leaves named (ImportedModel::named)
  const float* row_ = nullptr;
  int32_t used_ = 0;
  int32_t next_check_ = 0;
  bool settled_ = false;
  int32_t exact_label_ = 0;
  int32_t leader_ = 0;
  double margin_ = 0.0;  // the leader's margin after used_ trees (see Add)
};

// spreads[k] = sqrt(max(0, 1 - k / trees) / k) for k = 1..trees (the z statistic's spread).
std::vector<double> Spreads(int32_t trees) {
  std::vector<double> out(static_cast<size_t>(trees) + 1, 0.0);
  const double t = trees;
  for (int32_t used = 1; used <= trees; ++used) {
    const double k = used;
    out[used] = std::sqrt(std::max(0.0, 1.0 - k / t) / k);
  }
  return out;
}

}  // namespace

Result<MarginCalibration> CalibrateMargin(const Forest& forest, const float* rows, size_t num_rows) {
  Status ok = NeedsVotingForest(forest);
  if (!ok.ok()) return ok;
  if (num_rows == 0) return Invalid("the margin rule's calibration needs at least one row");
  MarginCalibration out;
  out.rows = static_cast<uint32_t>(num_rows);
  out.scale = TreeScale(forest);
  for (int g = 0; g < kLambdaCount; ++g) out.lambdas.push_back(g * kLambdaStep);
  out.wrong.assign(kLambdaCount, 0);
  std::vector<double> trees(kLambdaCount, 0.0);
  const internal::RemainingBounds bounds(forest);
  const std::vector<double> spreads = Spreads(forest.num_trees());
  std::vector<double> sum(forest.imported()->outputs);
  std::vector<uint8_t> seen(sum.size());
  RowWalk walk(forest, bounds, out.scale, internal::SingleScoreThreshold(*forest.imported()), spreads,
               sum.data(), seen.data());
  const size_t m = static_cast<size_t>(forest.num_features());
  std::vector<int32_t> answer(kLambdaCount), stop(kLambdaCount);
  for (size_t r = 0; r < num_rows; ++r) {
    walk.Start(rows + r * m);
    // Thresholds stop in increasing order: the first `stopped` of the grid have stopped.
    int stopped = 0;
    int32_t final_label = 0;
    bool answered_all = false;
    for (;;) {
      walk.Step();
      if (!answered_all) {
        if (walk.settled()) {
          for (; stopped < kLambdaCount; ++stopped) {
            answer[stopped] = walk.exact_label();
            stop[stopped] = walk.used();
          }
        } else {
          for (; stopped < kLambdaCount && out.lambdas[stopped] <= walk.z(); ++stopped) {
            answer[stopped] = walk.leader();
            stop[stopped] = walk.used();
          }
        }
        answered_all = stopped == kLambdaCount;
      }
      if (walk.used() == forest.num_trees()) {
        final_label = walk.exact_label();
        break;
      }
    }
    for (int g = 0; g < kLambdaCount; ++g) {
      out.wrong[g] += answer[g] != final_label;
      trees[g] += stop[g];
    }
  }
  for (int g = 0; g < kLambdaCount; ++g) out.mean_trees.push_back(trees[g] / num_rows);
  return out;
}

double MarginThreshold(const MarginCalibration& calibration, double alpha) {
  double chosen = std::numeric_limits<double>::infinity();
  for (size_t g = calibration.lambdas.size(); g-- > 0;) {
    const double risk = (calibration.wrong[g] + 1.0) / (calibration.rows + 2.0);
    if (risk > 1.0 - alpha) break;
    chosen = calibration.lambdas[g];
  }
  return chosen;
}

Result<ExactHaltResult> PredictSoftMargin(const Forest& forest, const float* rows, size_t num_rows,
                                          double alpha, double* lambda) {
  Status ok = NeedsVotingForest(forest);
  if (!ok.ok()) return ok;
  const MarginCalibration& calibration = forest.imported()->margin;
  if (!forest.imported()->calibrated || calibration.rows == 0) {
    return Invalid("the margin rule needs a calibrated forest: calibrate it on unlabeled rows first");
  }
  if (Status a = CheckAlpha(alpha); !a.ok()) return a;
  const double threshold = MarginThreshold(calibration, alpha);
  if (lambda != nullptr) *lambda = threshold;
  // No threshold qualifies: only the exact early exit stops a row, so its walk gives the same
  // labels and trees without the statistic's work per tree.
  if (std::isinf(threshold)) return PredictSoftExact(forest, rows, num_rows);
  const internal::RemainingBounds bounds(forest);
  const size_t m = static_cast<size_t>(forest.num_features());
  ExactHaltResult out;
  out.labels.resize(num_rows);
  out.trees_used.resize(num_rows);
  double total = 0.0;
  std::vector<RowWalk> walks;
  const double single_threshold = internal::SingleScoreThreshold(*forest.imported());
  const size_t walkers = std::min(internal::kRowBlock, num_rows);
  walks.reserve(walkers);
  const std::vector<double> spreads = Spreads(forest.num_trees());
  const size_t k = static_cast<size_t>(forest.imported()->outputs);
  std::vector<double> sums(walkers * k);
  std::vector<uint8_t> seen(walkers * k);
  for (size_t i = 0; i < walkers; ++i) {
    walks.emplace_back(forest, bounds, calibration.scale, single_threshold, spreads, sums.data() + i * k,
                       seen.data() + i * k);
  }
  internal::WalkRowsUntilStopped(
      forest, rows, num_rows,
      [&](size_t slot, size_t row) { walks[slot].Start(rows + row * m); },
      [&](size_t slot, size_t row, const double* v, int32_t) {
        RowWalk& walk = walks[slot];
        walk.Add(v);
        const bool settled = walk.settled();
        if (!settled && walk.Below(threshold)) return false;
        out.labels[row] = settled ? walk.exact_label() : walk.leader();
        out.trees_used[row] = walk.used();
        total += walk.used();
        return true;
      });
  out.mean_trees = num_rows == 0 ? 0.0 : total / static_cast<double>(num_rows);
  return out;
}

}  // namespace urnforest
