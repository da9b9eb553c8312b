// The experiment report (shared by the CLI and the JS API).
#include "urnforest/experiment_json.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/double_pruning.h"
#include "urnforest/ordering.h"
#include "urnforest/voteboost.h"

namespace urnforest {
namespace {

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

}  // namespace

const char* ProtocolName(ProtocolKind kind) {
  switch (kind) {
    case ProtocolKind::kKFold: return "kfold";
    case ProtocolKind::kHoldout: return "holdout";
    case ProtocolKind::kSynthetic: return "synthetic";
  }
  return "?";
}

void WriteExperimentJson(const ExperimentOptions& options, const ExperimentResult& r,
                         double seconds, JsonWriter& json) {
  const size_t num_rules = options.rules.size();
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
  json.Key("ensemble").String(EnsembleKindName(options.train.ensemble));
  if (options.train.ensemble == EnsembleKind::kAdaBoost) {
    json.Key("boosting").String(options.train.boosting == BoostingVariant::kReweight ? "reweight"
                                                                                      : "resample");
  }
  json.Key("trees").Int(r.trees);
  json.Key("mtry").Int(r.mtry);
  json.Key("alpha").Double(options.alphas[0]);
  json.Key("alphas").DoubleArray(options.alphas);
  json.Key("seed").Int(static_cast<int64_t>(options.seed));
  if (options.proxy_trees > 0) json.Key("proxy_trees").Int(options.proxy_trees);
  json.Key("query_order").String(options.query_order == PrunedQueryOrder::kRandomPerRow
                                     ? "random"
                                     : "ordered");
  // Vote-boosting and label noise ([SMS18] §4.3).
  json.Key("noise").Double(options.label_noise);
  if (options.train.max_depth > 0) json.Key("max_depth").Int(options.train.max_depth);
  if (PrunesTrees(options.train)) {
    json.Key("tree_pruning").String("cv");
    json.Key("tree_folds").Int(options.train.pruning.cv_folds);
    json.Key("tree_se").Double(options.train.pruning.se_rule);
  }
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
  json.Key("trees");  // trees the alpha = 1 rule queries ([SSM16] Table 2's RF*, [Sot11] Table 4.4)
  WriteMeanStd(json, r.full_trees_alpha1);
  json.Key("trees_alpha1");
  WriteMeanStd(json, r.full_trees_alpha1);
  json.Key("ensemble_trees").Int(r.trees);
  json.Key("oob_error");
  WriteMeanStd(json, r.oob_error);
  if (r.proxy_error.count > 0) {
    json.Key("proxy_error");
    WriteMeanStd(json, r.proxy_error);
  }
  if (r.weighted_error.count > 0) {  // AdaBoost's weighted vote (= "error" here)
    json.Key("weighted_error");
    WriteMeanStd(json, r.weighted_error);
  }
  json.Key("error_by_partition").DoubleArray(r.full_error_by_partition);
  if (!options.prune) {
    json.Key("leaves_per_tree");
    WriteMeanStd(json, r.leaves_per_tree);
  }
  if (options.train.ensemble == EnsembleKind::kAdaBoost) {
    json.Key("unweighted_error");  // the plurality of the same trees, which halting approximates
    WriteMeanStd(json, r.full_unweighted_error);
  }
  json.EndObject();
  if (options.prune) {
    json.Key("pruned").BeginObject();
    json.Key("size").Int(r.pruned_size);
    json.Key("ordering").String(OrderingName(options.ordering.ordering));
    json.Key("error");
    WriteMeanStd(json, r.pruned_error);
    json.Key("error_by_partition").DoubleArray(r.pruned_error_by_partition);
    json.Key("leaves_per_tree");
    WriteMeanStd(json, r.leaves_per_tree);
    json.EndObject();
  }
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
}

std::string ExperimentJson(const ExperimentOptions& options, const ExperimentResult& result,
                           double seconds) {
  JsonWriter json;
  WriteExperimentJson(options, result, seconds, json);
  return json.str();
}

}  // namespace urnforest
