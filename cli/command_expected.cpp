// CLI command `expected`: the expected number of trees a halting rule queries and its
// disagreement with the full vote, exact and by Monte Carlo. Arguments (ReadRuleSetup,
// ReadSampleArgs) → the core's cost estimates → the JSON answer and the text lines.
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "command.h"
#include "rule_setup.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"

namespace urnforest::cli {
namespace {

/// The options of `expected` besides the rule setup: Monte Carlo draws and their seed.
struct SampleArgs {
  int64_t samples = kDefaultCostSamples;
  uint64_t seed = 1;
};

/// What `expected` computed: the exact and the Monte Carlo estimate, each or why it is missing.
struct CostEstimates {
  Result<CostEstimate> exact = Status::Error(StatusCode::kInternal, "not computed");
  Result<CostEstimate> monte_carlo = Status::Error(StatusCode::kInternal, "not computed");
  std::vector<int32_t> final_tally;  ///< --final, when given.
};

Result<SampleArgs> ReadSampleArgs(const Args& args) {
  SampleArgs s;
  Result<int64_t> samples = args.Int("samples", s.samples, 1, kMaxCostSamples);
  if (!samples.ok()) return samples.status();
  Result<int64_t> seed = args.Int("seed", static_cast<int64_t>(s.seed), 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  s.samples = samples.value();
  s.seed = static_cast<uint64_t>(seed.value());
  return s;
}

/// --final: the cost for one final tally, exact, and by Monte Carlo when --samples is given.
Status EstimateForFinalTally(const Args& args, const RuleSetup& setup, const HaltingTable& h,
                             const SampleArgs& s, CostEstimates* e) {
  Result<std::vector<int32_t>> f = ReadCounts(args, "final", setup.classes);
  if (!f.ok()) return f.status();
  e->final_tally = f.value();
  int32_t total = 0;
  for (int32_t v : e->final_tally) total += v;
  if (total != setup.trees) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --final must sum to --trees " + std::to_string(setup.trees) +
                             ", got " + std::to_string(total));
  }
  e->exact = ExactCostForFinalTally(h, e->final_tally);
  if (!e->exact.ok()) return e->exact.status();
  if (args.Has("samples")) e->monte_carlo = MonteCarloCostForFinalTally(h, e->final_tally, s.samples, s.seed);
  return Status::Ok();
}

/// --model: the cost predicted from the model's out-of-bag votes (TrainingCostPredictor).
Status EstimateFromOob(const RuleSetup& setup, const HaltingTable& h, const SampleArgs& s,
                       CostEstimates* e) {
  TrainingCostOptions options;
  options.monte_carlo_samples = s.samples;
  options.seed = s.seed;
  options.stop_probability = true;
  Result<TrainingCostPredictor> predictor =
      TrainingCostPredictor::FromOob(setup.oob_votes, setup.classes, setup.trees, options);
  if (!predictor.ok()) return predictor.status();
  Result<TrainingCost> cost = predictor.value().Predict(h);
  if (!cost.ok()) return cost.status();
  TrainingCostReport report = ReportTrainingCost(cost.value());
  e->exact = std::move(report.exact);
  if (report.monte_carlo.has_value()) e->monte_carlo = *report.monte_carlo;
  return Status::Ok();
}

void WriteExpectedJson(const RuleSetup& setup, const CostEstimates& e, JsonWriter& json) {
  json.BeginObject();
  WriteHeader(json, setup);
  if (!e.final_tally.empty()) json.Key("final").IntArray(e.final_tally);
  if (e.exact.ok()) {
    json.Key("expected_trees").Double(e.exact.value().expected_trees);
    json.Key("disagreement").Double(e.exact.value().disagreement);
    json.Key("stop_probability").DoubleArray(e.exact.value().stop_probability);
  } else {
    json.Key("exact_unavailable").String(e.exact.status().ToString());
  }
  if (e.monte_carlo.ok()) {
    json.Key("monte_carlo_trees").Double(e.monte_carlo.value().expected_trees);
    json.Key("monte_carlo_disagreement").Double(e.monte_carlo.value().disagreement);
    json.Key("monte_carlo_samples").Int(e.monte_carlo.value().samples);
  }
  json.EndObject();
}

std::string ExpectedText(const CostEstimates& e) {
  std::string text;
  char line[200];
  if (e.exact.ok()) {
    std::snprintf(line, sizeof(line), "expected trees %.4f, disagreement %.6f\n",
                  e.exact.value().expected_trees, e.exact.value().disagreement);
    text += line;
  }
  if (e.monte_carlo.ok()) {
    std::snprintf(line, sizeof(line), "Monte Carlo (%lld draws): trees %.4f, disagreement %.6f\n",
                  static_cast<long long>(e.monte_carlo.value().samples),
                  e.monte_carlo.value().expected_trees, e.monte_carlo.value().disagreement);
    text += line;
  }
  return text;
}

}  // namespace

Status RunExpected(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(
      argc, argv, 2, {"trees", "alpha", "classes", "rule", "model", "final", "samples", "seed"},
      {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<RuleSetup> setup_or = ReadRuleSetup(args);
  if (!setup_or.ok()) return setup_or.status();
  const RuleSetup& setup = setup_or.value();
  Result<SampleArgs> s = ReadSampleArgs(args);
  if (!s.ok()) return s.status();
  Result<HaltingTable> table = BuildTable(setup);
  if (!table.ok()) return table.status();
  const HaltingTable& h = table.value();

  CostEstimates e;
  if (args.Has("final")) {
    if (Status done = EstimateForFinalTally(args, setup, h, s.value(), &e); !done.ok()) return done;
  } else if (args.Has("model")) {
    if (Status done = EstimateFromOob(setup, h, s.value(), &e); !done.ok()) return done;
  } else {
    e.exact = ExactCostOverPrior(h, setup.prior);
    e.monte_carlo = MonteCarloCost(h, setup.prior, s.value().samples, s.value().seed);
    if (!e.exact.ok() && !e.monte_carlo.ok()) return e.exact.status();
  }
  WriteExpectedJson(setup, e, out.json);
  out.text += ExpectedText(e);
  return Status::Ok();
}

}  // namespace urnforest::cli
