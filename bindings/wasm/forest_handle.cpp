// ForestHandle: training, loading, static pruning, priors, traces and
// expected costs, and its embind registration.
#include "forest_handle.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"
#include "dataset_handle.h"
#include "halting_handle.h"
#include "memory.h"
#include "options.h"
#include "predict_abi.h"
#include "urnforest/binary_stopping.h"
#include "urnforest/certified_halting.h"
#include "urnforest/forest_halting.h"
#include "urnforest/importance.h"
#include "urnforest/ordering.h"
#include "urnforest/predict.h"
#include "urnforest/prior.h"
#include "urnforest/prune.h"
#include "urnforest/query_order.h"
#include "urnforest/serialize.h"
#include "urnforest/tally_posterior.h"
#include "urnforest/train_request.h"
#include "urnforest/vote_matrix.h"
#include "urnforest/voteboost.h"

namespace urnforest::wasm {
namespace {

/// Vote-boosting's emphasis of vote counts `votes` (Uint32Array rows x classes, row-major, each
/// row summing to `trees`; validated by the JS side): {share: Float64Array (VoteBoostShares),
/// weights: Float64Array (VoteBoostWeights with a, b)} or an error object.
val EmphasisWeights(const val& votes, int32_t classes, int32_t trees, double a, double b) {
  const std::vector<uint32_t> counts = emscripten::convertJSArrayToNumberVector<uint32_t>(votes);
  Result<std::vector<double>> share = VoteBoostShares(counts, classes, trees);
  if (!share.ok()) return ErrorObject(share.status());
  Result<std::vector<double>> weights = VoteBoostWeights(counts, classes, trees, a, b);
  if (!weights.ok()) return ErrorObject(weights.status());
  val out = val::object();
  out.set("share", CopyOut(share.value()));
  out.set("weights", CopyOut(weights.value()));
  return out;
}

/// EmphasisGrid() as a Float64Array.
val EmphasisGridArray() { return CopyOut(EmphasisGrid()); }

}  // namespace

val ForestHandle::Train(const DatasetHandle& data, const val& spec, val progress) {
  TrainRequest request;
  Status decoded = TrainRequestFromJs(spec, &request);
  if (!decoded.ok()) return ErrorObject(decoded);
  request.options.seed = SeedFromJs(spec, request.options.seed);
  Result<TrainedForest> trained =
      TrainWithEmphasisSelection(data.data(), request, ProgressFromJs(progress));
  if (!trained.ok()) return ErrorObject(trained.status());
  forest_ = std::move(trained.value().forest);
  if (!trained.value().emphasis_selected) return val::undefined();
  const EmphasisSelection& selection = trained.value().emphasis;
  val emphasis = val::object();
  emphasis.set("chosen", selection.chosen);
  emphasis.set("grid", CopyOut(selection.grid));
  emphasis.set("cvError", CopyOut(selection.cv_error));
  val out = val::object();
  out.set("emphasis", emphasis);
  return out;
}

val ForestHandle::TrainPart(const DatasetHandle& data, const val& spec, int32_t first, int32_t count,
                            val progress) {
  TrainRequest request;
  Status status = TrainRequestFromJs(spec, &request);
  if (status.ok()) status = CheckTrainRequest(request, data.data().num_features());
  if (!status.ok()) return ErrorObject(status);
  request.options.seed = SeedFromJs(spec, request.options.seed);
  Result<Forest> result =
      TrainForestPart(data.data(), request.options, first, count, ProgressFromJs(progress));
  if (!result.ok()) return ErrorObject(result.status());
  forest_ = std::move(result).value();
  return val::undefined();
}

val ForestHandle::MergeParts(const val& parts) {
  const size_t n = parts["length"].as<size_t>();
  std::vector<Forest> loaded;
  loaded.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint8_t> bytes = emscripten::convertJSArrayToNumberVector<uint8_t>(parts[i]);
    Result<Forest> part = DeserializeForest(bytes.data(), bytes.size());
    if (!part.ok()) return ErrorObject(part.status());
    loaded.push_back(std::move(part).value());
  }
  std::vector<const Forest*> pointers;
  for (const Forest& part : loaded) pointers.push_back(&part);
  Result<Forest> merged = MergeForestParts(pointers);
  if (!merged.ok()) return ErrorObject(merged.status());
  forest_ = std::move(merged).value();
  return val::undefined();
}

