// ImportXGBoost (urnforest/xgboost_import.h): parse the JSON within the budget, read the model
// (xgboost_model.h), derive the import record (transform, layout, base margins), estimate the
// forest's memory and refuse it over budget, then write the schema, record, leaf table and trees
// through a ForestBuilder.
#include "urnforest/xgboost_import.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "urnforest/forest_builder.h"
#include "urnforest/node_table.h"
#include "xgboost/json_value.h"
#include "xgboost/xgboost_model.h"

namespace urnforest {
namespace {

using internal::XGBoostModel;
using internal::XGBoostTree;

constexpr size_t kMiB = size_t{1} << 20;

size_t Budget(size_t file_bytes, size_t requested) {
  if (requested != 0) return requested;
  const size_t scaled = file_bytes > std::numeric_limits<size_t>::max() / 64
                            ? std::numeric_limits<size_t>::max()
                            : file_bytes * 64;
  return scaled > 64 * kMiB ? scaled : 64 * kMiB;
}

bool IsUtf8(const std::string& s) { return internal::FirstInvalidUtf8(s) == s.size(); }

// `given` names (one distinct, non-empty UTF-8 name each) for `n` things called `what`.
Status CheckNames(const std::vector<std::string>& given, size_t n, const std::string& what) {
  if (given.size() != n) {
    return Status::Error(StatusCode::kInvalidArgument,
                         what + " names: the model has " + std::to_string(n) + " " +
                             (what == "class" ? "classes" : what + "s") + ", " +
                             std::to_string(given.size()) + " names were given");
  }
  for (size_t i = 0; i < n; ++i) {
    if (given[i].empty() || !IsUtf8(given[i])) {
      return Status::Error(StatusCode::kInvalidArgument,
                           what + " name " + std::to_string(i) + " is empty or not UTF-8");
    }
    for (size_t j = 0; j < i; ++j) {
      if (given[j] == given[i]) {
        return Status::Error(
            StatusCode::kInvalidArgument,
            what + " name " + internal::QuoteForMessage(given[i]) + " appears twice");
      }
    }
  }
  return Status::Ok();
}

Result<Schema> MakeSchema(const XGBoostModel& m, const XGBoostImportOptions& options) {
  Schema schema;
  schema.target_name = options.target_name;
  const size_t k = static_cast<size_t>(m.num_classes);
  if (!options.class_names.empty()) {
    if (Status s = CheckNames(options.class_names, k, "class"); !s.ok()) return s;
    schema.class_names = options.class_names;
  } else {
    for (size_t c = 0; c < k; ++c) schema.class_names.push_back(std::to_string(c));
  }
  const size_t width = static_cast<size_t>(m.num_features);
  if (!options.feature_names.empty()) {
    if (Status s = CheckNames(options.feature_names, width, "feature"); !s.ok()) return s;
  }
  for (size_t f = 0; f < width; ++f) {
    FeatureInfo info;
    info.name = !options.feature_names.empty() ? options.feature_names[f]
                : !m.feature_names.empty()     ? m.feature_names[f]
                                               : "f" + std::to_string(f);
    info.type = FeatureType::kNumeric;
    schema.features.push_back(std::move(info));
  }
  return schema;
}

// The import record without leaves. binary:logistic: one margin per leaf (the second class's),
// logistic, base margin logit(base_score) computed in float32 as XGBoost does. binary:logitraw:
// two values per leaf (-v, v) without a transform, base (-b, b), so that the scores are the margins
// and the second class wins when its margin is above 0. multi:*: one value per class (the tree's
// class holds the leaf value, the others 0), softmax, base_score added to every class.
ImportedModel MakeRecord(const XGBoostModel& m) {
  ImportedModel r;
  r.kind = ImportedKind::kAdditive;
  r.default_vote = VoteKind::kSoft;
  r.source = IsUtf8(m.version) ? m.version : "xgboost";
  if (m.objective == "binary:logistic") {
    r.single_score = true;
    r.outputs = 1;
    r.transform = ScoreTransform::kLogistic;
    const float margin = -std::log(1.0f / m.base_score - 1.0f);
    r.base_values = {static_cast<double>(margin)};
  } else if (m.objective == "binary:logitraw") {
    r.outputs = 2;
    r.transform = ScoreTransform::kNone;
    r.base_values = {-static_cast<double>(m.base_score), static_cast<double>(m.base_score)};
  } else {
    r.outputs = m.num_classes;
    r.transform = ScoreTransform::kSoftmax;
    r.base_values.assign(static_cast<size_t>(m.num_classes), static_cast<double>(m.base_score));
  }
  return r;
}

// The forest's memory, estimated before it is built (as the ONNX importer's): leaf table, hard
// votes, per-tree bounds with the exact exit's suffix tables, node table.
size_t EstimateBytes(const XGBoostModel& m, size_t outputs) {
  double leaves = 0, nodes = 0;
  for (const XGBoostTree& t : m.trees) {
    nodes += static_cast<double>(t.left.size());
    for (int32_t l : t.left) leaves += l == -1;
  }
  const double trees = static_cast<double>(m.trees.size());
  const double bytes = (leaves * outputs + (trees + 1) * outputs * 5) * sizeof(double) +
                       leaves * sizeof(uint32_t) + nodes * (sizeof(TreeNode) + 1);
  return bytes >= static_cast<double>(std::numeric_limits<size_t>::max())
             ? std::numeric_limits<size_t>::max()
             : static_cast<size_t>(bytes);
}

// The leaf table (one row per leaf node, trees in order, nodes by index; row_base[t] is tree t's
// first row) and each row's hard vote (its top class, first on ties; a binary margin by its sign).
struct LeafTable {
  std::vector<double> values;
  std::vector<uint32_t> votes;
  std::vector<uint32_t> row_base;
};
LeafTable MakeLeaves(const XGBoostModel& m, const ImportedModel& r) {
  LeafTable out;
  const size_t k = static_cast<size_t>(r.outputs);
  for (size_t t = 0; t < m.trees.size(); ++t) {
    const XGBoostTree& tree = m.trees[t];
    out.row_base.push_back(static_cast<uint32_t>(out.votes.size()));
    for (size_t i = 0; i < tree.left.size(); ++i) {
      if (tree.left[i] != -1) continue;
      const double v = tree.split_condition[i];
      const size_t at = out.values.size();
      out.values.resize(at + k, 0.0);
      if (r.single_score) {
        out.values[at] = v;
        out.votes.push_back(v > 0);
      } else if (k == 2 && m.num_classes == 2) {  // logitraw: (-v, v)
        out.values[at] = -v;
        out.values[at + 1] = v;
        out.votes.push_back(v > 0);
      } else {
        const size_t c = static_cast<size_t>(m.tree_class[t]);
        out.values[at + c] = v;
        // The top of a row that is 0 but for class c: c when v > 0, else the first other class.
        out.votes.push_back(v > 0 ? static_cast<uint32_t>(c) : c == 0 && v < 0 ? 1u : 0u);
      }
    }
  }
  return out;
}

// The largest float32 below `t` (finite): for a float32 x, x < t exactly when x <= it.
float BelowFloat(float t) { return std::nextafter(t, -std::numeric_limits<float>::infinity()); }

// Tree t written from its root (node 0): a split's children get two new consecutive slots; a node
// reached twice (a cycle or shared child) is refused.
Status WriteTree(const XGBoostTree& tree, size_t t, uint32_t row_base, ForestBuilder* out,
                 std::vector<uint8_t>* seen) {
  if (Status s = out->BeginTree(); !s.ok()) return s;
  Result<uint32_t> root = out->AddNodes(1);
  if (!root.ok()) return root.status();
  // Leaf rows of this tree: node i's row is row_base + (leaves before i).
  std::vector<uint32_t> leaf_row(tree.left.size(), 0);
  uint32_t next = row_base;
  for (size_t i = 0; i < tree.left.size(); ++i) {
    if (tree.left[i] == -1) leaf_row[i] = next++;
  }
  seen->assign(tree.left.size(), 0);
  std::vector<std::pair<uint32_t, int32_t>> work{{root.value(), 0}};
  while (!work.empty()) {
    const auto [slot, i] = work.back();
    work.pop_back();
    if ((*seen)[i]) {
      return internal::XGBoostCorrupt("tree " + std::to_string(t) + " reaches node " +
                                      std::to_string(i) + " twice (not a tree)");
    }
    (*seen)[i] = 1;
    if (tree.left[i] == -1) {
      if (Status s = out->SetLeaf(slot, leaf_row[i]); !s.ok()) return s;
      continue;
    }
    Result<uint32_t> kids = out->AddNodes(2);
    if (!kids.ok()) return kids.status();
    if (Status s = out->SetSplit(slot, tree.split_index[i], BelowFloat(tree.split_condition[i]),
                                 kids.value(), tree.default_left[i] != 0);
        !s.ok()) {
      return s;
    }
    work.emplace_back(kids.value() + 1, tree.right[i]);
    work.emplace_back(kids.value(), tree.left[i]);
  }
  return Status::Ok();
}

}  // namespace

Result<Forest> ImportXGBoost(const uint8_t* data, size_t size,
                             const XGBoostImportOptions& options) {
  const size_t budget = Budget(size, options.max_memory_bytes);
  Result<XGBoostModel> read = Status::Ok();
  {
    internal::JsonLimits limits;
    limits.max_bytes = budget;
    Result<internal::JsonValue> doc = internal::ParseJson(data, size, limits, "XGBoost JSON");
    if (!doc.ok()) return doc.status();
    read = internal::ReadXGBoostModel(doc.value(), budget);
  }  // the document is freed here
  if (!read.ok()) return read.status();
  const XGBoostModel& m = read.value();
  Result<Schema> schema = MakeSchema(m, options);
  if (!schema.ok()) return schema.status();
  ImportedModel record = MakeRecord(m);
  const size_t estimate = EstimateBytes(m, static_cast<size_t>(record.outputs));
  if (estimate > budget) {
    return Status::Error(
        StatusCode::kLimitExceeded,
        "XGBoost JSON: the imported model would take about " +
            std::to_string((estimate + kMiB - 1) / kMiB) + " MiB (" +
            std::to_string(m.trees.size()) + " trees, " + std::to_string(record.outputs) +
            " values per leaf), over the limit of " + std::to_string(budget / kMiB) +
            " MiB for this file (raise max_memory_bytes to allow it)");
  }
  LeafTable leaves = MakeLeaves(m, record);
  ForestBuilder builder;
  if (Status s = builder.SetSchema(std::move(schema).value()); !s.ok()) return s;
  if (Status s = builder.SetImported(std::move(record)); !s.ok()) return s;
  std::vector<uint32_t> row_base = std::move(leaves.row_base);
  if (Status s = builder.SetLeaves(std::move(leaves.values), std::move(leaves.votes)); !s.ok())
    return s;
  std::vector<uint8_t> seen;
  for (size_t t = 0; t < m.trees.size(); ++t) {
    if (Status s = WriteTree(m.trees[t], t, row_base[t], &builder, &seen); !s.ok()) return s;
  }
  return builder.Finish();
}

}  // namespace urnforest
