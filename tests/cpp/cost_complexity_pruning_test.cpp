#include "tree/cost_complexity_pruning.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "ensemble/bootstrap.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/serialize.h"
#include "urnforest/voteboost.h"

using namespace urnforest;
using internal::PruningSequence;
using internal::PruningTree;

namespace {

// Hand-built tree, counts (class 0, class 1) per node:
//            0 (10,10)
//     1 (8,2)          2 (2,8)
//  3 (8,0) 4 (0,2)   5 (2,1)   6 (0,7)
//                  7 (2,0) 8 (0,1)
PruningTree HandTree() {
  PruningTree t;
  t.classes = 2;
  t.left = {1, 3, 5, -1, -1, 7, -1, -1, -1};
  t.counts = {10, 10, 8, 2, 2, 8, 8, 0, 0, 2, 2, 1, 0, 7, 2, 0, 0, 1};
  return t;
}

int32_t CountLeaves(const PruningTree& tree, const std::vector<bool>& leaf, int32_t node = 0) {
  if (leaf[node]) return 1;
  return CountLeaves(tree, leaf, tree.left[node]) + CountLeaves(tree, leaf, tree.left[node] + 1);
}

Dataset Data(const std::vector<float>& x, const std::vector<int32_t>& y, size_t cols) {
  Result<Dataset> d = Dataset::FromRowMajor(x.data(), y.size(), cols, y.data(), {}, {"A", "B"});
  REQUIRE(d.ok());
  return std::move(d).value();
}

// Leaves of tree t of a forest.
int32_t TreeLeaves(const Forest& f, int32_t t) {
  int32_t leaves = 0;
  std::vector<uint32_t> stack{f.tree_roots()[t]};
  while (!stack.empty()) {
    const Forest::Node& n = f.node_table().nodes[stack.back()];
    stack.pop_back();
    if (n.feature < 0) {
      ++leaves;
    } else {
      stack.push_back(n.child_or_class);
      stack.push_back(n.child_or_class + 1);
    }
  }
  return leaves;
}

double MeanLeaves(const Forest& f) {
  double sum = 0.0;
  for (int32_t t = 0; t < f.num_trees(); ++t) sum += TreeLeaves(f, t);
  return sum / f.num_trees();
}

TrainOptions Bagged(int32_t trees, TreePruning pruning) {
  TrainOptions o;
  o.ensemble = EnsembleKind::kBagging;
  o.num_trees = trees;
  o.seed = 5;
  o.pruning.mode = pruning;
  return o;
}

}  // namespace

TEST_CASE("The weakest-link sequence and its alphas match a hand computation", "[pruning]") {
  const PruningTree tree = HandTree();
  // Step 1: g(5) = (1 - 0)/1 = 1 and g(2) = (2 - 0)/2 = 1 tie (g(1) = 2, g(0) = 10/4): both go at
  // alpha = 1/20. Step 2: g(1) = 2/1, g(0) = (10 - 2)/2 = 4: alpha = 2/20. Step 3: g(0) = 6/1.
  const PruningSequence seq = internal::WeakestLinkSequence(tree);
  REQUIRE(seq.alphas == std::vector<double>{0.0, 1.0 / 20, 2.0 / 20, 6.0 / 20});
  REQUIRE(seq.leaves == std::vector<int32_t>{5, 3, 2, 1});
  REQUIRE(seq.collapse_alpha[0] == 6.0 / 20);
  REQUIRE(seq.collapse_alpha[1] == 2.0 / 20);
  REQUIRE(seq.collapse_alpha[2] == 1.0 / 20);
  REQUIRE(seq.collapse_alpha[5] == 1.0 / 20);
  for (size_t k = 0; k < seq.alphas.size(); ++k) {
    REQUIRE(CountLeaves(tree, internal::LeavesAt(tree, seq, seq.alphas[k])) == seq.leaves[k]);
  }
  // Between two alphas the subtree of the lower one is kept.
  REQUIRE(CountLeaves(tree, internal::LeavesAt(tree, seq, 0.07)) == 3);
}

TEST_CASE("Pruning at alpha = 0 keeps a tree grown to purity and alpha = infinity leaves the root",
          "[pruning]") {
  const PruningTree tree = HandTree();
  const PruningSequence seq = internal::WeakestLinkSequence(tree);
  const std::vector<bool> zero = internal::LeavesAt(tree, seq, 0.0);
  for (int32_t t = 0; t < tree.num_nodes(); ++t) REQUIRE(zero[t] == (tree.left[t] < 0));
  const std::vector<bool> inf =
      internal::LeavesAt(tree, seq, std::numeric_limits<double>::infinity());
  REQUIRE(inf[0]);
  REQUIRE(CountLeaves(tree, inf) == 1);
}

