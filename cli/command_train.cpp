// CLI command `train`: a CSV file and the learner options in, a model file and its summary out.
// The options are parsed into the core's TrainRequest, which the core checks and trains (the
// emphasis chosen by cross-validation first when asked).
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/alpha.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/serialize.h"
#include "urnforest/train_request.h"
#include "voteboost_args.h"

namespace urnforest::cli {
namespace {

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

/// The CSV reading options of `train`: --target, --target-categorical, --class-order, the format.
Result<CsvOptions> TrainCsvOptions(const Args& args) {
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
  return csv;
}

/// The learner options of `train`: ParseLearnerArgs, --min-leaf and --seed.
Result<TrainRequest> TrainRequestOf(const Args& args) {
  TrainRequest request;
  Status parsed = ParseLearnerArgs(args, &request);
  if (!parsed.ok()) return parsed;
  TrainOptions& options = request.options;
  Result<int64_t> min_leaf = args.Int("min-leaf", options.min_leaf, 1, TrainOptions::kMaxMinLeaf);
  if (!min_leaf.ok()) return min_leaf.status();
  options.min_leaf = static_cast<int32_t>(min_leaf.value());
  Result<int64_t> seed = args.Int("seed", static_cast<int64_t>(options.seed), 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  options.seed = static_cast<uint64_t>(seed.value());
  return request;
}

/// The summary of a trained forest: `train --json`'s document and the text's first lines.
void WriteTrainSummary(const TrainedForest& trained, const Dataset& data, double train_ms,
                       size_t model_bytes, const std::string& out_path, Output& out) {
  const Forest& f = trained.forest;
  out.json.BeginObject();
  out.json.Key("trees").Int(f.num_trees());
  out.json.Key("classes").StringArray(f.schema().class_names);
  out.json.Key("features").Int(f.num_features());
  out.json.Key("rows").Int(static_cast<int64_t>(data.num_rows()));
  out.json.Key("oob_error").Double(f.oob_error());
  out.json.Key("train_ms").Double(train_ms);
  out.json.Key("ensemble").String(EnsembleKindName(f.options().ensemble));
  out.json.Key("seed").Int(static_cast<int64_t>(f.options().seed));
  out.json.Key("mtry").Int(ResolveMtry(f.options(), f.num_features()));
  out.json.Key("nodes").Int(static_cast<int64_t>(f.num_nodes()));
  out.json.Key("model_bytes").Int(static_cast<int64_t>(model_bytes));
  if (f.options().ensemble == EnsembleKind::kAdaBoost) {
    out.json.Key("boosting").String(BoostingVariantName(f.options().boosting));
    out.json.Key("tree_weights").DoubleArray(f.tree_weights());
  }
  if (PrunesTrees(f.options())) {
    out.json.Key("tree_pruning").String(TreePruningName(TreePruning::kCostComplexityCV));
    out.json.Key("tree_folds").Int(f.options().pruning.cv_folds);
    out.json.Key("tree_se").Double(f.options().pruning.se_rule);
  }
  if (f.options().ensemble == EnsembleKind::kVoteBoost) {
    out.json.Key("emphasis_a").Double(f.options().voteboost.a);
    out.json.Key("emphasis_b").Double(f.options().voteboost.ResolvedB());
    out.json.Key("base").String(VoteBoostBaseName(f.options().voteboost.base));
    if (trained.emphasis_selected) {
      out.json.Key("emphasis_grid").DoubleArray(trained.emphasis.grid);
      out.json.Key("emphasis_cv_error").DoubleArray(trained.emphasis.cv_error);
    }
  }
  if (!f.stored_tables().empty()) WriteStoredTables(f, out);
  out.json.Key("out").String(out_path);
  out.json.EndObject();

  char line[256];
  std::snprintf(line, sizeof(line),
                "trained %d trees on %zu rows x %d features (%d classes) in %.1f ms\n"
                "OOB error %.4f; model %zu bytes -> %s\n",
                f.num_trees(), data.num_rows(), f.num_features(), f.num_classes(), train_ms,
                f.oob_error(), model_bytes, out_path.c_str());
  out.text = line + out.text;
}

}  // namespace

Status RunTrain(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2,
      {"data", "target", "min-leaf", "seed", "class-order", "out", "store-tables", "threads",
       URNFOREST_LEARNER_OPTIONS, URNFOREST_CSV_FORMAT_OPTIONS},
      {"json", "target-categorical"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) return data_path.status();
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return out_path.status();
  Result<CsvOptions> csv = TrainCsvOptions(args);
  if (!csv.ok()) return csv.status();
  Result<TrainRequest> request = TrainRequestOf(args);
  if (!request.ok()) return request.status();
  Result<std::vector<TableSpec>> table_specs = ParseTableSpecs(args);
  if (!table_specs.ok()) return table_specs.status();
  TrainExecution execution;
  Result<int64_t> threads = args.Int("threads", 0, 0, 4096);
  if (!threads.ok()) return threads.status();
  execution.threads = static_cast<int32_t>(threads.value());

  Result<Dataset> data = LoadCsv(data_path.value(), csv.value());
  if (!data.ok()) return data.status();
  const auto start = std::chrono::steady_clock::now();
  Result<TrainedForest> trained =
      TrainWithEmphasisSelection(data.value(), request.value(), {}, execution);
  const auto stop = std::chrono::steady_clock::now();
  if (!trained.ok()) return trained.status();
  const double train_ms = std::chrono::duration<double, std::milli>(stop - start).count();
  for (const TableSpec& spec : table_specs.value()) {
    Status stored = StoreForestTable(&trained.value().forest, spec.rule, spec.alpha);
    if (!stored.ok()) return stored;
  }
  std::vector<uint8_t> bytes = SerializeForest(trained.value().forest);
  Status written = WriteFile(out_path.value(), bytes);
  if (!written.ok()) return written;
  WriteTrainSummary(trained.value(), data.value(), train_ms, bytes.size(), out_path.value(), out);
  return Status::Ok();
}

}  // namespace urnforest::cli
