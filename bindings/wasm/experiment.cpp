// The experiment harness across the boundary: decoding runExperiment's validated options into
// ExperimentOptions and running it; with its embind registration.
#include <chrono>
#include <string>

#include <emscripten/bind.h>

#include "convert.h"
#include "dataset_handle.h"
#include "options.h"
#include "registry.h"
#include "urnforest/double_pruning.h"
#include "urnforest/ordering.h"
#include "urnforest/experiment.h"
#include "urnforest/experiment_json.h"
#include "urnforest/generators.h"

namespace urnforest::wasm {
namespace {

/// ExperimentOptions from JS object `o` (validated for type and range by the JS side), setting
/// only the keys present: the protocol is synthetic with `generator` (a name), holdout with
/// `holdout` (the test fraction), else k-fold CV of `data` (may be null); name, folds, repeats
/// (absent: DefaultRepeats of the protocol), stratified, train, test (rows), noise, the learner keys
/// of TrainRequestFromJs (voteboost.cv selects the emphasis per partition), alphas (array), rules
/// (array of names), seedHi/seedLo, proxyTrees, samples, prune (an ordering name), keep,
/// queryOrder (a PrunedQueryOrder name). Bounds and rules between options are
/// CheckExperimentOptions' (RunExperiment). Fails with kInvalidArgument on a name the core does not
/// parse.
Result<ExperimentOptions> ExperimentOptionsFromJs(const val& o, const DatasetHandle* data) {
  ExperimentOptions options;
  options.data = data != nullptr ? &data->data() : nullptr;
  if (Has(o, "generator")) {
    options.protocol = ProtocolKind::kSynthetic;
    options.generator = o["generator"].as<std::string>();
  } else if (Has(o, "holdout")) {
    options.protocol = ProtocolKind::kHoldout;
    options.test_fraction = o["holdout"].as<double>();
  }
  options.repeats = DefaultRepeats(options.protocol);
  if (Has(o, "name")) options.dataset_name = o["name"].as<std::string>();
  if (Has(o, "folds")) options.folds = o["folds"].as<int32_t>();
  if (Has(o, "repeats")) options.repeats = o["repeats"].as<int32_t>();
  if (Has(o, "stratified")) options.stratified = o["stratified"].as<bool>();
  if (Has(o, "train")) options.train_rows = static_cast<size_t>(o["train"].as<double>());
  if (Has(o, "test")) options.test_rows = static_cast<size_t>(o["test"].as<double>());
  if (Has(o, "noise")) options.label_noise = o["noise"].as<double>();
  TrainRequest train;
  Status status = TrainRequestFromJs(o, &train);
  if (!status.ok()) return status;
  options.train = train.options;
  options.select_emphasis = train.select_emphasis;
  options.emphasis_cv.num_trees = train.cv_trees;
  options.train_named = train.named;
  if (Has(o, "alphas")) options.alphas = emscripten::convertJSArrayToNumberVector<double>(o["alphas"]);
  if (Has(o, "rules")) {
    options.rules.clear();
    for (const std::string& name : StringVector(o["rules"])) {
      Result<HaltingRule> rule = ParseRule(name);
      if (!rule.ok()) return rule.status();
      options.rules.push_back(rule.value());
    }
  }
  options.seed = SeedFromJs(o, options.seed);
  if (Has(o, "proxyTrees")) options.proxy_trees = o["proxyTrees"].as<int32_t>();
  if (Has(o, "samples")) options.monte_carlo_samples = static_cast<int64_t>(o["samples"].as<double>());
  if (Has(o, "maxWork")) options.max_work = o["maxWork"].as<double>();
  if (Has(o, "prune")) {
    Result<Ordering> ordering = ParseOrdering(o["prune"].as<std::string>());
    if (!ordering.ok()) return ordering.status();
    options.prune = true;
    options.ordering.ordering = ordering.value();
  }
  if (Has(o, "keep")) options.keep = o["keep"].as<int32_t>();
  if (Has(o, "queryOrder")) {
    Result<PrunedQueryOrder> order = ParsePrunedQueryOrder(o["queryOrder"].as<std::string>());
    if (!order.ok()) return order.status();
    options.query_order = order.value();
  }
  return options;
}

/// Runs the experiment harness with options `o` (ExperimentOptionsFromJs) on `data` (null for
/// synthetic problems). `progress`: as ProgressFromJs. Returns the report as a JSON string (the
/// CLI's `experiment --json` document) or an error object.
val RunExperimentJson(const val& o, const DatasetHandle* data, val progress) {
  Result<ExperimentOptions> decoded = ExperimentOptionsFromJs(o, data);
  if (!decoded.ok()) return ErrorObject(decoded.status());
  const ExperimentOptions& options = decoded.value();
  const auto start = std::chrono::steady_clock::now();
  Result<ExperimentResult> run = RunExperiment(options, ProgressFromJs(progress));
  if (!run.ok()) return ErrorObject(run.status());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return val(ExperimentJson(options, run.value(), seconds));
}

}  // namespace

void RegisterExperiment() {
  emscripten::function("_runExperiment", &RunExperimentJson, emscripten::allow_raw_pointers());
}

}  // namespace urnforest::wasm