TEST_CASE("A split that does not lower the training error is already gone at alpha = 0",
          "[pruning]") {
  PruningTree tree;
  tree.classes = 2;
  tree.left = {1, -1, -1};
  tree.counts = {6, 2, 3, 1, 3, 1};  // both children vote class 0 like the root
  const PruningSequence seq = internal::WeakestLinkSequence(tree);
  REQUIRE(seq.alphas == std::vector<double>{0.0});
  REQUIRE(seq.leaves == std::vector<int32_t>{1});
  REQUIRE(internal::LeavesAt(tree, seq, 0.0)[0]);
}

TEST_CASE("The k-SE rule picks the smallest subtree within k standard errors of the minimum",
          "[pruning]") {
  // Minimum 3 of 100 at k = 1; SE = sqrt(3 * 97 / 100) = 1.706: 4 is within one SE, 10 is not.
  const std::vector<double> errors{5, 3, 4, 10};
  REQUIRE(internal::ChooseSubtree(errors, 100.0, 0.0) == 1);
  REQUIRE(internal::ChooseSubtree(errors, 100.0, 1.0) == 2);
  REQUIRE(internal::ChooseSubtree(errors, 100.0, 5.0) == 3);
  // Equal minima: the smaller tree.
  REQUIRE(internal::ChooseSubtree({3, 3, 9}, 100.0, 0.0) == 1);
}

TEST_CASE("CV pruning cuts trees on pure-noise labels down to a few leaves", "[pruning]") {
  Result<Dataset> noise = GenerateProblem("twonorm", 300, 11);
  REQUIRE(noise.ok());
  std::vector<int32_t> labels(300);
  internal::Rng rng(99);
  for (int32_t& y : labels) y = static_cast<int32_t>(rng.Below(2));
  const std::vector<float> x = noise.value().RowMajor();
  const Dataset d = Data(x, labels, 20);
  Result<Forest> full = Train(d, Bagged(10, TreePruning::kNone));
  Result<Forest> pruned = Train(d, Bagged(10, TreePruning::kCostComplexityCV));
  REQUIRE(full.ok());
  REQUIRE(pruned.ok());
  REQUIRE(MeanLeaves(full.value()) > 30.0);
  REQUIRE(MeanLeaves(pruned.value()) <= 4.0);
}

TEST_CASE("CV pruning keeps (nearly) the full tree on noise-free separable data", "[pruning]") {
  // 4 x 4 checkerboard on [0, 1)^2: the full tree needs at least 16 leaves and every one counts.
  std::vector<float> x;
  std::vector<int32_t> y;
  internal::Rng rng(3);
  for (int i = 0; i < 400; ++i) {
    const float a = static_cast<float>(rng.Uniform());
    const float b = static_cast<float>(rng.Uniform());
    x.push_back(a);
    x.push_back(b);
    y.push_back((static_cast<int>(a * 4) + static_cast<int>(b * 4)) % 2);
  }
  const Dataset d = Data(x, y, 2);
  Result<Forest> full = Train(d, Bagged(5, TreePruning::kNone));
  Result<Forest> pruned = Train(d, Bagged(5, TreePruning::kCostComplexityCV));
  REQUIRE(full.ok());
  REQUIRE(pruned.ok());
  REQUIRE(MeanLeaves(pruned.value()) >= 16.0);
  REQUIRE(MeanLeaves(pruned.value()) >= 0.8 * MeanLeaves(full.value()));
}

