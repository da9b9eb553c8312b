// The only Emscripten-aware C++ file: conversions between JS values and the urnforest core, and the
// embind registry. No algorithms live here.
//
// Conventions (notes/style-anchors.md §7.4-7.5):
// - Every embind name is internal (`_`-prefixed); the public API is bindings/index.js.
// - No exception crosses the boundary: fallible calls return `undefined` on success or a plain error
//   object {code, message, line, column} that index.js turns into an UrnforestError.
// - Arrays come in with one bulk copy (convertJSArrayToNumberVector) and go out as `.slice()` copies,
//   never as live views of wasm memory (they detach when memory grows).
// - Arguments are validated in index.js; embind would silently coerce bad ones.
#include <malloc.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/expected_cost.h"
#include "urnforest/experiment.h"
#include "urnforest/experiment_json.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/ordering.h"
#include "urnforest/prior.h"
#include "urnforest/prune.h"
#include "urnforest/pstar.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"
#include "urnforest/vote_matrix.h"
#include "urnforest/voteboost.h"
#include "urnforest/weighted_vote.h"

namespace urnforest {
namespace {

using emscripten::val;

val ErrorObject(const Status& status) {
  val error = val::object();
  error.set("code", std::string(CodeName(status.code)));
  error.set("message", status.message);
  error.set("line", static_cast<double>(status.line));
  error.set("column", static_cast<double>(status.column));
  return error;
}

// ---- out of memory (issue 10, docs/reliability.md "Out of memory") --------------------------------
// Built with -fwasm-exceptions and ABORTING_MALLOC=0: when malloc cannot grow the heap past
// MAXIMUM_MEMORY, operator new calls this handler, which counts the failure and throws the JS
// Error("urnforest: out of wasm memory") (index.js: kOutOfMemoryMarker). It unwinds the C++ frames
// (their destructors free what they held; no C++ exception object is left behind, which an uncaught
// std::bad_alloc would leak) and reaches index.js, which throws UrnforestError 'OutOfMemory'. The
// count tells index.js that an abort (a failure inside a noexcept function terminates) was one too.
// Nothing here allocates from the wasm heap.
int32_t g_allocation_failures = 0;

[[noreturn]] void OnAllocationFailure() {
  ++g_allocation_failures;
  val::global("Error").new_(val("urnforest: out of wasm memory")).throw_();
}

val InvalidArgument(const std::string& message) {
  return ErrorObject(Status::Error(StatusCode::kInvalidArgument, message));
}

template <typename T>
val CopyOut(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

// ---- halted answers: one packed block (issue 9) ---------------------------------------------
// Byte layout for n rows and k classes (index.js readHaltedAnswer reads it):
//   0 u32 n | 4 u32 k | 8 u32 has_full | 12 u32 the answer's size in bytes
//   16 f64 confidence[n] | i32 classIndex[n] | i32 treesUsed[n]
//      [has_full: i32 fullClassIndex[n] | u32 fullVotes[n * k], row-major] | u8 haltedEarly[n]
// One copy leaves wasm; index.js reads every array through views of it.
constexpr size_t kAnswerHeaderBytes = 16;

size_t HaltedAnswerBytes(size_t n, size_t k, bool has_full) {
  return kAnswerHeaderBytes + 17 * n + (has_full ? 4 * n + 4 * n * k : 0);
}

/// Writes the answer `s` for k classes at `out` (HaltedAnswerBytes bytes), with the full vote's
/// counts `full_votes` (n x k) when `has_full`. Ties of the full vote go to the lowest class index.
void PackHaltedAnswer(const SequentialVoteResult& s, size_t k, bool has_full,
                      const std::vector<uint32_t>& full_votes, uint8_t* out) {
  const size_t n = s.labels.size();
  const uint32_t header[4] = {static_cast<uint32_t>(n), static_cast<uint32_t>(k), has_full ? 1u : 0u,
                              static_cast<uint32_t>(HaltedAnswerBytes(n, k, has_full))};
  std::memcpy(out, header, kAnswerHeaderBytes);
  uint8_t* p = out + kAnswerHeaderBytes;
  std::memcpy(p, s.confidence.data(), 8 * n);
  std::memcpy(p + 8 * n, s.labels.data(), 4 * n);
  std::memcpy(p + 12 * n, s.trees_used.data(), 4 * n);
  p += 16 * n;
  if (has_full) {
    for (size_t r = 0; r < n; ++r) {
      const uint32_t* v = full_votes.data() + r * k;
      int32_t best = 0;
      for (size_t c = 1; c < k; ++c) {
        if (v[c] > v[best]) best = static_cast<int32_t>(c);
      }
      std::memcpy(p + 4 * r, &best, 4);
    }
    std::memcpy(p + 4 * n, full_votes.data(), 4 * n * k);
    p += 4 * n + 4 * n * k;
  }
  std::memcpy(p, s.halted_early.data(), n);
}

/// The packed answer with the full vote's counts (n x k) as a Uint8Array (a copy), for the embind
/// entry points.
val HaltedAnswerArray(const SequentialVoteResult& s, size_t k, const std::vector<uint32_t>& full_votes) {
  std::vector<uint8_t> packed(HaltedAnswerBytes(s.labels.size(), k, true));
  PackHaltedAnswer(s, k, true, full_votes, packed.data());
  return CopyOut(packed);
}

val StringArray(const std::vector<std::string>& strings) {
  val out = val::array();
  for (size_t i = 0; i < strings.size(); ++i) out.set(i, strings[i]);
  return out;
}

std::vector<std::string> StringVector(const val& array) {
  std::vector<std::string> out;
  if (array.isUndefined() || array.isNull()) return out;
  const size_t n = array["length"].as<size_t>();
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

val FeatureNames(const Schema& schema) {
  val out = val::array();
  for (size_t i = 0; i < schema.features.size(); ++i) out.set(i, schema.features[i].name);
  return out;
}

val FeatureTypes(const Schema& schema) {
  val out = val::array();
  for (size_t i = 0; i < schema.features.size(); ++i) {
    out.set(i, std::string(schema.features[i].type == FeatureType::kCategorical ? "categorical"
                                                                                  : "numeric"));
  }
  return out;
}


uint64_t Seed64(double hi, double lo) {
  return (static_cast<uint64_t>(hi) << 32) | static_cast<uint64_t>(lo);
}

/// Plain JS array of the first `n` entries of a typed array or array of integers.
std::vector<int32_t> IntVector(const val& array) {
  return emscripten::convertJSArrayToNumberVector<int32_t>(array);
}

/// {exact, expectedTrees, disagreement, stopProbability, monteCarloTrees, monteCarloDisagreement,
/// monteCarloSamples}: exact values when available, else the Monte Carlo ones (stopProbability null).
val CostObject(const Result<CostEstimate>& exact, const Result<CostEstimate>* monte_carlo) {
  if (monte_carlo != nullptr && !monte_carlo->ok()) return ErrorObject(monte_carlo->status());
  if (!exact.ok() && monte_carlo == nullptr) return ErrorObject(exact.status());
  val out = val::object();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.set("exact", exact.ok());
  if (exact.ok()) {
    out.set("expectedTrees", exact.value().expected_trees);
    out.set("disagreement", exact.value().disagreement);
    out.set("stopProbability", CopyOut(exact.value().stop_probability));
  } else {
    out.set("expectedTrees", monte_carlo->value().expected_trees);
    out.set("disagreement", monte_carlo->value().disagreement);
    out.set("stopProbability", val::null());
    out.set("exactUnavailable", exact.status().message);
  }
  out.set("monteCarloTrees", monte_carlo != nullptr ? monte_carlo->value().expected_trees : nan);
  out.set("monteCarloDisagreement", monte_carlo != nullptr ? monte_carlo->value().disagreement : nan);
  out.set("monteCarloSamples",
          monte_carlo != nullptr ? static_cast<double>(monte_carlo->value().samples) : 0.0);
  return out;
}

class ForestHandle;
class HaltingTableHandle;

/// Owns one Dataset. Created empty by JS, then filled by one of the loaders.
class DatasetHandle {
 public:
  /// Reads the `length` bytes of CSV text at wasm address `address` (malloc'ed, written and freed by
  /// index.js, so that nothing leaks when reading runs out of memory). `target`: a JS string.
  /// `class_order`: 0 sorted, 1 first seen. `schema_of` may be null: read against that model's schema.
  val LoadCsv(double address, double length, const val& target, bool has_target,
              int32_t class_order, const ForestHandle* schema_of);

  /// `x` Float32Array row-major (rows * cols); `labels` Int32Array of `rows` or null/undefined.
  val LoadArrays(const val& x, double rows, double cols, const val& labels, const val& feature_names,
                 const val& class_names) {
    std::vector<float> values = emscripten::convertJSArrayToNumberVector<float>(x);
    const size_t r = static_cast<size_t>(rows), c = static_cast<size_t>(cols);
    if (values.size() != r * c) return InvalidArgument("x.length must equal rows * cols");
    std::vector<int32_t> label_values;
    const bool has_labels = !(labels.isUndefined() || labels.isNull());
    if (has_labels) {
      label_values = emscripten::convertJSArrayToNumberVector<int32_t>(labels);
      if (label_values.size() != r) return InvalidArgument("labels.length must equal rows");
    }
    Result<Dataset> result =
        Dataset::FromRowMajor(values.data(), r, c, has_labels ? label_values.data() : nullptr,
                              StringVector(feature_names), StringVector(class_names));
    if (!result.ok()) return ErrorObject(result.status());
    SetData(std::move(result).value());
    return val::undefined();
  }

  /// Rows `rows` (Uint32Array of indices into `source`, repeats allowed) of another dataset.
  val LoadSubset(const DatasetHandle& source, const val& rows) {
    std::vector<uint32_t> indices = emscripten::convertJSArrayToNumberVector<uint32_t>(rows);
    std::vector<size_t> picked(indices.begin(), indices.end());
    for (size_t row : picked) {
      if (row >= source.data_.num_rows()) return InvalidArgument("row index out of range");
    }
    SetData(source.data_.Subset(picked));
    return val::undefined();
  }

  double NumRows() const { return static_cast<double>(data_.num_rows()); }
  double NumFeatures() const { return static_cast<double>(data_.num_features()); }
  val ClassNames() const { return StringArray(data_.schema().class_names); }
  val FeatureNamesOf() const { return FeatureNames(data_.schema()); }
  val FeatureTypesOf() const { return FeatureTypes(data_.schema()); }
  std::string TargetName() const { return data_.schema().target_name; }
  bool HasLabels() const { return data_.has_labels(); }
  val Labels() const { return CopyOut(data_.labels()); }
  val RowMajor() const { return CopyOut(data_.RowMajor()); }

  const Dataset& data() const { return data_; }

  /// The rows in a forest's layout (ModelRows) and, per row, 1 when it has no NaN (RowsWithoutNaN).
  struct ConvertedRows {
    std::vector<float> values;
    std::vector<uint8_t> without_nan;
  };

  /// The rows in `forest`'s layout, kept for the next call with a model of the same feature types
  /// and categories, so that repeated predictions on one dataset convert it once. Sets `*rows` to
  /// the kept copy, or, for datasets over kModelRowsCacheBytes, to `*scratch` (filled here; not
  /// kept, so a large dataset is not held twice). Borrowed until the dataset is reloaded or this is
  /// called again. Errors as ModelRows (kColumnMismatch, kInvalidArgument).
  Status ModelRowsFor(const Forest& forest, ConvertedRows* scratch,
                      const ConvertedRows** rows) const;

 private:
  static constexpr size_t kModelRowsCacheBytes = size_t{64} << 20;

  // Replaces the data and forgets the converted rows of the old data.
  void SetData(Dataset data) {
    data_ = std::move(data);
    model_rows_ = ConvertedRows();
    model_rows_layout_.clear();
    has_model_rows_ = false;
  }

  Dataset data_;
  // ModelRowsFor's copy and the model layout (types, categories per feature) it was made for.
  mutable ConvertedRows model_rows_;
  mutable std::vector<FeatureInfo> model_rows_layout_;
  mutable bool has_model_rows_ = false;
};

// True when rows converted for a model with features `a` fit a model with features `b`: ModelRows
// reads only the feature count, each feature's type and each categorical feature's categories.
bool SameModelLayout(const std::vector<FeatureInfo>& a, const std::vector<FeatureInfo>& b) {
  if (a.size() != b.size()) return false;
  for (size_t f = 0; f < a.size(); ++f) {
    if (a[f].type != b[f].type) return false;
    if (a[f].type == FeatureType::kCategorical && a[f].categories != b[f].categories) return false;
  }
  return true;
}

Status DatasetHandle::ModelRowsFor(const Forest& forest, ConvertedRows* scratch,
                                   const ConvertedRows** rows) const {
  const std::vector<FeatureInfo>& layout = forest.schema().features;
  if (has_model_rows_ && forest.num_trees() > 0 && forest.num_classes() > 0 &&
      SameModelLayout(model_rows_layout_, layout)) {
    *rows = &model_rows_;
    return Status::Ok();
  }
  Result<std::vector<float>> converted = ModelRows(forest, data_);
  if (!converted.ok()) return converted.status();
  const size_t m = static_cast<size_t>(forest.num_features());
  ConvertedRows* into = converted.value().size() * sizeof(float) > kModelRowsCacheBytes ? scratch : &model_rows_;
  into->values = std::move(converted).value();
  into->without_nan = RowsWithoutNaN(into->values.data(), data_.num_rows(), m);
  *rows = into;
  if (into == &model_rows_) {
    model_rows_layout_ = layout;
    has_model_rows_ = true;
  }
  return Status::Ok();
}

/// Owns one Forest. Created empty by JS, then filled by Train or Load.
class ForestHandle {
 public:
  /// `ensemble` 0 rf / 1 bagging / 2 adaboost / 3 voteboost; `mtry_rule` 0 sqrt / 1 log2 /
  /// 2 log2+1; the 64-bit seed comes as two 32-bit halves; `progress` is a JS function
  /// (done, total) -> bool or undefined; `boosting` 0 resample / 1 reweight (AdaBoost only).
  /// `base` (validated by index.js): {vbA, vbB (0 = symmetric), vbBase (VoteBoostBase code),
  /// emphasisCv (bool: choose a = b by SelectEmphasisByCV first), cvTrees (0 = trees), pruning
  /// (TreePruning code), pruningFolds, pruningSe}. Returns undefined, an error object, or with
  /// emphasisCv {emphasis: {chosen, grid: Float64Array, cvError: Float64Array}}.
  val Train(const DatasetHandle& data, int32_t ensemble, int32_t trees, int32_t mtry,
            int32_t mtry_rule, int32_t max_depth, int32_t min_leaf, double seed_hi, double seed_lo,
            val progress, int32_t boosting, const val& base) {
    TrainOptions options;
    options.ensemble = static_cast<EnsembleKind>(ensemble);
    options.boosting = static_cast<BoostingVariant>(boosting);
    options.num_trees = trees;
    options.mtry = mtry;
    options.mtry_rule = static_cast<MtryRule>(mtry_rule);
    options.max_depth = max_depth;
    options.min_leaf = min_leaf;
    options.seed = (static_cast<uint64_t>(seed_hi) << 32) | static_cast<uint64_t>(seed_lo);
    options.voteboost.a = base["vbA"].as<double>();
    options.voteboost.b = base["vbB"].as<double>();
    options.voteboost.base = static_cast<VoteBoostBase>(base["vbBase"].as<int32_t>());
    options.pruning.mode = static_cast<TreePruning>(base["pruning"].as<int32_t>());
    options.pruning.cv_folds = base["pruningFolds"].as<int32_t>();
    options.pruning.se_rule = base["pruningSe"].as<double>();
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
    ProgressFn on_progress;
    if (progress.typeOf().as<std::string>() == "function") {
      // index.js passes a wrapper that never throws (a JS throw would skip C++ destructors).
      on_progress = [progress](int32_t done, int32_t total) {
        return progress(done, total).as<bool>();
      };
    }
    Result<Forest> result = urnforest::Train(data.data(), options, on_progress);
    if (!result.ok()) return ErrorObject(result.status());
    forest_ = std::move(result).value();
    return out;
  }

  /// The training options stored in the model that describe its learner: {ensemble (code),
  /// maxDepth, minLeaf, vbA, vbB (resolved), vbBase (code), pruning (code; the pruned-CART base
  /// counts as 1), pruningFolds, pruningSe}.
  val LearnerOptions() const {
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

  /// `bytes` Uint8Array.
  val Load(const val& bytes) {
    std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    Result<Forest> result = DeserializeForest(data.data(), data.size());
    if (!result.ok()) return ErrorObject(result.status());
    forest_ = std::move(result).value();
    return val::undefined();
  }

  /// {votes: Uint32Array rows x classes, classIndex: Int32Array} or an error object.
  val Predict(const DatasetHandle& data) const {
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


  val TrainLabels() const { return CopyOut(forest_.train_labels()); }

  // ---- AdaBoost and static pruning (issue 5) ----

  /// The ensemble's own prediction (weighted for AdaBoost): {classIndex: Int32Array, scores:
  /// Float64Array rows x classes} or an error object.
  val PredictWeightedRows(const DatasetHandle& data) const {
    Result<WeightedVote> result = PredictWeighted(forest_, data.data());
    if (!result.ok()) return ErrorObject(result.status());
    val out = val::object();
    out.set("classIndex", CopyOut(result.value().labels));
    out.set("scores", CopyOut(result.value().scores));
    return out;
  }

  /// Float64Array of the tree weights (empty for unweighted ensembles).
  val TreeWeights() const { return CopyOut(forest_.tree_weights()); }

  /// Int32Array order of all trees by `ordering` on labelled `data`, or an error object.
  val Order(const DatasetHandle& data, int32_t ordering, int32_t backfit, double mdm_p) const {
    OrderingOptions options;
    options.ordering = static_cast<Ordering>(ordering);
    options.backfit_passes = backfit;
    options.mdm_p = mdm_p;
    Result<std::vector<int32_t>> order = OrderForest(forest_, data.data(), options);
    if (!order.ok()) return ErrorObject(order.status());
    return CopyOut(order.value());
  }

  /// Float64Array: error of the first u trees of `order` on labelled `data`, u = 1..order.length.
  val ErrorCurveOf(const DatasetHandle& data, const val& order) const {
    Result<VoteMatrix> matrix = ComputeVoteMatrix(forest_, data.data());
    if (!matrix.ok()) return ErrorObject(matrix.status());
    Result<std::vector<double>> curve = ErrorCurve(matrix.value(), IntVector(order));
    if (!curve.ok()) return ErrorObject(curve.status());
    return CopyOut(curve.value());
  }

  /// Fills this handle with the first `keep` trees of `order` of `source` (PruneForest);
  /// `training` (may be null) is the exact training set, for exact OOB votes.
  val LoadPruned(const ForestHandle& source, const val& order, int32_t keep,
                 const DatasetHandle* training) {
    Result<Forest> pruned = PruneForest(source.forest_, IntVector(order), keep,
                                        training != nullptr ? &training->data() : nullptr);
    if (!pruned.ok()) return ErrorObject(pruned.status());
    forest_ = std::move(pruned).value();
    return val::undefined();
  }

  /// As PredictHaltedAnswer with compare, querying the trees `fixed_order` (length = the table's T)
  /// in that order (the full vote is then that of those trees); the packed answer as a Uint8Array.
  val PredictHaltedFixed(const DatasetHandle& data, const HaltingTableHandle& table,
                         const val& fixed_order) const;

  /// The prior `rule` needs for tables of `trees` queried trees: {kind, classes, trees, components:
  /// [{weight, beta: Float64Array}], finalTallyMass: Float64Array (l <= 4) or null}.
  val PriorOf(int32_t rule, int32_t trees) const {
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

  /// Halted prediction of every row with `table` (its T trees: 0..T-1; order 0 generation, 1
  /// random with the seed's halves) as a packed answer (PackHaltedAnswer) in a new malloc'd block
  /// that the caller frees (*answer; null on failure). With `compare` the answer holds the full
  /// vote of the T trees too; without, no full vote is computed at all.
  Status PredictHaltedAnswer(const DatasetHandle& data, const HaltingTable& table, int32_t order,
                             double seed_hi, double seed_lo, bool compare, uint8_t** answer) const;

  /// Trace of one row: {trees, votes, confidence, treesUsed, haltedEarly, classIndex}.
  val Trace(const DatasetHandle& data, double row, const HaltingTableHandle& table, int32_t order,
            double seed_hi, double seed_lo) const;

  /// Expected cost of `table` averaged over the out-of-bag data prior (smoothed histogram for
  /// l <= 4, a fitted Dirichlet beyond) for the table's T; Monte Carlo with `samples` draws
  /// (0 = none).
  val ExpectedCost(const HaltingTableHandle& table, double samples, double seed_hi,
                   double seed_lo) const;

  val Bytes() const { return CopyOut(SerializeForest(forest_)); }

  /// Stores a copy of `table` with the model (Forest::StoreTable); error object on shape mismatch.
  val StoreTable(const HaltingTableHandle& table);
  /// [{rule, alpha, trees}] of the stored tables, in storage order.
  val StoredTables() const {
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

  int32_t NumTrees() const { return forest_.num_trees(); }
  int32_t NumClasses() const { return forest_.num_classes(); }
  int32_t NumFeatures() const { return forest_.num_features(); }
  double NumNodes() const { return static_cast<double>(forest_.num_nodes()); }
  double OobError() const { return forest_.oob_error(); }
  val OobVotes() const { return CopyOut(forest_.oob_votes()); }
  val ClassNames() const { return StringArray(forest_.schema().class_names); }
  val FeatureNamesOf() const { return FeatureNames(forest_.schema()); }
  val FeatureTypesOf() const { return FeatureTypes(forest_.schema()); }
  std::string TargetName() const { return forest_.schema().target_name; }

  const Forest& forest() const { return forest_; }

 private:
  Forest forest_;
};


/// Owns one HaltingTable and the prior it was built for (used for its expected cost).
class HaltingTableHandle {
 public:
  /// A table for a rule needing no data prior (alpha1, siba, infinite): uniform prior.
  val Build(int32_t rule, int32_t trees, int32_t classes, double alpha) {
    HaltingTableOptions options;
    options.rule = static_cast<HaltingRule>(rule);
    options.num_trees = trees;
    options.num_classes = classes;
    options.alpha = alpha;
    if (RuleNeedsPrior(options.rule)) {
      return InvalidArgument(std::string("rule '") + RuleName(options.rule) +
                             "' needs a prior estimated from a model: use forest.haltingTable()");
    }
    Result<Prior> uniform = Prior::Uniform(classes);
    if (!uniform.ok()) return ErrorObject(uniform.status());
    Result<HaltingTable> table = BuildHaltingTable(options);
    if (!table.ok()) return ErrorObject(table.status());
    table_ = std::move(table).value();
    prior_ = std::move(uniform).value();
    has_prior_ = true;
    return val::undefined();
  }

  /// The table of `rule` for `forest` and `trees` queried trees, with the rule's prior from the
  /// forest's out-of-bag votes.
  val BuildForForest(const ForestHandle& forest, int32_t rule, double alpha, int32_t trees) {
    const Forest& f = forest.forest();
    const HaltingRule r = static_cast<HaltingRule>(rule);
    Result<Prior> prior = PriorForForest(f, r, trees);
    if (!prior.ok()) return ErrorObject(prior.status());
    HaltingTableOptions options;
    options.rule = r;
    options.num_trees = trees;
    options.num_classes = f.num_classes();
    options.alpha = alpha;
    // A table stored with the model (issue 3) is used as is; it equals the one built here.
    const HaltingTable* stored = f.FindStoredTable(r, alpha, trees);
    Result<HaltingTable> table =
        stored != nullptr ? Result<HaltingTable>(*stored)
                          : BuildHaltingTable(options, RuleNeedsPrior(r) ? &prior.value() : nullptr);
    if (!table.ok()) return ErrorObject(table.status());
    table_ = std::move(table).value();
    prior_ = std::move(prior).value();
    has_prior_ = true;
    return val::undefined();
  }

  /// From ToBytes() bytes; such a table has its uniform prior only for alpha1/siba/infinite.
  val Load(const val& bytes) {
    std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    Result<HaltingTable> table = HaltingTable::FromBytes(data.data(), data.size());
    if (!table.ok()) return ErrorObject(table.status());
    table_ = std::move(table).value();
    has_prior_ = false;
    if (!RuleNeedsPrior(table_.rule())) {
      Result<Prior> uniform = Prior::Uniform(table_.num_classes());
      if (uniform.ok()) {
        prior_ = std::move(uniform).value();
        has_prior_ = true;
      }
    }
    return val::undefined();
  }

  // Tallies are validated by index.js (num_classes counts >= 0, sum <= T).
  bool Halts(const val& tally) const { return table_.Halts(IntVector(tally).data()); }
  double Confidence(const val& tally) const { return table_.Confidence(IntVector(tally).data()); }
  int32_t Leader(const val& tally) const { return table_.Leader(IntVector(tally).data()); }
  int32_t MinLeaderVotes(int32_t c, const val& others) const {
    return table_.MinLeaderVotes(c, IntVector(others).data());
  }
  val BinaryThresholds(int32_t c) const { return CopyOut(table_.BinaryThresholds(c)); }

  /// Exact cost for one final tally (validated by index.js), plus Monte Carlo when samples > 0.
  val ExpectedCostFinal(const val& final_tally, double samples, double seed_hi,
                        double seed_lo) const {
    const std::vector<int32_t> tally = IntVector(final_tally);
    Result<CostEstimate> exact = ExactCostForFinalTally(table_, tally);
    if (samples <= 0) return CostObject(exact, nullptr);
    Result<CostEstimate> mc = MonteCarloCostForFinalTally(
        table_, tally, static_cast<int64_t>(samples), Seed64(seed_hi, seed_lo));
    return CostObject(exact, &mc);
  }

  /// Cost averaged over the table's prior.
  val ExpectedCostOverPrior(double samples, double seed_hi, double seed_lo) const {
    if (!has_prior_) {
      return InvalidArgument(
          "this table was loaded from bytes without its prior: pass a final tally");
    }
    return CostOver(table_, prior_, samples, seed_hi, seed_lo);
  }

  static val CostOver(const HaltingTable& table, const Prior& prior, double samples,
                      double seed_hi, double seed_lo) {
    Result<CostEstimate> exact = ExactCostOverPrior(table, prior);
    if (samples <= 0) return CostObject(exact, nullptr);
    Result<CostEstimate> mc =
        MonteCarloCost(table, prior, static_cast<int64_t>(samples), Seed64(seed_hi, seed_lo));
    return CostObject(exact, &mc);
  }

  val Bytes() const { return CopyOut(table_.ToBytes()); }
  std::string Rule() const { return RuleName(table_.rule()); }
  double Alpha() const { return table_.alpha(); }
  int32_t NumTrees() const { return table_.num_trees(); }
  int32_t NumClasses() const { return table_.num_classes(); }
  bool Monotone() const { return table_.monotone(); }
  std::string Layout() const {
    static const char* const kLayouts[] = {"thresholds", "pairwiseBound", "leadRule",
                                           "infiniteProduct"};
    return kLayouts[static_cast<int32_t>(table_.layout())];
  }

  const HaltingTable& table() const { return table_; }

 private:
  HaltingTable table_;
  Prior prior_;
  bool has_prior_ = false;
};

val ForestHandle::StoreTable(const HaltingTableHandle& table) {
  Status status = forest_.StoreTable(table.table());
  if (!status.ok()) return ErrorObject(status);
  return val::undefined();
}

SequentialVoteOptions VoteOptions(int32_t order, double seed_hi, double seed_lo) {
  SequentialVoteOptions options;
  options.order = order == 1 ? QueryOrder::kRandomPerRow : QueryOrder::kGeneration;
  options.seed = Seed64(seed_hi, seed_lo);
  return options;
}

Status ForestHandle::PredictHaltedAnswer(const DatasetHandle& data, const HaltingTable& table,
                                         int32_t order, double seed_hi, double seed_lo,
                                         bool compare, uint8_t** answer) const {
  *answer = nullptr;
  if (table.num_classes() != forest_.num_classes() || table.num_trees() > forest_.num_trees()) {
    return Status::Error(StatusCode::kShapeMismatch, "the halting table does not fit this forest");
  }
  DatasetHandle::ConvertedRows scratch;
  const DatasetHandle::ConvertedRows* converted_rows = nullptr;
  Status converted = data.ModelRowsFor(forest_, &scratch, &converted_rows);
  if (!converted.ok()) return converted;
  const std::vector<float>& rows = converted_rows->values;
  const size_t n = data.data().num_rows();
  Result<SequentialVoteResult> result =
      urnforest::PredictHaltedRows(forest_, rows.data(), n, table, VoteOptions(order, seed_hi, seed_lo),
                                   converted_rows->without_nan.data());
  if (!result.ok()) return result.status();
  const size_t k = static_cast<size_t>(forest_.num_classes());
  std::vector<uint32_t> full_votes;
  if (compare) {  // the full vote of the T queried trees (0..T-1)
    full_votes.assign(n * k, 0);
    AccumulateVotes(forest_, rows.data(), n, table.num_trees(), full_votes.data());
  }
  const size_t bytes = HaltedAnswerBytes(n, k, compare);
  uint8_t* block = static_cast<uint8_t*>(std::malloc(bytes));
  if (block == nullptr) OnAllocationFailure();
  PackHaltedAnswer(result.value(), k, compare, full_votes, block);
  *answer = block;
  return Status::Ok();
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
  if (forest_.num_classes() > 4 && options.monte_carlo_samples == 0) options.monte_carlo_samples = 10000;
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

val ForestHandle::PredictHaltedFixed(const DatasetHandle& data, const HaltingTableHandle& table,
                                     const val& fixed_order) const {
  const HaltingTable& h = table.table();
  SequentialVoteOptions options;
  options.order = QueryOrder::kFixed;
  options.fixed_order = IntVector(fixed_order);
  if (h.num_classes() != forest_.num_classes() ||
      options.fixed_order.size() != static_cast<size_t>(h.num_trees())) {
    return ErrorObject(Status::Error(StatusCode::kShapeMismatch,
                                     "the halting table does not fit this forest and order"));
  }
  for (int32_t t : options.fixed_order) {
    if (t < 0 || t >= forest_.num_trees()) return InvalidArgument("fixedOrder names a missing tree");
  }
  DatasetHandle::ConvertedRows scratch;
  const DatasetHandle::ConvertedRows* converted_rows = nullptr;
  Status converted = data.ModelRowsFor(forest_, &scratch, &converted_rows);
  if (!converted.ok()) return ErrorObject(converted);
  const std::vector<float>& rows = converted_rows->values;
  const size_t m = static_cast<size_t>(forest_.num_features());
  const size_t n = data.data().num_rows();
  Result<SequentialVoteResult> result = urnforest::PredictHaltedRows(
      forest_, rows.data(), n, h, options, converted_rows->without_nan.data());
  if (!result.ok()) return ErrorObject(result.status());
  const size_t k = static_cast<size_t>(forest_.num_classes());
  std::vector<uint32_t> votes(n * k, 0);
  for (size_t r = 0; r < n; ++r) {
    uint32_t* v = votes.data() + r * k;
    for (int32_t t : options.fixed_order) ++v[forest_.TreeVote(t, rows.data() + r * m)];
  }
  return HaltedAnswerArray(result.value(), k, votes);
}

/// Generator names of the synthetic problems (for runExperiment's validation).
val GeneratorNameList() { return StringArray(GeneratorNames()); }

/// Runs the experiment harness. `o` holds validated options (index.js): protocol 0 kfold /
/// 1 holdout / 2 synthetic, generator, name, folds, repeats, testFraction, stratified, trainRows,
/// testRows, ensemble, boosting, trees, mtry, mtryRule, maxDepth, noise, base (as Train's),
/// alphas (array), rules (array of codes),
/// seedHi, seedLo, proxyTrees, samples, prune (ordering code or -1), keep, queryOrder (0 ordered /
/// 2 random). `data` is null for synthetic problems. Returns the report as a JSON string (the
/// CLI's `experiment --json` document) or an error object.
val RunExperimentJson(const val& o, const DatasetHandle* data, val progress) {
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
  options.train.voteboost.a = base["vbA"].as<double>();
  options.train.voteboost.b = base["vbB"].as<double>();
  options.train.voteboost.base = static_cast<VoteBoostBase>(base["vbBase"].as<int32_t>());
  options.train.pruning.mode = static_cast<TreePruning>(base["pruning"].as<int32_t>());
  options.train.pruning.cv_folds = base["pruningFolds"].as<int32_t>();
  options.train.pruning.se_rule = base["pruningSe"].as<double>();
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
  ProgressFn on_progress;
  if (progress.typeOf().as<std::string>() == "function") {
    // index.js passes a wrapper that never throws (a JS throw would skip C++ destructors).
    on_progress = [progress](int32_t done, int32_t total) {
      return progress(done, total).as<bool>();
    };
  }
  const auto start = std::chrono::steady_clock::now();
  Result<ExperimentResult> run = RunExperiment(options, on_progress);
  if (!run.ok()) return ErrorObject(run.status());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return val(ExperimentJson(options, run.value(), seconds));
}

/// P* of a tally for rules needing no data prior (as the CLI's `pstar`):
/// {pstar, leader, halt, exact} or an error object. `votes` validated by index.js.
val PStar(int32_t rule, int32_t trees, int32_t classes, double alpha, const val& votes) {
  HaltingTableHandle handle;
  val built = handle.Build(rule, trees, classes, alpha);
  if (!built.isUndefined()) return built;
  const HaltingTable& h = handle.table();
  const std::vector<int32_t> tally = IntVector(votes);
  const int32_t leader = h.Leader(tally.data());
  double pstar = 0.0;
  bool exact = true;
  const HaltingRule r = static_cast<HaltingRule>(rule);
  if (r == HaltingRule::kInfinite) {
    pstar = leader >= 0 ? InfiniteLowerBound(tally, leader) : 0.0;
    exact = classes == 2;
  } else if (r == HaltingRule::kAlpha1) {
    pstar = h.Confidence(tally.data());
  } else if (classes <= 4) {
    Result<Prior> uniform = Prior::Uniform(classes);
    if (!uniform.ok()) return ErrorObject(uniform.status());
    Result<double> p = PStarBySum(uniform.value(), trees, tally);
    if (!p.ok()) return ErrorObject(p.status());
    pstar = p.value();
  } else {
    pstar = h.Confidence(tally.data());
    exact = false;
  }
  val out = val::object();
  out.set("pstar", pstar);
  out.set("leader", leader);
  out.set("halt", h.Halts(tally.data()));
  out.set("exact", exact);
  return out;
}

val DatasetHandle::LoadCsv(double address, double length, const val& target, bool has_target,
                           int32_t class_order, const ForestHandle* schema_of) {
  const std::string_view text(reinterpret_cast<const char*>(static_cast<uintptr_t>(address)),
                              static_cast<size_t>(length));
  CsvOptions options;
  options.target = target.as<std::string>();
  options.has_target = has_target;
  options.class_order = static_cast<ClassOrder>(class_order);
  options.schema = schema_of != nullptr ? &schema_of->forest().schema() : nullptr;
  Result<Dataset> result = ReadCsv(text, options);
  if (!result.ok()) return ErrorObject(result.status());
  SetData(std::move(result).value());
  return val::undefined();
}

/// Bytes of the wasm heap currently allocated by malloc (for leak checks).
double HeapInUse() { return static_cast<double>(mallinfo().uordblks); }

/// Returns, and resets to 0, the number of allocations that failed since the last call (see
/// OnAllocationFailure). index.js reads it after a failed call: > 0 means 'OutOfMemory'.
double TakeAllocationFailures() {
  const int32_t n = g_allocation_failures;
  g_allocation_failures = 0;
  return static_cast<double>(n);
}

/// The wasm address of an embind handle, for the plain C entry points (urnforest_predict_halted).
/// Valid while the handle lives (embind objects never move).
template <class Handle>
double AddressOf(const Handle& handle) {
  return static_cast<double>(reinterpret_cast<uintptr_t>(&handle));
}

// The error of the last failed plain C call (urnforest_predict_halted), for TakeLastError.
Status g_last_error;

/// The error object of the last failed plain C call (and forgets it); undefined when none.
val TakeLastError() {
  if (g_last_error.ok()) return val::undefined();
  val error = ErrorObject(g_last_error);
  g_last_error = Status::Ok();
  return error;
}

}  // namespace
}  // namespace urnforest

// ---- plain C entry points (issue 9) -----------------------------------------------------------
// predict's halted path is called for every batch, often of one row: embind's invoker (built
// without new Function, DYNAMIC_EXECUTION=0), its argument conversions and a result object of
// emval handles cost microseconds per call there, more than a small prediction itself. These take
// handle addresses (their _address()) and numbers, return plain numbers, and never throw except
// for out of memory (OnAllocationFailure, as every entry point).
extern "C" {

/// Halted prediction of `data` by `forest` with `table` (ForestHandle::PredictHaltedAnswer;
/// `compare` 0 or 1). Returns the malloc'd packed answer, which the caller frees with _free, or
/// null with the error kept for _takeLastError.
EMSCRIPTEN_KEEPALIVE uint8_t* urnforest_predict_halted(const urnforest::ForestHandle* forest,
                                                       const urnforest::DatasetHandle* data,
                                                       const urnforest::HaltingTableHandle* table,
                                                       int32_t order, double seed_hi,
                                                       double seed_lo, int32_t compare) {
  uint8_t* answer = nullptr;
  urnforest::Status status = forest->PredictHaltedAnswer(*data, table->table(), order, seed_hi,
                                                         seed_lo, compare != 0, &answer);
  if (!status.ok()) urnforest::g_last_error = status;
  return answer;
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(urnforest) {
  // Internal names only. Keep in sync with bindings/index.js and bindings/index.d.ts.
  using namespace emscripten;
  using urnforest::DatasetHandle;
  using urnforest::ForestHandle;
  using urnforest::HaltingTableHandle;
  std::set_new_handler(&urnforest::OnAllocationFailure);

  class_<DatasetHandle>("_DatasetHandle")
      .constructor<>()
      .function("_loadCsv", &DatasetHandle::LoadCsv, allow_raw_pointers())
      .function("_loadArrays", &DatasetHandle::LoadArrays)
      .function("_loadSubset", &DatasetHandle::LoadSubset)
      .function("_numRows", &DatasetHandle::NumRows)
      .function("_numFeatures", &DatasetHandle::NumFeatures)
      .function("_classNames", &DatasetHandle::ClassNames)
      .function("_featureNames", &DatasetHandle::FeatureNamesOf)
      .function("_featureTypes", &DatasetHandle::FeatureTypesOf)
      .function("_targetName", &DatasetHandle::TargetName)
      .function("_hasLabels", &DatasetHandle::HasLabels)
      .function("_labels", &DatasetHandle::Labels)
      .function("_rowMajor", &DatasetHandle::RowMajor)
      .function("_address", &urnforest::AddressOf<DatasetHandle>);

  class_<ForestHandle>("_ForestHandle")
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
      .function("_address", &urnforest::AddressOf<ForestHandle>)
      .function("_trace", &ForestHandle::Trace)
      .function("_expectedCost", &ForestHandle::ExpectedCost)
      .function("_predictWeighted", &ForestHandle::PredictWeightedRows)
      .function("_treeWeights", &ForestHandle::TreeWeights)
      .function("_learnerOptions", &ForestHandle::LearnerOptions)
      .function("_order", &ForestHandle::Order)
      .function("_errorCurve", &ForestHandle::ErrorCurveOf)
      .function("_loadPruned", &ForestHandle::LoadPruned, allow_raw_pointers())
      .function("_predictHaltedFixed", &ForestHandle::PredictHaltedFixed);

  class_<HaltingTableHandle>("_HaltingTableHandle")
      .constructor<>()
      .function("_build", &HaltingTableHandle::Build)
      .function("_buildForForest", &HaltingTableHandle::BuildForForest)
      .function("_load", &HaltingTableHandle::Load)
      .function("_halts", &HaltingTableHandle::Halts)
      .function("_confidence", &HaltingTableHandle::Confidence)
      .function("_leader", &HaltingTableHandle::Leader)
      .function("_minLeaderVotes", &HaltingTableHandle::MinLeaderVotes)
      .function("_binaryThresholds", &HaltingTableHandle::BinaryThresholds)
      .function("_expectedCostFinal", &HaltingTableHandle::ExpectedCostFinal)
      .function("_expectedCostOverPrior", &HaltingTableHandle::ExpectedCostOverPrior)
      .function("_bytes", &HaltingTableHandle::Bytes)
      .function("_rule", &HaltingTableHandle::Rule)
      .function("_alpha", &HaltingTableHandle::Alpha)
      .function("_numTrees", &HaltingTableHandle::NumTrees)
      .function("_numClasses", &HaltingTableHandle::NumClasses)
      .function("_monotone", &HaltingTableHandle::Monotone)
      .function("_layout", &HaltingTableHandle::Layout)
      .function("_address", &urnforest::AddressOf<HaltingTableHandle>);

  function("_pstar", &urnforest::PStar);
  function("_runExperiment", &urnforest::RunExperimentJson, allow_raw_pointers());
  function("_generatorNames", &urnforest::GeneratorNameList);

  function("_heapInUse", &urnforest::HeapInUse);
  function("_takeLastError", &urnforest::TakeLastError);
  function("_takeAllocationFailures", &urnforest::TakeAllocationFailures);
}
