#pragma once
// Growing the independent trees of a bagging or random-forest ensemble, over several threads, with
// a result that does not depend on the thread count.
#include <cstdint>

#include "base/threads.h"
#include "tree/cart.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/train.h"

namespace urnforest {
namespace internal {

/// Which trees to grow and with how many threads.
struct BaggedTreesPlan {
  int32_t first = 0;    ///< Index of the first tree (its random stream is (seed, first)).
  int32_t count = 0;    ///< Trees first .. first + count - 1.
  int32_t threads = 1;  ///< Threads to use (>= 1; 1 = the calling thread only).
};

/// Appends every node and bit set of `from` to `into`, moving inner nodes' child indices and
/// categorical bit-set offsets by where they land; *node_base receives the index of from's node 0
/// in `into`. Fails with kLimitExceeded (nothing appended) beyond 2^31 nodes or 2^30 bit-set words.
Status AppendNodeTable(const NodeTable& from, NodeTable* into, uint32_t* node_base);

/// Grows trees plan.first .. plan.first + plan.count - 1 of a bagging or random forest on
/// `data` / `row_major` (rows x features, the training rows; both outlive the call): tree t draws
/// its bootstrap and splits from Rng::ForStream(options.seed, t). The trees are appended to
/// `forest`'s node table and roots in tree order, and their out-of-bag votes added to its
/// oob_votes (rows x classes, already sized), so the forest is the same for every thread count.
/// `progress` (may be empty) is called on the calling thread only, with (trees done, plan.count);
/// returning false stops every thread and fails with kInvalidArgument "cancelled". Fails with
/// kLimitExceeded when a tree or the whole table exceeds the node or bit-set limits.
Status GrowBaggedTrees(const TrainingData& data, const float* row_major, const CartParams& params,
                       const TrainOptions& options, const BaggedTreesPlan& plan,
                       const ProgressFn& progress, Forest* forest);

}  // namespace internal
}  // namespace urnforest
