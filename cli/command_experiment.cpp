// CLI command `experiment`: the harness of src/urnforest/experiment.h on a CSV file or a synthetic
// problem, with the papers' protocols (docs/experiments.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "args.h"
#include "voteboost_args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/double_pruning.h"
#include "urnforest/experiment.h"
#include "urnforest/experiment_json.h"
#include "urnforest/generators.h"
#include "urnforest/ordering.h"

namespace urnforest::cli {
namespace {

bool IsGenerator(const std::string& name) {
  for (const std::string& g : GeneratorNames())
    if (g == name) return true;
  return false;
}

std::string BaseName(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(0, dot);
}

// --alpha A1[,A2...], or `fallback` (the core's default) when absent.
Result<std::vector<double>> ReadAlphas(const Args& args, const std::vector<double>& fallback) {
  std::vector<double> alphas;
  if (!args.Has("alpha")) return fallback;
  Result<std::vector<std::string>> items = args.List("alpha");
  if (!items.ok()) return items.status();
  for (const std::string& item : items.value()) {
    double a = 0.0;
    if (!ParsePlainReal(item, &a) || !(a > 0.0 && a <= 1.0)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --alpha: '" + item + "' is not a number in (0, 1]");
    }
    alphas.push_back(a);
  }
  return alphas;
}

// A synthetic problem: --train N --test M --repeats R.
Status ReadSynthetic(const Args& args, const std::string& generator, ExperimentOptions* options) {
  options->protocol = ProtocolKind::kSynthetic;
  options->generator = generator;
  options->dataset_name = generator;
  if (args.Has("folds") || args.Has("holdout") || args.Has("target")) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "synthetic problems use --train N --test M --repeats R, not --folds, "
                         "--holdout or --target");
  }
  constexpr int64_t kMaxRows = static_cast<int64_t>(DatasetLimits::kMaxRows);
  Result<int64_t> train = args.Int("train", static_cast<int64_t>(options->train_rows), 2, kMaxRows);
  if (!train.ok()) return train.status();
  Result<int64_t> test = args.Int("test", static_cast<int64_t>(options->test_rows), 1, kMaxRows);
  if (!test.ok()) return test.status();
  options->train_rows = static_cast<size_t>(train.value());
  options->test_rows = static_cast<size_t>(test.value());
  return Status::Ok();
}

// A CSV file (into *data) with k-fold CV (--folds) or holdout (--holdout).
Status ReadCsvProtocol(const Args& args, const std::string& path, ExperimentOptions* options,
                       Dataset* data) {
  if (args.Has("train") || args.Has("test")) {
    std::string names;
    for (const std::string& g : GeneratorNames()) names += (names.empty() ? "" : ", ") + g;
    return Status::Error(StatusCode::kInvalidArgument,
                         "--train/--test are for synthetic problems (" + names + ")");
  }
  CsvOptions csv;
  csv.target = args.Get("target", "");
  csv.target_categorical = args.Flag("target-categorical");
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  Result<Dataset> loaded = LoadCsv(path, csv);
  if (!loaded.ok()) return loaded.status();
  *data = std::move(loaded).value();
  options->data = data;
  options->dataset_name = BaseName(path);
  options->stratified = !args.Flag("unstratified");
  if (args.Has("holdout")) {
    if (args.Has("folds")) {
      return Status::Error(StatusCode::kInvalidArgument, "give --folds or --holdout, not both");
    }
    options->protocol = ProtocolKind::kHoldout;
    Result<double> fraction = args.Real("holdout", options->test_fraction, 0.0, 1.0);
    if (!fraction.ok()) return fraction.status();
    options->test_fraction = fraction.value();
    return Status::Ok();
  }
  options->protocol = ProtocolKind::kKFold;
  Result<int64_t> folds = args.Int("folds", options->folds, 2, DatasetLimits::kMaxRows);
  if (!folds.ok()) return folds.status();
  options->folds = static_cast<int32_t>(folds.value());
  return Status::Ok();
}

