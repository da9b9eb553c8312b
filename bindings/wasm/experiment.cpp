// The experiment harness across the boundary: decoding runExperiment's validated options into
// ExperimentOptions, running it, and the generator names; with their embind registration.
#include <chrono>
#include <string>

#include <emscripten/bind.h>

#include "convert.h"
#include "dataset_handle.h"
#include "forest_handle.h"
#include "registry.h"
#include "urnforest/experiment.h"
#include "urnforest/experiment_json.h"
#include "urnforest/generators.h"

namespace urnforest::wasm {
namespace {

/// Generator names of the synthetic problems (for runExperiment's validation).
val GeneratorNameList() { return StringArray(GeneratorNames()); }

/// ExperimentOptions from `o`, validated by the JS side: protocol 0 kfold / 1 holdout /
/// 2 synthetic, generator, name, folds, repeats, testFraction, stratified, trainRows, testRows,
/// ensemble, boosting, trees, mtry, mtryRule, maxDepth, noise, base (as ForestHandle::Train's),
/// alphas (array), rules (array of HaltingRule positions), seedHi, seedLo, proxyTrees, samples,
/// prune (Ordering position or -1), keep, queryOrder (0 ordered / 2 random). `data` may be null.
ExperimentOptions ExperimentOptionsFromJs(const val& o, const DatasetHandle* data) {
  ExperimentOptions options;
  options.protocol = static_cast<ProtocolKind>(o["protocol"].as<int32_t>());
  options.data = data != nullptr ? &data->data() : nullptr;
  options.generator = o["generator"].as<std::string>();
  options.dataset_name = o["name"].as<std::string>();
  options.folds = o["folds"].as<int32_t>();
  options.repeats = o["repeats"].as<int32_t>();
  options.test_fraction = o["testFraction"].as<double>();
  options.stratified = o["stratified"].as<bool>();
  options.train_rows = static_cast<size_t>(o["trainRows"].as<double>());
  options.test_rows = static_cast<size_t>(o["testRows"].as<double>());
  options.train.ensemble = static_cast<EnsembleKind>(o["ensemble"].as<int32_t>());
  options.train.boosting = static_cast<BoostingVariant>(o["boosting"].as<int32_t>());
  options.train.num_trees = o["trees"].as<int32_t>();
  options.train.mtry = o["mtry"].as<int32_t>();
  options.train.mtry_rule = static_cast<MtryRule>(o["mtryRule"].as<int32_t>());
  options.train.max_depth = o["maxDepth"].as<int32_t>();
  options.label_noise = o["noise"].as<double>();
  const val base = o["base"];
  ApplyBaseLearner(base, &options.train);
  options.select_emphasis = base["emphasisCv"].as<bool>();
  options.emphasis_cv.num_trees = base["cvTrees"].as<int32_t>();
  options.alphas = emscripten::convertJSArrayToNumberVector<double>(o["alphas"]);
  options.rules.clear();
  for (int32_t code : IntVector(o["rules"])) options.rules.push_back(static_cast<HaltingRule>(code));
  options.seed = Seed64(o["seedHi"].as<double>(), o["seedLo"].as<double>());
  options.proxy_trees = o["proxyTrees"].as<int32_t>();
  options.monte_carlo_samples = static_cast<int64_t>(o["samples"].as<double>());
  const int32_t prune = o["prune"].as<int32_t>();
  options.prune = prune >= 0;
  if (options.prune) options.ordering.ordering = static_cast<Ordering>(prune);
  options.keep = o["keep"].as<int32_t>();
  options.query_order = static_cast<PrunedQueryOrder>(o["queryOrder"].as<int32_t>());
  return options;
}

/// Runs the experiment harness with options `o` (ExperimentOptionsFromJs) on `data` (null for
/// synthetic problems). `progress`: as ProgressFromJs. Returns the report as a JSON string (the
/// CLI's `experiment --json` document) or an error object.
val RunExperimentJson(const val& o, const DatasetHandle* data, val progress) {
  ExperimentOptions options = ExperimentOptionsFromJs(o, data);
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
  emscripten::function("_generatorNames", &GeneratorNameList);
}

}  // namespace urnforest::wasm
