// CLI commands on forests: predict, info (train: command_train.cpp).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/margin_rule.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"
#include "urnforest/query_order.h"
#include "urnforest/serialize.h"
#include "urnforest/voteboost.h"
#include "urnforest/weighted_vote.h"

namespace urnforest::cli {
namespace {

void WriteClassNames(JsonWriter& json, const Schema& schema) {
  json.StringArray(schema.class_names);
}

}  // namespace

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

Status RunPredict(int argc, char** argv, Output& out) {
  Result<Args> parsed =
      Args::Parse(argc, argv, 2, {"model", "data", "rule", "alpha", "order", "seed", "vote", "threads",
                                  URNFOREST_CSV_FORMAT_OPTIONS}, {"json", "proba", "compare"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) return data_path.status();

  // Large batches go over every core by default (PredictExecution: parts of at least 16,384 rows);
  // the results do not depend on it.
  Result<int64_t> threads = args.Int("threads", 0, 0, 4096);
  if (!threads.ok()) return threads.status();
  PredictExecution execution;
  execution.threads = static_cast<int32_t>(threads.value());

  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  const Forest& f = forest.value();
  CsvOptions csv;
  csv.schema = &f.schema();
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  Result<Dataset> data = LoadCsv(data_path.value(), csv);
  if (!data.ok()) return data.status();

  const auto start = std::chrono::steady_clock::now();
  // The rows are converted to the model's layout once, for the full and the halted vote.
  Result<PreparedRows> rows = PrepareRows(f, data.value());
  if (!rows.ok()) return rows.status();
  // Which vote is the full prediction: an imported model's own (soft by default), else the
  // majority of the trees' votes. An additive model's trees do not vote.
  const ImportedModel* imported = f.imported();
  VoteKind vote_kind = imported != nullptr ? imported->default_vote : VoteKind::kHard;
  if (args.Has("vote")) {
    const std::string v = args.Get("vote", "");
    if (v != "soft" && v != "hard") {
      return Status::Error(StatusCode::kInvalidArgument, "option --vote must be soft or hard, got '" + v + "'");
    }
    vote_kind = v == "soft" ? VoteKind::kSoft : VoteKind::kHard;
  }
  const bool additive = imported != nullptr && imported->kind == ImportedKind::kAdditive;
  // A halted prediction skips the full vote unless --compare asks for it (its votes and the
  // disagreement with it): halting's point is not querying every tree.
  const bool halted = args.Has("rule");
  const bool compare = args.Flag("compare");
  if (compare && !halted) {
    return Status::Error(StatusCode::kInvalidArgument, "option --compare needs --rule");
  }
  const bool full_wanted = !halted || compare;
  Result<FullVote> vote = additive || !full_wanted
                              ? Result<FullVote>(FullVote{})
                              : PredictFullRows(f, rows.value().values.data(), rows.value().num_rows, execution);
  if (!vote.ok()) return vote.status();
  std::optional<ScorePrediction> scores;
  // Rules on an imported forest's soft prediction: alpha1 (the exact early exit) and margin (the
  // calibrated margin rule, not a table rule). Every other rule reads a halting table, and a halted
  // prediction by a table rule gives its own probabilities (below), without every tree.
  const std::string rule_name = args.Get("rule", "");
  const bool margin = rule_name == "margin";
  const bool soft_rule = halted && imported != nullptr && vote_kind == VoteKind::kSoft &&
                         (margin || rule_name == "alpha1");
  const bool table_rule = halted && !soft_rule;
  if ((imported != nullptr && full_wanted) || (args.Flag("proba") && !table_rule)) {
    Result<ScorePrediction> s = PredictScoresRows(f, rows.value().values.data(), rows.value().num_rows, vote_kind);
    if (!s.ok()) return s.status();
    scores = std::move(s).value();
  }
  const auto stop = std::chrono::steady_clock::now();
  const double predict_ms = std::chrono::duration<double, std::milli>(stop - start).count();

  const Dataset& d = data.value();
  const std::vector<int32_t> no_labels;
  const std::vector<int32_t>& full_labels =
      !full_wanted ? no_labels : imported != nullptr ? scores->labels : vote.value().labels;
  std::vector<int32_t> predicted = full_labels;
  // A boosted model's own prediction is its weighted vote; halting (below) counts votes unweighted
  // and its disagreement is measured against the unweighted full vote (what the urn model bounds).
  if (!f.tree_weights().empty() && !halted) {
    Result<WeightedVote> weighted = PredictWeighted(f, d);
    if (!weighted.ok()) return weighted.status();
    predicted = weighted.value().labels;
  }

  // Halted (sequential) prediction when a rule is given.
  std::vector<double> halted_shares;  // with --proba and a table rule: the halted probabilities
  SequentialVoteResult sequential;
  double halted_ms = 0.0;
  double table_ms = 0.0;  // of halted_ms: building (or reading) the halting table
  bool table_from_store = false;
  double margin_lambda = -1.0;  // the margin rule's threshold, when used
  if (halted) {
    Result<HaltingRule> rule = margin ? Result<HaltingRule>(HaltingRule::kAlpha1) : ParseRule(rule_name);
    if (!rule.ok()) return rule.status();
    Result<double> alpha = args.Real("alpha", HaltingTableOptions{}.alpha, 0.0, 1.0);
    if (!alpha.ok()) return alpha.status();
    if (alpha.value() <= 0.0) {
      return Status::Error(StatusCode::kInvalidArgument, "option --alpha must be in (0, 1]");
    }
    SequentialVoteOptions vote_options;
    // The default order is the core's policy (DefaultQueryOrder: random for vote-boosting).
    const std::string order = args.Get("order", QueryOrderName(DefaultQueryOrder(f)));
    if (order == "random") {
      vote_options.order = QueryOrder::kRandomPerRow;
    } else if (order != "generation") {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --order must be generation or random, got '" + order + "'");
    }
    Result<int64_t> seed = args.Int("seed", 1, 0, INT64_MAX);
    if (!seed.ok()) return seed.status();
    vote_options.seed = static_cast<uint64_t>(seed.value());
    if (margin && !soft_rule) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "rule margin halts an imported forest's soft prediction (--vote soft)");
    }
    if (additive && (!soft_rule || margin)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "an additive model (boosted trees) halts with rule alpha1 (the exact "
                           "early exit) only: its trees add margins, they do not vote");
    }
    const auto halted_start = std::chrono::steady_clock::now();
    if (soft_rule) {
      Result<ExactHaltResult> soft =
          margin ? PredictSoftMargin(f, rows.value().values.data(), rows.value().num_rows, alpha.value(), &margin_lambda)
                 : PredictSoftExact(f, rows.value().values.data(), rows.value().num_rows);
      if (!soft.ok()) return soft.status();
      sequential.labels = soft.value().labels;
      sequential.trees_used = soft.value().trees_used;
      sequential.confidence.assign(sequential.labels.size(), margin ? alpha.value() : 1.0);
      sequential.halted_early.resize(sequential.labels.size());
      for (size_t r = 0; r < sequential.labels.size(); ++r) {
        sequential.halted_early[r] = sequential.trees_used[r] < f.num_trees();
      }
    } else {
      Result<HaltingTable> table = BuildForestTable(f, rule.value(), alpha.value(), 0, &table_from_store);
      if (!table.ok()) return table.status();
      table_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - halted_start).count();
      // The full vote of all trees, when asked for, is `vote` above: not computed again here.
      Result<HaltedPrediction> result =
          PredictHalted(f, rows.value(), table.value(), vote_options, /*compare=*/false, execution);
      if (!result.ok()) return result.status();
      if (args.Flag("proba")) {
        // The posterior mean of each row's final vote shares given the votes it drew, under the
        // rule's prior (docs/halting.md): the halted answer's probabilities.
        Result<Prior> prior = PriorForForest(f, rule.value(), table.value().num_trees());
        if (!prior.ok()) return prior.status();
        Result<std::vector<double>> shares = HaltedVoteShares(
            prior.value(), table.value().num_trees(), f.num_classes(), result.value().halted.tallies);
        if (!shares.ok()) return shares.status();
        halted_shares = std::move(shares).value();
      }
      sequential = std::move(result).value().halted;
    }
    halted_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - halted_start).count();
    predicted = sequential.labels;
  } else if (args.Has("alpha") || args.Has("order") || args.Has("seed")) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "options --alpha, --order and --seed need --rule");
  }
  std::vector<std::string> names;
  names.reserve(predicted.size());
  for (int32_t label : predicted) names.push_back(f.schema().class_names[label]);

  out.json.BeginObject();
  out.json.Key("rows").Int(static_cast<int64_t>(d.num_rows()));
  out.json.Key("labels").StringArray(names);
  if (!additive && full_wanted) out.json.Key("votes").IntArray(vote.value().votes);
  if (imported != nullptr || args.Has("vote")) {
    out.json.Key("vote").String(vote_kind == VoteKind::kSoft ? "soft" : "hard");
  }
  if (args.Flag("proba")) {
    // One array of class scores per row, classes in the model's order: the source library's
    // probabilities for an imported model, vote fractions otherwise; for a halted prediction by a
    // table rule, the posterior mean of the final vote shares given the votes drawn.
    const size_t l = static_cast<size_t>(f.num_classes());
    out.json.Key("probabilities").BeginArray();
    for (size_t r = 0; r < d.num_rows(); ++r) {
      out.json.BeginArray();
      const std::vector<double>& p = table_rule ? halted_shares : scores->scores;
      for (size_t c = 0; c < l; ++c) out.json.Double(p[r * l + c]);
      out.json.EndArray();
    }
    out.json.EndArray();
  }
  out.json.Key("predict_ms").Double(predict_ms);
  if (halted) {
    out.json.Key("rule").String(args.Get("rule", ""));
    out.json.Key("table_source").String(table_from_store ? "stored" : "built");
    if (margin_lambda >= 0) out.json.Key("lambda").Double(margin_lambda);  // +inf prints null
    out.json.Key("trees_used").IntArray(sequential.trees_used);
    out.json.Key("mean_trees").Double(sequential.MeanTrees());
    if (compare) {
      size_t disagree = 0;
      for (size_t r = 0; r < predicted.size(); ++r) disagree += predicted[r] != full_labels[r];
      out.json.Key("disagreement")
          .Double(predicted.empty() ? 0.0 : static_cast<double>(disagree) / predicted.size());
    }
    out.json.Key("confidence").DoubleArray(sequential.confidence);
    out.json.Key("halted_ms").Double(halted_ms);
    out.json.Key("table_ms").Double(table_ms);
  }
  double accuracy = -1;
  if (d.has_labels()) {
    size_t correct = 0;
    for (size_t r = 0; r < d.num_rows(); ++r) correct += d.labels()[r] == predicted[r];
    accuracy = d.num_rows() ? static_cast<double>(correct) / d.num_rows() : 0.0;
    out.json.Key("accuracy").Double(accuracy);
  }
  out.json.EndObject();

  for (const std::string& name : names) out.text += name + "\n";
  if (accuracy >= 0) {
    char line[64];
    std::snprintf(line, sizeof(line), "# accuracy %.4f\n", accuracy);
    out.text += line;
  }
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
    out.json.Key("kind").String(ImportedKindName(m->kind));
    out.json.Key("vote").String(VoteKindName(m->default_vote));
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