// The learner (ParseLearnerArgs), --mtry-rule and --noise.
Status ReadLearner(const Args& args, ExperimentOptions* options) {
  TrainRequest request;
  request.options = options->train;
  request.cv_trees = options->emphasis_cv.num_trees;
  Status parsed = ParseLearnerArgs(args, &request);
  if (!parsed.ok()) return parsed;
  options->train = request.options;
  options->select_emphasis = request.select_emphasis;
  options->emphasis_cv.num_trees = request.cv_trees;
  options->train_named = request.named;
  Result<MtryRule> mtry_rule = ParseOption(args, "mtry-rule", options->train.mtry_rule, ParseMtryRule);
  if (!mtry_rule.ok()) return mtry_rule.status();
  options->train.mtry_rule = mtry_rule.value();
  Result<double> noise = args.Real("noise", options->label_noise, 0.0, 1.0);
  if (!noise.ok()) return noise.status();
  options->label_noise = noise.value();
  return Status::Ok();
}

// --alpha, --rules (absent: the core's default rules), --samples.
Status ReadHalting(const Args& args, ExperimentOptions* options) {
  Result<std::vector<double>> alphas = ReadAlphas(args, options->alphas);
  if (!alphas.ok()) return alphas.status();
  options->alphas = alphas.value();
  Result<std::vector<std::string>> rules = args.List("rules");
  if (!rules.ok()) return rules.status();
  if (!rules.value().empty()) options->rules.clear();
  for (const std::string& name : rules.value()) {
    Result<HaltingRule> rule = ParseRule(name);
    if (!rule.ok()) return rule.status();
    options->rules.push_back(rule.value());
  }
  Result<int64_t> samples = args.Int("samples", options->monte_carlo_samples, 1,
                                     ExperimentOptions::kMaxMonteCarloSamples);
  if (!samples.ok()) return samples.status();
  options->monte_carlo_samples = samples.value();
  return Status::Ok();
}

