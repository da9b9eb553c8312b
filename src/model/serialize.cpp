// Writes the versioned binary model format (src/model/model_format.h).
#include "urnforest/serialize.h"

#include <cstring>
#include <vector>

#include "base/byte_io.h"
#include "base/crc32.h"
#include "model/calibration_section.h"
#include "model/stratified_section.h"
#include "model/imported_label_rules.h"
#include "model/model_format.h"
#include "urnforest/forest.h"

namespace urnforest {

using namespace model_format;  // the format's tags and constants

namespace {

void WriteSection(std::vector<uint8_t>* out, uint32_t tag, const std::vector<uint8_t>& body) {
  internal::ByteWriter w(out);
  w.U32(tag);
  w.U64(body.size());
  out->insert(out->end(), body.begin(), body.end());
}

}  // namespace

std::vector<uint8_t> SerializeForest(const Forest& forest) {
  std::vector<uint8_t> payload;
  std::vector<uint8_t> body;
  internal::ByteWriter w(&body);

  const Schema& schema = forest.schema();
  w.Str(schema.target_name);
  w.U32(static_cast<uint32_t>(schema.class_names.size()));
  for (const std::string& name : schema.class_names) w.Str(name);
  w.U32(static_cast<uint32_t>(schema.features.size()));
  for (const FeatureInfo& f : schema.features) {
    w.Str(f.name);
    w.U8(static_cast<uint8_t>(f.type));
    w.U32(static_cast<uint32_t>(f.categories.size()));
    for (const std::string& c : f.categories) w.Str(c);
  }
  WriteSection(&payload, kSchema, body);

  body.clear();
  const TrainOptions& o = forest.options();
  w.U8(static_cast<uint8_t>(o.ensemble));
  w.I32(o.num_trees);
  w.I32(o.mtry);
  w.U8(static_cast<uint8_t>(o.mtry_rule));
  w.I32(o.max_depth);
  w.I32(o.min_leaf);
  w.U64(o.seed);
  WriteSection(&payload, kOptions, body);

  body.clear();
  w.U64(forest.node_table().nodes.size());
  for (const Forest::Node& n : forest.node_table().nodes) {
    w.I32(n.feature);
    w.F32(n.threshold);
    w.U32(n.child_or_class);
    w.U32(n.aux);
  }
  WriteSection(&payload, kNodes, body);

  body.clear();
  w.U64(forest.node_table().category_bits.size());
  for (uint32_t word : forest.node_table().category_bits) w.U32(word);
  WriteSection(&payload, kCategoryBits, body);

  body.clear();
  w.U64(forest.tree_roots().size());
  for (uint32_t root : forest.tree_roots()) w.U32(root);
  WriteSection(&payload, kRoots, body);

  body.clear();
  w.U64(forest.train_labels().size());
  for (int32_t label : forest.train_labels()) w.I32(label);
  WriteSection(&payload, kLabels, body);

  body.clear();
  w.U64(forest.train_labels().size());
  w.U32(static_cast<uint32_t>(forest.num_classes()));
  for (uint32_t v : forest.oob_votes()) w.U32(v);
  WriteSection(&payload, kOobVotes, body);

  if (o.ensemble == EnsembleKind::kAdaBoost) {
    body.clear();
    w.U8(static_cast<uint8_t>(o.boosting));
    w.U64(forest.tree_weights().size());
    for (double weight : forest.tree_weights()) {
      uint64_t bits;
      std::memcpy(&bits, &weight, sizeof bits);
      w.U64(bits);
    }
    WriteSection(&payload, kBoosting, body);
  }
  if (!forest.source_trees().empty()) {
    body.clear();
    w.U64(forest.source_trees().size());
    for (uint32_t id : forest.source_trees()) w.U32(id);
    WriteSection(&payload, kSourceTrees, body);
  }
  if (o.ensemble == EnsembleKind::kVoteBoost) {
    body.clear();
    for (double x : {o.voteboost.a, o.voteboost.b}) {
      uint64_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      w.U64(bits);
    }
    w.U8(static_cast<uint8_t>(o.voteboost.base));
    WriteSection(&payload, kVoteBoost, body);
  }
  if (PrunesTrees(o)) {
    body.clear();
    w.U8(static_cast<uint8_t>(o.pruning.mode));
    w.I32(o.pruning.cv_folds);
    uint64_t bits;
    std::memcpy(&bits, &o.pruning.se_rule, sizeof bits);
    w.U64(bits);
    WriteSection(&payload, kTreePruning, body);
  }
  if (const ImportedModel* imported = forest.imported()) {
    body.clear();
    w.U8(static_cast<uint8_t>(imported->kind));
    w.U8(static_cast<uint8_t>(imported->transform));
    w.U8(imported->single_score ? 1 : 0);
    w.U8(static_cast<uint8_t>(imported->default_vote));
    w.U8(imported->calibrated ? 1 : 0);
    w.I32(imported->outputs);
    w.U32(static_cast<uint32_t>(imported->base_values.size()));
    for (double b : imported->base_values) w.F64(b);
    w.U64(imported->leaf_values.size());
    for (double v : imported->leaf_values) w.F64(v);
    w.Str(imported->source);
    const MarginCalibration& margin = imported->margin;
    w.U32(margin.rows);
    w.F64(margin.scale);
    w.U32(static_cast<uint32_t>(margin.lambdas.size()));
    for (size_t i = 0; i < margin.lambdas.size(); ++i) {
      w.F64(margin.lambdas[i]);
      w.U32(margin.wrong[i]);
      w.F64(margin.mean_trees[i]);
    }
    internal::WriteImportedLabelRules(*imported, &w);
    WriteSection(&payload, kImported, body);
  }
  if (!forest.stored_tables().empty()) {
    body.clear();
    w.U32(static_cast<uint32_t>(forest.stored_tables().size()));
    for (const HaltingTable& table : forest.stored_tables()) {
      const std::vector<uint8_t> bytes = table.ToBytes();
      w.U64(bytes.size());
      body.insert(body.end(), bytes.begin(), bytes.end());
    }
    WriteSection(&payload, kHaltingTables, body);
  }
  if (internal::HasCalibrationSection(forest)) {
    body.clear();
    internal::WriteCalibrationSection(forest, &body);
    WriteSection(&payload, internal::kCalibrationRowsTag, body);
  }
  if (internal::HasStratifiedSection(forest)) {
    body.clear();
    internal::WriteStratifiedSection(forest, &body);
    WriteSection(&payload, internal::kStratifiedTag, body);
  }

  std::vector<uint8_t> out;
  out.reserve(kHeaderBytes + payload.size());
  internal::ByteWriter header(&out);
  for (char c : {'U', 'R', 'N', 'F'}) header.U8(static_cast<uint8_t>(c));
  header.U32(kFormatVersion);
  header.U64(payload.size());
  header.U32(internal::Crc32(payload.data(), payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

}  // namespace urnforest
