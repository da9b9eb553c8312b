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

}  // namespace

Status RunExperiment(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2,
      {"data", "target", "train", "test", "ensemble", "trees", "mtry", "mtry-rule", "alpha",
       "rules", "folds", "repeats", "holdout", "seed", "threads", "max-work", "proxy-trees", "samples",
       // vote-boosting and label noise
       "noise", "cv-trees", "max-depth", URNFOREST_BASE_LEARNER_OPTIONS,
       // double pruning, boosting
       "prune", "keep", "query-order", "boosting", URNFOREST_CSV_FORMAT_OPTIONS},
      {"json", "unstratified", "quiet", "target-categorical"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> data_arg = args.Required("data");
  if (!data_arg.ok()) return data_arg.status();

  ExperimentOptions options;
  const bool synthetic = IsGenerator(data_arg.value());
  Dataset data;
  if (synthetic) {
    options.protocol = ProtocolKind::kSynthetic;
    options.generator = data_arg.value();
    options.dataset_name = data_arg.value();
    if (args.Has("folds") || args.Has("holdout") || args.Has("target")) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "synthetic problems use --train N --test M --repeats R, not --folds, "
                           "--holdout or --target");
    }
    Result<int64_t> train = args.Int("train", static_cast<int64_t>(options.train_rows), 2,
                                     DatasetLimits::kMaxRows);
    if (!train.ok()) return train.status();
    Result<int64_t> test = args.Int("test", static_cast<int64_t>(options.test_rows), 1,
                                    DatasetLimits::kMaxRows);
    if (!test.ok()) return test.status();
    options.train_rows = static_cast<size_t>(train.value());
    options.test_rows = static_cast<size_t>(test.value());
    Result<int64_t> repeats = args.Int("repeats", 100, 1, 100000);
    if (!repeats.ok()) return repeats.status();
    options.repeats = static_cast<int32_t>(repeats.value());
  } else {
    if (args.Has("train") || args.Has("test")) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "--train/--test are for synthetic problems (" +
                               std::string("twonorm, threenorm, ringnorm, waveform, led, circle)"));
    }
    CsvOptions csv;
    csv.target = args.Get("target", "");
    csv.target_categorical = args.Flag("target-categorical");
    if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
    Result<Dataset> loaded = LoadCsv(data_arg.value(), csv);
    if (!loaded.ok()) return loaded.status();
    data = std::move(loaded).value();
    options.data = &data;
    options.dataset_name = BaseName(data_arg.value());
    if (args.Has("holdout")) {
      if (args.Has("folds")) {
        return Status::Error(StatusCode::kInvalidArgument, "give --folds or --holdout, not both");
      }
      options.protocol = ProtocolKind::kHoldout;
      Result<double> fraction = args.Real("holdout", options.test_fraction, 0.0, 1.0);
      if (!fraction.ok()) return fraction.status();
      options.test_fraction = fraction.value();
      Result<int64_t> repeats = args.Int("repeats", 100, 1, 100000);
      if (!repeats.ok()) return repeats.status();
      options.repeats = static_cast<int32_t>(repeats.value());
    } else {
      options.protocol = ProtocolKind::kKFold;
      Result<int64_t> folds = args.Int("folds", options.folds, 2, DatasetLimits::kMaxRows);
      if (!folds.ok()) return folds.status();
      options.folds = static_cast<int32_t>(folds.value());
      Result<int64_t> repeats = args.Int("repeats", options.repeats, 1, 100000);
      if (!repeats.ok()) return repeats.status();
      options.repeats = static_cast<int32_t>(repeats.value());
    }
    options.stratified = !args.Flag("unstratified");
  }

  Result<EnsembleKind> ensemble =
      ParseOption(args, "ensemble", options.train.ensemble, ParseEnsembleKind);
  if (!ensemble.ok()) return ensemble.status();
  options.train.ensemble = ensemble.value();
  // Vote-boosting options and label noise.
  {
    const bool vb = options.train.ensemble == EnsembleKind::kVoteBoost;
    if (!vb && args.Has("cv-trees")) {
      return Status::Error(StatusCode::kInvalidArgument, "option --cv-trees needs --ensemble voteboost");
    }
    if (vb) {
      Result<int64_t> cv_trees =
          args.Int("cv-trees", options.emphasis_cv.num_trees, 0, TrainOptions::kMaxTrees);
      if (!cv_trees.ok()) return cv_trees.status();
      options.emphasis_cv.num_trees = static_cast<int32_t>(cv_trees.value());
    }
    Result<double> noise = args.Real("noise", options.label_noise, 0.0, 1.0);
    if (!noise.ok()) return noise.status();
    options.label_noise = noise.value();
    Result<int64_t> depth = args.Int("max-depth", options.train.max_depth, 0, 100000);
    if (!depth.ok()) return depth.status();
    options.train.max_depth = static_cast<int32_t>(depth.value());
    Status parsed_base = ParseBaseLearnerArgs(args, &options.train, &options.select_emphasis);
    if (!parsed_base.ok()) return parsed_base;
  }
  Result<int64_t> trees = args.Int("trees", options.train.num_trees, 1, TrainOptions::kMaxTrees);
  if (!trees.ok()) return trees.status();
  options.train.num_trees = static_cast<int32_t>(trees.value());
  Result<int64_t> mtry = args.Int("mtry", options.train.mtry, 0, DatasetLimits::kMaxFeatures);
  if (!mtry.ok()) return mtry.status();
  options.train.mtry = static_cast<int32_t>(mtry.value());
  Result<MtryRule> mtry_rule =
      ParseOption(args, "mtry-rule", options.train.mtry_rule, ParseMtryRule);
  if (!mtry_rule.ok()) return mtry_rule.status();
  options.train.mtry_rule = mtry_rule.value();
  Result<std::vector<double>> alphas = ReadAlphas(args, options.alphas);
  if (!alphas.ok()) return alphas.status();
  options.alphas = alphas.value();
  options.rules.clear();
  Result<std::vector<std::string>> rules = args.List("rules");
  if (!rules.ok()) return rules.status();
  if (rules.value().empty()) {
    options.rules = {HaltingRule::kAlpha1, HaltingRule::kSiba, HaltingRule::kHyper};
  }
  for (const std::string& name : rules.value()) {
    Result<HaltingRule> rule = ParseRule(name);
    if (!rule.ok()) return rule.status();
    for (HaltingRule seen : options.rules) {
      if (seen == rule.value()) {
        return Status::Error(StatusCode::kInvalidArgument, "option --rules names '" + name +
                                                               "' twice");
      }
    }
    options.rules.push_back(rule.value());
  }
  Result<int64_t> seed = args.Int("seed", static_cast<int64_t>(options.seed), 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  options.seed = static_cast<uint64_t>(seed.value());
  Result<double> max_work = args.Real("max-work", options.max_work, 1.0, 1e18);
  if (!max_work.ok()) return max_work.status();
  options.max_work = max_work.value();
  Result<int64_t> threads = args.Int("threads", 0, 0, 4096);
  if (!threads.ok()) return threads.status();
  options.threads = static_cast<int32_t>(threads.value());
  Result<int64_t> proxy = args.Int("proxy-trees", options.proxy_trees, 0, TrainOptions::kMaxTrees);
  if (!proxy.ok()) return proxy.status();
  options.proxy_trees = static_cast<int32_t>(proxy.value());
  Result<int64_t> samples = args.Int("samples", options.monte_carlo_samples, 1, 100000000);
  if (!samples.ok()) return samples.status();
  options.monte_carlo_samples = samples.value();

  // Double pruning and AdaBoost.
  if (args.Has("boosting") && options.train.ensemble != EnsembleKind::kAdaBoost) {
    return Status::Error(StatusCode::kInvalidArgument, "option --boosting needs --ensemble adaboost");
  }
  Result<BoostingVariant> boosting =
      ParseOption(args, "boosting", options.train.boosting, ParseBoostingVariant);
  if (!boosting.ok()) return boosting.status();
  options.train.boosting = boosting.value();
  if (args.Has("prune")) {
    Result<Ordering> ordering = ParseOrdering(args.Get("prune", ""));
    if (!ordering.ok()) return ordering.status();
    options.prune = true;
    options.ordering.ordering = ordering.value();
    Result<int64_t> keep = args.Int("keep", DefaultKeep(options.train.num_trees), 1,
                                    options.train.num_trees);
    if (!keep.ok()) return keep.status();
    options.keep = static_cast<int32_t>(keep.value());
  } else if (args.Has("keep")) {
    return Status::Error(StatusCode::kInvalidArgument, "option --keep needs --prune ORDERING");
  }
  if (args.Has("query-order")) {
    const std::string order = args.Get("query-order", "");
    if (order == "ordered") {
      options.query_order = PrunedQueryOrder::kOrdered;
    } else if (order == "random") {
      options.query_order = PrunedQueryOrder::kRandomPerRow;
    } else {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --query-order must be ordered or random, got '" + order + "'");
    }
  }

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
  const size_t num_rules = options.rules.size();
  WriteExperimentJson(options, r, seconds, out.json);

  char line[320];
  std::snprintf(line, sizeof(line),
                "%s: %zu rows, %d classes, %d partitions (%s), T = %d, %.1f s\n"
                "full vote: error %.2f +- %.2f %%, alpha1 trees %.1f\n",
                r.dataset.c_str(), r.rows, r.classes, r.partitions,
                ProtocolName(options.protocol), r.trees, seconds, r.full_error.mean,
                r.full_error.std, r.full_trees_alpha1.mean);
  out.text = line;
  if (options.prune) {
    std::snprintf(line, sizeof(line), "pruned (%s, first %d trees): error %.2f +- %.2f %%\n",
                  OrderingName(options.ordering.ordering), r.pruned_size, r.pruned_error.mean,
                  r.pruned_error.std);
    out.text += line;
  }
  for (size_t a = 0; a < options.alphas.size(); ++a) {
    std::snprintf(line, sizeof(line),
                  "\nalpha = %g\n%-9s %14s %12s %8s %9s %9s %9s %9s\n", options.alphas[a], "rule",
                  "error %", "disagree %", "trees", "pred.tr", "pred.dis%", "spd/a1", "spd/T");
    out.text += line;
    for (size_t i = 0; i < num_rules; ++i) {
      const RuleResult& rr = r.rules[r.RuleIndex(a, i, num_rules)];
      if (!rr.available) {
        out.text += std::string(RuleName(rr.rule)) + ": unavailable (" + rr.note + ")\n";
        continue;
      }
      const RuleStats<MeanStd>& s = rr.summary;
      std::snprintf(line, sizeof(line),
                    "%-9s %6.2f +- %5.2f %5.2f +- %4.2f %8.2f %9.2f %9.3f %9.2f %9.2f\n",
                    RuleName(rr.rule), s.error.mean, s.error.std, s.disagreement.mean,
                    s.disagreement.std, s.trees.mean, s.expected_trees.mean,
                    s.expected_disagreement.mean, s.speedup_vs_alpha1.mean, s.speedup_vs_T.mean);
      out.text += line;
    }
  }
  return Status::Ok();
}

}  // namespace urnforest::cli
