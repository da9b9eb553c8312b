#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/double_pruning.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/ordering.h"
#include "urnforest/predict.h"
#include "urnforest/prune.h"
#include "urnforest/serialize.h"
#include "urnforest/weighted_vote.h"

using namespace urnforest;

namespace {

struct Trained {
  Dataset data;
  Forest forest;
};

Trained TrainTwonorm(EnsembleKind kind, int32_t trees, size_t rows = 300) {
  Result<Dataset> data = Twonorm(rows, 7);
  REQUIRE(data.ok());
  TrainOptions o;
  o.ensemble = kind;
  o.num_trees = trees;
  o.seed = 5;
  if (kind == EnsembleKind::kAdaBoost) o.max_depth = 3;
  Result<Forest> f = Train(data.value(), o);
  REQUIRE(f.ok());
  return Trained{std::move(data).value(), std::move(f).value()};
}

std::vector<int32_t> OrderOf(const Trained& t, Ordering o) {
  OrderingOptions options;
  options.ordering = o;
  Result<std::vector<int32_t>> order = OrderForest(t.forest, t.data, options);
  REQUIRE(order.ok());
  return order.value();
}

}  // namespace

TEST_CASE("A pruned forest predicts exactly the vote of the first k trees of the full forest", "[prune]") {
  const Trained t = TrainTwonorm(EnsembleKind::kBagging, 25);
  for (Ordering o : {Ordering::kBoosting, Ordering::kReduceError, Ordering::kGreedySdp,
                     Ordering::kOrientation}) {
    const std::vector<int32_t> order = OrderOf(t, o);
    const int32_t k = 7;
    Result<Forest> pruned = PruneForest(t.forest, order, k, &t.data);
    REQUIRE(pruned.ok());
    CHECK(pruned.value().num_trees() == k);
    CHECK(pruned.value().num_nodes() < t.forest.num_nodes());
    Result<FullVote> vote = PredictFull(pruned.value(), t.data);
    REQUIRE(vote.ok());
    Result<std::vector<float>> rows = ModelRows(t.forest, t.data);
    REQUIRE(rows.ok());
    const size_t m = t.data.num_features();
    for (size_t r = 0; r < t.data.num_rows(); ++r) {
      uint32_t counts[2] = {0, 0};
      for (int32_t i = 0; i < k; ++i) {
        const int32_t full = t.forest.TreeVote(order[i], rows.value().data() + r * m);
        CHECK(pruned.value().TreeVote(i, rows.value().data() + r * m) == full);
        ++counts[full];
      }
      CHECK(vote.value().votes[r * 2] == counts[0]);
      CHECK(vote.value().votes[r * 2 + 1] == counts[1]);
      CHECK(vote.value().labels[r] == (counts[1] > counts[0] ? 1 : 0));
    }
    for (int32_t i = 0; i < k; ++i) CHECK(pruned.value().SourceTree(i) == static_cast<uint32_t>(order[i]));
  }
}

TEST_CASE("Pruning to all trees in generation order reproduces the out-of-bag votes", "[prune]") {
  const Trained t = TrainTwonorm(EnsembleKind::kRandomForest, 15);
  std::vector<int32_t> identity(15);
  for (int32_t i = 0; i < 15; ++i) identity[i] = i;
  Result<Forest> same = PruneForest(t.forest, identity, 15, &t.data);
  REQUIRE(same.ok());
  CHECK(same.value().oob_votes() == t.forest.oob_votes());
  CHECK(same.value().node_table().nodes.size() == t.forest.node_table().nodes.size());
}

TEST_CASE("Out-of-bag votes of a pruned forest count only kept trees and compose over pruning", "[prune]") {
  const Trained t = TrainTwonorm(EnsembleKind::kRandomForest, 20);
  const std::vector<int32_t> order = OrderOf(t, Ordering::kBoosting);
  Result<Forest> twice_first = PruneForest(t.forest, order, 10, &t.data);
  REQUIRE(twice_first.ok());
  std::vector<int32_t> tail = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  Result<Forest> twice = PruneForest(twice_first.value(), tail, 4, &t.data);
  REQUIRE(twice.ok());
  std::vector<int32_t> direct_order = {order[9], order[8], order[7], order[6]};
  for (int32_t i = 0; i < 20; ++i) {
    bool in = false;
    for (int32_t d : direct_order) in = in || d == i;
    if (!in) direct_order.push_back(i);
  }
  Result<Forest> direct = PruneForest(t.forest, direct_order, 4, &t.data);
  REQUIRE(direct.ok());
  CHECK(twice.value().oob_votes() == direct.value().oob_votes());
  CHECK(twice.value().source_trees() == direct.value().source_trees());
  uint64_t total = 0;
  for (uint32_t v : twice.value().oob_votes()) total += v;
  CHECK(total > 0);
  CHECK(total <= 4 * t.data.num_rows());
}

TEST_CASE("Pruning without training data zeroes the out-of-bag votes", "[prune]") {
  const Trained t = TrainTwonorm(EnsembleKind::kRandomForest, 10);
  Result<Forest> p = PruneForest(t.forest, OrderOf(t, Ordering::kEarly), 3);
  REQUIRE(p.ok());
  for (uint32_t v : p.value().oob_votes()) CHECK(v == 0u);
  CHECK(p.value().oob_error() == 0.0);
}

