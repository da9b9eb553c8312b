// The tree-ensemble node's attributes read into one canonical form (tree_ensemble_attributes.h):
// one reader per op version.
#include "onnx/tree_ensemble_attributes.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "urnforest/dataset.h"

namespace urnforest {
namespace internal {
namespace {

// node.Find(name), const or not as the node is.
const OnnxAttribute* Find(const OnnxNode& node, const std::string& name) { return node.Find(name); }
OnnxAttribute* Find(OnnxNode& node, const std::string& name) {
  return const_cast<OnnxAttribute*>(static_cast<const OnnxNode&>(node).Find(name));
}

// A list attribute's values into *out: copied from a node that stays as it is, moved from one
// the caller gives up (ReadTreeEnsembleAttributes(OnnxNode*)): the lists of a large forest hold
// hundreds of megabytes, and a copy doubles that memory and its first touch.
template <class T>
void Take(const std::vector<T>& from, std::vector<T>* out) { *out = from; }
template <class T>
void Take(std::vector<T>& from, std::vector<T>* out) { *out = std::move(from); }

// Reads a float list attribute, or its `_as_tensor` double form. A file with both is ambiguous
// (ONNX Runtime refuses it too): kCorruptModel naming the two. Node: OnnxNode or const OnnxNode.
template <class Node>
Status Numbers(Node& node, const std::string& name, std::vector<double>* out) {
  auto* as_tensor = Find(node, name + "_as_tensor");
  auto* as_floats = Find(node, name);
  if (as_tensor != nullptr && as_floats != nullptr) {
    return OnnxCorrupt(node, "has both " + name + " and " + name + "_as_tensor (which one holds the values is ambiguous)");
  }
  if (as_tensor != nullptr) Take(as_tensor->t.numbers, out);
  if (as_floats != nullptr) Take(as_floats->floats, out);
  return Status::Ok();
}
template <class Node>
void Ints(Node& node, const std::string& name, std::vector<int64_t>* out) {
  if (auto* a = Find(node, name)) Take(a->ints, out);
}

// The attributes of a TreeEnsembleClassifier (opsets 1 and 3), checked for presence and lengths.
template <class Node>
Status ReadClassifierAttributes(Node& node, TreeEnsembleAttributes* a) {
  Ints(node, "nodes_treeids", &a->tree_ids);
  Ints(node, "nodes_nodeids", &a->node_ids);
  Ints(node, "nodes_featureids", &a->feature_ids);
  Ints(node, "nodes_truenodeids", &a->true_ids);
  Ints(node, "nodes_falsenodeids", &a->false_ids);
  Ints(node, "nodes_missing_value_tracks_true", &a->missing_true);
  if (auto* m = Find(node, "nodes_modes")) Take(m->strings, &a->modes);
  Ints(node, "class_treeids", &a->class_tree_ids);
  Ints(node, "class_nodeids", &a->class_node_ids);
  Ints(node, "class_ids", &a->class_ids);
  for (auto [name, out] : {std::pair<const char*, std::vector<double>*>{"nodes_values", &a->values},
                           {"class_weights", &a->class_weights}, {"base_values", &a->base_values}}) {
    if (Status s = Numbers(node, name, out); !s.ok()) return s;
  }
  if (const OnnxAttribute* p = node.Find("post_transform")) a->post_transform = p->s;
  const OnnxAttribute* ints = node.Find("classlabels_int64s");
  const OnnxAttribute* strings = node.Find("classlabels_strings");
  if ((ints != nullptr && !ints->ints.empty()) == (strings != nullptr && !strings->strings.empty())) {
    return OnnxCorrupt(node, "needs exactly one of classlabels_int64s and classlabels_strings");
  }
  if (ints != nullptr && !ints->ints.empty()) {
    for (int64_t label : ints->ints) a->class_names.push_back(std::to_string(label));
  } else {
    a->class_names = strings->strings;
  }
  const size_t n = a->node_ids.size();
  if (n == 0) return OnnxCorrupt(node, "has no tree nodes");
  if (a->tree_ids.size() != n || a->feature_ids.size() != n || a->true_ids.size() != n ||
      a->false_ids.size() != n || a->modes.size() != n || a->values.size() != n ||
      (!a->missing_true.empty() && a->missing_true.size() != n)) {
    return OnnxCorrupt(node, "its nodes_* attributes have different lengths");
  }
  const size_t w = a->class_ids.size();
  if (a->class_tree_ids.size() != w || a->class_node_ids.size() != w || a->class_weights.size() != w) {
    return OnnxCorrupt(node, "its class_* attributes have different lengths");
  }
  return Status::Ok();
}

// The opset-5 TreeEnsemble's node and leaf arrays, checked for presence, lengths and ranges.
struct TreeEnsembleV5 {
  std::vector<int64_t> roots, features, true_ids, false_ids, true_leafs, false_leafs, missing, targets;
  const std::vector<double>* modes = nullptr;
  const std::vector<double>* splits = nullptr;
  const std::vector<double>* weights = nullptr;
  std::vector<std::vector<double>> node_sets;  // BRANCH_MEMBER sets by node index
  int64_t n_targets = 0;
  double scale = 1.0;  // 1 / trees for AVERAGE aggregation
};

// Reads and checks the opset-5 attributes into *v (and the class names and post_transform into *a).
Status ReadV5Arrays(const OnnxNode& node, TreeEnsembleV5* v, TreeEnsembleAttributes* a) {
  Ints(node, "tree_roots", &v->roots);
  Ints(node, "nodes_featureids", &v->features);
  Ints(node, "nodes_truenodeids", &v->true_ids);
  Ints(node, "nodes_falsenodeids", &v->false_ids);
  Ints(node, "nodes_trueleafs", &v->true_leafs);
  Ints(node, "nodes_falseleafs", &v->false_leafs);
  Ints(node, "nodes_missing_value_tracks_true", &v->missing);
  Ints(node, "leaf_targetids", &v->targets);
  auto tensor = [&node](const char* name) -> const std::vector<double>* {
    const OnnxAttribute* t = node.Find(name);
    return t == nullptr ? nullptr : &t->t.numbers;
  };
  v->modes = tensor("nodes_modes");
  v->splits = tensor("nodes_splits");
  v->weights = tensor("leaf_weights");
  const std::vector<double>* members = tensor("membership_values");
  const size_t n = v->features.size();
  const size_t leaves = v->targets.size();
  if (v->roots.empty() || v->modes == nullptr || v->splits == nullptr || v->weights == nullptr ||
      v->modes->size() != n || v->splits->size() != n || v->true_ids.size() != n || v->false_ids.size() != n ||
      v->true_leafs.size() != n || v->false_leafs.size() != n || (!v->missing.empty() && v->missing.size() != n) ||
      v->weights->size() != leaves || leaves == 0) {
    return OnnxCorrupt(node, "its tree_roots, nodes_* and leaf_* attributes are missing or of different lengths");
  }
  const OnnxAttribute* n_targets = node.Find("n_targets");
  if (n_targets == nullptr || n_targets->i < 1 || n_targets->i > static_cast<int64_t>(DatasetLimits::kMaxClasses)) {
    return OnnxCorrupt(node, "n_targets is missing or out of range");
  }
  if (n_targets->i == 1) return OnnxUnsupported(node.Describe() + ": one target followed by ArgMax always answers 0");
  v->n_targets = n_targets->i;
  for (int64_t c = 0; c < n_targets->i; ++c) a->class_names.push_back(std::to_string(c));
  int64_t aggregate = 1;
  if (const OnnxAttribute* f = node.Find("aggregate_function")) aggregate = f->i;
  if (aggregate != 0 && aggregate != 1) {
    return OnnxUnsupported(node.Describe() + ": aggregate_function MIN or MAX is not supported (SUM and AVERAGE are)");
  }
  int64_t transform = 0;
  if (const OnnxAttribute* f = node.Find("post_transform")) transform = f->i;
  static const char* kTransforms[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
  if (transform < 0 || transform > 4) return OnnxCorrupt(node, "post_transform out of range");
  // ONNX Runtime 1.30 computes LOGISTIC for 1 and SOFTMAX for 2, the specification the reverse:
  // which one a file means is ambiguous.
  if (transform == 1 || transform == 2) {
    return OnnxUnsupported(node.Describe() + ": post_transform " + std::to_string(transform) +
                           " (the specification's " + kTransforms[transform] + "; ONNX Runtime computes " +
                           kTransforms[3 - transform] + " for it, so the file's scores are ambiguous)");
  }
  a->post_transform = kTransforms[transform];
  // The sets of the BRANCH_MEMBER nodes, in node order, separated by NaN.
  std::vector<std::vector<double>> sets(1);
  if (members != nullptr) {
    for (double m : *members) {
      if (std::isnan(m)) sets.emplace_back(); else sets.back().push_back(m);
    }
  }
  size_t next_set = 0;
  v->node_sets.assign(n, {});
  for (size_t i = 0; i < n; ++i) {
    const double m = (*v->modes)[i];
    if (!(m >= 0 && m <= 6) || m != std::floor(m)) return OnnxCorrupt(node, "a node mode is out of range");
    if (m == 6) {
      if (next_set >= sets.size()) return OnnxCorrupt(node, "membership_values has fewer sets than BRANCH_MEMBER nodes");
      v->node_sets[i] = sets[next_set++];
    }
  }
  v->scale = aggregate == 0 ? 1.0 / static_cast<double>(v->roots.size()) : 1.0;
  return Status::Ok();
}

// Appends leaf `leaf` (node id `id`) of tree t to the classifier layout.
Status AppendV5Leaf(const OnnxNode& node, const TreeEnsembleV5& v, size_t t, int64_t id, size_t leaf,
                    TreeEnsembleAttributes* a) {
  a->tree_ids.push_back(static_cast<int64_t>(t));
  a->node_ids.push_back(id);
  a->feature_ids.push_back(0);
  a->modes.push_back("LEAF");
  a->values.push_back(0.0);
  a->true_ids.push_back(0);
  a->false_ids.push_back(0);
  a->missing_true.push_back(0);
  a->member_sets.emplace_back();
  if (v.targets[leaf] < 0 || v.targets[leaf] >= v.n_targets) return OnnxCorrupt(node, "a leaf target is out of range");
  a->class_tree_ids.push_back(static_cast<int64_t>(t));
  a->class_node_ids.push_back(id);
  a->class_ids.push_back(v.targets[leaf]);
  a->class_weights.push_back((*v.weights)[leaf] * v.scale);
  return Status::Ok();
}

// The opset-5 TreeEnsemble's attributes rewritten as a TreeEnsembleClassifier's: node ids are
// the node indices (interior nodes) and node count + leaf index (leaves), per tree (tree id = the
// position in tree_roots); BRANCH_MEMBER sets come from membership_values.
Status ReadTreeEnsembleV5(const OnnxNode& node, TreeEnsembleAttributes* a) {
  TreeEnsembleV5 v;
  if (Status s = ReadV5Arrays(node, &v, a); !s.ok()) return s;
  static const char* kModes[] = {"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT",
                                 "BRANCH_EQ", "BRANCH_NEQ", "BRANCH_MEMBER"};
  const size_t n = v.features.size();
  const size_t leaves = v.targets.size();
  const int64_t leaf_base = static_cast<int64_t>(n);
  for (size_t t = 0; t < v.roots.size(); ++t) {
    if (v.roots[t] < 0 || static_cast<size_t>(v.roots[t]) >= n) return OnnxCorrupt(node, "a tree root is out of range");
    // Interior nodes and leaves reachable from this root, each once.
    std::vector<int64_t> stack{v.roots[t]};
    std::vector<bool> seen_node(n, false), seen_leaf(leaves, false);
    while (!stack.empty()) {
      const int64_t id = stack.back();
      stack.pop_back();
      if (id >= leaf_base) {
        const size_t leaf = static_cast<size_t>(id - leaf_base);
        if (seen_leaf[leaf]) continue;
        seen_leaf[leaf] = true;
        if (Status s = AppendV5Leaf(node, v, t, id, leaf, a); !s.ok()) return s;
        continue;
      }
      const size_t i = static_cast<size_t>(id);
      if (seen_node[i]) continue;
      seen_node[i] = true;
      a->tree_ids.push_back(static_cast<int64_t>(t));
      a->node_ids.push_back(id);
      a->feature_ids.push_back(v.features[i]);
      a->modes.push_back(kModes[static_cast<int>((*v.modes)[i])]);
      a->values.push_back((*v.splits)[i]);
      a->missing_true.push_back(v.missing.empty() ? 0 : v.missing[i]);
      a->member_sets.push_back(v.node_sets[i]);
      for (int side = 0; side < 2; ++side) {
        const int64_t child = side == 0 ? v.true_ids[i] : v.false_ids[i];
        const bool leaf = (side == 0 ? v.true_leafs[i] : v.false_leafs[i]) != 0;
        if (child < 0 || (leaf ? static_cast<size_t>(child) >= leaves : static_cast<size_t>(child) >= n)) {
          return OnnxCorrupt(node, "node " + std::to_string(i) + " names a child out of range");
        }
        const int64_t child_id = leaf ? leaf_base + child : child;
        (side == 0 ? a->true_ids : a->false_ids).push_back(child_id);
        stack.push_back(child_id);
      }
      if (a->node_ids.size() > (size_t{1} << 28)) {
        return Status::Error(StatusCode::kLimitExceeded, "the imported trees exceed 2^28 nodes");
      }
    }
  }
  return Status::Ok();
}

template <class Node>
Result<TreeEnsembleAttributes> ReadAttributes(Node& node) {
  TreeEnsembleAttributes a;
  Status status = node.op_type == "TreeEnsemble" ? ReadTreeEnsembleV5(node, &a) : ReadClassifierAttributes(node, &a);
  if (!status.ok()) return status;
  if (a.member_sets.empty()) a.member_sets.resize(a.node_ids.size());
  return a;
}

}  // namespace

Result<TreeEnsembleAttributes> ReadTreeEnsembleAttributes(const OnnxNode& node) { return ReadAttributes(node); }

Result<TreeEnsembleAttributes> ReadTreeEnsembleAttributes(OnnxNode* node) { return ReadAttributes(*node); }

std::string OnnxQuoted(const std::string& s) {
  if (FirstInvalidUtf8(s) != s.size()) return "(text that is not UTF-8)";
  return QuoteForMessage(s);
}

Status OnnxUnsupported(const std::string& what) {
  return Status::Error(StatusCode::kUnsupportedModel, what);
}

Status OnnxCorrupt(const OnnxNode& node, const std::string& what) {
  return Status::Error(StatusCode::kCorruptModel, node.Describe() + ": " + what);
}

}  // namespace internal
}  // namespace urnforest
