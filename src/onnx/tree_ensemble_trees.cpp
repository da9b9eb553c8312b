// The source trees written node by node through a ForestBuilder (tree_ensemble_trees.h).
#include "onnx/tree_ensemble_trees.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace urnforest {
namespace internal {
namespace {

enum class Mode { kLeq, kLt, kGte, kGt, kEq, kNeq, kMember, kLeaf };

// The largest float32 <= t, and the largest float32 < t: for a float32 x, x <= t exactly when
// x <= FloorFloat(t), and x < t exactly when x <= BelowFloat(t).
float FloorFloat(double t) {
  float f = static_cast<float>(t);
  if (static_cast<double>(f) > t) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}
float BelowFloat(double t) {
  float f = FloorFloat(t);
  if (static_cast<double>(f) == t) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

Result<Mode> ParseMode(const OnnxNode& node, const std::string& mode) {
  // string_views: a comparison checks the length before the bytes. The two modes of almost every
  // node (leaves and BRANCH_LEQ, about half each) come first.
  static const std::pair<std::string_view, Mode> kModes[] = {
      {"LEAF", Mode::kLeaf},      {"BRANCH_LEQ", Mode::kLeq}, {"BRANCH_LT", Mode::kLt},
      {"BRANCH_GTE", Mode::kGte}, {"BRANCH_GT", Mode::kGt},   {"BRANCH_EQ", Mode::kEq},
      {"BRANCH_NEQ", Mode::kNeq}, {"BRANCH_MEMBER", Mode::kMember}};
  for (const auto& [name, m] : kModes) {
    if (std::string_view(mode) == name) return m;
  }
  return OnnxUnsupported(node.Describe() + ": node mode " + OnnxQuoted(mode) + " is not supported");
}

// Writes the source trees of one ensemble node, one tree at a time (AddTree).
class TreeWriter {
 public:
  TreeWriter(const OnnxNode& node, const TreeEnsembleAttributes& a,
             const std::vector<uint32_t>& leaf_rows, int64_t num_features, ForestBuilder* out)
      : node_(node), a_(a), leaf_rows_(leaf_rows), num_features_(num_features), out_(out),
        seen_(a.node_ids.size(), 0) {}

  // Begins a tree in the builder and writes the tree rooted at attribute index `root` into it.
  Status AddTree(const SourceTree& tree, size_t root) {
    if (Status s = out_->BeginTree(); !s.ok()) return s;
    Result<uint32_t> first = out_->AddNodes(1);
    if (!first.ok()) return first.status();
    work_.assign(1, {first.value(), root});
    // Marks of this tree's nodes in seen_ (shared by all trees, cleared per tree: linear cost).
    ++stamp_;
    while (!work_.empty()) {
      const auto [slot, src] = work_.back();
      work_.pop_back();
      if (seen_[src] == stamp_) {
        return OnnxCorrupt(node_, "tree " + std::to_string(a_.tree_ids[src]) + " reaches node " +
                                      std::to_string(a_.node_ids[src]) + " twice (not a tree)");
      }
      seen_[src] = stamp_;
      Result<Mode> mode = ParseMode(node_, a_.modes[src]);
      if (!mode.ok()) return mode.status();
      Status s = mode.value() == Mode::kLeaf ? out_->SetLeaf(slot, leaf_rows_[src])
                                             : AddSplit(tree, slot, src, mode.value());
      if (!s.ok()) return s;
    }
    // Alias slots become copies of their subtree's root node: same split, same children.
    for (const auto& [alias, primary] : aliases_) {
      if (Status s = out_->CopyNode(alias, primary); !s.ok()) return s;
    }
    aliases_.clear();
    return Status::Ok();
  }

 private:
  // Writes the split of source node `src` (mode `mode`, not a leaf) into `slot`, queueing its
  // children's source nodes.
  Status AddSplit(const SourceTree& tree, uint32_t slot, size_t src, Mode mode) {
    const int64_t feature = a_.feature_ids[src];
    if (feature < 0 || feature >= num_features_) {
      return OnnxCorrupt(node_, "node " + std::to_string(a_.node_ids[src]) + " splits on feature " +
                                    std::to_string(feature) + " of " + std::to_string(num_features_));
    }
    const double t = a_.values[src];
    if (std::isnan(t)) return OnnxCorrupt(node_, "a split threshold is NaN");
    Result<size_t> yes = Child(tree, src, a_.true_ids[src]);
    if (!yes.ok()) return yes.status();
    Result<size_t> no = Child(tree, src, a_.false_ids[src]);
    if (!no.ok()) return no.status();
    const bool missing_true = !a_.missing_true.empty() && a_.missing_true[src] != 0;
    // Where NaN goes: the true branch when tracked so, or for BRANCH_NEQ (NaN != t is true).
    const bool nan_true = missing_true || mode == Mode::kNeq;
    const int32_t f = static_cast<int32_t>(feature);
    switch (mode) {
      case Mode::kLeq: case Mode::kLt: case Mode::kGte: case Mode::kGt:
        return AddComparison(slot, mode, f, t, nan_true, yes.value(), no.value());
      case Mode::kEq: case Mode::kNeq:
        return AddEquality(slot, mode == Mode::kEq, f, t, nan_true, yes.value(), no.value());
      case Mode::kMember:
        return AddMember(slot, src, f, missing_true, yes.value(), no.value());
      case Mode::kLeaf: break;
    }
    return Status::Ok();
  }

  // BRANCH_LEQ/LT/GTE/GT: one split; x <= threshold goes left: the true branch for LEQ/LT, the
  // false one for GTE/GT.
  Status AddComparison(uint32_t slot, Mode mode, int32_t f, double t, bool nan_true, size_t yes,
                       size_t no) {
    const bool less = mode == Mode::kLeq || mode == Mode::kLt;
    const bool strict = mode == Mode::kLt || mode == Mode::kGte;
    const float threshold = strict ? BelowFloat(t) : FloorFloat(t);
    Result<uint32_t> kids = out_->AddNodes(2);
    if (!kids.ok()) return kids.status();
    const size_t left = less ? yes : no;
    const size_t right = less ? no : yes;
    const bool nan_left = nan_true == less;
    if (Status s = out_->SetSplit(slot, f, threshold, kids.value(), nan_left); !s.ok()) return s;
    work_.emplace_back(kids.value() + 1, right);
    work_.emplace_back(kids.value(), left);
    return Status::Ok();
  }

  // BRANCH_EQ/NEQ: A: x <= FloorFloat(t) ? B : out;  B: x <= BelowFloat(t) ? out : in, where "in"
  // is the branch of x == t. B's left child is A's right child: [B, out, in].
  Status AddEquality(uint32_t slot, bool eq, int32_t f, double t, bool nan_true, size_t yes,
                     size_t no) {
    const size_t in = eq ? yes : no;
    const size_t out = eq ? no : yes;
    Result<uint32_t> kids = out_->AddNodes(3);
    if (!kids.ok()) return kids.status();
    const uint32_t b = kids.value();
    const bool nan_in = nan_true == eq;  // NaN's destination is `in`
    if (Status s = out_->SetSplit(slot, f, FloorFloat(t), b, nan_in); !s.ok()) return s;
    if (Status s = out_->SetSplit(b, f, BelowFloat(t), b + 1, false); !s.ok()) return s;
    work_.emplace_back(b + 2, in);
    work_.emplace_back(b + 1, out);
    return Status::Ok();
  }

  // BRANCH_MEMBER: x in {v_1 < ... < v_k}: a chain of x <= c splits whose left children are the
  // answer between consecutive boundaries (c = BelowFloat(v_i): out; c = FloorFloat(v_i): in) and
  // whose right child continues; the last right child is out. The answers are copies of the two
  // subtrees' root nodes (sharing their children), filled in once those are built.
  Status AddMember(uint32_t slot, size_t src, int32_t f, bool missing_true, size_t yes, size_t no) {
    std::vector<double> set = a_.member_sets[src];
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    if (set.empty() || std::isnan(set.front()) || std::isnan(set.back())) {
      return OnnxCorrupt(node_, "a BRANCH_MEMBER node has an empty or NaN set");
    }
    const bool nan_in = missing_true;  // NaN is never a member
    int64_t primary_in = -1, primary_out = -1;
    uint32_t current = slot;
    for (size_t i = 0; i < set.size() * 2; ++i) {
      const bool is_in = i % 2 == 1;
      const float c = is_in ? FloorFloat(set[i / 2]) : BelowFloat(set[i / 2]);
      Result<uint32_t> kids = out_->AddNodes(2);
      if (!kids.ok()) return kids.status();
      if (Status s = out_->SetSplit(current, f, c, kids.value(), nan_in == is_in); !s.ok()) return s;
      int64_t& primary = is_in ? primary_in : primary_out;
      if (primary < 0) {
        primary = kids.value();
        work_.emplace_back(kids.value(), is_in ? yes : no);
      } else {
        aliases_.emplace_back(kids.value(), static_cast<uint32_t>(primary));
      }
      current = kids.value() + 1;
    }
    aliases_.emplace_back(current, static_cast<uint32_t>(primary_out));
    return Status::Ok();
  }

  Result<size_t> Child(const SourceTree& tree, size_t parent, int64_t id) const {
    auto it = tree.by_id.find(id);
    if (it == tree.by_id.end()) {
      return OnnxCorrupt(node_, "node " + std::to_string(a_.node_ids[parent]) + " of tree " +
                                    std::to_string(a_.tree_ids[parent]) + " names child " +
                                    std::to_string(id) + ", which does not exist");
    }
    return it->second;
  }

  const OnnxNode& node_;
  const TreeEnsembleAttributes& a_;
  const std::vector<uint32_t>& leaf_rows_;
  int64_t num_features_;
  ForestBuilder* out_;
  std::vector<std::pair<uint32_t, size_t>> work_;       // (slot, source node to write there)
  std::vector<std::pair<uint32_t, uint32_t>> aliases_;  // (slot, slot whose node it copies)
  std::vector<uint32_t> seen_;  // per source node: the stamp of the last tree that reached it
  uint32_t stamp_ = 0;          // the current tree's stamp (trees <= 100,000: never wraps)
};

// The root of `tree`: the one node no other node of the tree names as a child. `named` (one
// entry per source node, all 0) marks the children and is cleared again: cost linear in the tree.
Result<size_t> FindRoot(const OnnxNode& node, const TreeEnsembleAttributes& a, int64_t id,
                        const SourceTree& tree, std::vector<uint8_t>* named) {
  for (const auto& [node_id, i] : tree.by_id) {
    if (IsLeafMode(a.modes[i])) continue;
    for (int64_t c : {a.true_ids[i], a.false_ids[i]}) {
      auto it = tree.by_id.find(c);
      if (it != tree.by_id.end()) (*named)[it->second] = 1;
    }
  }
  size_t root = a.node_ids.size();
  bool two = false;
  for (const auto& [node_id, i] : tree.by_id) {
    if (!(*named)[i]) {
      two = two || root != a.node_ids.size();
      root = i;
    }
    (*named)[i] = 0;
  }
  if (two) return OnnxCorrupt(node, "tree " + std::to_string(id) + " has two roots");
  if (root == a.node_ids.size()) return OnnxCorrupt(node, "tree " + std::to_string(id) + " has no root (a cycle)");
  return root;
}

}  // namespace

Status WriteSourceTrees(const OnnxNode& node, const TreeEnsembleAttributes& a,
                        const SourceTrees& trees, const std::vector<uint32_t>& leaf_rows,
                        int64_t num_features, ForestBuilder* out) {
  TreeWriter writer(node, a, leaf_rows, num_features, out);
  std::vector<uint8_t> named(a.node_ids.size(), 0);
  for (const auto& [id, tree] : trees) {
    Result<size_t> root = FindRoot(node, a, id, tree, &named);
    if (!root.ok()) return root.status();
    if (Status s = writer.AddTree(tree, root.value()); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
