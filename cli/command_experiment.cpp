// CLI command `experiment`: the harness of src/urnforest/experiment.h on a CSV file or a synthetic
// problem, with the papers' protocols (issue 4).
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
#include "urnforest/experiment.h"
#include "urnforest/generators.h"

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

Result<std::vector<double>> ReadAlphas(const Args& args) {
  std::vector<double> alphas;
  if (!args.Has("alpha")) return std::vector<double>{0.99};
  Result<std::vector<std::string>> items = args.List("alpha");
  if (!items.ok()) return items.status();
  for (const std::string& item : items.value()) {
    char* end = nullptr;
    const double a = std::strtod(item.c_str(), &end);
    if (*end != '\0' || !(a > 0.0 && a <= 1.0)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --alpha: '" + item + "' is not a number in (0, 1]");
    }
    alphas.push_back(a);
  }
  return alphas;
}

void WriteMeanStd(JsonWriter& json, const MeanStd& m) {
  json.BeginObject().Key("mean").Double(m.mean).Key("std").Double(m.std).EndObject();
}

void WriteRules(JsonWriter& json, const ExperimentResult& r, size_t alpha_index, size_t rules) {
  json.BeginObject();
  for (size_t i = 0; i < rules; ++i) {
    const RuleResult& rr = r.rules[r.RuleIndex(alpha_index, i, rules)];
    json.Key(RuleName(rr.rule)).BeginObject();
    if (!rr.available) {
      json.Key("unavailable").String(rr.note);
    } else {
      for (const auto& field : RuleStatFields<MeanStd>()) {
        const MeanStd& m = rr.summary.*(field.second);
        if (m.count == 0) continue;  // e.g. proxy fields without --proxy-trees
        json.Key(field.first);
        WriteMeanStd(json, m);
      }
      json.Key("expected_method").String(rr.expected_method);
    }
    json.EndObject();
  }
  json.EndObject();
}

const char* ProtocolName(ProtocolKind kind) {
  switch (kind) {
    case ProtocolKind::kKFold: return "kfold";
    case ProtocolKind::kHoldout: return "holdout";
    case ProtocolKind::kSynthetic: return "synthetic";
  }
  return "?";
}

}  // namespace