val ForestHandle::LearnerOptions() const {
  const TrainOptions& o = forest_.options();
  val out = val::object();
  out.set("ensemble", std::string(EnsembleKindName(o.ensemble)));
  out.set("maxDepth", o.max_depth);
  out.set("minLeaf", o.min_leaf);
  out.set("vbA", o.voteboost.a);
  out.set("vbB", o.voteboost.ResolvedB());
  out.set("vbBase", std::string(VoteBoostBaseName(o.voteboost.base)));
  out.set("treePruning", std::string(TreePruningName(
                             PrunesTrees(o) ? TreePruning::kCostComplexityCV : TreePruning::kNone)));
  out.set("pruningFolds", o.pruning.cv_folds);
  out.set("pruningSe", o.pruning.se_rule);
  out.set("grownToPurity", GrownToPurity(o));
  return out;
}

val ForestHandle::Load(const val& bytes) {
  std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  Result<Forest> result = DeserializeForest(data.data(), data.size());
  if (!result.ok()) return ErrorObject(result.status());
  forest_ = std::move(result).value();
  return val::undefined();
}

namespace {

// OrderingOptions from the keys `spec` has (ordering, on: names; backfit, mdmP).
Result<OrderingOptions> OrderingOptionsOf(const val& spec) {
  OrderingOptions options;
  if (Has(spec, "ordering")) {
    Result<Ordering> ordering = ParseOrdering(spec["ordering"].as<std::string>());
    if (!ordering.ok()) return ordering.status();
    options.ordering = ordering.value();
  }
  if (Has(spec, "on")) {
    Result<OrderingSource> on = ParseOrderingSource(spec["on"].as<std::string>());
    if (!on.ok()) return on.status();
    options.on = on.value();
  }
  if (Has(spec, "backfit")) options.backfit_passes = spec["backfit"].as<int32_t>();
  if (Has(spec, "mdmP")) options.mdm_p = spec["mdmP"].as<double>();
  return options;
}

}  // namespace

val ForestHandle::Order(const DatasetHandle& data, const val& spec) const {
  Result<OrderingOptions> options = OrderingOptionsOf(spec);
  if (!options.ok()) return ErrorObject(options.status());
  Result<std::vector<int32_t>> order = OrderForest(forest_, data.data(), options.value());
  if (!order.ok()) return ErrorObject(order.status());
  return CopyOut(order.value());
}

val ForestHandle::OrderingWarningsOf(const DatasetHandle& data, const val& spec) const {
  Result<OrderingOptions> options = OrderingOptionsOf(spec);
  if (!options.ok()) return ErrorObject(options.status());
  return StringArray(OrderingWarnings(forest_, data.data(), options.value()));
}

val ForestHandle::ErrorCurveOf(const DatasetHandle& data, const val& order) const {
  Result<VoteMatrix> matrix = ComputeVoteMatrix(forest_, data.data());
  if (!matrix.ok()) return ErrorObject(matrix.status());
  Result<std::vector<double>> curve = ErrorCurve(matrix.value(), IntVector(order));
  if (!curve.ok()) return ErrorObject(curve.status());
  return CopyOut(curve.value());
}

val ForestHandle::FeatureImportanceOf(const DatasetHandle& data, const std::string& method,
                                      double seed_hi, double seed_lo) const {
  Result<ImportanceMethod> parsed = ParseImportanceMethod(method);
  if (!parsed.ok()) return ErrorObject(parsed.status());
  ImportanceOptions options;
  options.method = parsed.value();
  options.seed = Seed64(seed_hi, seed_lo);
  Result<std::vector<double>> importance = FeatureImportance(forest_, data.data(), options);
  if (!importance.ok()) return ErrorObject(importance.status());
  return CopyOut(importance.value());
}

val ForestHandle::LoadPruned(const ForestHandle& source, const val& order, int32_t keep,
                             const DatasetHandle* training) {
  Result<Forest> pruned = PruneForest(source.forest_, IntVector(order), keep,
                                      training != nullptr ? &training->data() : nullptr);
  if (!pruned.ok()) return ErrorObject(pruned.status());
  forest_ = std::move(pruned).value();
  return val::undefined();
}

