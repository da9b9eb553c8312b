// The compact walk (tree/compact_walk.h) against a plain reference walk over the stored node table:
// the same leaf for every tree and row, whatever the forest (trained rf, bagging, adaboost,
// vote-boosting; imported ONNX and XGBoost), NaN and infinite values, categorical splits, single-leaf
// trees and every remainder of the row groups.
#include "tree/compact_walk.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ensemble/forest_access.h"
#include "ensemble/forest_walk.h"
#include "fixtures.h"
#include "model/imported_scores.h"
#include "urnforest/full_vote.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_scores.h"
#include "urnforest/xgboost_import.h"

namespace urnforest {
namespace {

using internal::CompactTrees;
using test::MustOk;

// The leaf that tree `tree` sends `row` to, read from the node table the plainest way.
uint32_t ReferenceLeaf(const Forest& forest, int32_t tree, const float* row) {
  const std::vector<TreeNode>& nodes = forest.node_table().nodes;
  uint32_t i = forest.tree_roots()[tree];
  while (nodes[i].feature >= 0) {
    const TreeNode& n = nodes[i];
    const float x = row[n.feature];
    bool left;
    if (n.aux & TreeNode::kCategoricalSplit) {
      const uint32_t count = forest.category_counts()[n.feature];
      if (std::isnan(x) || x < 0 || x >= static_cast<float>(count) || x != std::floor(x)) {
        left = (n.aux & TreeNode::kMissingLeft) != 0;
      } else {
        const uint32_t c = static_cast<uint32_t>(x);
        left = (forest.node_table().category_bits[(n.aux >> 2) + c / 32] >> (c % 32)) & 1u;
      }
    } else if (std::isnan(x)) {
      left = (n.aux & TreeNode::kMissingLeft) != 0;
    } else {
      left = x <= n.threshold;
    }
    i = n.child_or_class + (left ? 0 : 1);
  }
  return i;
}

// Rows of `forest`'s width whose values sit on, just below and just above its thresholds, with
// some NaN and infinite values (row-major).
std::vector<float> ProbeRows(const Forest& forest, size_t rows, uint64_t seed, double nan_share) {
  const size_t m = static_cast<size_t>(forest.num_features());
  std::vector<std::vector<float>> cuts(m);
  for (const TreeNode& n : forest.node_table().nodes) {
    if (n.feature >= 0 && !(n.aux & TreeNode::kCategoricalSplit)) cuts[n.feature].push_back(n.threshold);
  }
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<float> out(rows * m);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t f = 0; f < m; ++f) {
      float& x = out[r * m + f];
      const double p = u(rng);
      if (p < nan_share) {
        x = std::numeric_limits<float>::quiet_NaN();
      } else if (p < nan_share + 0.02) {
        x = u(rng) < 0.5 ? -INFINITY : INFINITY;
      } else if (forest.category_counts()[f] > 0) {
        x = static_cast<float>(std::floor(u(rng) * (forest.category_counts()[f] + 1)));
      } else if (cuts[f].empty()) {
        x = static_cast<float>(u(rng) * 4 - 2);
      } else {
        const float t = cuts[f][static_cast<size_t>(u(rng) * cuts[f].size())];
        const double side = u(rng);
        x = side < 0.3 ? t : side < 0.65 ? std::nextafter(t, -INFINITY) : std::nextafter(t, INFINITY);
        if (u(rng) < 0.2) x = static_cast<float>(t + (u(rng) - 0.5) * 2);
      }
    }
  }
  return out;
}