Status RunExperiment(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2,
      {"data", "target", "train", "test", "ensemble", "trees", "mtry", "mtry-rule", "alpha",
       "rules", "folds", "repeats", "holdout", "seed", "proxy-trees", "samples",
       // issue 6 (vote-boosting)
       "emphasis", "emphasis-b", "base", "noise", "cv-trees", "max-depth"},
      {"json", "unstratified", "quiet"});
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
    Result<int64_t> train = args.Int("train", 300, 2, DatasetLimits::kMaxRows);
    if (!train.ok()) return train.status();
    Result<int64_t> test = args.Int("test", 1000, 1, DatasetLimits::kMaxRows);
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
      Result<double> fraction = args.Real("holdout", 1.0 / 3.0, 0.0, 1.0);
      if (!fraction.ok()) return fraction.status();
      options.test_fraction = fraction.value();
      Result<int64_t> repeats = args.Int("repeats", 100, 1, 100000);
      if (!repeats.ok()) return repeats.status();
      options.repeats = static_cast<int32_t>(repeats.value());
    } else {
      options.protocol = ProtocolKind::kKFold;
      Result<int64_t> folds = args.Int("folds", 10, 2, DatasetLimits::kMaxRows);
      if (!folds.ok()) return folds.status();
      options.folds = static_cast<int32_t>(folds.value());
      Result<int64_t> repeats = args.Int("repeats", 10, 1, 100000);
      if (!repeats.ok()) return repeats.status();
      options.repeats = static_cast<int32_t>(repeats.value());
    }
    options.stratified = !args.Flag("unstratified");
  }

  const std::string ensemble = args.Get("ensemble", "rf");
  if (ensemble == "rf") {
    options.train.ensemble = EnsembleKind::kRandomForest;
  } else if (ensemble == "bagging") {
    options.train.ensemble = EnsembleKind::kBagging;
  } else if (ensemble == "adaboost") {
    options.train.ensemble = EnsembleKind::kAdaBoost;
  } else if (ensemble == "voteboost") {
    options.train.ensemble = EnsembleKind::kVoteBoost;
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --ensemble must be rf, bagging, adaboost or voteboost, got '" +
                             ensemble + "'");
  }
  // Issue 6: vote-boosting options and label noise.
  {
    const bool vb = options.train.ensemble == EnsembleKind::kVoteBoost;
    if (!vb && (args.Has("emphasis") || args.Has("emphasis-b") || args.Has("base") ||
                args.Has("cv-trees"))) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "options --emphasis, --emphasis-b, --base and --cv-trees need "
                           "--ensemble voteboost");
    }
    if (vb) {
      Status parsed_vb =
          ParseVoteBoostArgs(args, &options.train.voteboost, &options.select_emphasis);
      if (!parsed_vb.ok()) return parsed_vb;
      Result<int64_t> cv_trees = args.Int("cv-trees", 0, 0, TrainOptions::kMaxTrees);
      if (!cv_trees.ok()) return cv_trees.status();
      options.emphasis_cv.num_trees = static_cast<int32_t>(cv_trees.value());
    }
    Result<double> noise = args.Real("noise", 0.0, 0.0, 1.0);
    if (!noise.ok()) return noise.status();
    options.label_noise = noise.value();
    Result<int64_t> depth = args.Int("max-depth", 0, 0, 100000);
    if (!depth.ok()) return depth.status();
    options.train.max_depth = static_cast<int32_t>(depth.value());
  }
  Result<int64_t> trees = args.Int("trees", 101, 1, TrainOptions::kMaxTrees);
  if (!trees.ok()) return trees.status();
  options.train.num_trees = static_cast<int32_t>(trees.value());
  Result<int64_t> mtry = args.Int("mtry", 0, 0, DatasetLimits::kMaxFeatures);
  if (!mtry.ok()) return mtry.status();
  options.train.mtry = static_cast<int32_t>(mtry.value());
  const std::string mtry_rule = args.Get("mtry-rule", "sqrt");
  if (mtry_rule == "sqrt") {
    options.train.mtry_rule = MtryRule::kSqrt;
  } else if (mtry_rule == "log2") {
    options.train.mtry_rule = MtryRule::kLog2;
  } else if (mtry_rule == "log2plus1") {
    options.train.mtry_rule = MtryRule::kLog2Plus1;
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --mtry-rule must be sqrt, log2 or log2plus1, got '" + mtry_rule +
                             "'");
  }
  Result<std::vector<double>> alphas = ReadAlphas(args);
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
  Result<int64_t> seed = args.Int("seed", 1, 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  options.seed = static_cast<uint64_t>(seed.value());
  Result<int64_t> proxy = args.Int("proxy-trees", 0, 0, TrainOptions::kMaxTrees);
  if (!proxy.ok()) return proxy.status();
  options.proxy_trees = static_cast<int32_t>(proxy.value());
  Result<int64_t> samples = args.Int("samples", 20000, 1, 100000000);
  if (!samples.ok()) return samples.status();
  options.monte_carlo_samples = samples.value();

  const bool quiet = args.Flag("quiet");
  const auto start = std::chrono::steady_clock::now();
  const std::string label = options.dataset_name;
  options.progress = [&](int32_t done, int32_t total) {
    if (!quiet) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "[experiment] %s: partition %d/%d (%.1f s)\n", label.c_str(), done,
                   total, s);
    }
    return true;
  };
  Result<ExperimentResult> run = urnforest::RunExperiment(options);
  if (!run.ok()) return run.status();
  const ExperimentResult& r = run.value();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t num_rules = options.rules.size();

  JsonWriter& json = out.json;
  json.BeginObject();
  json.Key("dataset").String(r.dataset);
  json.Key("rows").Int(static_cast<int64_t>(r.rows));
  json.Key("features").Int(r.features);
  json.Key("classes").Int(r.classes);
  json.Key("partitions").Int(r.partitions);
  json.Key("protocol").String(ProtocolName(options.protocol));
  if (options.protocol == ProtocolKind::kKFold) json.Key("folds").Int(options.folds);
  if (options.protocol == ProtocolKind::kHoldout) json.Key("holdout").Double(options.test_fraction);
  if (options.protocol == ProtocolKind::kSynthetic) {
    json.Key("train").Int(static_cast<int64_t>(options.train_rows));
    json.Key("test").Int(static_cast<int64_t>(options.test_rows));
  } else {
    json.Key("stratified").Bool(options.stratified);
  }
  json.Key("repeats").Int(options.repeats);
  json.Key("ensemble").String(ensemble);
  json.Key("trees").Int(r.trees);
  json.Key("mtry").Int(r.mtry);
  json.Key("alpha").Double(options.alphas[0]);
  json.Key("alphas").DoubleArray(options.alphas);
  json.Key("seed").Int(static_cast<int64_t>(options.seed));
  if (options.proxy_trees > 0) json.Key("proxy_trees").Int(options.proxy_trees);
  // Issue 6 (vote-boosting, label noise).
  json.Key("noise").Double(options.label_noise);
  if (options.train.max_depth > 0) json.Key("max_depth").Int(options.train.max_depth);
  if (options.train.ensemble == EnsembleKind::kVoteBoost) {
    json.Key("base").String(VoteBoostBaseName(options.train.voteboost.base));
    json.Key("emphasis_mode").String(options.select_emphasis ? "cv" : "fixed");
    if (options.select_emphasis && options.emphasis_cv.num_trees > 0) {
      json.Key("cv_trees").Int(options.emphasis_cv.num_trees);
    }
    json.Key("emphasis").DoubleArray(r.emphasis);
    std::vector<double> sorted = r.emphasis;
    std::sort(sorted.begin(), sorted.end());
    const size_t m = sorted.size();
    json.Key("emphasis_median")
        .Double(m == 0 ? 0.0 : (m % 2 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2])));
  }
  json.Key("seconds").Double(seconds);
  json.Key("full").BeginObject();
  json.Key("error");
  WriteMeanStd(json, r.full_error);
  json.Key("trees");  // trees the alpha = 1 rule queries (seed 000's RF*, thesis Table 4.4)
  WriteMeanStd(json, r.full_trees_alpha1);
  json.Key("trees_alpha1");
  WriteMeanStd(json, r.full_trees_alpha1);
  json.Key("ensemble_trees").Int(r.trees);
  json.Key("oob_error");
  WriteMeanStd(json, r.oob_error);
  if (r.weighted_error.count > 0) {  // issue 6: AdaBoost's weighted vote
    json.Key("weighted_error");
    WriteMeanStd(json, r.weighted_error);
  }
  if (r.proxy_error.count > 0) {
    json.Key("proxy_error");
    WriteMeanStd(json, r.proxy_error);
  }
  json.EndObject();
  json.Key("rules");
  WriteRules(json, r, 0, num_rules);
  if (options.alphas.size() > 1) {
    json.Key("alpha_sweep").BeginArray();
    for (size_t a = 0; a < options.alphas.size(); ++a) {
      json.BeginObject().Key("alpha").Double(options.alphas[a]).Key("rules");
      WriteRules(json, r, a, num_rules);
      json.EndObject();
    }
    json.EndArray();
  }
  json.EndObject();

  char line[320];
  std::snprintf(line, sizeof(line),
                "%s: %zu rows, %d classes, %d partitions (%s), T = %d, %.1f s\n"
                "full vote: error %.2f +- %.2f %%, alpha1 trees %.1f\n",
                r.dataset.c_str(), r.rows, r.classes, r.partitions,
                ProtocolName(options.protocol), r.trees, seconds, r.full_error.mean,
                r.full_error.std, r.full_trees_alpha1.mean);
  out.text = line;
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
