// CLI command `prune`: ordered aggregation of a trained model on labelled data, keeping the first k.
// Arguments → OrderingOptions (ReadPruneArgs), the core's ordering and pruning (OrderAndPrune), then
// the JSON answer and the text line (WritePruneJson, WritePruneText).
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/forest.h"
#include "urnforest/ordering.h"
#include "urnforest/prune.h"
#include "urnforest/serialize.h"
#include "urnforest/vote_matrix.h"

namespace urnforest::cli {
namespace {

/// The options of `prune` that do not depend on the model: paths and the ordering's options.
struct PruneArgs {
  std::string model_path;
  std::string data_path;
  std::string out_path;
  OrderingOptions options;
};

/// What `prune` computed: the order, its error curves, the pruned model's sizes and timings.
struct PruneRun {
  int32_t trees = 0;  ///< T, the trees of the model.
  int32_t kept = 0;   ///< k, the trees kept (1..T).
  int64_t rows = 0;   ///< Rows of --data.
  std::vector<int32_t> order;        ///< The order of all T trees.
  std::vector<double> curve;         ///< Error on --data of the first u trees, u = 1..T.
  std::vector<double> curve_other;   ///< The same on --curve-data; empty without it.
  std::vector<std::string> warnings; ///< OrderingWarnings of the model, data and options.
  size_t bytes_before = 0;
  size_t bytes_after = 0;
  int64_t nodes_before = 0;
  int64_t nodes_after = 0;
  bool oob_recomputed = false;  ///< Out-of-bag votes recomputed (--data is the exact training set).
  double vote_ms = 0;           ///< Milliseconds computing the vote matrix.
  double order_ms = 0;          ///< Milliseconds ordering the trees.
};

Result<PruneArgs> ReadPruneArgs(const Args& args) {
  PruneArgs p;
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --data is required: the model does not store its training data; "
                         "pass the training CSV");
  }
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return out_path.status();
  p.model_path = model_path.value();
  p.data_path = data_path.value();
  p.out_path = out_path.value();
  Result<Ordering> ordering = ParseOrdering(args.Get("ordering", OrderingName(p.options.ordering)));
  if (!ordering.ok()) return ordering.status();
  p.options.ordering = ordering.value();
  Result<int64_t> backfit =
      args.Int("backfit", p.options.backfit_passes, 0, OrderingOptions::kMaxBackfitPasses);
  if (!backfit.ok()) return backfit.status();
  p.options.backfit_passes = static_cast<int32_t>(backfit.value());
  Result<double> mdm_p = args.Real("mdm-p", p.options.mdm_p, 0.0, 1.0);
  if (!mdm_p.ok()) return mdm_p.status();
  p.options.mdm_p = mdm_p.value();
  Result<OrderingSource> on = ParseOrderingSource(args.Get("on", OrderingSourceName(p.options.on)));
  if (!on.ok()) return on.status();
  p.options.on = on.value();
  return p;
}

/// The error curve of `order` on the CSV file `path` (read with `csv`).
Result<std::vector<double>> CurveOn(const Forest& f, const std::string& path, const CsvOptions& csv,
                                    const std::vector<int32_t>& order) {
  Result<Dataset> other = LoadCsv(path, csv);
  if (!other.ok()) return other.status();
  Result<VoteMatrix> matrix = ComputeVoteMatrix(f, other.value());
  if (!matrix.ok()) return matrix.status();
  return ErrorCurve(matrix.value(), order);
}

/// Orders the trees of `f` on `d` (the core's OrderTrees or OrderForest) and fills run's order,
/// error curve, rows, warnings and timings.
Status OrderAndPrune(const Forest& f, const Dataset& d, const OrderingOptions& options, PruneRun* run) {
  const auto start = std::chrono::steady_clock::now();
  Result<VoteMatrix> matrix = ComputeVoteMatrix(f, d);
  if (!matrix.ok()) return matrix.status();
  const auto voted = std::chrono::steady_clock::now();
  Result<std::vector<int32_t>> order = options.on == OrderingSource::kData
                                           ? OrderTrees(matrix.value(), options)
                                           : OrderForest(f, d, options);
  if (!order.ok()) return order.status();
  const auto ordered = std::chrono::steady_clock::now();
  Result<std::vector<double>> curve = ErrorCurve(matrix.value(), order.value());
  if (!curve.ok()) return curve.status();
  run->order = std::move(order).value();
  run->curve = std::move(curve).value();
  run->vote_ms = std::chrono::duration<double, std::milli>(voted - start).count();
  run->order_ms = std::chrono::duration<double, std::milli>(ordered - voted).count();
  run->rows = static_cast<int64_t>(d.num_rows());
  run->warnings = OrderingWarnings(f, d, options);
  return Status::Ok();
}

