// `import` (an ONNX tree ensemble or XGBoost's JSON model becomes an urnforest model) and `calibrate` (an imported voting
// model's halting priors from unlabeled rows, with each rule's measured savings on those rows).
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/calibrate.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_rules.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_request.h"
#include "urnforest/serialize.h"
#include "urnforest/xgboost_import.h"

namespace urnforest::cli {
namespace {

// The fields every command that reports an imported forest prints.
void WriteImported(const Forest& f, Output& out) {
  const ImportedModel& m = *f.imported();
  out.json.Key("trees").Int(f.num_trees());
  out.json.Key("classes").StringArray(f.schema().class_names);
  out.json.Key("features").Int(f.num_features());
  out.json.Key("feature_names").BeginArray();
  for (const FeatureInfo& feature : f.schema().features) out.json.String(feature.name);
  out.json.EndArray();
  out.json.Key("kind").String(ImportedKindName(m.kind));
  out.json.Key("vote").String(VoteKindName(m.default_vote));
  out.json.Key("source").String(m.source);
  out.json.Key("nodes").Int(static_cast<int64_t>(f.num_nodes()));
  out.json.Key("calibrated").Bool(m.calibrated);
}

// The source model's file: --onnx FILE or --xgboost FILE (exactly one; the option names the format,
// so that a damaged file is reported by its own reader rather than guessed).
Result<std::pair<std::string, bool>> SourceFile(const Args& args) {
  if (args.Has("onnx") == args.Has("xgboost")) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "give the model to import as --onnx FILE.onnx or --xgboost FILE.json (one of them)");
  }
  const bool xgboost = args.Has("xgboost");
  Result<std::string> path = args.Required(xgboost ? "xgboost" : "onnx");
  if (!path.ok()) return path.status();
  return std::make_pair(path.value(), xgboost);
}

// The file's model imported with the names given (--features, --classes, --target).
Result<Forest> ImportFile(const Args& args, const std::string& path, bool xgboost) {
  std::vector<std::string> features, classes;
  if (args.Has("features")) {
    Result<std::vector<std::string>> names = args.List("features");
    if (!names.ok()) return names.status();
    features = names.value();
  }
  if (args.Has("classes")) {
    Result<std::vector<std::string>> names = args.List("classes");
    if (!names.ok()) return names.status();
    classes = names.value();
  }
  Result<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.value().data());
  Result<Forest> forest = Status::Ok();
  if (xgboost) {
    XGBoostImportOptions options;
    options.feature_names = std::move(features);
    options.class_names = std::move(classes);
    options.target_name = args.Get("target", options.target_name);
    forest = ImportXGBoost(data, bytes.value().size(), options);
  } else {
    OnnxImportOptions options;
    options.feature_names = std::move(features);
    options.class_names = std::move(classes);
    options.target_name = args.Get("target", options.target_name);
    forest = ImportOnnx(data, bytes.value().size(), options);
  }
  if (!forest.ok()) {
    Status s = forest.status();
    s.message = path + ": " + s.message;
    return s;
  }
  return forest;
}

}  // namespace

