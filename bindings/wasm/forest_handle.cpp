// ForestHandle: training, loading, full-vote prediction, static pruning, priors, traces and
// expected costs, and its embind registration.
#include "forest_handle.h"

#include <utility>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"
#include "dataset_handle.h"
#include "halting_handle.h"
#include "memory.h"
#include "predict_abi.h"
#include "urnforest/forest_halting.h"
#include "urnforest/ordering.h"
#include "urnforest/predict.h"
#include "urnforest/prior.h"
#include "urnforest/prune.h"
#include "urnforest/serialize.h"
#include "urnforest/vote_matrix.h"
#include "urnforest/voteboost.h"
#include "urnforest/weighted_vote.h"

namespace urnforest::wasm {

void ApplyBaseLearner(const val& base, TrainOptions* options) {
  options->voteboost.a = base["vbA"].as<double>();
  options->voteboost.b = base["vbB"].as<double>();
  options->voteboost.base = static_cast<VoteBoostBase>(base["vbBase"].as<int32_t>());
  options->pruning.mode = static_cast<TreePruning>(base["pruning"].as<int32_t>());
  options->pruning.cv_folds = base["pruningFolds"].as<int32_t>();
  options->pruning.se_rule = base["pruningSe"].as<double>();
}

val ForestHandle::Train(const DatasetHandle& data, int32_t ensemble, int32_t trees, int32_t mtry,
                        int32_t mtry_rule, int32_t max_depth, int32_t min_leaf, double seed_hi,
                        double seed_lo, val progress, int32_t boosting, const val& base) {
  TrainOptions options;
  options.ensemble = static_cast<EnsembleKind>(ensemble);
  options.boosting = static_cast<BoostingVariant>(boosting);
  options.num_trees = trees;
  options.mtry = mtry;
  options.mtry_rule = static_cast<MtryRule>(mtry_rule);
  options.max_depth = max_depth;
  options.min_leaf = min_leaf;
  options.seed = Seed64(seed_hi, seed_lo);
  ApplyBaseLearner(base, &options);
  val out = val::undefined();
  if (base["emphasisCv"].as<bool>()) {
    // Same call as the CLI's `train --emphasis cv` (folds and CV ensembles seeded by the seed).
    EmphasisCvOptions cv;
    cv.seed = options.seed;
    cv.num_trees = base["cvTrees"].as<int32_t>();
    Result<EmphasisSelection> chosen = SelectEmphasisByCV(data.data(), options, cv);
    if (!chosen.ok()) return ErrorObject(chosen.status());
    options.voteboost.a = chosen.value().chosen;
    options.voteboost.b = 0.0;
    val emphasis = val::object();
    emphasis.set("chosen", chosen.value().chosen);
    emphasis.set("grid", CopyOut(chosen.value().grid));
    emphasis.set("cvError", CopyOut(chosen.value().cv_error));
    out = val::object();
    out.set("emphasis", emphasis);
  }
  Result<Forest> result = urnforest::Train(data.data(), options, ProgressFromJs(progress));
  if (!result.ok()) return ErrorObject(result.status());
  forest_ = std::move(result).value();
  return out;
}

val ForestHandle::LearnerOptions() const {
  const TrainOptions& o = forest_.options();
  val out = val::object();
  out.set("ensemble", static_cast<int32_t>(o.ensemble));
  out.set("maxDepth", o.max_depth);
  out.set("minLeaf", o.min_leaf);
  out.set("vbA", o.voteboost.a);
  out.set("vbB", o.voteboost.ResolvedB());
  out.set("vbBase", static_cast<int32_t>(o.voteboost.base));
  out.set("pruning", PrunesTrees(o) ? 1 : 0);
  out.set("pruningFolds", o.pruning.cv_folds);
  out.set("pruningSe", o.pruning.se_rule);
  return out;
}

val ForestHandle::Load(const val& bytes) {
  std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  Result<Forest> result = DeserializeForest(data.data(), data.size());
  if (!result.ok()) return ErrorObject(result.status());
  forest_ = std::move(result).value();
  return val::undefined();
}

val ForestHandle::Predict(const DatasetHandle& data) const {
  DatasetHandle::ConvertedRows scratch;
  const DatasetHandle::ConvertedRows* rows = nullptr;
  Status converted = data.ModelRowsFor(forest_, &scratch, &rows);
  if (!converted.ok()) return ErrorObject(converted);
  Result<FullVote> result = PredictFullRows(forest_, rows->values.data(), data.data().num_rows());
  if (!result.ok()) return ErrorObject(result.status());
  val out = val::object();
  out.set("votes", CopyOut(result.value().votes));
  out.set("classIndex", CopyOut(result.value().labels));
  return out;
}

val ForestHandle::PredictWeightedRows(const DatasetHandle& data) const {
  Result<WeightedVote> result = PredictWeighted(forest_, data.data());
  if (!result.ok()) return ErrorObject(result.status());
  val out = val::object();
  out.set("classIndex", CopyOut(result.value().labels));
  out.set("scores", CopyOut(result.value().scores));
  return out;
}

val ForestHandle::Order(const DatasetHandle& data, int32_t ordering, int32_t backfit,
                        double mdm_p) const {
  OrderingOptions options;
  options.ordering = static_cast<Ordering>(ordering);
  options.backfit_passes = backfit;
  options.mdm_p = mdm_p;
  Result<std::vector<int32_t>> order = OrderForest(forest_, data.data(), options);
  if (!order.ok()) return ErrorObject(order.status());
  return CopyOut(order.value());
}

val ForestHandle::ErrorCurveOf(const DatasetHandle& data, const val& order) const {
  Result<VoteMatrix> matrix = ComputeVoteMatrix(forest_, data.data());
  if (!matrix.ok()) return ErrorObject(matrix.status());
  Result<std::vector<double>> curve = ErrorCurve(matrix.value(), IntVector(order));
  if (!curve.ok()) return ErrorObject(curve.status());
  return CopyOut(curve.value());
}

val ForestHandle::LoadPruned(const ForestHandle& source, const val& order, int32_t keep,
                             const DatasetHandle* training) {
  Result<Forest> pruned = PruneForest(source.forest_, IntVector(order), keep,
                                      training != nullptr ? &training->data() : nullptr);
  if (!pruned.ok()) return ErrorObject(pruned.status());
  forest_ = std::move(pruned).value();
  return val::undefined();
}

val ForestHandle::PriorOf(int32_t rule, int32_t trees) const {
  Result<Prior> prior = PriorForForest(forest_, static_cast<HaltingRule>(rule), trees);
  if (!prior.ok()) return ErrorObject(prior.status());
  const Prior& p = prior.value();
  static const char* const kKinds[] = {"uniform", "dirichlet", "mixture", "histogram"};
  val out = val::object();
  out.set("kind", std::string(kKinds[static_cast<int32_t>(p.kind())]));
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
  if (p.num_classes() <= 4) {
    Result<std::vector<double>> mass = FinalTallyMass(p, trees);
    if (!mass.ok()) return ErrorObject(mass.status());
    out.set("finalTallyMass", CopyOut(mass.value()));
  } else {
    out.set("finalTallyMass", val::null());
  }
  return out;
}

val ForestHandle::Trace(const DatasetHandle& data, double row, const HaltingTableHandle& table,
                        int32_t order, double seed_hi, double seed_lo) const {
  const HaltingTable& h = table.table();
  if (h.num_classes() != forest_.num_classes() || h.num_trees() > forest_.num_trees()) {
    return ErrorObject(Status::Error(StatusCode::kShapeMismatch,
                                     "the halting table does not fit this forest"));
  }
  const size_t r = static_cast<size_t>(row);
  if (r >= data.data().num_rows()) return InvalidArgument("row out of range");
  Result<std::vector<float>> rows_or = ModelRows(forest_, data.data().Subset({r}));
  if (!rows_or.ok()) return ErrorObject(rows_or.status());
  const std::vector<float>& x = rows_or.value();
  // The query order depends on the row index (random order): trace row r of the full dataset.
  Result<VoteTrace> trace = TraceVotes(
      h, r, [&](int32_t tree, size_t) { return forest_.TreeVote(tree, x.data()); },
      VoteOptions(order, seed_hi, seed_lo));
  if (!trace.ok()) return ErrorObject(trace.status());
  const VoteTrace& t = trace.value();
  val out = val::object();
  out.set("trees", CopyOut(t.trees));
  out.set("votes", CopyOut(t.votes));
  out.set("confidence", CopyOut(t.confidence));
  out.set("treesUsed", t.trees_used);
  out.set("haltedEarly", t.halted_early);
  out.set("classIndex", t.label);
  return out;
}

val ForestHandle::ExpectedCost(const HaltingTableHandle& table, double samples, double seed_hi,
                               double seed_lo) const {
  // As the CLI: the one training-data predictor (exact for l <= 4, Monte Carlo over OOB tallies
  // beyond).
  TrainingCostOptions options;
  options.monte_carlo_samples = samples > 0 ? static_cast<int64_t>(samples) : 0;
  if (forest_.num_classes() > 4 && options.monte_carlo_samples == 0) {
    options.monte_carlo_samples = 10000;
  }
  options.seed = Seed64(seed_hi, seed_lo);
  options.stop_probability = true;
  Result<TrainingCost> cost = PredictCostFromTraining(forest_, table.table(), options);
  if (!cost.ok()) return ErrorObject(cost.status());
  if (cost.value().method != "exact") {
    Result<CostEstimate> exact =
        Status::Error(StatusCode::kLimitExceeded, "the exact cost needs at most 4 classes");
    Result<CostEstimate> mc = cost.value().estimate;
    return CostObject(exact, &mc);
  }
  Result<CostEstimate> exact = cost.value().estimate;
  if (!cost.value().has_monte_carlo) return CostObject(exact, nullptr);
  Result<CostEstimate> mc = cost.value().monte_carlo;
  return CostObject(exact, &mc);
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
      .function("_load", &ForestHandle::Load)
      .function("_predict", &ForestHandle::Predict)
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
      .function("_predictWeighted", &ForestHandle::PredictWeightedRows)
      .function("_treeWeights", &ForestHandle::TreeWeights)
      .function("_learnerOptions", &ForestHandle::LearnerOptions)
      .function("_order", &ForestHandle::Order)
      .function("_errorCurve", &ForestHandle::ErrorCurveOf)
      .function("_loadPruned", &ForestHandle::LoadPruned, allow_raw_pointers())
      .function("_predictHaltedFixed", &PredictHaltedFixed);
  emscripten::function("_haltedAnswerLayout", &HaltedAnswerLayoutObject);
}

}  // namespace urnforest::wasm