// Every walk of the forest's view (rows side by side, trees side by side, hard votes) against
// ReferenceLeaf on `rows`, for every row count up to `rows`.
void RequireSameLeaves(const Forest& forest, const std::vector<float>& rows) {
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t n = rows.size() / m;
  const internal::WalkView view = internal::ForestWalkView(forest);
  std::vector<uint8_t> no_nan(n);
  for (size_t i = 0; i < n; ++i) no_nan[i] = internal::NoNaN(rows.data() + i * m, m);
  auto row_ptr = [&](size_t i) { return rows.data() + i * m; };
  auto row_no_nan = [&](size_t i) { return no_nan[i] != 0; };
  std::vector<int32_t> leaves(n), votes(n), value_rows(n);
  for (int32_t t = 0; t < forest.num_trees(); ++t) {
    for (size_t count : {n, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{17}}) {
      if (count > n) continue;
      if (view.numeric_only) {
        view.LeavesMany<true>(t, count, row_ptr, row_no_nan, leaves.data());
        view.VoteMany<true>(t, count, row_ptr, row_no_nan, votes.data());
        view.LeafRowsMany<true>(t, count, row_ptr, row_no_nan, value_rows.data());
      } else {
        view.LeavesMany<false>(t, count, row_ptr, row_no_nan, leaves.data());
        view.VoteMany<false>(t, count, row_ptr, row_no_nan, votes.data());
        view.LeafRowsMany<false>(t, count, row_ptr, row_no_nan, value_rows.data());
      }
      for (size_t i = 0; i < count; ++i) {
        const uint32_t want = ReferenceLeaf(forest, t, row_ptr(i));
        INFO("tree " << t << ", row " << i << " of " << count);
        REQUIRE(static_cast<uint32_t>(leaves[i]) == want);
        REQUIRE(static_cast<uint32_t>(votes[i]) == forest.node_table().nodes[want].child_or_class);
        REQUIRE(static_cast<uint32_t>(value_rows[i]) == forest.node_table().nodes[want].aux);
      }
    }
  }
  std::vector<int32_t> trees(static_cast<size_t>(forest.num_trees())), tree_leaves(trees.size()),
      tree_rows(trees.size());
  for (size_t j = 0; j < trees.size(); ++j) trees[j] = static_cast<int32_t>(trees.size() - 1 - j);
  for (size_t i = 0; i < n; ++i) {
    for (size_t count = 0; count <= trees.size(); count += count < 20 ? 1 : 13) {
      if (view.numeric_only) {
        view.LeavesOfTrees<true>(trees.data(), count, row_ptr(i), no_nan[i] != 0, tree_leaves.data());
        view.LeafRowsOfTrees<true>(trees.data(), count, row_ptr(i), no_nan[i] != 0, tree_rows.data());
      } else {
        view.LeavesOfTrees<false>(trees.data(), count, row_ptr(i), no_nan[i] != 0, tree_leaves.data());
        view.LeafRowsOfTrees<false>(trees.data(), count, row_ptr(i), no_nan[i] != 0, tree_rows.data());
      }
      for (size_t j = 0; j < count; ++j) {
        const uint32_t want = ReferenceLeaf(forest, trees[j], row_ptr(i));
        REQUIRE(static_cast<uint32_t>(tree_leaves[j]) == want);
        REQUIRE(static_cast<uint32_t>(tree_rows[j]) == forest.node_table().nodes[want].aux);
      }
    }
  }
}

// The full vote's tallies against the reference walk's, for every row count 0..rows.
void RequireSameFullVote(const Forest& forest, const std::vector<float>& rows) {
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  const size_t n = rows.size() / m;
  std::vector<uint32_t> want(n * k, 0);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t t = 0; t < forest.num_trees(); ++t) {
      ++want[i * k + forest.node_table().nodes[ReferenceLeaf(forest, t, rows.data() + i * m)].child_or_class];
    }
  }
  for (size_t count = 0; count <= n; count += count < 40 ? 1 : 97) {
    const FullVote got = MustOk(PredictFullRows(forest, rows.data(), count));
    REQUIRE(std::equal(got.votes.begin(), got.votes.end(), want.begin()));
  }
}

// PredictScoresRows (soft votes, additive margins) against the reference walk's sums: each row's
// leaf values added in tree order from the base values, then the same label and output
// transform; bit-identical, for every row count (rows walked side by side, or trees for a few).
void RequireSameScores(const Forest& forest, const std::vector<float>& rows) {
  const ImportedModel& m = *forest.imported();
  const size_t f = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(m.outputs);
  const size_t l = static_cast<size_t>(forest.num_classes());
  const size_t n = rows.size() / f;
  const double threshold = internal::SingleScoreThreshold(m);
  std::vector<double> want(n * l);
  std::vector<int32_t> want_labels(n);
  std::vector<double> sum(k);
  std::vector<uint8_t> seen(m.named.empty() ? 0 : k);
  uint8_t* seen_ptr = seen.empty() ? nullptr : seen.data();
  for (size_t i = 0; i < n; ++i) {
    internal::StartScores(m, sum.data());
    internal::StartNamed(m, seen_ptr);
    for (int32_t t = 0; t < forest.num_trees(); ++t) {
      const uint32_t leaf = ReferenceLeaf(forest, t, rows.data() + i * f);
      const double* v = m.leaf_values.data() + static_cast<size_t>(forest.node_table().nodes[leaf].aux) * k;
      for (size_t c = 0; c < k; ++c) sum[c] += v[c];
      internal::AddNamed(m, v, seen_ptr);
    }
    want_labels[i] = internal::ClassOf(m, sum.data(), threshold, seen_ptr);
    internal::ScoresOf(m, sum.data(), threshold, want.data() + i * l);
  }
  for (size_t count : {n, size_t{1}, size_t{3}, size_t{4}, size_t{9}}) {
    if (count > n) continue;
    const ScorePrediction got = MustOk(PredictScoresRows(forest, rows.data(), count, VoteKind::kSoft));
    INFO("rows " << count);
    REQUIRE(std::equal(got.labels.begin(), got.labels.end(), want_labels.begin()));
    for (size_t j = 0; j < count * l; ++j) REQUIRE(std::memcmp(&got.scores[j], &want[j], sizeof(double)) == 0);
  }
}

