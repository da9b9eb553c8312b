// CLI commands on halting rules: table, pstar, expected.
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_rules.h"
#include "urnforest/halting_table.h"
#include "urnforest/prior.h"
#include "urnforest/pstar.h"
#include "urnforest/serialize.h"
#include "urnforest/tally_pstar.h"

namespace urnforest::cli {
namespace {

/// Rule, alpha, T and l from the options, and the prior: from --model's out-of-bag votes when a
/// model is given, else the uniform prior (rules needing a data prior then fail).
struct RuleSetup {
  HaltingRule rule = HaltingTableOptions{}.rule;
  double alpha = HaltingTableOptions{}.alpha;
  int32_t trees = HaltingTableOptions{}.num_trees;
  int32_t classes = HaltingTableOptions{}.num_classes;
  bool has_prior = false;
  Prior prior;  ///< The table's prior (uniform unless the rule needs a data prior).
  /// With --model: the model's OOB votes, from which `expected` predicts the cost from training
  /// data alone (TrainingCostPredictor). Without a model: empty, and costs average the table's prior.
  std::vector<uint32_t> oob_votes;
};

Result<RuleSetup> ReadRuleSetup(const Args& args) {
  RuleSetup setup;
  Result<HaltingRule> rule = ParseRule(args.Get("rule", RuleName(setup.rule)));
  if (!rule.ok()) return rule.status();
  setup.rule = rule.value();
  Result<double> alpha = args.Real("alpha", setup.alpha, 0.0, 1.0);
  if (!alpha.ok()) return alpha.status();
  if (alpha.value() <= 0.0) {
    return Status::Error(StatusCode::kInvalidArgument, "option --alpha must be in (0, 1]");
  }
  setup.alpha = alpha.value();
  if (args.Has("model")) {
    Result<Forest> forest = LoadModel(args.Get("model", ""));
    if (!forest.ok()) return forest.status();
    Result<int64_t> trees = args.Int("trees", forest.value().num_trees(), 1,
                                     forest.value().num_trees());
    if (!trees.ok()) return trees.status();
    setup.trees = static_cast<int32_t>(trees.value());
    setup.classes = forest.value().num_classes();
    if (args.Has("classes")) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --classes comes from the model; do not give it with --model");
    }
    if (RuleNeedsPrior(setup.rule)) {
      Result<Prior> prior = PriorForForest(forest.value(), setup.rule, setup.trees);
      if (!prior.ok()) return prior.status();
      setup.prior = std::move(prior).value();
      setup.has_prior = true;
    }
    setup.oob_votes = forest.value().oob_votes();
  } else {
    Result<int64_t> trees = args.Int("trees", setup.trees, 1, 100000);
    if (!trees.ok()) return trees.status();
    setup.trees = static_cast<int32_t>(trees.value());
    Result<int64_t> classes = args.Int("classes", setup.classes, 2, 4096);
    if (!classes.ok()) return classes.status();
    setup.classes = static_cast<int32_t>(classes.value());
    if (RuleNeedsPrior(setup.rule)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           std::string("rule '") + RuleName(setup.rule) +
                               "' needs a prior estimated from a model: give --model MODEL");
    }
  }
  if (!setup.has_prior) {
    Result<Prior> uniform = Prior::Uniform(setup.classes);
    if (!uniform.ok()) return uniform.status();
    setup.prior = std::move(uniform).value();
  }
  return setup;
}

Result<HaltingTable> BuildTable(const RuleSetup& setup) {
  HaltingTableOptions options;
  options.rule = setup.rule;
  options.num_trees = setup.trees;
  options.num_classes = setup.classes;
  options.alpha = setup.alpha;
  return BuildHaltingTable(options, RuleNeedsPrior(setup.rule) ? &setup.prior : nullptr);
}