/// Prunes `f` to the first run->kept trees of run->order and writes it to `out_path`.
Status WritePruned(const Forest& f, const Dataset& d, const std::string& out_path, PruneRun* run) {
  // Out-of-bag votes are recomputed when the data is the exact training set (else zeroed).
  const bool exact_training = d.num_rows() == f.train_labels().size() && d.labels() == f.train_labels();
  run->oob_recomputed = exact_training && f.options().ensemble != EnsembleKind::kAdaBoost &&
                        f.options().ensemble != EnsembleKind::kVoteBoost;
  Result<Forest> pruned = PruneForest(f, run->order, run->kept, exact_training ? &d : nullptr);
  if (!pruned.ok()) return pruned.status();
  const std::vector<uint8_t> after = SerializeForest(pruned.value());
  run->bytes_before = SerializeForest(f).size();
  run->bytes_after = after.size();
  run->nodes_before = static_cast<int64_t>(f.num_nodes());
  run->nodes_after = static_cast<int64_t>(pruned.value().num_nodes());
  return WriteFile(out_path, after);
}

void WritePruneJson(const PruneArgs& p, const PruneRun& run, JsonWriter& json) {
  json.BeginObject();
  json.Key("ordering").String(OrderingName(p.options.ordering));
  json.Key("on").String(OrderingSourceName(p.options.on));
  json.Key("warnings").StringArray(run.warnings);
  json.Key("kept").Int(run.kept);
  json.Key("trees").Int(run.trees);
  json.Key("order").IntArray(run.order);
  json.Key("error_curve").DoubleArray(run.curve);
  json.Key("error_full").Double(run.curve.back());
  json.Key("error_pruned").Double(run.curve[run.kept - 1]);
  json.Key("rows").Int(run.rows);
  if (!run.curve_other.empty()) json.Key("curve_data_error_curve").DoubleArray(run.curve_other);
  json.Key("bytes_before").Int(static_cast<int64_t>(run.bytes_before));
  json.Key("bytes_after").Int(static_cast<int64_t>(run.bytes_after));
  json.Key("nodes_before").Int(run.nodes_before);
  json.Key("nodes_after").Int(run.nodes_after);
  json.Key("oob_recomputed").Bool(run.oob_recomputed);
  json.Key("vote_matrix_ms").Double(run.vote_ms);
  json.Key("ordering_ms").Double(run.order_ms);
  json.Key("out").String(p.out_path);
  json.EndObject();
}

std::string PruneText(const PruneArgs& p, const PruneRun& run) {
  char line[320];
  std::snprintf(line, sizeof(line),
                "%s ordering: kept %d of %d trees; error on the data %.4f (all %d: %.4f); "
                "model %zu -> %zu bytes -> %s\n",
                OrderingName(p.options.ordering), run.kept, run.trees, run.curve[run.kept - 1], run.trees,
                run.curve.back(), run.bytes_before, run.bytes_after, p.out_path.c_str());
  std::string text = line;
  for (const std::string& warning : run.warnings) text += "warning: " + warning + "\n";
  return text;
}

}  // namespace

Status RunPrune(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"model", "ordering", "keep", "data", "curve-data", "out", "backfit", "mdm-p",
                                     "on", URNFOREST_CSV_FORMAT_OPTIONS},
                                    {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<PruneArgs> p = ReadPruneArgs(args);
  if (!p.ok()) return p.status();
  Result<Forest> forest = LoadModel(p.value().model_path);
  if (!forest.ok()) return forest.status();
  const Forest& f = forest.value();
  PruneRun run;
  run.trees = f.num_trees();
  Result<int64_t> keep = args.Int("keep", DefaultKeep(run.trees), 1, run.trees);
  if (!keep.ok()) return keep.status();
  run.kept = static_cast<int32_t>(keep.value());

  CsvOptions csv;
  csv.schema = &f.schema();
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  Result<Dataset> data = LoadCsv(p.value().data_path, csv);
  if (!data.ok()) return data.status();
  Status done = OrderAndPrune(f, data.value(), p.value().options, &run);
  if (!done.ok()) return done;
  // Optional second curve (thesis Fig. 3.1: test error versus size) for the same order.
  if (args.Has("curve-data")) {
    Result<std::vector<double>> other = CurveOn(f, args.Get("curve-data", ""), csv, run.order);
    if (!other.ok()) return other.status();
    run.curve_other = std::move(other).value();
  }
  done = WritePruned(f, data.value(), p.value().out_path, &run);
  if (!done.ok()) return done;
  WritePruneJson(p.value(), run, out.json);
  out.text = PruneText(p.value(), run);
  return Status::Ok();
}

}  // namespace urnforest::cli
