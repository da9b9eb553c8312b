// CLI commands on forests: train, info (predict: command_predict.cpp).
#include <chrono>
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
#include "voteboost_args.h"

namespace urnforest::cli {
namespace {

void WriteClassNames(JsonWriter& json, const Schema& schema) {
  json.StringArray(schema.class_names);
}

/// One `rule:alpha` item of --store-tables.
struct TableSpec {
  HaltingRule rule;
  double alpha;
};

Result<std::vector<TableSpec>> ParseTableSpecs(const Args& args) {
  std::vector<TableSpec> specs;
  if (!args.Has("store-tables")) return specs;
  Result<std::vector<std::string>> items = args.List("store-tables");
  if (!items.ok()) return items.status();
  for (const std::string& item : items.value()) {
    const size_t colon = item.find(':');
    auto bad = [&item]() {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --store-tables: '" + item +
                               "' is not rule:alpha (e.g. hyper:0.99)");
    };
    if (colon == std::string::npos) return bad();
    Result<HaltingRule> rule = ParseRule(item.substr(0, colon));
    if (!rule.ok()) return rule.status();
    const std::string alpha_text = item.substr(colon + 1);
    double alpha = 0.0;
    if (!ParsePlainReal(alpha_text, &alpha) || !CheckAlpha(alpha).ok()) return bad();
    specs.push_back({rule.value(), alpha});
  }
  return specs;
}

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

}  // namespace