Result<std::vector<int32_t>> ReadCounts(const Args& args, const std::string& name,
                                        int32_t classes) {
  Result<std::vector<std::string>> items = args.List(name);
  if (!items.ok()) return items.status();
  if (items.value().size() != static_cast<size_t>(classes)) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "option --" + name + " needs " + std::to_string(classes) +
                             " comma-separated counts, got " +
                             std::to_string(items.value().size()));
  }
  std::vector<int32_t> counts;
  for (const std::string& item : items.value()) {
    int64_t value = 0;
    if (!ParsePlainInteger(item, &value) || value < 0 || value > 100000) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --" + name + ": '" + item + "' is not a count");
    }
    counts.push_back(static_cast<int32_t>(value));
  }
  return counts;
}

void WriteHeader(JsonWriter& json, const RuleSetup& setup) {
  json.Key("trees").Int(setup.trees);
  json.Key("alpha").Double(setup.alpha);
  json.Key("classes").Int(setup.classes);
  json.Key("rule").String(RuleName(setup.rule));
}

/// For l >= 3: every vector of the other counts (class order, skipping c) from which a halt is
/// possible, with the minimum count of class c: [o_1, ..., o_{l-1}, min].
void WriteMultiClassTable(JsonWriter& json, const HaltingTable& table, int32_t c) {
  const int32_t l = table.num_classes();
  const int32_t t = table.num_trees();
  std::vector<int32_t> others(l - 1, 0);
  json.BeginArray();
  while (true) {
    int32_t sum = 0;
    for (int32_t o : others) sum += o;
    if (sum <= t) {
      const int32_t m = table.MinLeaderVotes(c, others.data());
      if (m + sum <= t) {
        json.BeginArray();
        for (int32_t o : others) json.Int(o);
        json.Int(m).EndArray();
      }
    }
    size_t i = 0;
    while (i < others.size() && ++others[i] > t) others[i++] = 0;
    if (i == others.size()) break;
  }
  json.EndArray();
}

}  // namespace

/// `table --model M --rule R --alpha A [--trees T] --store --out M2`: builds the table from M's
/// out-of-bag votes and writes M with the table stored, no retraining.
Status StoreTableInModel(const Args& args, const RuleSetup& setup, Output& out) {
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) {
    return Status::Error(StatusCode::kInvalidArgument, "option --store needs --model MODEL");
  }
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return Status::Error(StatusCode::kInvalidArgument, "option --store needs --out MODEL2");
  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  Status stored = StoreForestTable(&forest.value(), setup.rule, setup.alpha, setup.trees);
  if (!stored.ok()) return stored;
  const std::vector<uint8_t> bytes = SerializeForest(forest.value());
  Status written = WriteFile(out_path.value(), bytes);
  if (!written.ok()) return written;
  const HaltingTable* table = forest.value().FindStoredTable(setup.rule, setup.alpha, setup.trees);
  out.json.BeginObject();
  WriteHeader(out.json, setup);
  out.json.Key("stored").Bool(true);
  out.json.Key("table_bytes").Int(static_cast<int64_t>(table->ToBytes().size()));
  out.json.Key("stored_tables").Int(static_cast<int64_t>(forest.value().stored_tables().size()));
  out.json.Key("model_bytes").Int(static_cast<int64_t>(bytes.size()));
  out.json.Key("out").String(out_path.value());
  out.json.EndObject();
  out.text = std::string("stored ") + RuleName(setup.rule) + " table (alpha " +
             std::to_string(setup.alpha) + ", " + std::to_string(setup.trees) + " trees) -> " +
             out_path.value() + "\n";
  return Status::Ok();
}

