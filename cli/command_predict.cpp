// CLI command predict: options -> PredictRequest -> the core's Predict -> one JSON document. The core
// chooses the path, refuses what does not apply and computes every figure of the answer.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/calibrate.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/imported_model.h"
#include "urnforest/predict_request.h"

namespace urnforest::cli {
namespace {

// The request predict's options describe; the core checks it (CheckPredictRequest).
Result<PredictRequest> RequestFromArgs(const Args& args) {
  PredictRequest request;
  if (args.Has("rule")) {
    request.rule = args.Get("rule", "");
    if (request.rule.empty()) return Status::Error(StatusCode::kInvalidArgument, "option --rule: no rule named");
  }
  if (args.Has("alpha")) {
    Result<double> alpha = args.Real("alpha", kDefaultAlpha, -HUGE_VAL, HUGE_VAL);
    if (!alpha.ok()) return alpha.status();
    if (Status range = CheckAlpha(alpha.value()); !range.ok()) return OptionError("alpha", range);
    request.alpha = alpha.value();
  }
  if (args.Has("delta")) {
    Result<double> delta = args.Real("delta", kDefaultDelta, -HUGE_VAL, HUGE_VAL);
    if (!delta.ok()) return delta.status();
    if (Status range = CheckDelta(delta.value()); !range.ok()) return OptionError("delta", range);
    request.delta = delta.value();
  }
  Result<LpObjective> objective = ParseOption(args, "objective", LpObjective::kMinimean, ParseLpObjective);
  if (!objective.ok()) return objective.status();
  if (args.Has("objective")) request.objective = objective.value();
  Result<QueryOrder> order = ParseOption(args, "order", QueryOrder::kGeneration, ParseQueryOrder);
  if (!order.ok()) return order.status();
  if (args.Has("order")) request.order = order.value();
  if (args.Has("seed")) {
    Result<int64_t> seed = args.Int("seed", 1, 0, INT64_MAX);
    if (!seed.ok()) return seed.status();
    request.seed = static_cast<uint64_t>(seed.value());
  }
  Result<VoteKind> vote = ParseOption(args, "vote", VoteKind::kHard, ParseVoteKind);
  if (!vote.ok()) return vote.status();
  if (args.Has("vote")) request.vote = vote.value();
  request.compare = args.Flag("compare");
  request.probabilities = args.Flag("proba");
  // Large batches go over every core by default (PredictExecution: parts of at least 16,384 rows);
  // the answer does not depend on it.
  Result<int64_t> threads = args.Int("threads", 0, 0, 4096);
  if (!threads.ok()) return threads.status();
  request.execution.threads = static_cast<int32_t>(threads.value());
  return request;
}

// Rule auto's certificate as predict's "certificate" object (docs/halting.md, "Certified halting").
void WriteCertificate(const Certificate& c, JsonWriter& json) {
  json.Key("certificate").BeginObject();
  json.Key("strategy").String(c.strategy);
  json.Key("parameter").Double(c.parameter);
  json.Key("certified").Bool(c.certified);
  json.Key("bound").Double(c.bound);
  json.Key("alpha").Double(c.alpha);
  json.Key("delta").Double(c.delta);
  json.Key("fit_rows").Int(c.fit_rows);
  json.Key("certify_rows").Int(c.certify_rows);
  json.Key("reason").String(c.reason);
  json.Key("method").String(c.method);
  json.Key("rows_needed");
  if (c.rows_needed.has_value()) {
    json.Int(*c.rows_needed);
  } else {
    json.Null();
  }
  json.EndObject();
}

// Rule auto's certificate as comment lines of predict's text form (after the labels, like the
// accuracy): what was chosen and how far it is certified, or why nothing was.
std::string CertificateText(const Certificate& c) {
  char line[256];
  if (c.certified) {
    std::snprintf(line, sizeof line, "# certificate: %s %.6g, disagreement <= %.6g (alpha %.6g) with probability >= %.6g\n",
                  c.strategy.c_str(), c.parameter, c.bound, c.alpha, 1.0 - c.delta);
  } else {
    std::snprintf(line, sizeof line, "# certificate: none (exact exit, every answer the full vote's) at alpha %.6g, delta %.6g\n",
                  c.alpha, c.delta);
  }
  std::string out = line;
  std::snprintf(line, sizeof line, "# certificate rows: %lld fit, %lld certify\n", static_cast<long long>(c.fit_rows),
                static_cast<long long>(c.certify_rows));
  out += line;
  if (!c.method.empty()) out += "# certificate method: " + c.method + "\n";
  if (!c.reason.empty()) out += "# certificate reason: " + c.reason + "\n";
  return out;
}

// The answer's per-row arrays and figures as predict's JSON fields (and the text: one label per line).
void WritePrediction(const Forest& f, const Dataset& d, const Prediction& p, const PredictRequest& request,
                     const PredictPlan& plan, double predict_ms, Output& out) {
  std::vector<std::string> names;
  names.reserve(p.labels.size());
  for (int32_t label : p.labels) names.push_back(f.schema().class_names[label]);
  out.json.BeginObject();
  out.json.Key("rows").Int(static_cast<int64_t>(d.num_rows()));
  out.json.Key("labels").StringArray(names);
  const std::vector<uint32_t>& votes = p.Halted() ? p.full_votes : p.votes;
  if ((!p.Halted() || request.compare) && (!votes.empty() || d.num_rows() == 0)) out.json.Key("votes").IntArray(votes);
  if (f.imported() != nullptr || request.vote.has_value()) out.json.Key("vote").String(VoteKindName(p.vote));
  if (request.probabilities) {
    // One array of class probabilities per row, classes in the model's order (docs/api.md).
    const size_t k = static_cast<size_t>(f.num_classes());
    out.json.Key("probabilities").BeginArray();
    for (size_t r = 0; r < p.labels.size(); ++r) {
      out.json.BeginArray();
      for (size_t c = 0; c < k; ++c) out.json.Double(p.probabilities[r * k + c]);
      out.json.EndArray();
    }
    out.json.EndArray();
  }
  out.json.Key("predict_ms").Double(predict_ms);
  if (p.Halted()) {
    out.json.Key("rule").String(PlannedRuleName(plan));
    out.json.Key("table_source").String(TableSourceName(p.table_source));
    if (p.path == PredictPath::kMargin) out.json.Key("lambda").Double(p.lambda);  // +inf prints null
    out.json.Key("trees_used").IntArray(p.trees_used);
    out.json.Key("mean_trees").Double(p.mean_trees);
    if (request.compare) out.json.Key("disagreement").Double(p.disagreement);
    out.json.Key("confidence").DoubleArray(p.confidence);
    out.json.Key("halted_ms").Double(predict_ms);
    out.json.Key("table_ms").Double(p.table_ms);
    out.json.Key("path").String(PredictPathName(p.path));
    if (p.certificate.has_value()) WriteCertificate(*p.certificate, out.json);
  }
  for (const std::string& name : names) out.text += name + "\n";
  if (p.certificate.has_value()) out.text += CertificateText(*p.certificate);
  if (d.has_labels()) {
    size_t correct = 0;
    for (size_t r = 0; r < d.num_rows(); ++r) correct += d.labels()[r] == p.labels[r];
    const double accuracy = d.num_rows() ? static_cast<double>(correct) / d.num_rows() : 0.0;
    out.json.Key("accuracy").Double(accuracy);
    char line[64];
    std::snprintf(line, sizeof(line), "# accuracy %.4f\n", accuracy);
    out.text += line;
  }
  out.json.EndObject();
}

// --calibration ROWS.csv: calibrates the loaded forest on those unlabeled rows in this run before
// predicting (as `calibrate` would, without writing a model file).
Status CalibrateFromArgs(const Args& args, const CsvOptions& csv, Forest* forest) {
  if (!args.Has("calibration")) return Status::Ok();
  Result<std::string> path = args.Required("calibration");
  if (!path.ok()) return path.status();
  Result<Dataset> rows = LoadCsv(path.value(), csv);
  if (!rows.ok()) return rows.status();
  return CalibrateForest(forest, rows.value());
}

}  // namespace

Status RunPredict(int argc, char** argv, Output& out) {
  Result<Args> parsed =
      Args::Parse(argc, argv, 2, {"model", "data", "calibration", "rule", "alpha", "delta", "objective", "order", "seed", "vote", "threads",
                                  URNFOREST_CSV_FORMAT_OPTIONS}, {"json", "proba", "compare"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) return data_path.status();
  Result<PredictRequest> request = RequestFromArgs(args);
  if (!request.ok()) return request.status();

  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  CsvOptions csv;
  csv.schema = &forest.value().schema();
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  if (Status c = CalibrateFromArgs(args, csv, &forest.value()); !c.ok()) return c;
  const Forest& f = forest.value();
  Result<PredictPlan> plan = PlanPredict(f, request.value());
  if (!plan.ok()) return plan.status();
  Result<Dataset> data = LoadCsv(data_path.value(), csv);
  if (!data.ok()) return data.status();

  const auto start = std::chrono::steady_clock::now();
  Result<PreparedRows> rows = PrepareRows(f, data.value());
  if (!rows.ok()) return rows.status();
  Result<Prediction> prediction = Predict(f, rows.value(), plan.value());
  if (!prediction.ok()) return prediction.status();
  const double predict_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  WritePrediction(f, data.value(), prediction.value(), request.value(), plan.value(), predict_ms, out);
  return Status::Ok();
}

}  // namespace urnforest::cli