TEST_CASE("PruneForest rejects bad orders, sizes and foreign data", "[prune]") {
  const Trained t = TrainTwonorm(EnsembleKind::kRandomForest, 5);
  CHECK(PruneForest(t.forest, {0, 1, 2}, 0).status().code == StatusCode::kInvalidArgument);
  CHECK(PruneForest(t.forest, {0, 1, 2}, 4).status().code == StatusCode::kInvalidArgument);
  CHECK(PruneForest(t.forest, {0, 0, 2}, 2).status().code == StatusCode::kInvalidArgument);
  CHECK(PruneForest(t.forest, {0, 7}, 1).status().code == StatusCode::kInvalidArgument);
  Result<Dataset> other = Twonorm(100, 8);
  REQUIRE(other.ok());
  CHECK(PruneForest(t.forest, {0, 1}, 1, &other.value()).status().code == StatusCode::kShapeMismatch);
  CHECK(PruneForest(Forest(), {0}, 1).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("A pruned model serialises smaller and round-trips byte for byte", "[prune][serialize]") {
  const Trained t = TrainTwonorm(EnsembleKind::kBagging, 21);
  Result<Forest> p = PruneForest(t.forest, OrderOf(t, Ordering::kBoosting), 5, &t.data);
  REQUIRE(p.ok());
  const std::vector<uint8_t> full = SerializeForest(t.forest);
  const std::vector<uint8_t> bytes = SerializeForest(p.value());
  CHECK(bytes.size() < full.size() / 2);
  Result<Forest> back = DeserializeForest(bytes.data(), bytes.size());
  REQUIRE(back.ok());
  CHECK(back.value().source_trees() == p.value().source_trees());
  CHECK(back.value().oob_votes() == p.value().oob_votes());
  CHECK(SerializeForest(back.value()) == bytes);
}

TEST_CASE("Double pruning with the full-confidence rule reproduces the pruned ensemble's vote", "[prune][double]") {
  const Trained t = TrainTwonorm(EnsembleKind::kBagging, 31);
  Result<Dataset> test = Twonorm(200, 99);
  REQUIRE(test.ok());
  const std::vector<int32_t> order = OrderOf(t, Ordering::kBoosting);
  DoublePruningOptions o;
  o.keep = 7;
  o.rule = HaltingRule::kAlpha1;
  Result<DoublePruningResult> r = PredictDoublePruned(t.forest, order, test.value(), o);
  REQUIRE(r.ok());
  CHECK(r.value().disagreement == 0.0);
  CHECK(r.value().halted.labels == r.value().pruned_vote);
  CHECK(r.value().mean_trees <= 7.0);
  CHECK(r.value().mean_trees >= 4.0);
  Result<Forest> pruned = PruneForest(t.forest, order, 7);
  REQUIRE(pruned.ok());
  Result<FullVote> vote = PredictFull(pruned.value(), test.value());
  REQUIRE(vote.ok());
  CHECK(vote.value().labels == r.value().pruned_vote);
}

TEST_CASE("Double pruning with SIBP queries fewer trees and every query order is honoured", "[prune][double]") {
  const Trained t = TrainTwonorm(EnsembleKind::kBagging, 41);
  Result<Dataset> test = Twonorm(300, 98);
  REQUIRE(test.ok());
  const std::vector<int32_t> order = OrderOf(t, Ordering::kBoosting);
  for (PrunedQueryOrder q : {PrunedQueryOrder::kOrdered, PrunedQueryOrder::kGeneration,
                             PrunedQueryOrder::kRandomPerRow}) {
    DoublePruningOptions o;
    o.keep = 0;
    o.order = q;
    Result<DoublePruningResult> r = PredictDoublePruned(t.forest, order, test.value(), o);
    REQUIRE(r.ok());
    CHECK(r.value().keep == 9);
    CHECK(r.value().mean_trees < 9.0);
    CHECK(r.value().disagreement < 0.05);
    if (q == PrunedQueryOrder::kOrdered) {
      CHECK(r.value().kept == std::vector<int32_t>(order.begin(), order.begin() + 9));
    }
    Result<PrunedQueryOrder> parsed = ParsePrunedQueryOrder(PrunedQueryOrderName(q));
    REQUIRE(parsed.ok());
    CHECK(parsed.value() == q);
  }
  DoublePruningOptions bad;
  bad.keep = 42;
  CHECK(PredictDoublePruned(t.forest, order, test.value(), bad).status().code ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("The error curve's last point is the full ensemble's training error", "[prune]") {
  const Trained t = TrainTwonorm(EnsembleKind::kRandomForest, 15);
  Result<VoteMatrix> m = ComputeVoteMatrix(t.forest, t.data);
  REQUIRE(m.ok());
  Result<std::vector<double>> curve = ErrorCurve(m.value(), OrderOf(t, Ordering::kKappa));
  REQUIRE(curve.ok());
  Result<FullVote> vote = PredictFull(t.forest, t.data);
  REQUIRE(vote.ok());
  size_t wrong = 0;
  for (size_t r = 0; r < t.data.num_rows(); ++r) wrong += vote.value().labels[r] != t.data.labels()[r];
  CHECK(curve.value().back() == Approx(static_cast<double>(wrong) / t.data.num_rows()));
}
