// CLI commands on forests: info (train: command_train.cpp; predict: command_predict.cpp).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/serialize.h"
#include "urnforest/voteboost.h"

namespace urnforest::cli {
namespace {

void WriteClassNames(JsonWriter& json, const Schema& schema) {
  json.StringArray(schema.class_names);
}

}  // namespace

/// "stored_tables": [{rule, alpha, trees, bytes}] and one text line per table.
void WriteStoredTables(const Forest& f, Output& out) {
  out.json.Key("stored_tables").BeginArray();
  for (const HaltingTable& table : f.stored_tables()) {
    const size_t bytes = table.ToBytes().size();
    out.json.BeginObject();
    out.json.Key("rule").String(RuleName(table.rule()));
    out.json.Key("alpha").Double(table.alpha());
    out.json.Key("trees").Int(table.num_trees());
    out.json.Key("bytes").Int(static_cast<int64_t>(bytes));
    out.json.EndObject();
    char line[160];
    std::snprintf(line, sizeof(line), "stored table: %s alpha %.10g, %d trees, %zu bytes\n",
                  RuleName(table.rule()), table.alpha(), table.num_trees(), bytes);
    out.text += line;
  }
  out.json.EndArray();
}

Status RunInfo(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2, {"model"}, {"json"});
  if (!parsed.ok()) return parsed.status();
  Result<std::string> model_path = parsed.value().Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  const Forest& f = forest.value();
  const Schema& schema = f.schema();

  out.json.BeginObject();
  out.json.Key("trees").Int(f.num_trees());
  out.json.Key("classes");
  WriteClassNames(out.json, schema);
  out.json.Key("features").Int(f.num_features());
  out.json.Key("target").String(schema.target_name);
  out.json.Key("feature_names").BeginArray();
  for (const FeatureInfo& feature : schema.features) out.json.String(feature.name);
  out.json.EndArray();
  out.json.Key("feature_types").BeginArray();
  for (const FeatureInfo& feature : schema.features) {
    out.json.String(feature.type == FeatureType::kCategorical ? "categorical" : "numeric");
  }
  out.json.EndArray();
  out.json.Key("ensemble").String(EnsembleKindName(f.options().ensemble));
  out.json.Key("mtry").Int(ResolveMtry(f.options(), f.num_features()));
  out.json.Key("seed").Int(static_cast<int64_t>(f.options().seed));
  out.json.Key("train_rows").Int(static_cast<int64_t>(f.train_labels().size()));
  out.json.Key("oob_error").Double(f.oob_error());
  out.json.Key("nodes").Int(static_cast<int64_t>(f.num_nodes()));
  if (const ImportedModel* m = f.imported()) {
    out.json.Key("imported").BeginObject();
    out.json.Key("kind").String(ImportedKindName(m->kind));
    out.json.Key("vote").String(VoteKindName(m->default_vote));
    out.json.Key("source").String(m->source);
    out.json.Key("calibrated").Bool(m->calibrated);
    out.json.EndObject();
  }
  WriteStoredTables(f, out);
  out.json.EndObject();

  char line[256];
  std::snprintf(line, sizeof(line),
                "%s forest: %d trees, %zu nodes, %d features, %d classes, OOB error %.4f\n",
                EnsembleKindName(f.options().ensemble), f.num_trees(), f.num_nodes(),
                f.num_features(), f.num_classes(), f.oob_error());
  out.text = line + out.text;
  return Status::Ok();
}

}  // namespace urnforest::cli