Forest TrainOn(const Dataset& data, EnsembleKind kind, int32_t trees) {
  TrainOptions o;
  o.ensemble = kind;
  o.num_trees = trees;
  o.seed = 3;
  return test::MustTrain(data, o);
}

std::string ReadFixture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_CASE("The compact walk reaches the reference walk's leaf on trained forests of every kind", "[compact]") {
  const Dataset data = test::MustTwonorm(400, 5);
  for (EnsembleKind kind : {EnsembleKind::kRandomForest, EnsembleKind::kBagging, EnsembleKind::kAdaBoost,
                            EnsembleKind::kVoteBoost}) {
    INFO("ensemble " << static_cast<int>(kind));
    const Forest forest = TrainOn(data, kind, 15);
    REQUIRE_FALSE(forest.compact_trees()->nodes.empty());
    for (double nan_share : {0.0, 0.03}) {
      const std::vector<float> rows = ProbeRows(forest, 67, 11, nan_share);
      RequireSameLeaves(forest, rows);
      RequireSameFullVote(forest, rows);
    }
  }
}

TEST_CASE("Single-leaf trees vote their class in the compact walk", "[compact]") {
  Forest forest = TrainOn(test::MustTwonorm(200, 2), EnsembleKind::kRandomForest, 5);
  for (uint32_t c : {1u, 0u, 1u}) {
    NodeTable& table = internal::ForestAccess::table(forest);
    table.nodes.push_back(TreeNode{-1, 0.0f, c, 0u});
    internal::ForestAccess::tree_roots(forest).push_back(static_cast<uint32_t>(table.nodes.size() - 1));
  }
  REQUIRE_FALSE(forest.compact_trees()->nodes.empty());
  const std::vector<float> rows = ProbeRows(forest, 29, 4, 0.02);
  RequireSameLeaves(forest, rows);
  RequireSameFullVote(forest, rows);
}

TEST_CASE("A forest with categorical splits keeps the node table walk and its answers", "[compact]") {
  std::ostringstream csv;
  csv << "a,b,colour,y\n";
  std::mt19937_64 rng(9);
  const char* colours[] = {"red", "green", "blue", "grey", "pink"};
  for (int i = 0; i < 300; ++i) {
    const int c = static_cast<int>(rng() % 5);
    const double a = static_cast<double>(rng() % 1000) / 100.0, b = static_cast<double>(rng() % 1000) / 100.0;
    const bool y = (c == 1 || c == 3) != (a + b > 10.0);
    csv << a << "," << b << "," << colours[c] << "," << (y ? "yes" : "no") << "\n";
  }
  const Forest forest = TrainOn(test::MustRead(csv.str()), EnsembleKind::kRandomForest, 9);
  bool categorical = false;
  for (const TreeNode& n : forest.node_table().nodes) categorical |= (n.aux & TreeNode::kCategoricalSplit) != 0;
  REQUIRE(categorical);
  REQUIRE(forest.compact_trees()->nodes.empty());
  const std::vector<float> rows = ProbeRows(forest, 45, 6, 0.05);
  RequireSameLeaves(forest, rows);
  RequireSameFullVote(forest, rows);
}

