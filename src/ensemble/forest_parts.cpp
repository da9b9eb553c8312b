// Joining parts of one bagging or random-forest run (TrainForestPart) into the whole forest, byte
// for byte the forest Train grows: trees are appended in tree order and out-of-bag votes added.
#include <string>
#include <vector>

#include "ensemble/forest_access.h"
#include "ensemble/grow_bagged.h"
#include "urnforest/forest.h"
#include "urnforest/train.h"

namespace urnforest {

using internal::ForestAccess;
namespace {

Status Unfit(size_t part, const std::string& why) {
  return Status::Error(StatusCode::kInvalidArgument,
                       "part " + std::to_string(part) + " of the forest " + why);
}

bool SameSchema(const Schema& a, const Schema& b) {
  if (a.target_name != b.target_name || a.class_names != b.class_names ||
      a.features.size() != b.features.size()) {
    return false;
  }
  for (size_t f = 0; f < a.features.size(); ++f) {
    const FeatureInfo& x = a.features[f];
    const FeatureInfo& y = b.features[f];
    if (x.name != y.name || x.type != y.type || x.categories != y.categories) return false;
  }
  return true;
}

// The options of one run, but num_trees (which a part sets to its own tree count).
bool SameRun(const TrainOptions& a, const TrainOptions& b) {
  return a.ensemble == b.ensemble && a.mtry == b.mtry && a.mtry_rule == b.mtry_rule &&
         a.max_depth == b.max_depth && a.min_leaf == b.min_leaf && a.seed == b.seed &&
         a.pruning.mode == b.pruning.mode && a.pruning.cv_folds == b.pruning.cv_folds &&
         a.pruning.se_rule == b.pruning.se_rule;
}

}  // namespace

Result<Forest> MergeForestParts(const std::vector<const Forest*>& parts) {
  if (parts.empty() || parts[0] == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "no parts of a forest to merge");
  }
  const Forest& head = *parts[0];
  const EnsembleKind kind = head.options().ensemble;
  if (kind != EnsembleKind::kRandomForest && kind != EnsembleKind::kBagging) {
    return Unfit(0, "is not a part of a random forest or bagging run");
  }
  uint32_t next = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Forest* part = parts[i];
    if (part == nullptr) return Unfit(i, "is missing");
    if (!SameRun(part->options(), head.options())) return Unfit(i, "was trained with other options");
    if (!SameSchema(part->schema(), head.schema())) return Unfit(i, "has other columns or classes");
    if (part->train_labels() != head.train_labels()) return Unfit(i, "was trained on other rows");
    if (part->oob_votes().size() != head.oob_votes().size() || !part->stored_tables().empty()) {
      return Unfit(i, "is not a part of a training run");
    }
    for (int32_t t = 0; t < part->num_trees(); ++t) {
      if (part->SourceTree(t) != next) {
        return Unfit(i, "holds tree " + std::to_string(part->SourceTree(t)) + " where tree " +
                            std::to_string(next) + " comes next (give the parts in tree order)");
      }
      ++next;
    }
  }
  if (next > static_cast<uint32_t>(TrainOptions::kMaxTrees)) {
    return Status::Error(StatusCode::kInvalidArgument, "the merged forest exceeds 100,000 trees");
  }
  Forest out;
  ForestAccess::schema(out) = head.schema();
  ForestAccess::options(out) = head.options();
  ForestAccess::options(out).num_trees = static_cast<int32_t>(next);
  ForestAccess::RebuildCaches(out);
  ForestAccess::train_labels(out) = head.train_labels();
  std::vector<uint32_t>& oob = ForestAccess::oob_votes(out);
  oob.assign(head.oob_votes().size(), 0u);
  ForestAccess::tree_roots(out).reserve(next);
  for (const Forest* part : parts) {
    uint32_t base = 0;
    const Status status = internal::AppendNodeTable(part->node_table(), &ForestAccess::table(out), &base);
    if (!status.ok()) return status;
    for (uint32_t root : part->tree_roots()) ForestAccess::tree_roots(out).push_back(root + base);
    for (size_t j = 0; j < oob.size(); ++j) oob[j] += part->oob_votes()[j];
  }
  return out;
}

}  // namespace urnforest