val ForestHandle::PriorOf(const std::string& rule_name, int32_t trees) const {
  Result<HaltingRule> rule = ParseRule(rule_name);
  if (!rule.ok()) return ErrorObject(rule.status());
  Result<Prior> prior = PriorForForest(forest_, rule.value(), trees);
  if (!prior.ok()) return ErrorObject(prior.status());
  const Prior& p = prior.value();
  val out = val::object();
  out.set("kind", std::string(PriorKindName(p.kind())));
  out.set("classes", p.num_classes());
  out.set("trees", trees);
  val components = val::array();
  for (size_t i = 0; i < p.components().size(); ++i) {
    val component = val::object();
    component.set("weight", p.components()[i].weight);
    component.set("beta", CopyOut(p.components()[i].beta));
    components.set(i, component);
  }
  out.set("components", components);
  if (p.kind() == PriorKind::kTallyMixture) {
    out.set("support", CopyOut(p.support()));
    out.set("weights", CopyOut(p.support_weights()));
    out.set("uniformWeight", p.uniform_weight());
  }
  // Every final tally's mass while that array is small (l <= 4 and moderate T); else null.
  Result<std::vector<double>> mass =
      p.num_classes() <= 4 ? FinalTallyMass(p, trees) : Result<std::vector<double>>(Status::Error(
                                                            StatusCode::kLimitExceeded, "l > 4"));
  if (mass.ok()) {
    out.set("finalTallyMass", CopyOut(mass.value()));
  } else if (mass.status().code == StatusCode::kLimitExceeded) {
    out.set("finalTallyMass", val::null());
  } else {
    return ErrorObject(mass.status());
  }
  return out;
}

val ForestHandle::Trace(const DatasetHandle& data, double row, const HaltingTableHandle& table,
                        const std::string& order, double seed_hi, double seed_lo) const {
  Result<SequentialVoteOptions> options = VoteOptionsFromJs(order, seed_hi, seed_lo);
  if (!options.ok()) return ErrorObject(options.status());
  // The query order depends on the row index (random order): trace row r of the full dataset.
  Result<RowTrace> traced = TraceRow(forest_, data.data(), static_cast<size_t>(row), table.table(),
                                     options.value());
  if (!traced.ok()) return ErrorObject(traced.status());
  const VoteTrace& t = traced.value().trace;
  const std::vector<uint32_t>& full_votes = traced.value().full_votes;
  val out = val::object();
  out.set("trees", CopyOut(t.trees));
  out.set("votes", CopyOut(t.votes));
  out.set("confidence", CopyOut(t.confidence));
  out.set("leaders", CopyOut(t.leaders));
  out.set("treesUsed", t.trees_used);
  out.set("haltedEarly", t.halted_early);
  out.set("classIndex", t.label);
  out.set("fullClassIndex", t.full_label);
  out.set("fullVotes", CopyOut(full_votes));
  return out;
}

val ForestHandle::ExpectedCost(const HaltingTableHandle& table, double samples, double seed_hi,
                               double seed_lo) const {
  Result<TrainingCostReport> report = ReportCostFromTraining(
      forest_, table.table(), static_cast<int64_t>(samples), Seed64(seed_hi, seed_lo));
  if (!report.ok()) return ErrorObject(report.status());
  if (!report.value().monte_carlo.has_value()) return CostObject(report.value().exact, nullptr);
  Result<CostEstimate> mc = *report.value().monte_carlo;
  return CostObject(report.value().exact, &mc);
}

std::string ForestHandle::DefaultOrder() const {
  return QueryOrderName(DefaultQueryOrder(forest_));
}

val ForestHandle::Posterior(const std::string& rule_name, int32_t trees, const val& tally) const {
  Result<HaltingRule> rule = ParseRule(rule_name);
  if (!rule.ok()) return ErrorObject(rule.status());
  Result<Prior> prior = PriorForForest(forest_, rule.value(), trees);
  if (!prior.ok()) return ErrorObject(prior.status());
  Result<TallyPosterior> posterior = FinalTallyPosterior(prior.value(), trees, IntVector(tally));
  if (!posterior.ok()) return ErrorObject(posterior.status());
  val out = val::object();
  out.set("numClasses", posterior.value().num_classes);
  out.set("numTrees", posterior.value().num_trees);
  out.set("tallies", CopyOut(posterior.value().tallies));
  out.set("probability", CopyOut(posterior.value().probability));
  out.set("win", CopyOut(posterior.value().win));
  out.set("leader", posterior.value().leader);
  return out;
}

val ForestHandle::StoppingRegion(double alpha) const {
  Result<std::shared_ptr<const BinaryStoppingStrategy>> lp = ForestMinimean(forest_, alpha);
  if (!lp.ok()) return ErrorObject(lp.status());
  Result<std::vector<double>> stop = StopProbabilities(*lp.value());
  if (!stop.ok()) return ErrorObject(stop.status());
  val out = val::object();
  out.set("numTrees", lp.value()->first.num_trees);
  out.set("stopProbability", CopyOut(stop.value()));
  out.set("answer", CopyOut(lp.value()->first.answer));
  out.set("expectedTrees", lp.value()->expected_trees);
  out.set("expectedDisagreement", lp.value()->expected_disagreement);
  return out;
}

