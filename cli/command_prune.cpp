// CLI command `prune`: ordered aggregation of a trained model on labelled data, keeping the first k.
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/forest.h"
#include "urnforest/ordering.h"
#include "urnforest/prune.h"
#include "urnforest/serialize.h"
#include "urnforest/vote_matrix.h"

namespace urnforest::cli {

Status RunPrune(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"model", "ordering", "keep", "data", "curve-data", "out", "backfit", "mdm-p",
                                     "on", URNFOREST_CSV_FORMAT_OPTIONS},
                                    {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
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
  Result<Ordering> ordering = ParseOrdering(args.Get("ordering", "boosting"));
  if (!ordering.ok()) return ordering.status();
  OrderingOptions options;
  options.ordering = ordering.value();
  Result<int64_t> backfit = args.Int("backfit", 0, 0, 100);
  if (!backfit.ok()) return backfit.status();
  options.backfit_passes = static_cast<int32_t>(backfit.value());
  Result<double> mdm_p = args.Real("mdm-p", 0.075, 0.0, 1.0);
  if (!mdm_p.ok()) return mdm_p.status();
  options.mdm_p = mdm_p.value();
  Result<OrderingSource> on = ParseOrderingSource(args.Get("on", "data"));
  if (!on.ok()) return on.status();
  options.on = on.value();

  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  const Forest& f = forest.value();
  const int32_t T = f.num_trees();
  Result<int64_t> keep = args.Int("keep", DefaultKeep(T), 1, T);
  if (!keep.ok()) return keep.status();
  const int32_t k = static_cast<int32_t>(keep.value());

  CsvOptions csv;
  csv.schema = &f.schema();
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  Result<Dataset> data = LoadCsv(data_path.value(), csv);
  if (!data.ok()) return data.status();

  const auto start = std::chrono::steady_clock::now();
  Result<VoteMatrix> matrix = ComputeVoteMatrix(f, data.value());
  if (!matrix.ok()) return matrix.status();
  const auto voted = std::chrono::steady_clock::now();
  Result<std::vector<int32_t>> order = options.on == OrderingSource::kData
                                           ? OrderTrees(matrix.value(), options)
                                           : OrderForest(f, data.value(), options);
  if (!order.ok()) return order.status();
  const auto ordered = std::chrono::steady_clock::now();
  Result<std::vector<double>> curve = ErrorCurve(matrix.value(), order.value());
  if (!curve.ok()) return curve.status();

  // Optional second curve (thesis Fig. 3.1: test error versus size) for the same order.
  std::vector<double> curve_other;
  if (args.Has("curve-data")) {
    Result<Dataset> other = LoadCsv(args.Get("curve-data", ""), csv);
    if (!other.ok()) return other.status();
    Result<VoteMatrix> other_matrix = ComputeVoteMatrix(f, other.value());
    if (!other_matrix.ok()) return other_matrix.status();
    Result<std::vector<double>> c = ErrorCurve(other_matrix.value(), order.value());
    if (!c.ok()) return c.status();
    curve_other = std::move(c).value();
  }

  // Out-of-bag votes are recomputed when the data is the exact training set (else zeroed).
  const Dataset& d = data.value();
  const bool exact_training = d.num_rows() == f.train_labels().size() && d.labels() == f.train_labels();
  const bool oob_recomputed = exact_training && f.options().ensemble != EnsembleKind::kAdaBoost &&
                              f.options().ensemble != EnsembleKind::kVoteBoost;
  Result<Forest> pruned = PruneForest(f, order.value(), k, exact_training ? &d : nullptr);
  if (!pruned.ok()) return pruned.status();
  const std::vector<uint8_t> before = SerializeForest(f);
  const std::vector<uint8_t> after = SerializeForest(pruned.value());
  Status written = WriteFile(out_path.value(), after);
  if (!written.ok()) return written;
  const double vote_ms = std::chrono::duration<double, std::milli>(voted - start).count();
  const double order_ms = std::chrono::duration<double, std::milli>(ordered - voted).count();

  out.json.BeginObject();
  out.json.Key("ordering").String(OrderingName(options.ordering));
  out.json.Key("on").String(OrderingSourceName(options.on));
  out.json.Key("warnings").StringArray(OrderingWarnings(f, d, options));
  out.json.Key("kept").Int(k);
  out.json.Key("trees").Int(T);
  out.json.Key("order").IntArray(order.value());
  out.json.Key("error_curve").DoubleArray(curve.value());
  out.json.Key("error_full").Double(curve.value().back());
  out.json.Key("error_pruned").Double(curve.value()[k - 1]);
  out.json.Key("rows").Int(static_cast<int64_t>(d.num_rows()));
  if (!curve_other.empty()) out.json.Key("curve_data_error_curve").DoubleArray(curve_other);
  out.json.Key("bytes_before").Int(static_cast<int64_t>(before.size()));
  out.json.Key("bytes_after").Int(static_cast<int64_t>(after.size()));
  out.json.Key("nodes_before").Int(static_cast<int64_t>(f.num_nodes()));
  out.json.Key("nodes_after").Int(static_cast<int64_t>(pruned.value().num_nodes()));
  out.json.Key("oob_recomputed").Bool(oob_recomputed);
  out.json.Key("vote_matrix_ms").Double(vote_ms);
  out.json.Key("ordering_ms").Double(order_ms);
  out.json.Key("out").String(out_path.value());
  out.json.EndObject();

  char line[320];
  std::snprintf(line, sizeof(line),
                "%s ordering: kept %d of %d trees; error on the data %.4f (all %d: %.4f); "
                "model %zu -> %zu bytes -> %s\n",
                OrderingName(options.ordering), k, T, curve.value()[k - 1], T,
                curve.value().back(), before.size(), after.size(), out_path.value().c_str());
  out.text = line;
  for (const std::string& warning : OrderingWarnings(f, d, options)) {
    out.text += "warning: " + warning + "\n";
  }
  return Status::Ok();
}

}  // namespace urnforest::cli
