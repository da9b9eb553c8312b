// The halted soft modes of imported forests against a plain reference written from their
// definitions (urnforest/margin_rule.h, urnforest/predict_scores.h): one row at a time, one tree
// at a time, every bound checked after every tree. The fast paths (blocked walks, one-pass
// leader and runner-up, skipped bound checks) must give the same answer and the same trees used
// on every row.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "ensemble/forest_access.h"
#include "fixtures.h"
#include "model/imported_scores.h"
#include "model/soft_exact.h"
#include "urnforest/calibrate.h"
#include "urnforest/margin_rule.h"
#include "urnforest/predict_scores.h"

namespace urnforest {
namespace {

using test::ImportFixture;
using test::MustOk;

// Rows drawn from the forest's thresholds (each exactly, one float either side, or NaN).
std::vector<float> RowsNearThresholds(const Forest& forest, size_t count, uint32_t seed) {
  const size_t width = static_cast<size_t>(forest.num_features());
  std::vector<std::vector<float>> cuts(width);
  for (const TreeNode& n : forest.node_table().nodes) {
    if (n.feature >= 0) cuts[n.feature].push_back(n.threshold);
  }
  std::vector<float> rows(count * width, 0.0f);
  uint32_t state = seed;
  auto next = [&state]() { state = state * 1664525u + 1013904223u; return state >> 8; };
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<float>& c = cuts[i % width];
    if (c.empty()) continue;
    float v = c[next() % c.size()];
    switch (next() % 6) {
      case 0: v = std::nextafter(v, -INFINITY); break;
      case 1: v = std::nextafter(v, INFINITY); break;
      case 2: v = std::numeric_limits<float>::quiet_NaN(); break;
      default: break;
    }
    rows[i] = v;
  }
  return rows;
}

struct Reference {
  std::vector<int32_t> labels, trees_used;
};

// The halted answer of every row by definition: after each tree k = 1..T, the row stops when the
// remaining trees cannot change the soft prediction (answering it), or, with a finite `lambda`,
// when z_k >= lambda (answering the partial leader); after T trees it answers the full prediction.
Reference HaltedByDefinition(const Forest& forest, const float* rows, size_t num_rows, double lambda) {
  const ImportedModel& m = *forest.imported();
  const internal::RemainingBounds bounds(forest);
  const double threshold = internal::SingleScoreThreshold(m);
  const int32_t trees = forest.num_trees();
  const size_t width = static_cast<size_t>(forest.num_features());
  const double scale = m.margin.scale;
  Reference out;
  std::vector<double> sum(m.outputs);
  for (size_t r = 0; r < num_rows; ++r) {
    internal::StartScores(m, sum.data());
    for (int32_t k = 1; k <= trees; ++k) {
      const double* v = internal::LeafValuesOf(forest, k - 1, rows + r * width);
      for (int32_t c = 0; c < m.outputs; ++c) sum[c] += v[c];
      const int32_t label = internal::ClassOf(m, sum.data(), threshold);
      if (k == trees || bounds.Settled(sum.data(), k, label, threshold)) {
        out.labels.push_back(label);
        out.trees_used.push_back(k);
        break;
      }
      if (std::isinf(lambda)) continue;
      int32_t leader = label;
      double margin = 0.0;
      if (m.single_score) {
        const double centre = threshold * k / trees;
        leader = sum[0] > centre ? 1 : 0;
        margin = std::fabs(sum[0] - centre) * 2.0;
      } else {
        double second = -std::numeric_limits<double>::infinity();
        for (int32_t c = 0; c < m.outputs; ++c) {
          if (c != leader) second = std::max(second, sum[c]);
        }
        margin = sum[leader] - second;
      }
      const double spread = std::sqrt(std::max(0.0, 1.0 - static_cast<double>(k) / trees) / k);
      const double z = spread > 0 && scale > 0 ? (margin / k / scale) / spread : std::numeric_limits<double>::infinity();
      if (z >= lambda) {
        out.labels.push_back(leader);
        out.trees_used.push_back(k);
        break;
      }
    }
  }
  return out;
}

TEST_CASE("The exact early exit answers and stops as its definition does on every row", "[soft_halting]") {
  const char* fixture = GENERATE("sk_rf_soybean_19class", "sk_rf_iris_nozipmap", "sk_rf_wdbc_binary_zipmap",
                                 "xgb_vehicle_softprob_missing", "xgb_wdbc_binary_missing");
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const std::vector<float> rows = RowsNearThresholds(forest, 700, 7);
  const ExactHaltResult exact =
      MustOk(internal::PredictSoftExactWalk(forest, rows.data(), 700, internal::ExactWalk::kAlwaysHalt));
  const Reference want = HaltedByDefinition(forest, rows.data(), 700, std::numeric_limits<double>::infinity());
  CHECK(exact.labels == want.labels);
  CHECK(exact.trees_used == want.trees_used);
}

TEST_CASE("The exact early exit halts its probe rows, then halts the rest or walks all their trees, "
          "and always answers the full soft prediction", "[soft_halting]") {
  const char* fixture = GENERATE("sk_rf_soybean_19class", "sk_rf_iris_nozipmap", "sk_rf_wdbc_binary_zipmap",
                                 "xgb_vehicle_softprob_missing", "xgb_wdbc_binary_missing");
  INFO(fixture);
  const Forest forest = ImportFixture(fixture);
  const size_t n = 700;
  const std::vector<float> rows = RowsNearThresholds(forest, n, 5);
  const ScorePrediction full = MustOk(PredictScoresRows(forest, rows.data(), n, VoteKind::kSoft));
  const ExactHaltResult halted =
      MustOk(internal::PredictSoftExactWalk(forest, rows.data(), n, internal::ExactWalk::kAlwaysHalt));
  const ExactHaltResult exact = MustOk(PredictSoftExact(forest, rows.data(), n));
  CHECK(exact.labels == full.labels);
  CHECK(halted.labels == full.labels);
  const size_t probe = internal::kExactProbeRows;
  double probe_trees = 0;
  for (size_t r = 0; r < probe; ++r) probe_trees += halted.trees_used[r];
  double probe_checks = 0;  // at most one check per tree after the first
  for (size_t r = 0; r < probe; ++r) probe_checks += halted.trees_used[r];
  const bool pays = internal::HaltingPays(forest, probe_trees, 0.0, probe);
  const bool pays_at_most = internal::HaltingPays(forest, probe_trees, probe_checks, probe);
  bool all_halted = true, rest_full = true;
  for (size_t r = 0; r < n; ++r) {
    if (r < probe) {
      CHECK(exact.trees_used[r] == halted.trees_used[r]);
      continue;
    }
    all_halted = all_halted && exact.trees_used[r] == halted.trees_used[r];
    rest_full = rest_full && exact.trees_used[r] == forest.num_trees();
  }
  CHECK((all_halted || rest_full));
  if (!pays) CHECK(rest_full);
  if (pays_at_most) CHECK(all_halted);
  double total = 0;
  for (int32_t t : exact.trees_used) total += t;
  CHECK(exact.mean_trees == Approx(total / n));
}

TEST_CASE("Halting pays when the probe's trees and checks cost less than the full walk", "[soft_halting]") {
  const Forest forest = ImportFixture("xgb_vehicle_softprob_missing");
  const double trees = forest.num_trees();
  CHECK(internal::HaltingPays(forest, 0.5 * 64 * trees, 0.0, 64));
  CHECK_FALSE(internal::HaltingPays(forest, 0.96 * 64 * trees, 0.0, 64));
  CHECK_FALSE(internal::HaltingPays(forest, 0.7 * 64 * trees, 64 * 5.0, 64));
  CHECK(internal::HaltingPays(forest, 0.7 * 64 * trees, 64 * 1.0, 64));
}

TEST_CASE("The margin rule answers and stops as its definition does on every row, at every threshold",
          "[soft_halting]") {
  const char* fixture = GENERATE("sk_rf_soybean_19class", "sk_rf_iris_nozipmap", "sk_rf_wdbc_binary_zipmap");
  INFO(fixture);
  Forest forest = ImportFixture(fixture);
  const std::vector<float> rows = RowsNearThresholds(forest, 700, 11);
  REQUIRE(CalibrateForest(&forest, rows.data(), 300).ok());
  const MarginCalibration measured = forest.imported()->margin;
  for (double lambda : {0.0, 0.5, 1.25, 2.0, 3.5, 6.0, std::numeric_limits<double>::infinity()}) {
    INFO(lambda);
    // A calibration whose only threshold is lambda (certified at alpha 1/2), or none qualifying.
    MarginCalibration only = measured;
    only.rows = 1000;
    only.lambdas = {std::isinf(lambda) ? 0.0 : lambda};
    only.wrong = {std::isinf(lambda) ? 1000u : 0u};
    only.mean_trees = {0.0};
    internal::ForestAccess::imported(forest)[0].margin = only;
    double used_lambda = -1;
    const ExactHaltResult halted = MustOk(PredictSoftMargin(forest, rows.data(), 700, 0.5, &used_lambda));
    REQUIRE(used_lambda == lambda);
    const Reference want = HaltedByDefinition(forest, rows.data(), 700, lambda);
    CHECK(halted.labels == want.labels);
    if (std::isinf(lambda)) {
      // No threshold qualifies: the exact early exit answers (and decides after its probe rows).
      CHECK(halted.trees_used == MustOk(PredictSoftExact(forest, rows.data(), 700)).trees_used);
    } else {
      CHECK(halted.trees_used == want.trees_used);
    }
  }
}

}  // namespace
}  // namespace urnforest
