#pragma once
// Internal: the tree-walk view (tree/tree_walk.h) of a Forest's node table.
#include "tree/tree_walk.h"
#include "urnforest/forest.h"

namespace urnforest {
namespace internal {

/// A WalkView over `forest`'s trees; borrows the forest, valid while it is neither changed nor
/// destroyed.
inline WalkView ForestWalkView(const Forest& forest) {
  bool numeric_only = true;
  for (const FeatureInfo& f : forest.schema().features) {
    numeric_only = numeric_only && f.type == FeatureType::kNumeric;
  }
  return WalkView(forest.node_table(), forest.category_counts().data(),
                  forest.tree_roots().data(), numeric_only, forest.compact_trees());
}

}  // namespace internal
}  // namespace urnforest