Status RunTable(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"trees", "alpha", "classes", "rule", "model", "out"},
                                    {"json", "store"});
  if (!parsed.ok()) return parsed.status();
  if (parsed.value().Has("out") && !parsed.value().Flag("store")) {
    return Status::Error(StatusCode::kInvalidArgument, "option --out needs --store");
  }
  Result<RuleSetup> setup = ReadRuleSetup(parsed.value());
  if (!setup.ok()) return setup.status();
  if (parsed.value().Flag("store")) return StoreTableInModel(parsed.value(), setup.value(), out);
  if (!setup.ok()) return setup.status();
  const auto start = std::chrono::steady_clock::now();
  Result<HaltingTable> table = BuildTable(setup.value());
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!table.ok()) return table.status();
  const HaltingTable& h = table.value();
  const int32_t l = setup.value().classes;

  out.json.BeginObject();
  WriteHeader(out.json, setup.value());
  out.json.Key("build_ms").Double(build_ms);
  out.json.Key("table_bytes").Int(static_cast<int64_t>(h.ToBytes().size()));
  out.json.Key("memory_bytes").Int(static_cast<int64_t>(h.MemoryBytes()));
  out.json.Key("layout").String(LayoutName(h.layout()));
  out.json.Key("monotone").Bool(h.monotone());
  // An on-demand table lists its thresholds while that takes O(T log T) decisions of modest size.
  const bool listable = h.layout() != TableLayout::kOnDemand || h.num_trees() <= 2001;
  if (h.optimal_fallback()) out.json.Key("optimal_fallback").Bool(true);
  if (l == 2 && listable) {
    out.json.Key("min_majority").IntArray(h.BinaryThresholds(0));
    out.json.Key("tables").BeginArray();
    for (int32_t c = 0; c < 2; ++c) out.json.IntArray(h.BinaryThresholds(c));
    out.json.EndArray();
  } else if (l <= 4 && h.layout() == TableLayout::kThresholds) {
    out.json.Key("tables").BeginArray();
    for (int32_t c = 0; c < l; ++c) WriteMultiClassTable(out.json, h, c);
    out.json.EndArray();
  }
  out.json.EndObject();

  out.text = std::string(RuleName(h.rule())) + " table, T = " + std::to_string(h.num_trees()) +
             ", l = " + std::to_string(l) + ", alpha = " + std::to_string(setup.value().alpha) + "\n";
  if (l == 2 && listable) {
    for (int32_t c = 0; c < 2; ++c) {
      out.text += "class " + std::to_string(c) + " min votes by other count:";
      for (int32_t v : h.BinaryThresholds(c)) out.text += " " + std::to_string(v);
      out.text += "\n";
    }
  }
  return Status::Ok();
}

Status RunPStar(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"trees", "alpha", "classes", "rule", "model", "votes"},
                                    {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<RuleSetup> setup_or = ReadRuleSetup(args);
  if (!setup_or.ok()) return setup_or.status();
  const RuleSetup& setup = setup_or.value();
  Result<std::vector<int32_t>> votes = ReadCounts(args, "votes", setup.classes);
  if (!votes.ok()) return votes.status();
  int32_t total = 0;
  for (int32_t v : votes.value()) total += v;
  if (total > setup.trees) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the votes sum to " + std::to_string(total) + ", more than --trees " +
                             std::to_string(setup.trees));
  }
  Result<HaltingTable> table = BuildTable(setup);
  if (!table.ok()) return table.status();
  const HaltingTable& h = table.value();
  Result<TallyPStar> p = PStarOfTally(h, setup.prior, votes.value());
  if (!p.ok()) return p.status();
  const double pstar = p.value().pstar;
  const int32_t leader = p.value().leader;

  out.json.BeginObject();
  WriteHeader(out.json, setup);
  out.json.Key("votes").IntArray(votes.value());
  out.json.Key("pstar").Double(pstar);
  out.json.Key("exact").Bool(p.value().exact);
  out.json.Key("leader").Int(leader);
  out.json.Key("halt").Bool(p.value().halts);
  if (RuleTraits(setup.rule).infinite_ensemble && leader >= 0) {
    out.json.Key("infinite_exact").Double(InfiniteExactProbability(votes.value(), leader));
  }
  out.json.EndObject();

  char line[160];
  std::snprintf(line, sizeof(line), "P* = %.9f (leader %d): %s\n", pstar, leader,
                p.value().halts ? "halt" : "continue");
  out.text = line;
  return Status::Ok();
}