val ForestHandle::StoreTable(const HaltingTableHandle& table) {
  Status status = forest_.StoreTable(table.table());
  if (!status.ok()) return ErrorObject(status);
  return val::undefined();
}

val ForestHandle::StoredTables() const {
  val out = val::array();
  for (size_t i = 0; i < forest_.stored_tables().size(); ++i) {
    const HaltingTable& t = forest_.stored_tables()[i];
    val entry = val::object();
    entry.set("rule", std::string(RuleName(t.rule())));
    entry.set("alpha", t.alpha());
    entry.set("trees", t.num_trees());
    out.set(i, entry);
  }
  return out;
}

val ForestHandle::Bytes() const { return CopyOut(SerializeForest(forest_)); }
val ForestHandle::TrainLabels() const { return CopyOut(forest_.train_labels()); }
val ForestHandle::TreeWeights() const { return CopyOut(forest_.tree_weights()); }
val ForestHandle::OobVotes() const { return CopyOut(forest_.oob_votes()); }
val ForestHandle::ClassNames() const { return StringArray(forest_.schema().class_names); }
val ForestHandle::FeatureNamesOf() const { return FeatureNames(forest_.schema()); }
val ForestHandle::FeatureTypesOf() const { return FeatureTypes(forest_.schema()); }

void RegisterForest() {
  using emscripten::allow_raw_pointers;
  emscripten::class_<ForestHandle>("_ForestHandle")
      .constructor<>()
      .function("_train", &ForestHandle::Train)
      .function("_trainPart", &ForestHandle::TrainPart)
      .function("_mergeParts", &ForestHandle::MergeParts)
      .function("_load", &ForestHandle::Load)
      .function("_loadOnnx", &ForestHandle::LoadOnnx)
      .function("_loadXGBoost", &ForestHandle::LoadXGBoost)
      .function("_imported", &ForestHandle::Imported)
      .function("_calibrate", &ForestHandle::Calibrate)
      .function("_toOnnx", &ForestHandle::ToOnnx)
      .function("_bytes", &ForestHandle::Bytes)
      .function("_storeTable", &ForestHandle::StoreTable)
      .function("_storedTables", &ForestHandle::StoredTables)
      .function("_numTrees", &ForestHandle::NumTrees)
      .function("_numClasses", &ForestHandle::NumClasses)
      .function("_numFeatures", &ForestHandle::NumFeatures)
      .function("_numNodes", &ForestHandle::NumNodes)
      .function("_oobError", &ForestHandle::OobError)
      .function("_oobVotes", &ForestHandle::OobVotes)
      .function("_classNames", &ForestHandle::ClassNames)
      .function("_featureNames", &ForestHandle::FeatureNamesOf)
      .function("_featureTypes", &ForestHandle::FeatureTypesOf)
      .function("_targetName", &ForestHandle::TargetName)
      .function("_trainLabels", &ForestHandle::TrainLabels)
      .function("_prior", &ForestHandle::PriorOf)
      .function("_address", &AddressOf<ForestHandle>)
      .function("_trace", &ForestHandle::Trace)
      .function("_expectedCost", &ForestHandle::ExpectedCost)
      .function("_treeWeights", &ForestHandle::TreeWeights)
      .function("_learnerOptions", &ForestHandle::LearnerOptions)
      .function("_order", &ForestHandle::Order)
      .function("_orderingWarnings", &ForestHandle::OrderingWarningsOf)
      .function("_errorCurve", &ForestHandle::ErrorCurveOf)
      .function("_featureImportance", &ForestHandle::FeatureImportanceOf)
      .function("_loadPruned", &ForestHandle::LoadPruned, allow_raw_pointers())
      .function("_defaultOrder", &ForestHandle::DefaultOrder)
      .function("_posterior", &ForestHandle::Posterior)
      .function("_stoppingRegion", &ForestHandle::StoppingRegion);
  emscripten::function("_haltedAnswerLayout", &HaltedAnswerLayoutObject);
  emscripten::function("_emphasisWeights", &EmphasisWeights);
  emscripten::function("_emphasisGrid", &EmphasisGridArray);
}

}  // namespace urnforest::wasm