TEST_CASE("A pruned tree is a subtree of the unpruned one: fewer nodes, training error not lower",
          "[pruning]") {
  Result<Dataset> data = GenerateProblem("ringnorm", 300, 4);
  REQUIRE(data.ok());
  const Dataset& d = data.value();
  Result<Forest> full = Train(d, Bagged(3, TreePruning::kNone));
  Result<Forest> pruned = Train(d, Bagged(3, TreePruning::kCostComplexityCV));
  REQUIRE(full.ok());
  REQUIRE(pruned.ok());
  const std::vector<float> rows = d.RowMajor();
  std::vector<uint32_t> counts(d.num_rows());
  for (int32_t t = 0; t < 3; ++t) {
    // The tree's own (bootstrap) sample: replay its draw.
    internal::Rng rng = internal::Rng::ForStream(5, static_cast<uint64_t>(t));
    internal::DrawBootstrap(&rng, static_cast<uint32_t>(d.num_rows()), counts.data());
    int64_t errors_full = 0, errors_pruned = 0;
    for (size_t r = 0; r < d.num_rows(); ++r) {
      const float* row = rows.data() + r * d.num_features();
      errors_full += counts[r] * (full.value().TreeVote(t, row) != d.labels()[r]);
      errors_pruned += counts[r] * (pruned.value().TreeVote(t, row) != d.labels()[r]);
    }
    REQUIRE(errors_full == 0);
    REQUIRE(errors_pruned >= errors_full);
    REQUIRE(TreeLeaves(pruned.value(), t) < TreeLeaves(full.value(), t));
  }
}

TEST_CASE("Pruned models are deterministic and keep their pruning options in the bytes",
          "[pruning][serialize]") {
  Result<Dataset> data = GenerateProblem("twonorm", 200, 8);
  REQUIRE(data.ok());
  TrainOptions o = Bagged(5, TreePruning::kCostComplexityCV);
  o.pruning.cv_folds = 5;
  o.pruning.se_rule = 0.0;
  Result<Forest> a = Train(data.value(), o);
  Result<Forest> b = Train(data.value(), o);
  REQUIRE(a.ok());
  const std::vector<uint8_t> bytes = SerializeForest(a.value());
  REQUIRE(bytes == SerializeForest(b.value()));
  Result<Forest> back = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  REQUIRE(back.value().options().pruning.mode == TreePruning::kCostComplexityCV);
  REQUIRE(back.value().options().pruning.cv_folds == 5);
  REQUIRE(back.value().options().pruning.se_rule == 0.0);
  REQUIRE(SerializeForest(back.value()) == bytes);
}

TEST_CASE("Train rejects bad pruning options", "[pruning]") {
  Result<Dataset> data = GenerateProblem("twonorm", 50, 8);
  REQUIRE(data.ok());
  TrainOptions o = Bagged(1, TreePruning::kCostComplexityCV);
  o.pruning.cv_folds = 1;
  REQUIRE(Train(data.value(), o).status().code == StatusCode::kInvalidArgument);
  o.pruning.cv_folds = 10;
  o.pruning.se_rule = -1.0;
  REQUIRE(Train(data.value(), o).status().code == StatusCode::kInvalidArgument);
  o.pruning.se_rule = 1.0;
  o.pruning.mode = static_cast<TreePruning>(7);
  REQUIRE(Train(data.value(), o).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("Vote-boosting and AdaBoost grow smaller trees with the pruned-CART base", "[pruning]") {
  Result<Dataset> data = GenerateProblem("twonorm", 300, 6);
  REQUIRE(data.ok());
  TrainOptions vb;
  vb.ensemble = EnsembleKind::kVoteBoost;
  vb.num_trees = 9;
  vb.voteboost.a = 5.0;
  vb.voteboost.base = VoteBoostBase::kUnprunedCart;
  Result<Forest> unpruned = Train(data.value(), vb);
  vb.voteboost.base = VoteBoostBase::kPrunedCart;
  Result<Forest> pruned = Train(data.value(), vb);
  REQUIRE(unpruned.ok());
  REQUIRE(pruned.ok());
  REQUIRE(pruned.value().num_nodes() < unpruned.value().num_nodes());
  REQUIRE(std::string(VoteBoostBaseName(pruned.value().options().voteboost.base)) == "pruned");
  const std::vector<uint8_t> bytes = SerializeForest(pruned.value());
  Result<Forest> back = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  REQUIRE(back.value().options().voteboost.base == VoteBoostBase::kPrunedCart);

  TrainOptions ada;
  ada.ensemble = EnsembleKind::kAdaBoost;
  ada.num_trees = 9;
  Result<Forest> ada_unpruned = Train(data.value(), ada);
  ada.pruning.mode = TreePruning::kCostComplexityCV;
  Result<Forest> ada_pruned = Train(data.value(), ada);
  REQUIRE(ada_unpruned.ok());
  REQUIRE(ada_pruned.ok());
  REQUIRE(ada_pruned.value().num_trees() == 9);
  REQUIRE(ada_pruned.value().num_nodes() < ada_unpruned.value().num_nodes());
}