// --repeats (absent: DefaultRepeats of the protocol), --seed, --max-work, --threads,
// --proxy-trees.
Status ReadRun(const Args& args, ExperimentOptions* options) {
  Result<int64_t> repeats = args.Int("repeats", DefaultRepeats(options->protocol), 1,
                                     ExperimentOptions::kMaxRepeats);
  if (!repeats.ok()) return repeats.status();
  options->repeats = static_cast<int32_t>(repeats.value());
  Result<int64_t> seed = args.Int("seed", static_cast<int64_t>(options->seed), 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  options->seed = static_cast<uint64_t>(seed.value());
  Result<double> max_work = args.Real("max-work", options->max_work, ExperimentOptions::kMinMaxWork,
                                      ExperimentOptions::kMaxMaxWork);
  if (!max_work.ok()) return max_work.status();
  options->max_work = max_work.value();
  Result<int64_t> threads = args.Int("threads", 0, 0, 4096);
  if (!threads.ok()) return threads.status();
  options->threads = static_cast<int32_t>(threads.value());
  Result<int64_t> proxy = args.Int("proxy-trees", options->proxy_trees, 0, TrainOptions::kMaxTrees);
  if (!proxy.ok()) return proxy.status();
  options->proxy_trees = static_cast<int32_t>(proxy.value());
  return Status::Ok();
}

// Double pruning: --prune ORDERING, --keep K (the core refuses it without --prune),
// --query-order ordered|random.
Status ReadPruning(const Args& args, ExperimentOptions* options) {
  if (args.Has("prune")) {
    Result<Ordering> ordering = ParseOrdering(args.Get("prune", ""));
    if (!ordering.ok()) return ordering.status();
    options->prune = true;
    options->ordering.ordering = ordering.value();
  }
  Result<int64_t> keep = args.Int("keep", options->keep, 1, options->train.num_trees);
  if (!keep.ok()) return keep.status();
  options->keep = static_cast<int32_t>(keep.value());
  if (!args.Has("query-order")) return Status::Ok();
  const std::string order = args.Get("query-order", "");
  if (order == "ordered") {
    options->query_order = PrunedQueryOrder::kOrdered;
  } else if (order == "random") {
    options->query_order = PrunedQueryOrder::kRandomPerRow;
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --query-order must be ordered or random, got '" + order + "'");
  }
  return Status::Ok();
}

// The text report of a finished run.
std::string ExperimentText(const ExperimentOptions& options, const ExperimentResult& r,
                           double seconds) {
  char line[320];
  std::snprintf(line, sizeof(line),
                "%s: %zu rows, %d classes, %d partitions (%s), T = %d, %.1f s\n"
                "full vote: error %.2f +- %.2f %%, alpha1 trees %.1f\n",
                r.dataset.c_str(), r.rows, r.classes, r.partitions,
                ProtocolName(options.protocol), r.trees, seconds, r.full_error.mean,
                r.full_error.std, r.full_trees_alpha1.mean);
  std::string text = line;
  if (options.prune) {
    std::snprintf(line, sizeof(line), "pruned (%s, first %d trees): error %.2f +- %.2f %%\n",
                  OrderingName(options.ordering.ordering), r.pruned_size, r.pruned_error.mean,
                  r.pruned_error.std);
    text += line;
  }
  const size_t num_rules = options.rules.size();
  for (size_t a = 0; a < options.alphas.size(); ++a) {
    std::snprintf(line, sizeof(line),
                  "\nalpha = %g\n%-9s %14s %12s %8s %9s %9s %9s %9s\n", options.alphas[a], "rule",
                  "error %", "disagree %", "trees", "pred.tr", "pred.dis%", "spd/a1", "spd/T");
    text += line;
    for (size_t i = 0; i < num_rules; ++i) {
      const RuleResult& rr = r.rules[r.RuleIndex(a, i, num_rules)];
      if (!rr.available) {
        text += std::string(RuleName(rr.rule)) + ": unavailable (" + rr.note + ")\n";
        continue;
      }
      const RuleStats<MeanStd>& s = rr.summary;
      std::snprintf(line, sizeof(line),
                    "%-9s %6.2f +- %5.2f %5.2f +- %4.2f %8.2f %9.2f %9.3f %9.2f %9.2f\n",
                    RuleName(rr.rule), s.error.mean, s.error.std, s.disagreement.mean,
                    s.disagreement.std, s.trees.mean, s.expected_trees.mean,
                    s.expected_disagreement.mean, s.speedup_vs_alpha1.mean, s.speedup_vs_T.mean);
      text += line;
    }
  }
  return text;
}

}  // namespace

Status RunExperiment(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2,
      {"data", "target", "train", "test", "mtry-rule", "alpha", "rules", "folds", "repeats",
       "holdout", "seed", "threads", "max-work", "proxy-trees", "samples", "noise",
       URNFOREST_LEARNER_OPTIONS, "prune", "keep", "query-order", URNFOREST_CSV_FORMAT_OPTIONS},
      {"json", "unstratified", "quiet", "target-categorical"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> data_arg = args.Required("data");
  if (!data_arg.ok()) return data_arg.status();

  ExperimentOptions options;
  Dataset data;
  Status read = IsGenerator(data_arg.value())
                    ? ReadSynthetic(args, data_arg.value(), &options)
                    : ReadCsvProtocol(args, data_arg.value(), &options, &data);
  if (read.ok()) read = ReadLearner(args, &options);
  if (read.ok()) read = ReadHalting(args, &options);
  if (read.ok()) read = ReadRun(args, &options);
  if (read.ok()) read = ReadPruning(args, &options);
  if (!read.ok()) return read;

  const bool quiet = args.Flag("quiet");
  const auto start = std::chrono::steady_clock::now();
  const std::string label = options.dataset_name;
  auto progress = [&](int32_t done, int32_t total) {
    if (!quiet) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "[experiment] %s: partition %d/%d (%.1f s)\n", label.c_str(), done,
                   total, s);
    }
    return true;
  };
  Result<ExperimentResult> run = urnforest::RunExperiment(options, progress);
  if (!run.ok()) return run.status();
  const ExperimentResult& r = run.value();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WriteExperimentJson(options, r, seconds, out.json);
  out.text = ExperimentText(options, r, seconds);
  return Status::Ok();
}

}  // namespace urnforest::cli