Status RunExpected(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2, {"trees", "alpha", "classes", "rule", "model", "final", "samples", "seed"},
      {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<RuleSetup> setup_or = ReadRuleSetup(args);
  if (!setup_or.ok()) return setup_or.status();
  const RuleSetup& setup = setup_or.value();
  Result<int64_t> samples = args.Int("samples", 10000, 1, 100000000);
  if (!samples.ok()) return samples.status();
  Result<int64_t> seed = args.Int("seed", 1, 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  Result<HaltingTable> table = BuildTable(setup);
  if (!table.ok()) return table.status();
  const HaltingTable& h = table.value();

  Result<CostEstimate> exact = Status::Error(StatusCode::kInternal, "not computed");
  Result<CostEstimate> monte_carlo = Status::Error(StatusCode::kInternal, "not computed");
  std::vector<int32_t> final_tally;
  if (args.Has("final")) {
    Result<std::vector<int32_t>> f = ReadCounts(args, "final", setup.classes);
    if (!f.ok()) return f.status();
    final_tally = f.value();
    int32_t total = 0;
    for (int32_t v : final_tally) total += v;
    if (total != setup.trees) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --final must sum to --trees " + std::to_string(setup.trees) +
                               ", got " + std::to_string(total));
    }
    exact = ExactCostForFinalTally(h, final_tally);
    if (!exact.ok()) return exact.status();
    if (args.Has("samples")) {
      monte_carlo = MonteCarloCostForFinalTally(h, final_tally, samples.value(),
                                                static_cast<uint64_t>(seed.value()));
    }
  } else if (args.Has("model")) {
    TrainingCostOptions options;
    options.monte_carlo_samples = samples.value();
    options.seed = static_cast<uint64_t>(seed.value());
    options.stop_probability = true;
    Result<TrainingCostPredictor> predictor =
        TrainingCostPredictor::FromOob(setup.oob_votes, setup.classes, setup.trees, options);
    if (!predictor.ok()) return predictor.status();
    Result<TrainingCost> cost = predictor.value().Predict(h);
    if (!cost.ok()) return cost.status();
    TrainingCostReport report = ReportTrainingCost(cost.value());
    exact = std::move(report.exact);
    if (report.monte_carlo.has_value()) monte_carlo = *report.monte_carlo;
  } else {
    exact = ExactCostOverPrior(h, setup.prior);
    monte_carlo = MonteCarloCost(h, setup.prior, samples.value(), static_cast<uint64_t>(seed.value()));
    if (!exact.ok() && !monte_carlo.ok()) return exact.status();
  }

  out.json.BeginObject();
  WriteHeader(out.json, setup);
  if (!final_tally.empty()) out.json.Key("final").IntArray(final_tally);
  if (exact.ok()) {
    out.json.Key("expected_trees").Double(exact.value().expected_trees);
    out.json.Key("disagreement").Double(exact.value().disagreement);
    out.json.Key("stop_probability").DoubleArray(exact.value().stop_probability);
  } else {
    out.json.Key("exact_unavailable").String(exact.status().ToString());
  }
  if (monte_carlo.ok()) {
    out.json.Key("monte_carlo_trees").Double(monte_carlo.value().expected_trees);
    out.json.Key("monte_carlo_disagreement").Double(monte_carlo.value().disagreement);
    out.json.Key("monte_carlo_samples").Int(monte_carlo.value().samples);
  }
  out.json.EndObject();

  char line[200];
  if (exact.ok()) {
    std::snprintf(line, sizeof(line), "expected trees %.4f, disagreement %.6f\n",
                  exact.value().expected_trees, exact.value().disagreement);
    out.text += line;
  }
  if (monte_carlo.ok()) {
    std::snprintf(line, sizeof(line), "Monte Carlo (%lld draws): trees %.4f, disagreement %.6f\n",
                  static_cast<long long>(monte_carlo.value().samples),
                  monte_carlo.value().expected_trees, monte_carlo.value().disagreement);
    out.text += line;
  }
  return Status::Ok();
}

}  // namespace urnforest::cli