TEST_CASE("The compact walk reaches the reference leaf on imported ONNX and XGBoost models", "[compact]") {
  const std::string onnx_dir = URNFOREST_ONNX_FIXTURES_DIR;
  const std::string xgb_dir = URNFOREST_XGBOOST_FIXTURES_DIR;
  std::vector<std::pair<std::string, bool>> models = {
      {onnx_dir + "/sk_rf_iris_nozipmap.onnx", true},      {onnx_dir + "/sk_rf_wdbc_binary_zipmap.onnx", true},
      {onnx_dir + "/sk_rf_soybean_19class.onnx", true},    {onnx_dir + "/sk_et_vehicle_strings_opset3.onnx", true},
      {onnx_dir + "/tiny_all_modes.onnx", true},           {onnx_dir + "/xgb_wdbc_binary_missing.onnx", true},
      {onnx_dir + "/xgb_vehicle_softprob_missing.onnx", true}, {xgb_dir + "/iris_softmax.model.json", false},
      {xgb_dir + "/vehicle_softprob_missing.model.json", false}, {xgb_dir + "/wdbc_binary_missing.model.json", false},
      {xgb_dir + "/wdbc_logitraw.model.json", false}};
  for (const auto& [path, onnx] : models) {
    INFO(path);
    const std::string bytes = ReadFixture(path);
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    const Forest forest = MustOk(onnx ? ImportOnnx(data, bytes.size()) : ImportXGBoost(data, bytes.size()));
    const std::vector<float> rows = ProbeRows(forest, 37, 8, 0.05);
    // An imported forest's leaves carry their leaf-value rows (the class through row_classes).
    REQUIRE(forest.compact_trees()->payload_is_row);
    RequireSameLeaves(forest, rows);
    RequireSameScores(forest, rows);
    if (forest.imported()->kind == ImportedKind::kVoting) RequireSameFullVote(forest, rows);
  }
}

// Appends to `table` a comb of depth `depth` on feature 0 (node j of the spine sends x <= j + 0.5
// left, to a leaf of class j; x above every threshold reaches the last leaf at full depth) and
// returns its root.
uint32_t AddComb(NodeTable* table, uint32_t depth) {
  const uint32_t root = static_cast<uint32_t>(table->nodes.size());
  for (uint32_t j = 0; j < depth; ++j) {
    const uint32_t at = root + 2 * j;
    table->nodes.push_back(TreeNode{0, static_cast<float>(j) + 0.5f, at + 1, 0u});
    table->nodes.push_back(TreeNode{-1, 0.0f, j, 0u});
  }
  table->nodes.push_back(TreeNode{-1, 0.0f, depth, 0u});
  return root;
}

TEST_CASE("Groups of trees as deep as the fixed-step bound, and deeper, end on the reference leaf", "[compact]") {
  // Depths around kCompactFixedDepth, walked alone and mixed in one group (the deepest decides).
  NodeTable table;
  std::vector<uint32_t> roots, depths;
  for (uint32_t d : {0u, 1u, 6u, internal::kCompactFixedDepth - 1, internal::kCompactFixedDepth,
                     internal::kCompactFixedDepth + 1, 40u}) {
    if (d == 0) {
      roots.push_back(static_cast<uint32_t>(table.nodes.size()));
      table.nodes.push_back(TreeNode{-1, 0.0f, 0u, 0u});
    } else {
      roots.push_back(AddComb(&table, d));
    }
    depths.push_back(d);
  }
  const auto compact = internal::BuildCompactTrees(table, 1);
  REQUIRE_FALSE(compact->nodes.empty());
  for (size_t t = 0; t < roots.size(); ++t) CHECK(compact->heights[roots[t]] == depths[t]);
  auto reference = [&](uint32_t i, float x) {
    while (table.nodes[i].feature >= 0) i = table.nodes[i].child_or_class + (x <= table.nodes[i].threshold ? 0u : 1u);
    return i;
  };
  // Every (tree, value) pair, in orders that put each tree alone and beside others in a group.
  std::vector<std::pair<uint32_t, float>> walks;
  for (size_t t = 0; t < roots.size(); ++t) {
    for (uint32_t x = 0; x <= depths[t] + 1; ++x) walks.push_back({roots[t], static_cast<float>(x)});
  }
  for (int order = 0; order < 3; ++order) {
    if (order == 1) std::reverse(walks.begin(), walks.end());
    if (order == 2) std::shuffle(walks.begin(), walks.end(), std::mt19937(5));
    std::vector<int32_t> leaves(walks.size());
    internal::CompactWalk<internal::kEndLeafIndex>(
        *compact, walks.size(), [&](size_t i) { return walks[i].first; },
        [&](size_t i) { return &walks[i].second; }, leaves.data());
    for (size_t i = 0; i < walks.size(); ++i) {
      INFO("root " << walks[i].first << ", x " << walks[i].second);
      REQUIRE(static_cast<uint32_t>(leaves[i]) == reference(walks[i].first, walks[i].second));
    }
  }
}