Status RunImport(int argc, char** argv, Output& out) {
  Result<Args> parsed =
      Args::Parse(argc, argv, 2, {"onnx", "xgboost", "out", "features", "classes", "target"}, {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::pair<std::string, bool>> source = SourceFile(args);
  if (!source.ok()) return source.status();
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return out_path.status();
  Result<Forest> forest = ImportFile(args, source.value().first, source.value().second);
  if (!forest.ok()) return forest.status();
  Status written = WriteFile(out_path.value(), SerializeForest(forest.value()));
  if (!written.ok()) return written;
  out.json.BeginObject();
  WriteImported(forest.value(), out);
  out.json.Key("out").String(out_path.value());
  out.json.EndObject();
  const ImportedModel& m = *forest.value().imported();
  out.text = "imported " + std::to_string(forest.value().num_trees()) + " trees (" +
             ImportedKindName(m.kind) + ", " + std::to_string(forest.value().num_classes()) + " classes, " +
             std::to_string(forest.value().num_features()) + " features" +
             (m.source.empty() ? std::string() : ", from " + m.source) + ") -> " + out_path.value() + "\n";
  return Status::Ok();
}

namespace {

/// The rules `calibrate` reports: the papers' rules (optimal is this library's own), then margin
/// for an imported forest (the margin rule is fitted on an imported forest's calibration rows).
std::vector<std::string> CalibrationRules(const Forest& forest) {
  std::vector<std::string> rules;
  for (const HaltingRuleTraits& traits : AllRuleTraits()) {
    if (traits.from_papers) rules.emplace_back(traits.name);
  }
  if (forest.imported() != nullptr) rules.push_back(kMarginRuleName);
  return rules;
}

/// Each rule's savings on the calibration rows, against the model's own (default) prediction: the
/// core's answer with compare (alpha1 on a soft model is its exact early exit). Writes one JSON
/// object per rule into the open array of `out` and one text line per rule that ran.
Status WriteRuleSavings(const Forest& forest, const PreparedRows& rows, double alpha, Output& out) {
  for (const std::string& rule : CalibrationRules(forest)) {
    out.json.BeginObject();
    out.json.Key("rule").String(rule);
    PredictRequest request;
    request.rule = rule;
    request.alpha = alpha;
    request.order = QueryOrder::kGeneration;
    request.compare = true;
    Result<PredictPlan> plan = PlanPredict(forest, request);
    if (!plan.ok()) return plan.status();
    // A table that cannot be built for this model is reported in the rule's entry.
    std::optional<Result<HaltingTable>> table;
    if (plan.value().path == PredictPath::kTableRule) {
      table.emplace(BuildForestTable(forest, plan.value().rule, plan.value().alpha));
      if (!table->ok()) {
        out.json.Key("error").String(table->status().ToString());
        out.json.EndObject();
        continue;
      }
    }
    const GivenTable given{table.has_value() ? &table->value() : nullptr, nullptr};
    Result<Prediction> halted = Predict(forest, rows, plan.value(), &given);
    if (!halted.ok()) return halted.status();
    out.json.Key("mean_trees").Double(halted.value().mean_trees);
    out.json.Key("disagreement").Double(halted.value().disagreement);
    out.json.EndObject();
    char line[96];
    std::snprintf(line, sizeof line, "%-9s %10.2f  %.4f\n", rule.c_str(), halted.value().mean_trees,
                  halted.value().disagreement);
    out.text += line;
  }
  return Status::Ok();
}

/// The report on the calibration rows: its fields in the open JSON object of `out`; its warnings
/// also on stderr in text mode ("urnforest calibrate: warning CODE: message").
void WriteCalibrationReport(const CalibrationReport& report, bool json_mode, Output& out) {
  out.json.Key("rows").Int(static_cast<int64_t>(report.rows));
  out.json.Key("distinct_rows").Int(static_cast<int64_t>(report.distinct_rows));
  out.json.Key("max_certifiable_alpha").Double(report.max_certifiable_alpha);
  out.json.Key("rows_needed").Int(static_cast<int64_t>(report.rows_needed));
  out.json.Key("warnings").BeginArray();
  for (const CalibrationWarning& warning : report.warnings) {
    const char* code = CalibrationWarningName(warning.code);
    out.json.BeginObject().Key("code").String(code).Key("message").String(warning.message).EndObject();
    if (!json_mode) std::fprintf(stderr, "urnforest calibrate: warning %s: %s\n", code, warning.message.c_str());
  }
  out.json.EndArray();
}

}  // namespace

Status RunCalibrate(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2, {"model", "data", "out", "alpha", URNFOREST_CSV_FORMAT_OPTIONS}, {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) return data_path.status();
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return out_path.status();
  Result<double> alpha = args.Real("alpha", kDefaultAlpha, -HUGE_VAL, HUGE_VAL);
  if (!alpha.ok()) return alpha.status();
  if (Status a = CheckAlpha(alpha.value()); !a.ok()) return OptionError("alpha", a);
  Result<Forest> loaded = LoadModel(model_path.value());
  if (!loaded.ok()) return loaded.status();
  Forest forest = std::move(loaded).value();
  CsvOptions csv;
  csv.schema = &forest.schema();
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  Result<Dataset> data = LoadCsv(data_path.value(), csv);
  if (!data.ok()) return data.status();
  Result<PreparedRows> rows = PrepareRows(forest, data.value());
  if (!rows.ok()) return rows.status();
  Result<CalibrationReport> report =
      CalibrateForestReport(&forest, rows.value().values.data(), rows.value().num_rows, alpha.value());
  if (!report.ok()) return report.status();
  Status written = WriteFile(out_path.value(), SerializeForest(forest));
  if (!written.ok()) return written;

  out.json.BeginObject();
  if (forest.imported() != nullptr) {
    WriteImported(forest, out);
  } else {  // trained here: the calibration rows sit beside the out-of-bag votes
    out.json.Key("trees").Int(forest.num_trees());
    out.json.Key("classes").StringArray(forest.schema().class_names);
    out.json.Key("features").Int(forest.num_features());
    out.json.Key("kind").String("trained");
    out.json.Key("calibrated").Bool(true);
  }
  WriteCalibrationReport(report.value(), args.Flag("json"), out);
  out.json.Key("alpha").Double(alpha.value());
  out.text = "calibrated on " + std::to_string(rows.value().num_rows) + " rows -> " + out_path.value() +
             "\nrule      mean trees  disagreement (alpha " + std::to_string(alpha.value()) + ")\n";
  out.json.Key("rules").BeginArray();
  if (Status saved = WriteRuleSavings(forest, rows.value(), alpha.value(), out); !saved.ok()) return saved;
  out.json.EndArray();
  out.json.Key("out").String(out_path.value());
  out.json.EndObject();
  return Status::Ok();
}

}  // namespace urnforest::cli
