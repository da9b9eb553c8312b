// Growing the independent trees of a bagging or random-forest ensemble over threads. Each tree is
// grown into a node table of its own from its own random stream (seed, tree index), then the trees
// are appended to the forest in tree order with their node and bit-set offsets moved: the result
// is the same bytes whatever the thread count and whichever thread grew which tree.
#include "ensemble/grow_bagged.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <utility>
#include <vector>
#if URNFOREST_HAVE_THREADS
#include <thread>
#endif

#include "base/random.h"
#include "ensemble/bootstrap.h"
#include "ensemble/forest_access.h"
#include "ensemble/tree_grower_params.h"
#include "tree/cost_complexity_pruning.h"
#include "tree/tree_walk.h"

namespace urnforest {
namespace internal {
namespace {

constexpr size_t kMaxTableNodes = size_t{1} << 31;

/// One grown tree, in a node table of its own (root 0), with its out-of-bag votes.
struct GrownTree {
  NodeTable table;
  /// (row, class) pairs of its out-of-bag votes, one per out-of-bag row.
  std::vector<uint32_t> oob_rows;
  std::vector<int32_t> oob_classes;
  bool done = false;
};

/// The state the threads share: the next tree to take, the trees grown, the first error.
struct Shared {
  std::atomic<int32_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable changed;
  Status error = Status::Ok();
};

/// Grows tree plan.first + i into `tree` (cleared first) with `grower`, recording its out-of-bag
/// votes. `weights` is a scratch buffer of data.rows entries.
Status GrowOne(const TrainingData& data, const float* row_major, const TrainOptions& options,
               const BaggedTreesPlan& plan, const std::vector<uint32_t>& category_counts, int32_t i,
               TreeGrower* grower, std::vector<uint32_t>* weights, GrownTree* tree) {
  tree->table.nodes.clear();
  tree->table.category_bits.clear();
  tree->oob_rows.clear();
  tree->oob_classes.clear();
  const uint32_t n = static_cast<uint32_t>(data.rows);
  const size_t features = static_cast<size_t>(data.features);
  Rng rng = Rng::ForStream(options.seed, static_cast<uint64_t>(plan.first + i));
  DrawBootstrap(&rng, n, weights->data());
  uint32_t root = 0;
  const Status status = grower->Grow(weights->data(), &rng, &tree->table, &root);
  if (!status.ok()) return status;
  for (uint32_t r = 0; r < n; ++r) {
    if ((*weights)[r] != 0) continue;
    tree->oob_rows.push_back(r);
    tree->oob_classes.push_back(Walk(tree->table.nodes.data(), tree->table.category_bits.data(),
                                     category_counts.data(), root, row_major + r * features));
  }
  return Status::Ok();
}

/// Takes trees from `shared` until none is left (or a stop), growing each into (*trees)[i].
void GrowTaken(const TrainingData& data, const float* row_major, const CartParams& params,
               const TrainOptions& options, const BaggedTreesPlan& plan,
               const std::vector<uint32_t>& category_counts, std::vector<GrownTree>* trees,
               Shared* shared) {
  TreeGrower grower(data, row_major, params, CostComplexityOf(options.pruning));
  std::vector<uint32_t> weights(data.rows);
  for (;;) {
    if (shared->stop.load(std::memory_order_relaxed)) return;
    const int32_t i = shared->next.fetch_add(1);
    if (i >= plan.count) return;
    const Status status =
        GrowOne(data, row_major, options, plan, category_counts, i, &grower, &weights, &(*trees)[i]);
    {
      std::lock_guard<std::mutex> lock(shared->mutex);
      if (!status.ok()) {
        if (shared->error.ok()) shared->error = status;
        shared->stop = true;
      }
      (*trees)[i].done = true;
    }
    shared->changed.notify_all();
    if (!status.ok()) return;
  }
}

/// Appends `tree`'s table and out-of-bag votes to `forest`, its root as the next tree's.
Status AppendTree(const GrownTree& tree, Forest* forest) {
  uint32_t base = 0;
  const Status status = AppendNodeTable(tree.table, &ForestAccess::table(*forest), &base);
  if (!status.ok()) return status;
  ForestAccess::tree_roots(*forest).push_back(base);
  std::vector<uint32_t>& oob = ForestAccess::oob_votes(*forest);
  const size_t k = static_cast<size_t>(forest->num_classes());
  for (size_t j = 0; j < tree.oob_rows.size(); ++j) {
    ++oob[tree.oob_rows[j] * k + static_cast<size_t>(tree.oob_classes[j])];
  }
  return Status::Ok();
}

}  // namespace

Status AppendNodeTable(const NodeTable& from, NodeTable* into, uint32_t* node_base) {
  const size_t nodes = into->nodes.size();
  const size_t bits = into->category_bits.size();
  if (nodes + from.nodes.size() > kMaxTableNodes) {
    return Status::Error(StatusCode::kLimitExceeded, "the forest exceeds 2^31 nodes");
  }
  if (bits + from.category_bits.size() > TreeNode::kMaxCategoryWords) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "the forest exceeds 2^30 categorical bit-set words");
  }
  // Geometric growth (x1.5): reserving exactly the new size on every append reallocated and copied
  // the whole table once per tree, quadratic in the number of trees (100,000 trees: ~50 s natively).
  const size_t need = nodes + from.nodes.size();
  const size_t capacity = into->nodes.capacity();
  if (need > capacity) into->nodes.reserve(std::max(need, capacity + capacity / 2));
  for (TreeNode node : from.nodes) {
    if (node.feature >= 0) {
      node.child_or_class += static_cast<uint32_t>(nodes);
      if ((node.aux & TreeNode::kCategoricalSplit) != 0) node.aux += static_cast<uint32_t>(bits) << 2;
    }
    into->nodes.push_back(node);
  }
  into->category_bits.insert(into->category_bits.end(), from.category_bits.begin(),
                             from.category_bits.end());
  *node_base = static_cast<uint32_t>(nodes);
  return Status::Ok();
}