Status RunTrain(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2,
      {"data", "target", "ensemble", "boosting", "trees", "mtry", "max-depth", "min-leaf", "seed",
       "class-order", "out", "store-tables", "threads", URNFOREST_BASE_LEARNER_OPTIONS,
       URNFOREST_CSV_FORMAT_OPTIONS},
      {"json", "target-categorical"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) return data_path.status();
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return out_path.status();

  CsvOptions csv;
  csv.target = args.Get("target", "");
  csv.target_categorical = args.Flag("target-categorical");
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  const std::string order = args.Get("class-order", "sorted");
  if (order == "sorted") {
    csv.class_order = ClassOrder::kSorted;
  } else if (order == "first-seen") {
    csv.class_order = ClassOrder::kFirstSeen;
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --class-order must be sorted or first-seen, got '" + order + "'");
  }

  TrainOptions options;
  Result<EnsembleKind> ensemble =
      ParseOption(args, "ensemble", options.ensemble, ParseEnsembleKind);
  if (!ensemble.ok()) return ensemble.status();
  options.ensemble = ensemble.value();
  if (args.Has("boosting") && options.ensemble != EnsembleKind::kAdaBoost) {
    return Status::Error(StatusCode::kInvalidArgument, "option --boosting needs --ensemble adaboost");
  }
  Result<BoostingVariant> boosting =
      ParseOption(args, "boosting", options.boosting, ParseBoostingVariant);
  if (!boosting.ok()) return boosting.status();
  options.boosting = boosting.value();
  Result<int64_t> trees = args.Int("trees", options.num_trees, 1, TrainOptions::kMaxTrees);
  if (!trees.ok()) return trees.status();
  options.num_trees = static_cast<int32_t>(trees.value());
  Result<int64_t> mtry = args.Int("mtry", options.mtry, 0, DatasetLimits::kMaxFeatures);
  if (!mtry.ok()) return mtry.status();
  options.mtry = static_cast<int32_t>(mtry.value());
  Result<int64_t> depth = args.Int("max-depth", options.max_depth, 0, 100000);
  if (!depth.ok()) return depth.status();
  options.max_depth = static_cast<int32_t>(depth.value());
  Result<int64_t> min_leaf = args.Int("min-leaf", options.min_leaf, 1, DatasetLimits::kMaxRows);
  if (!min_leaf.ok()) return min_leaf.status();
  options.min_leaf = static_cast<int32_t>(min_leaf.value());
  Result<int64_t> seed = args.Int("seed", static_cast<int64_t>(options.seed), 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  options.seed = static_cast<uint64_t>(seed.value());
  bool emphasis_by_cv = false;
  Status parsed_base = ParseBaseLearnerArgs(args, &options, &emphasis_by_cv);
  if (!parsed_base.ok()) return parsed_base;

  Result<std::vector<TableSpec>> table_specs = ParseTableSpecs(args);
  if (!table_specs.ok()) return table_specs.status();

  Result<Dataset> data = LoadCsv(data_path.value(), csv);
  if (!data.ok()) return data.status();

  const auto start = std::chrono::steady_clock::now();
  EmphasisSelection selection;
  if (emphasis_by_cv) {
    EmphasisCvOptions cv;
    cv.seed = options.seed;
    Result<EmphasisSelection> chosen = SelectEmphasisByCV(data.value(), options, cv);
    if (!chosen.ok()) return chosen.status();
    selection = chosen.value();
    options.voteboost.a = selection.chosen;
    options.voteboost.b = 0.0;
  }
  TrainExecution execution;
  Result<int64_t> threads = args.Int("threads", 0, 0, 4096);
  if (!threads.ok()) return threads.status();
  execution.threads = static_cast<int32_t>(threads.value());
  Result<Forest> forest = Train(data.value(), options, {}, execution);
  const auto stop = std::chrono::steady_clock::now();
  if (!forest.ok()) return forest.status();
  const double train_ms = std::chrono::duration<double, std::milli>(stop - start).count();
  for (const TableSpec& spec : table_specs.value()) {
    Status stored = StoreForestTable(&forest.value(), spec.rule, spec.alpha);
    if (!stored.ok()) return stored;
  }

  std::vector<uint8_t> bytes = SerializeForest(forest.value());
  Status written = WriteFile(out_path.value(), bytes);
  if (!written.ok()) return written;

  const Forest& f = forest.value();
  out.json.BeginObject();
  out.json.Key("trees").Int(f.num_trees());
  out.json.Key("classes");
  WriteClassNames(out.json, f.schema());
  out.json.Key("features").Int(f.num_features());
  out.json.Key("rows").Int(static_cast<int64_t>(data.value().num_rows()));
  out.json.Key("oob_error").Double(f.oob_error());
  out.json.Key("train_ms").Double(train_ms);
  out.json.Key("ensemble").String(EnsembleKindName(f.options().ensemble));
  out.json.Key("seed").Int(static_cast<int64_t>(f.options().seed));
  out.json.Key("mtry").Int(ResolveMtry(f.options(), f.num_features()));
  out.json.Key("nodes").Int(static_cast<int64_t>(f.num_nodes()));
  out.json.Key("model_bytes").Int(static_cast<int64_t>(bytes.size()));
  if (f.options().ensemble == EnsembleKind::kAdaBoost) {
    out.json.Key("boosting").String(BoostingVariantName(f.options().boosting));
    out.json.Key("tree_weights").DoubleArray(f.tree_weights());
  }
  if (PrunesTrees(f.options())) {
    out.json.Key("tree_pruning").String("cv");
    out.json.Key("tree_folds").Int(f.options().pruning.cv_folds);
    out.json.Key("tree_se").Double(f.options().pruning.se_rule);
  }
  if (f.options().ensemble == EnsembleKind::kVoteBoost) {
    out.json.Key("emphasis_a").Double(f.options().voteboost.a);
    out.json.Key("emphasis_b").Double(f.options().voteboost.ResolvedB());
    out.json.Key("base").String(VoteBoostBaseName(f.options().voteboost.base));
    if (emphasis_by_cv) {
      out.json.Key("emphasis_grid").DoubleArray(selection.grid);
      out.json.Key("emphasis_cv_error").DoubleArray(selection.cv_error);
    }
  }
  if (!f.stored_tables().empty()) WriteStoredTables(f, out);
  out.json.Key("out").String(out_path.value());
  out.json.EndObject();

  char line[256];
  std::snprintf(line, sizeof(line),
                "trained %d trees on %zu rows x %d features (%d classes) in %.1f ms\n"
                "OOB error %.4f; model %zu bytes -> %s\n",
                f.num_trees(), data.value().num_rows(), f.num_features(), f.num_classes(), train_ms,
                f.oob_error(), bytes.size(), out_path.value().c_str());
  out.text = line + out.text;
  return Status::Ok();
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
    out.json.Key("kind").String(m->kind == ImportedKind::kVoting ? "voting" : "additive");
    out.json.Key("vote").String(m->default_vote == VoteKind::kSoft ? "soft" : "hard");
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