TEST_CASE("A leaf-row layout keeps classes where leaves cannot carry their rows", "[compact]") {
  NodeTable table;
  table.nodes = {TreeNode{0, 0.5f, 1u, 0u}, TreeNode{-1, 0.0f, 0u, 5u}, TreeNode{-1, 0.0f, 1u, 2u}};
  const auto rows = internal::BuildCompactTrees(table, 1, true);
  REQUIRE(rows->payload_is_row);
  CHECK(CompactTrees::LeafClass(rows->nodes[1]) == 5u);
  CHECK(rows->ClassOfLeaf(rows->nodes[1]) == 0);
  CHECK(rows->ClassOfLeaf(rows->nodes[2]) == 1);
  CHECK_FALSE(internal::BuildCompactTrees(table, 1, false)->payload_is_row);
  NodeTable shared = table;
  shared.nodes[2].aux = 5u;  // two leaves of different classes share a row: classes stay
  const auto classes = internal::BuildCompactTrees(shared, 1, true);
  REQUIRE_FALSE(classes->nodes.empty());
  CHECK_FALSE(classes->payload_is_row);
  CHECK(CompactTrees::LeafClass(classes->nodes[2]) == 1u);
  NodeTable big_row = table;
  big_row.nodes[1].aux = CompactTrees::kPayloadMask + 1;
  const auto big = internal::BuildCompactTrees(big_row, 1, true);
  REQUIRE_FALSE(big->nodes.empty());
  CHECK_FALSE(big->payload_is_row);
  shared.nodes[2].child_or_class = 0u;  // same class: the row may be shared
  CHECK(internal::BuildCompactTrees(shared, 1, true)->payload_is_row);
}

TEST_CASE("The compact layout is refused where it cannot stand for the node table", "[compact]") {
  NodeTable table;
  table.nodes = {TreeNode{0, 0.5f, 1u, 0u}, TreeNode{-1, 0.0f, 0u, 0u}, TreeNode{-1, 0.0f, 1u, 0u}};
  CHECK_FALSE(internal::BuildCompactTrees(table, 1)->nodes.empty());
  CHECK(internal::BuildCompactTrees(table, 0)->nodes.empty());
  NodeTable nan_threshold = table;
  nan_threshold.nodes[0].threshold = std::numeric_limits<float>::quiet_NaN();
  CHECK(internal::BuildCompactTrees(nan_threshold, 1)->nodes.empty());
  NodeTable big_class = table;
  big_class.nodes[2].child_or_class = CompactTrees::kPayloadMask + 1;
  CHECK(internal::BuildCompactTrees(big_class, 1)->nodes.empty());
  NodeTable categorical = table;
  categorical.nodes[0].aux = TreeNode::kCategoricalSplit;
  CHECK(internal::BuildCompactTrees(categorical, 1)->nodes.empty());
  big_class.nodes[2].child_or_class = CompactTrees::kPayloadMask;
  REQUIRE_FALSE(internal::BuildCompactTrees(big_class, 1)->nodes.empty());
  CHECK(CompactTrees::LeafClass(internal::BuildCompactTrees(big_class, 1)->nodes[2]) == CompactTrees::kPayloadMask);
}

TEST_CASE("A forest's compact layout follows edits of its nodes", "[compact]") {
  Forest forest = TrainOn(test::MustTwonorm(200, 2), EnsembleKind::kRandomForest, 3);
  const std::shared_ptr<const CompactTrees> before = forest.compact_trees();
  REQUIRE(before == forest.compact_trees());
  const Forest copy = forest;
  REQUIRE(copy.compact_trees() == before);
  NodeTable& table = internal::ForestAccess::table(forest);
  table.nodes.push_back(TreeNode{-1, 0.0f, 1u, 0u});
  internal::ForestAccess::tree_roots(forest).push_back(static_cast<uint32_t>(table.nodes.size() - 1));
  REQUIRE(forest.compact_trees()->nodes.size() == table.nodes.size());
  REQUIRE(copy.compact_trees() == before);
}

}  // namespace
}  // namespace urnforest