Status GrowBaggedTrees(const TrainingData& data, const float* row_major, const CartParams& params,
                       const TrainOptions& options, const BaggedTreesPlan& plan,
                       const ProgressFn& progress, Forest* forest) {
  // The forest's own cache (set from its schema before any tree); read-only while trees grow.
  const std::vector<uint32_t>& category_counts = forest->category_counts();
  const int32_t threads = ResolveThreads(plan.threads, plan.count);
  if (threads == 1) {
    // One thread: grow and append tree by tree, one tree's table in memory at a time.
    TreeGrower grower(data, row_major, params, CostComplexityOf(options.pruning));
    std::vector<uint32_t> weights(data.rows);
    GrownTree tree;
    for (int32_t i = 0; i < plan.count; ++i) {
      Status status = GrowOne(data, row_major, options, plan, category_counts, i, &grower, &weights, &tree);
      if (status.ok()) status = AppendTree(tree, forest);
      if (!status.ok()) return status;
      if (progress && !progress(i + 1, plan.count)) {
        return Status::Error(StatusCode::kInvalidArgument, "cancelled");
      }
    }
    return Status::Ok();
  }
#if URNFOREST_HAVE_THREADS
  // `threads` threads grow trees in the order they take them; this thread appends the finished
  // ones in tree order (freeing each one's table) and reports progress.
  std::vector<GrownTree> trees(static_cast<size_t>(plan.count));
  Shared shared;
  std::vector<std::thread> growers;
  growers.reserve(static_cast<size_t>(threads));
  for (int32_t i = 0; i < threads; ++i) {
    growers.emplace_back(GrowTaken, std::cref(data), row_major, std::cref(params), std::cref(options),
                         std::cref(plan), std::cref(category_counts), &trees, &shared);
  }
  Status status = Status::Ok();
  int32_t appended = 0;
  while (appended < plan.count) {
    {
      std::unique_lock<std::mutex> lock(shared.mutex);
      shared.changed.wait(lock, [&] { return trees[appended].done || !shared.error.ok(); });
      if (!shared.error.ok()) {
        status = shared.error;
        break;
      }
    }
    while (appended < plan.count && status.ok()) {
      {
        std::lock_guard<std::mutex> lock(shared.mutex);
        if (!trees[appended].done) break;
      }
      status = AppendTree(trees[appended], forest);
      trees[appended] = GrownTree();
      ++appended;
      if (status.ok() && progress && !progress(appended, plan.count)) {
        status = Status::Error(StatusCode::kInvalidArgument, "cancelled");
      }
    }
    if (!status.ok()) break;
  }
  shared.stop = true;
  for (std::thread& grower : growers) grower.join();
  return status;
#else
  return Status::Error(StatusCode::kInternal, "threads are not available in this build");
#endif
}

}  // namespace internal
}  // namespace urnforest
