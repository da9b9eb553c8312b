// ImportOnnx: an ONNX TreeEnsembleClassifier (ai.onnx.ml opsets 1 and 3) rebuilt as a Forest whose
// node table gives, for every float32 row, the leaf ONNX Runtime reaches.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "ensemble/forest_access.h"
#include "model/imported_scores.h"
#include "onnx/onnx_model.h"
#include "urnforest/onnx_import.h"

namespace urnforest {
namespace {

using internal::OnnxAttribute;
using internal::OnnxModel;
using internal::OnnxNode;

enum class Mode { kLeq, kLt, kGte, kGt, kEq, kNeq, kMember, kLeaf };

// A string from the file, quoted for a message (never invalid UTF-8 in a message).
std::string Quoted(const std::string& s) {
  if (internal::FirstInvalidUtf8(s) != s.size()) return "(text that is not UTF-8)";
  return internal::QuoteForMessage(s);
}

Status Unsupported(const std::string& what) {
  return Status::Error(StatusCode::kUnsupportedModel, what);
}
Status Corrupt(const OnnxNode& node, const std::string& what) {
  return Status::Error(StatusCode::kCorruptModel, node.Describe() + ": " + what);
}

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

// The attributes of a TreeEnsembleClassifier, numbers widened to double.
struct ClassifierAttributes {
  std::vector<int64_t> tree_ids, node_ids, feature_ids, true_ids, false_ids, missing_true;
  std::vector<std::string> modes;
  std::vector<double> values;
  std::vector<int64_t> class_tree_ids, class_node_ids, class_ids;
  std::vector<double> class_weights;
  std::vector<std::string> class_names;
  std::vector<double> base_values;
  std::string post_transform = "NONE";
  /// BRANCH_MEMBER nodes (opset-5 TreeEnsemble): the set of each node, by node index.
  std::vector<std::vector<double>> member_sets;
};

// Reads a float list attribute, or its `_as_tensor` double form.
bool Numbers(const OnnxNode& node, const std::string& name, std::vector<double>* out) {
  if (const OnnxAttribute* a = node.Find(name + "_as_tensor")) {
    *out = a->t.numbers;
    return true;
  }
  if (const OnnxAttribute* a = node.Find(name)) {
    *out = a->floats;
    return true;
  }
  return false;
}
void Ints(const OnnxNode& node, const std::string& name, std::vector<int64_t>* out) {
  if (const OnnxAttribute* a = node.Find(name)) *out = a->ints;
}

Status ReadAttributes(const OnnxNode& node, ClassifierAttributes* a) {
  Ints(node, "nodes_treeids", &a->tree_ids);
  Ints(node, "nodes_nodeids", &a->node_ids);
  Ints(node, "nodes_featureids", &a->feature_ids);
  Ints(node, "nodes_truenodeids", &a->true_ids);
  Ints(node, "nodes_falsenodeids", &a->false_ids);
  Ints(node, "nodes_missing_value_tracks_true", &a->missing_true);
  if (const OnnxAttribute* m = node.Find("nodes_modes")) a->modes = m->strings;
  Numbers(node, "nodes_values", &a->values);
  Ints(node, "class_treeids", &a->class_tree_ids);
  Ints(node, "class_nodeids", &a->class_node_ids);
  Ints(node, "class_ids", &a->class_ids);
  Numbers(node, "class_weights", &a->class_weights);
  Numbers(node, "base_values", &a->base_values);
  if (const OnnxAttribute* p = node.Find("post_transform")) a->post_transform = p->s;
  const OnnxAttribute* ints = node.Find("classlabels_int64s");
  const OnnxAttribute* strings = node.Find("classlabels_strings");
  if ((ints != nullptr && !ints->ints.empty()) == (strings != nullptr && !strings->strings.empty())) {
    return Corrupt(node, "needs exactly one of classlabels_int64s and classlabels_strings");
  }
  if (ints != nullptr && !ints->ints.empty()) {
    for (int64_t label : ints->ints) a->class_names.push_back(std::to_string(label));
  } else {
    a->class_names = strings->strings;
  }
  const size_t n = a->node_ids.size();
  if (n == 0) return Corrupt(node, "has no tree nodes");
  if (a->tree_ids.size() != n || a->feature_ids.size() != n || a->true_ids.size() != n ||
      a->false_ids.size() != n || a->modes.size() != n || a->values.size() != n ||
      (!a->missing_true.empty() && a->missing_true.size() != n)) {
    return Corrupt(node, "its nodes_* attributes have different lengths");
  }
  const size_t w = a->class_ids.size();
  if (a->class_tree_ids.size() != w || a->class_node_ids.size() != w || a->class_weights.size() != w) {
    return Corrupt(node, "its class_* attributes have different lengths");
  }
  return Status::Ok();
}

// The opset-5 TreeEnsemble's attributes rewritten as a TreeEnsembleClassifier's: node ids are
// the node indices (interior nodes) and node count + leaf index (leaves), per tree (tree id = the
// position in tree_roots); BRANCH_MEMBER sets come from membership_values.
Status ReadTreeEnsembleV5(const OnnxNode& node, ClassifierAttributes* a) {
  std::vector<int64_t> roots, features, true_ids, false_ids, true_leafs, false_leafs, missing, targets;
  Ints(node, "tree_roots", &roots);
  Ints(node, "nodes_featureids", &features);
  Ints(node, "nodes_truenodeids", &true_ids);
  Ints(node, "nodes_falsenodeids", &false_ids);
  Ints(node, "nodes_trueleafs", &true_leafs);
  Ints(node, "nodes_falseleafs", &false_leafs);
  Ints(node, "nodes_missing_value_tracks_true", &missing);
  Ints(node, "leaf_targetids", &targets);
  auto tensor = [&node](const char* name) -> const std::vector<double>* {
    const OnnxAttribute* t = node.Find(name);
    return t == nullptr ? nullptr : &t->t.numbers;
  };
  const std::vector<double>* modes = tensor("nodes_modes");
  const std::vector<double>* splits = tensor("nodes_splits");
  const std::vector<double>* weights = tensor("leaf_weights");
  const std::vector<double>* members = tensor("membership_values");
  const size_t n = features.size();
  const size_t leaves = targets.size();
  if (roots.empty() || modes == nullptr || splits == nullptr || weights == nullptr ||
      modes->size() != n || splits->size() != n || true_ids.size() != n || false_ids.size() != n ||
      true_leafs.size() != n || false_leafs.size() != n || (!missing.empty() && missing.size() != n) ||
      weights->size() != leaves || leaves == 0) {
    return Corrupt(node, "its tree_roots, nodes_* and leaf_* attributes are missing or of different lengths");
  }
  const OnnxAttribute* n_targets = node.Find("n_targets");
  if (n_targets == nullptr || n_targets->i < 1 || n_targets->i > static_cast<int64_t>(DatasetLimits::kMaxClasses)) {
    return Corrupt(node, "n_targets is missing or out of range");
  }
  if (n_targets->i == 1) return Unsupported(node.Describe() + ": one target followed by ArgMax always answers 0");
  for (int64_t c = 0; c < n_targets->i; ++c) a->class_names.push_back(std::to_string(c));
  int64_t aggregate = 1;
  if (const OnnxAttribute* f = node.Find("aggregate_function")) aggregate = f->i;
  if (aggregate != 0 && aggregate != 1) {
    return Unsupported(node.Describe() + ": aggregate_function MIN or MAX is not supported (SUM and AVERAGE are)");
  }
  int64_t transform = 0;
  if (const OnnxAttribute* f = node.Find("post_transform")) transform = f->i;
  static const char* kTransforms[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
  if (transform < 0 || transform > 4) return Corrupt(node, "post_transform out of range");
  a->post_transform = kTransforms[transform];
  // The sets of the BRANCH_MEMBER nodes, in node order, separated by NaN.
  std::vector<std::vector<double>> sets(1);
  if (members != nullptr) {
    for (double v : *members) {
      if (std::isnan(v)) sets.emplace_back(); else sets.back().push_back(v);
    }
  }
  size_t next_set = 0;
  std::vector<std::vector<double>> node_sets(n);
  static const char* kModes[] = {"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT",
                                 "BRANCH_EQ", "BRANCH_NEQ", "BRANCH_MEMBER"};
  for (size_t i = 0; i < n; ++i) {
    const double m = (*modes)[i];
    if (!(m >= 0 && m <= 6) || m != std::floor(m)) return Corrupt(node, "a node mode is out of range");
    if (m == 6) {
      if (next_set >= sets.size()) return Corrupt(node, "membership_values has fewer sets than BRANCH_MEMBER nodes");
      node_sets[i] = sets[next_set++];
    }
  }
  const double scale = aggregate == 0 ? 1.0 / static_cast<double>(roots.size()) : 1.0;
  const int64_t leaf_base = static_cast<int64_t>(n);
  for (size_t t = 0; t < roots.size(); ++t) {
    if (roots[t] < 0 || static_cast<size_t>(roots[t]) >= n) return Corrupt(node, "a tree root is out of range");
    // Interior nodes and leaves reachable from this root, each once.
    std::vector<int64_t> stack{roots[t]};
    std::vector<bool> seen_node(n, false), seen_leaf(leaves, false);
    while (!stack.empty()) {
      const int64_t id = stack.back();
      stack.pop_back();
      if (id >= leaf_base) {
        const size_t leaf = static_cast<size_t>(id - leaf_base);
        if (seen_leaf[leaf]) continue;
        seen_leaf[leaf] = true;
        a->tree_ids.push_back(static_cast<int64_t>(t));
        a->node_ids.push_back(id);
        a->feature_ids.push_back(0);
        a->modes.push_back("LEAF");
        a->values.push_back(0.0);
        a->true_ids.push_back(0);
        a->false_ids.push_back(0);
        a->missing_true.push_back(0);
        a->member_sets.emplace_back();
        if (targets[leaf] < 0 || targets[leaf] >= n_targets->i) return Corrupt(node, "a leaf target is out of range");
        a->class_tree_ids.push_back(static_cast<int64_t>(t));
        a->class_node_ids.push_back(id);
        a->class_ids.push_back(targets[leaf]);
        a->class_weights.push_back((*weights)[leaf] * scale);
        continue;
      }
      const size_t i = static_cast<size_t>(id);
      if (seen_node[i]) continue;
      seen_node[i] = true;
      a->tree_ids.push_back(static_cast<int64_t>(t));
      a->node_ids.push_back(id);
      a->feature_ids.push_back(features[i]);
      a->modes.push_back(kModes[static_cast<int>((*modes)[i])]);
      a->values.push_back((*splits)[i]);
      a->missing_true.push_back(missing.empty() ? 0 : missing[i]);
      a->member_sets.push_back(node_sets[i]);
      for (int side = 0; side < 2; ++side) {
        const int64_t child = side == 0 ? true_ids[i] : false_ids[i];
        const bool leaf = (side == 0 ? true_leafs[i] : false_leafs[i]) != 0;
        if (child < 0 || (leaf ? static_cast<size_t>(child) >= leaves : static_cast<size_t>(child) >= n)) {
          return Corrupt(node, "node " + std::to_string(i) + " names a child out of range");
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

Result<Mode> ParseMode(const OnnxNode& node, const std::string& mode) {
  static const std::pair<const char*, Mode> kModes[] = {
      {"BRANCH_LEQ", Mode::kLeq}, {"BRANCH_LT", Mode::kLt}, {"BRANCH_GTE", Mode::kGte},
      {"BRANCH_GT", Mode::kGt},   {"BRANCH_EQ", Mode::kEq}, {"BRANCH_NEQ", Mode::kNeq},
      {"BRANCH_MEMBER", Mode::kMember}, {"LEAF", Mode::kLeaf}};
  for (const auto& [name, m] : kModes) {
    if (mode == name) return m;
  }
  return Unsupported(node.Describe() + ": node mode " + Quoted(mode) + " is not supported");
}

// One source tree's nodes by id, and where each leaf's values are.
struct SourceTree {
  std::map<int64_t, size_t> by_id;  // node id -> index into the attribute arrays
};

class Builder {
 public:
  Builder(const OnnxNode& node, const ClassifierAttributes& a, int32_t outputs)
      : node_(node), a_(a), outputs_(outputs) {}

  // Appends the tree rooted at attribute index `root` to `table`.
  Status AddTree(const SourceTree& tree, size_t root, NodeTable* table,
                 std::vector<uint32_t>* leaf_rows_of) {
    std::vector<std::pair<uint32_t, size_t>> work{{Alloc(table, 1), root}};
    std::vector<bool> seen(a_.node_ids.size(), false);
    while (!work.empty()) {
      const auto [slot, src] = work.back();
      work.pop_back();
      if (seen[src]) {
        return Corrupt(node_, "tree " + std::to_string(a_.tree_ids[src]) + " reaches node " +
                                  std::to_string(a_.node_ids[src]) + " twice (not a tree)");
      }
      seen[src] = true;
      Result<Mode> mode = ParseMode(node_, a_.modes[src]);
      if (!mode.ok()) return mode.status();
      if (mode.value() == Mode::kLeaf) {
        TreeNode& leaf = table->nodes[slot];
        leaf = TreeNode{-1, 0.0f, 0u, (*leaf_rows_of)[src]};
        continue;
      }
      const int64_t feature = a_.feature_ids[src];
      if (feature < 0 || feature >= num_features) {
        return Corrupt(node_, "node " + std::to_string(a_.node_ids[src]) + " splits on feature " +
                                  std::to_string(feature) + " of " + std::to_string(num_features));
      }
      const double t = a_.values[src];
      if (std::isnan(t)) return Corrupt(node_, "a split threshold is NaN");
      Result<size_t> yes = Child(tree, src, a_.true_ids[src]);
      if (!yes.ok()) return yes.status();
      Result<size_t> no = Child(tree, src, a_.false_ids[src]);
      if (!no.ok()) return no.status();
      const bool missing_true = !a_.missing_true.empty() && a_.missing_true[src] != 0;
      // Where NaN goes: the true branch when tracked so, or for BRANCH_NEQ (NaN != t is true).
      const bool nan_true = missing_true || mode.value() == Mode::kNeq;
      const int32_t f = static_cast<int32_t>(feature);
      switch (mode.value()) {
        case Mode::kLeq: case Mode::kLt: case Mode::kGte: case Mode::kGt: {
          // x <= threshold goes left: the true branch for LEQ/LT, the false one for GTE/GT.
          const bool less = mode.value() == Mode::kLeq || mode.value() == Mode::kLt;
          const bool strict = mode.value() == Mode::kLt || mode.value() == Mode::kGte;
          const float threshold = strict ? BelowFloat(t) : FloorFloat(t);
          const uint32_t kids = Alloc(table, 2);
          const size_t left = less ? yes.value() : no.value();
          const size_t right = less ? no.value() : yes.value();
          const bool nan_left = nan_true == less;
          table->nodes[slot] = TreeNode{f, threshold, kids, nan_left ? TreeNode::kMissingLeft : 0u};
          work.emplace_back(kids + 1, right);
          work.emplace_back(kids, left);
          break;
        }
        case Mode::kEq: case Mode::kNeq: {
          // A: x <= FloorFloat(t) ? B : out;  B: x <= BelowFloat(t) ? out : in, where "in" is the
          // branch of x == t. B's left child is A's right child: [B, out, in].
          const bool eq = mode.value() == Mode::kEq;
          const size_t in = eq ? yes.value() : no.value();
          const size_t out = eq ? no.value() : yes.value();
          const uint32_t b = Alloc(table, 3);
          const bool nan_in = nan_true == eq;  // NaN's destination is `in`
          table->nodes[slot] = TreeNode{f, FloorFloat(t), b, nan_in ? TreeNode::kMissingLeft : 0u};
          table->nodes[b] = TreeNode{f, BelowFloat(t), b + 1, 0u};
          work.emplace_back(b + 2, in);
          work.emplace_back(b + 1, out);
          break;
        }
        case Mode::kMember: {
          // x in {v_1 < ... < v_k}: a chain of x <= c splits whose left children are the answer
          // between consecutive boundaries (c = BelowFloat(v_i): out; c = FloorFloat(v_i): in) and
          // whose right child continues; the last right child is out. The answers are copies of
          // the two subtrees' root nodes (sharing their children), filled in once those are built.
          std::vector<double> set = a_.member_sets[src];
          std::sort(set.begin(), set.end());
          set.erase(std::unique(set.begin(), set.end()), set.end());
          if (set.empty() || std::isnan(set.front()) || std::isnan(set.back())) {
            return Corrupt(node_, "a BRANCH_MEMBER node has an empty or NaN set");
          }
          const bool nan_in = missing_true;  // NaN is never a member
          int64_t primary_in = -1, primary_out = -1;
          uint32_t current = slot;
          for (size_t i = 0; i < set.size() * 2; ++i) {
            const bool is_in = i % 2 == 1;
            const float c = is_in ? FloorFloat(set[i / 2]) : BelowFloat(set[i / 2]);
            const uint32_t kids = Alloc(table, 2);
            table->nodes[current] = TreeNode{f, c, kids, nan_in == is_in ? TreeNode::kMissingLeft : 0u};
            int64_t& primary = is_in ? primary_in : primary_out;
            if (primary < 0) {
              primary = kids;
              work.emplace_back(kids, is_in ? yes.value() : no.value());
            } else {
              aliases_.emplace_back(kids, static_cast<uint32_t>(primary));
            }
            current = kids + 1;
          }
          aliases_.emplace_back(current, static_cast<uint32_t>(primary_out));
          break;
        }
        case Mode::kLeaf: break;
      }
      if (table->nodes.size() > (size_t{1} << 31)) {
        return Status::Error(StatusCode::kLimitExceeded, "the imported trees exceed 2^31 nodes");
      }
    }
    // Alias slots become copies of their subtree's root node: same split, same children.
    for (const auto& [alias, primary] : aliases_) table->nodes[alias] = table->nodes[primary];
    aliases_.clear();
    return Status::Ok();
  }

  int64_t num_features = 0;

 private:
  static uint32_t Alloc(NodeTable* table, size_t n) {
    const uint32_t at = static_cast<uint32_t>(table->nodes.size());
    table->nodes.resize(table->nodes.size() + n, TreeNode{-1, 0.0f, 0u, 0u});
    return at;
  }
  Result<size_t> Child(const SourceTree& tree, size_t parent, int64_t id) const {
    auto it = tree.by_id.find(id);
    if (it == tree.by_id.end()) {
      return Corrupt(node_, "node " + std::to_string(a_.node_ids[parent]) + " of tree " +
                                std::to_string(a_.tree_ids[parent]) + " names child " +
                                std::to_string(id) + ", which does not exist");
    }
    return it->second;
  }

  const OnnxNode& node_;
  const ClassifierAttributes& a_;
  int32_t outputs_;
  std::vector<std::pair<uint32_t, uint32_t>> aliases_;  // (slot, slot whose node it copies)
};

// The single tree node of the graph, after checking every other node is harmless post-processing.
Result<const OnnxNode*> FindTreeNode(const OnnxModel& model, std::string* input_name, int64_t* width) {
  const OnnxNode* tree = nullptr;
  for (const OnnxNode& node : model.nodes) {
    const bool ml = node.domain == "ai.onnx.ml";
    if (ml && (node.op_type == "TreeEnsembleClassifier" || node.op_type == "TreeEnsemble")) {
      if (tree != nullptr) return Unsupported(node.Describe() + ": the graph holds two tree ensembles");
      tree = &node;
    } else if (ml && node.op_type == "TreeEnsembleRegressor") {
      return Unsupported(node.Describe() + ": a regressor; urnforest imports classifiers");
    }
  }
  if (tree == nullptr) {
    for (const OnnxNode& node : model.nodes) {
      const bool post = node.op_type == "ZipMap" || node.op_type == "Cast" || node.op_type == "Identity";
      if (!post) return Unsupported(node.Describe() + ": not a tree-ensemble classifier");
    }
    return Unsupported("the graph has no TreeEnsembleClassifier node");
  }
  if (tree->inputs.empty()) return Corrupt(*tree, "has no input");
  *input_name = tree->inputs[0];
  // Every other node must come after the trees: ZipMap, Cast or Identity fed by the tree node's
  // outputs (or by another such node).
  std::vector<std::string> downstream = tree->outputs;
  for (const OnnxNode& node : model.nodes) {
    if (&node == tree) continue;
    const bool v5 = tree->op_type == "TreeEnsemble";
    const bool plain = node.domain.empty() || node.domain == "ai.onnx";
    const bool post = (node.domain == "ai.onnx.ml" && node.op_type == "ZipMap") ||
                      (plain && (node.op_type == "Cast" || node.op_type == "Identity")) ||
                      (plain && v5 && node.op_type == "ArgMax");
    if (!post) {
      return Unsupported(node.Describe() + ": urnforest runs the tree ensemble alone; this op "
                         "(preprocessing or other computation) is not supported");
    }
  }
  for (const OnnxNode& node : model.nodes) {
    if (&node == tree) continue;
    bool fed = !node.inputs.empty();
    for (const std::string& in : node.inputs) {
      fed = fed && std::find(downstream.begin(), downstream.end(), in) != downstream.end();
    }
    if (!fed) {
      return Unsupported(node.Describe() + ": transforms the input before the tree ensemble; "
                         "urnforest runs the trees on the raw columns only");
    }
    downstream.insert(downstream.end(), node.outputs.begin(), node.outputs.end());
  }
  if (tree->op_type == "TreeEnsemble") {
    // The opset-5 op is also a regressor: it classifies when an ArgMax over its scores follows.
    const OnnxNode* argmax = nullptr;
    for (const OnnxNode& node : model.nodes) {
      if (node.op_type == "ArgMax" && !node.inputs.empty() && !tree->outputs.empty() &&
          node.inputs[0] == tree->outputs[0]) {
        argmax = &node;
      }
    }
    if (argmax == nullptr) {
      return Unsupported(tree->Describe() + ": no ArgMax follows it, so it is a regressor; urnforest imports classifiers");
    }
    const OnnxAttribute* axis = argmax->Find("axis");
    const OnnxAttribute* last = argmax->Find("select_last_index");
    if ((axis != nullptr && axis->i != 1 && axis->i != -1) || axis == nullptr || (last != nullptr && last->i != 0)) {
      return Unsupported(argmax->Describe() + ": only ArgMax over the classes (axis 1) with ties to the first is supported");
    }
  }
  const internal::OnnxValueInfo* input = nullptr;
  for (const internal::OnnxValueInfo& v : model.inputs) {
    if (v.name == *input_name) input = &v;
  }
  if (input == nullptr) {
    return Unsupported(tree->Describe() + ": its input '" + *input_name + "' is not a graph input");
  }
  if (!input->is_tensor || (input->elem_type != internal::kOnnxFloat &&
                            input->elem_type != internal::kOnnxDouble)) {
    return Unsupported("graph input '" + *input_name + "' is not a float or double tensor");
  }
  *width = input->dims.size() == 2 ? input->dims[1] : -1;
  return tree;
}

}  // namespace

Result<Forest> ImportOnnx(const uint8_t* data, size_t size, const OnnxImportOptions& options) {
  Result<OnnxModel> parsed = internal::ParseOnnxModel(data, size);
  if (!parsed.ok()) return parsed.status();
  const OnnxModel& model = parsed.value();
  std::string input_name;
  int64_t width = -1;
  Result<const OnnxNode*> found = FindTreeNode(model, &input_name, &width);
  if (!found.ok()) return found.status();
  const OnnxNode& node = *found.value();

  ClassifierAttributes a;
  Status status = node.op_type == "TreeEnsemble" ? ReadTreeEnsembleV5(node, &a) : ReadAttributes(node, &a);
  if (!status.ok()) return status;
  if (a.member_sets.empty()) a.member_sets.resize(a.node_ids.size());
  const size_t l = a.class_names.size();
  if (l < 2) return Unsupported(node.Describe() + ": a classifier needs at least two classes");
  if (l > DatasetLimits::kMaxClasses) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 4,096 classes");
  }
  for (size_t i = 0; i < l; ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (a.class_names[i] == a.class_names[j]) return Corrupt(node, "class label " + Quoted(a.class_names[i]) + " appears twice");
    }
    if (internal::FirstInvalidUtf8(a.class_names[i]) != a.class_names[i].size()) {
      return Corrupt(node, "class label " + std::to_string(i) + " is not valid UTF-8");
    }
  }
  if (!options.class_names.empty()) {
    if (options.class_names.size() != l) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "class names: the model has " + std::to_string(l) + " classes, " +
                               std::to_string(options.class_names.size()) + " names were given");
    }
    for (size_t i = 0; i < l; ++i) {
      const std::string& name = options.class_names[i];
      if (name.empty() || internal::FirstInvalidUtf8(name) != name.size()) {
        return Status::Error(StatusCode::kInvalidArgument, "class name " + std::to_string(i) + " is empty or not UTF-8");
      }
      for (size_t j = 0; j < i; ++j) {
        if (options.class_names[j] == name) {
          return Status::Error(StatusCode::kInvalidArgument, "class name " + Quoted(name) + " appears twice");
        }
      }
    }
    a.class_names = options.class_names;
  }
  ImportedModel imported;
  if (a.post_transform == "NONE") imported.transform = ScoreTransform::kNone;
  else if (a.post_transform == "LOGISTIC") imported.transform = ScoreTransform::kLogistic;
  else if (a.post_transform == "SOFTMAX") imported.transform = ScoreTransform::kSoftmax;
  else if (a.post_transform == "SOFTMAX_ZERO") imported.transform = ScoreTransform::kSoftmaxZero;
  else return Unsupported(node.Describe() + ": post_transform " + Quoted(a.post_transform) + " is not supported");

  // Class ids used by the weights: a binary model may store only one class's scores.
  bool only_first = true;
  for (int64_t id : a.class_ids) {
    if (id < 0 || static_cast<uint64_t>(id) >= l) return Corrupt(node, "class id " + std::to_string(id) + " out of range");
    only_first = only_first && id == 0;
  }
  bool all_positive = true;
  for (double w : a.class_weights) {
    if (!std::isfinite(w)) return Corrupt(node, "a class weight is not finite");
    all_positive = all_positive && w >= 0;
  }
  // ONNX Runtime's binary case: two labels and every weight for class id 0, which then scores
  // the second class (scikit-learn's and XGBoost's binary layout).
  imported.single_score = l == 2 && only_first && !a.class_ids.empty();
  imported.outputs = imported.single_score ? 1 : static_cast<int32_t>(l);
  // Trees whose weights all go to one class (one tree per class, as boosting and the opset-5
  // op's one-target leaves lay them out) do not vote: when most trees are such, the model is
  // additive.
  bool per_class_trees = false;
  if (!imported.single_score) {
    std::map<int64_t, int64_t> first_class;  // tree -> its one class, or -1 when it has several
    for (size_t k = 0; k < a.class_ids.size(); ++k) {
      auto [it, inserted] = first_class.emplace(a.class_tree_ids[k], a.class_ids[k]);
      if (!inserted && it->second != a.class_ids[k]) it->second = -1;
    }
    size_t single = 0;
    for (const auto& [tree, c] : first_class) single += c >= 0;
    per_class_trees = 2 * single > first_class.size();
  }
  imported.kind = imported.transform == ScoreTransform::kNone && all_positive && !per_class_trees
                      ? ImportedKind::kVoting
                      : ImportedKind::kAdditive;
  imported.default_vote = VoteKind::kSoft;
  imported.source = model.producer_name + (model.producer_version.empty() ? "" : " " + model.producer_version);
  if (internal::FirstInvalidUtf8(imported.source) != imported.source.size()) imported.source.clear();
  if (!a.base_values.empty()) {
    if (a.base_values.size() != static_cast<size_t>(imported.outputs) && a.base_values.size() != l) {
      return Corrupt(node, "base_values has " + std::to_string(a.base_values.size()) + " entries for " + std::to_string(l) + " classes");
    }
    for (double b : a.base_values) {
      if (!std::isfinite(b)) return Corrupt(node, "a base value is not finite");
    }
    if (imported.single_score && a.base_values.size() != 1) {
      return Unsupported(node.Describe() + ": a binary model with one score per leaf and two base values (ONNX Runtime's scores are ill-defined there)");
    }
    imported.base_values = a.base_values;
  }

  // Trees in increasing id order; each node's index by (tree, node id).
  std::map<int64_t, SourceTree> trees;
  for (size_t i = 0; i < a.node_ids.size(); ++i) {
    if (!trees[a.tree_ids[i]].by_id.emplace(a.node_ids[i], i).second) {
      return Corrupt(node, "tree " + std::to_string(a.tree_ids[i]) + " has node id " + std::to_string(a.node_ids[i]) + " twice");
    }
  }
  if (trees.size() > static_cast<size_t>(TrainOptions::kMaxTrees)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 100,000 trees");
  }
  // Leaf rows: one per LEAF node, summing its class entries.
  std::vector<uint32_t> leaf_row(a.node_ids.size(), 0);
  size_t leaves = 0;
  for (size_t i = 0; i < a.node_ids.size(); ++i) {
    if (a.modes[i] == "LEAF") leaf_row[i] = static_cast<uint32_t>(leaves++);
  }
  if (leaves * imported.outputs > (size_t{1} << 28)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model's leaves hold more than 2^28 values");
  }
  imported.leaf_values.assign(leaves * imported.outputs, 0.0);
  for (size_t k = 0; k < a.class_ids.size(); ++k) {
    auto tree = trees.find(a.class_tree_ids[k]);
    if (tree == trees.end()) return Corrupt(node, "a class weight names tree " + std::to_string(a.class_tree_ids[k]) + ", which does not exist");
    auto it = tree->second.by_id.find(a.class_node_ids[k]);
    if (it == tree->second.by_id.end() || a.modes[it->second] != "LEAF") {
      return Corrupt(node, "a class weight names node " + std::to_string(a.class_node_ids[k]) + " of tree " +
                               std::to_string(a.class_tree_ids[k]) + ", which is not a leaf");
    }
    const size_t column = imported.single_score ? 0 : static_cast<size_t>(a.class_ids[k]);
    imported.leaf_values[leaf_row[it->second] * imported.outputs + column] += a.class_weights[k];
  }

  int64_t max_feature = -1;
  for (size_t i = 0; i < a.feature_ids.size(); ++i) {
    if (a.modes[i] != "LEAF") max_feature = std::max(max_feature, a.feature_ids[i]);
  }
  const int64_t num_features = width > 0 ? width : std::max<int64_t>(max_feature + 1, 1);
  if (num_features > static_cast<int64_t>(DatasetLimits::kMaxFeatures)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 65,536 input columns");
  }
  if (!options.feature_names.empty() &&
      options.feature_names.size() != static_cast<size_t>(num_features)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "feature names: the model takes " + std::to_string(num_features) +
                             " columns, " + std::to_string(options.feature_names.size()) + " names were given");
  }

  Forest forest;
  using internal::ForestAccess;
  Schema& schema = ForestAccess::schema(forest);
  schema.target_name = options.target_name;
  schema.class_names = a.class_names;
  for (int64_t f = 0; f < num_features; ++f) {
    FeatureInfo info;
    info.name = options.feature_names.empty() ? "f" + std::to_string(f) : options.feature_names[f];
    info.type = FeatureType::kNumeric;
    for (const FeatureInfo& other : schema.features) {
      if (other.name == info.name) {
        return Status::Error(StatusCode::kInvalidArgument, "feature name " + Quoted(info.name) + " appears twice");
      }
    }
    if (info.name.empty() || internal::FirstInvalidUtf8(info.name) != info.name.size()) {
      return Status::Error(StatusCode::kInvalidArgument, "feature name " + std::to_string(f) + " is empty or not UTF-8");
    }
    schema.features.push_back(std::move(info));
  }
  ForestAccess::RebuildCaches(forest);

  Builder builder(node, a, imported.outputs);
  builder.num_features = num_features;
  NodeTable& table = ForestAccess::table(forest);
  for (const auto& [id, tree] : trees) {
    // The root is the one node no other node of its tree names as a child.
    std::vector<bool> child(a.node_ids.size(), false);
    for (const auto& [node_id, i] : tree.by_id) {
      if (a.modes[i] == "LEAF") continue;
      for (int64_t c : {a.true_ids[i], a.false_ids[i]}) {
        auto it = tree.by_id.find(c);
        if (it != tree.by_id.end()) child[it->second] = true;
      }
    }
    size_t root = a.node_ids.size();
    for (const auto& [node_id, i] : tree.by_id) {
      if (!child[i]) {
        if (root != a.node_ids.size()) return Corrupt(node, "tree " + std::to_string(id) + " has two roots");
        root = i;
      }
    }
    if (root == a.node_ids.size()) return Corrupt(node, "tree " + std::to_string(id) + " has no root (a cycle)");
    ForestAccess::tree_roots(forest).push_back(static_cast<uint32_t>(table.nodes.size()));
    status = builder.AddTree(tree, root, &table, &leaf_row);
    if (!status.ok()) return status;
  }
  // Each leaf's hard vote: its top class (the first on ties, as numpy's argmax).
  for (TreeNode& n : table.nodes) {
    if (n.feature >= 0) continue;
    const double* v = imported.leaf_values.data() + static_cast<size_t>(n.aux) * imported.outputs;
    uint32_t best = 0;
    if (imported.single_score) {
      // A voting tree's leaf holds p / T, p its second-class fraction: it votes for the second
      // class when p > 1/2 (first class on ties, as scikit-learn's argmax; 1e-6 absorbs float32
      // rounding of p / T). A margin votes by its sign.
      best = imported.kind == ImportedKind::kVoting ? (v[0] * static_cast<double>(trees.size()) > 0.5 + 1e-6)
                                                    : v[0] > 0;
    } else {
      for (int32_t c = 1; c < imported.outputs; ++c) {
        if (v[c] > v[best]) best = static_cast<uint32_t>(c);
      }
    }
    n.child_or_class = best;
  }
  TrainOptions& o = ForestAccess::options(forest);
  o.ensemble = EnsembleKind::kImported;
  o.num_trees = static_cast<int32_t>(trees.size());
  o.mtry = 0;
  o.max_depth = 0;
  o.min_leaf = 1;
  o.seed = 0;
  ForestAccess::imported(forest).push_back(std::move(imported));
  internal::FillTreeBounds(&forest);
  return forest;
}

}  // namespace urnforest
