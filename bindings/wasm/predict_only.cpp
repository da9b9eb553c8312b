// The inference-only module's plain C exports (predict_only.h): load, describe, predict, free and
// the last error. Every figure and every refusal is the core's (PlanPredict, Predict).
#include "predict_only.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <emscripten/emscripten.h>

#include "predict_abi.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/json_writer.h"
#include "urnforest/predict_request.h"
#include "urnforest/serialize.h"
#if URNFOREST_ONLY_IMPORTS
#include "urnforest/onnx_import.h"
#include "urnforest/xgboost_import.h"
#endif

namespace urnforest::wasm {

/// A halting table built for one (rule, alpha, T), with its rule's prior.
struct OnlyTable {
  HaltingRule rule;
  double alpha;
  int32_t trees;
  ForestTable made;
};

struct OnlyModel {
  Forest forest;
  /// Tables built by earlier calls (at most kKeptTables: a caller sweeping alpha must not grow
  /// memory without bound; the oldest is dropped).
  std::vector<std::unique_ptr<OnlyTable>> tables;
};

namespace {

constexpr size_t kKeptTables = 16;

// Set by OnAllocationFailure before the module aborts (urnforest_only_out_of_memory).
int32_t g_out_of_memory = 0;

// The new-handler: the module is built without exceptions (a smaller binary), so a failed allocation
// cannot unwind; it is recorded and the module aborts (the JS side reports OutOfMemory, drops the
// instance and makes a fresh one).
[[noreturn]] void OnAllocationFailure() {
  g_out_of_memory = 1;
  std::abort();
}

Status g_error;
OnlyPlan g_plan;
RequestFault g_fault = RequestFault::kNone;
std::string g_text;  // what describe and error return, kept until the next call

void Fail(const Status& status, RequestFault fault = RequestFault::kNone) {
  g_error = status;
  g_fault = fault;
}

Status OutOfMemory() { return Status::Error(StatusCode::kOutOfMemory, "out of wasm memory"); }

// `count` names separated by NUL bytes at `text` (count < 0: none).
std::vector<std::string> Names(const char* text, int32_t count) {
  std::vector<std::string> out;
  for (int32_t i = 0; i < count; ++i) {
    out.emplace_back(text);
    text += out.back().size() + 1;
  }
  return out;
}

Result<Forest> LoadForest(int32_t format, const uint8_t* bytes, size_t size, std::vector<std::string> features,
                          std::vector<std::string> classes, const char* target) {
  if (format == 0) return DeserializeForest(bytes, size);
#if URNFOREST_ONLY_IMPORTS
  const bool has_target = target != nullptr && target[0] != '\0';
  if (format == 1) {
    OnnxImportOptions options;
    options.feature_names = std::move(features);
    options.class_names = std::move(classes);
    if (has_target) options.target_name = target;
    return ImportOnnx(bytes, size, options);
  }
  if (format == 2) {
    XGBoostImportOptions options;
    options.feature_names = std::move(features);
    options.class_names = std::move(classes);
    if (has_target) options.target_name = target;
    return ImportXGBoost(bytes, size, options);
  }
#else
  (void)features;
  (void)classes;
  (void)target;
  if (format == 1 || format == 2) {
    return Status::Error(StatusCode::kUnsupportedModel,
                         "this build of the inference-only module reads urnforest's model bytes only (the import build "
                         "reads ONNX and XGBoost JSON)");
  }
#endif
  return Status::Error(StatusCode::kInvalidArgument, "unknown model format");
}

void WriteFeatures(JsonWriter& w, const Schema& schema) {
  w.Key("features").BeginArray();
  for (const FeatureInfo& f : schema.features) {
    w.BeginObject().Key("name").String(f.name);
    w.Key("type").String(f.type == FeatureType::kCategorical ? "categorical" : "numeric");
    w.Key("categories").StringArray(f.categories).EndObject();
  }
  w.EndArray();
}

// The packed answer's layout (predict_abi.h), which the JS decoder reads offsets from.
void WriteLayout(JsonWriter& w) {
  w.Key("layout").BeginObject().Key("headerBytes").Int(sizeof(AnswerHeader));
  w.Key("sections").BeginArray();
  for (const AnswerSection& s : kAnswerSections) {
    w.BeginObject().Key("name").String(s.name).Key("type").String(s.type);
    w.Key("elementBytes").Int(s.element_bytes).Key("perClass").Bool(s.per_class).EndObject();
  }
  w.EndArray().Key("paths").BeginArray();
  for (PredictPath path : {PredictPath::kFullVote, PredictPath::kWeightedVote, PredictPath::kSoftScores,
                           PredictPath::kTableRule, PredictPath::kExactExit, PredictPath::kMargin,
                           PredictPath::kLp, PredictPath::kCertified, PredictPath::kStratified}) {
    w.String(PredictPathName(path));
  }
  w.EndArray().EndObject();
}

std::string Describe(const Forest& forest) {
  JsonWriter w;
  w.BeginObject().Key("trees").Int(forest.num_trees());
  w.Key("classes").StringArray(forest.schema().class_names);
  WriteFeatures(w, forest.schema());
  w.Key("target").String(forest.schema().target_name);
  w.Key("imported");
  if (const ImportedModel* m = forest.imported()) {
    w.BeginObject().Key("kind").String(ImportedKindName(m->kind));
    w.Key("vote").String(VoteKindName(m->default_vote)).Key("source").String(m->source);
    w.Key("calibrated").Bool(m->calibrated);
    w.Key("calibrationRows").Int(static_cast<int64_t>(forest.train_labels().size())).EndObject();
  } else {
    w.Null();
  }
  w.Key("storedTables").BeginArray();
  for (const HaltingTable& t : forest.stored_tables()) {
    w.BeginObject().Key("rule").String(RuleName(t.rule())).Key("alpha").Double(t.alpha());
    w.Key("trees").Int(t.num_trees()).EndObject();
  }
  w.EndArray();
  w.Key("votes").StringArray(VoteKindNames());
  WriteLayout(w);
  w.EndObject();
  return w.str();
}

// The request the C arguments spell (predict_only.h), or the parse failure with its fault.
Status ParseRequest(const char* rule, double alpha, double delta, const char* order, double seed_hi,
                    double seed_lo, int32_t trees, int32_t has_trees, const char* vote,
                    const int32_t* fixed_order, int32_t fixed_count, uint32_t flags, const char* objective,
                    double first_row, PredictRequest* request, RequestFault* fault) {
  if (rule != nullptr) request->rule = rule;
  if (objective != nullptr) {
    Result<LpObjective> parsed = ParseLpObjective(objective);
    if (!parsed.ok()) return *fault = RequestFault::kOutOfRange, parsed.status();
    request->objective = parsed.value();
  }
  if (!std::isnan(first_row)) request->first_row = static_cast<uint64_t>(first_row);
  if (!std::isnan(alpha)) request->alpha = alpha;
  if (!std::isnan(delta)) request->delta = delta;
  if (order != nullptr) {
    Result<QueryOrder> parsed = ParseQueryOrder(order);
    if (!parsed.ok()) return *fault = RequestFault::kOutOfRange, parsed.status();
    request->order = parsed.value();
  }
  if (!std::isnan(seed_hi)) {
    request->seed = (static_cast<uint64_t>(seed_hi) << 32) | static_cast<uint64_t>(seed_lo);
  }
  if (has_trees != 0) request->trees = trees;
  if (vote != nullptr) {
    Result<VoteKind> parsed = ParseVoteKind(vote);
    if (!parsed.ok()) return *fault = RequestFault::kMisplaced, parsed.status();
    request->vote = parsed.value();
  }
  if (fixed_count >= 0) request->fixed_order.assign(fixed_order, fixed_order + fixed_count);
  request->compare = (flags & 1u) != 0;
  request->probabilities = (flags & 2u) != 0;
  return Status::Ok();
}

// The table of a table-rule plan: kept from an earlier call, else made now (the stored table or
// one built from the prior, BuildForestTableWithPrior) and kept.
Result<const OnlyTable*> TableFor(OnlyModel& model, const PredictPlan& plan) {
  for (const std::unique_ptr<OnlyTable>& t : model.tables) {
    if (t->rule == plan.rule && std::memcmp(&t->alpha, &plan.alpha, sizeof(double)) == 0 && t->trees == plan.trees) {
      return static_cast<const OnlyTable*>(t.get());
    }
  }
  Result<ForestTable> made = BuildForestTableWithPrior(model.forest, plan.rule, plan.alpha, plan.trees);
  if (!made.ok()) return made.status();
  if (model.tables.size() >= kKeptTables) model.tables.erase(model.tables.begin());
  model.tables.push_back(std::make_unique<OnlyTable>(OnlyTable{plan.rule, plan.alpha, plan.trees, std::move(made).value()}));
  return static_cast<const OnlyTable*>(model.tables.back().get());
}

// NonFiniteValue naming the first value of `rows` that is infinite.
Status CheckFinite(const Forest& forest, const float* rows, size_t num_rows) {
  const size_t width = static_cast<size_t>(forest.num_features());
  for (size_t i = 0; i < num_rows * width; ++i) {
    if (std::isinf(rows[i])) {
      return Status::Error(StatusCode::kNonFiniteValue,
                           "row " + std::to_string(i / width) + ", feature '" +
                               forest.schema().features[i % width].name +
                               "': the value is infinite or too large for float");
    }
  }
  return Status::Ok();
}

Status Answer(OnlyModel& model, const float* rows, size_t num_rows, const PredictRequest& request,
              uint8_t** answer) {
  const Forest& forest = model.forest;
  RequestFault fault = RequestFault::kNone;
  Result<PredictPlan> plan = PlanPredict(forest, request, &fault);
  if (!plan.ok()) return g_fault = fault, plan.status();
  if (Status finite = CheckFinite(forest, rows, num_rows); !finite.ok()) return finite;
  PreparedRows prepared;
  prepared.values.assign(rows, rows + num_rows * static_cast<size_t>(forest.num_features()));
  prepared.without_nan = RowsWithoutNaN(prepared.values.data(), num_rows, forest.num_features());
  prepared.num_rows = num_rows;
  prepared.layout = forest.schema().features;
  prepared.layout_id = forest.layout_id();
  GivenTable given;
  if (plan.value().path == PredictPath::kTableRule) {
    Result<const OnlyTable*> table = TableFor(model, plan.value());
    if (!table.ok()) return table.status();
    given = {&table.value()->made.table, &table.value()->made.prior};
  }
  Result<Prediction> p = Predict(forest, prepared, plan.value(), given.table != nullptr ? &given : nullptr);
  if (!p.ok()) return p.status();
  g_plan = {plan.value().alpha, plan.value().trees, static_cast<uint32_t>(plan.value().vote),
            plan.value().compare ? 1u : 0u};
  *answer = PackPrediction(p.value(), static_cast<size_t>(forest.num_classes()));
  return *answer == nullptr ? OutOfMemory() : Status::Ok();
}

}  // namespace
}  // namespace urnforest::wasm

using urnforest::Status;
using urnforest::wasm::OnlyModel;

extern "C" {

EMSCRIPTEN_KEEPALIVE OnlyModel* urnforest_only_load(int32_t format, const uint8_t* bytes, size_t size,
                                                    const char* feature_names, int32_t feature_count,
                                                    const char* class_names, int32_t class_count,
                                                    const char* target) {
  using namespace urnforest::wasm;
  std::set_new_handler(&OnAllocationFailure);
  urnforest::Result<urnforest::Forest> forest =
      LoadForest(format, bytes, size, Names(feature_names, feature_count), Names(class_names, class_count), target);
  if (!forest.ok()) return Fail(forest.status()), nullptr;
  OnlyModel* model = new OnlyModel();
  model->forest = std::move(forest).value();
  return model;
}

EMSCRIPTEN_KEEPALIVE void urnforest_only_free(OnlyModel* model) { delete model; }

EMSCRIPTEN_KEEPALIVE const char* urnforest_only_describe(const OnlyModel* model) {
  using namespace urnforest::wasm;
  g_text = Describe(model->forest);
  return g_text.c_str();
}

EMSCRIPTEN_KEEPALIVE uint8_t* urnforest_only_predict(OnlyModel* model, const float* rows, uint32_t num_rows,
                                                     const char* rule, double alpha, double delta,
                                                     const char* order, double seed_hi, double seed_lo,
                                                     int32_t trees, int32_t has_trees, const char* vote,
                                                     const int32_t* fixed_order, int32_t fixed_count,
                                                     uint32_t flags, const char* objective, double first_row) {
  using namespace urnforest::wasm;
  urnforest::PredictRequest request;
  urnforest::RequestFault fault = urnforest::RequestFault::kNone;
  Status parsed = ParseRequest(rule, alpha, delta, order, seed_hi, seed_lo, trees, has_trees, vote, fixed_order,
                               fixed_count, flags, objective, first_row, &request, &fault);
  if (!parsed.ok()) return Fail(parsed, fault), nullptr;
  uint8_t* answer = nullptr;
  g_fault = urnforest::RequestFault::kNone;
  Status status = Answer(*model, rows, num_rows, request, &answer);
  if (!status.ok()) return Fail(status, g_fault), nullptr;
  return answer;
}

EMSCRIPTEN_KEEPALIVE int32_t urnforest_only_out_of_memory() { return urnforest::wasm::g_out_of_memory; }

EMSCRIPTEN_KEEPALIVE const urnforest::wasm::OnlyPlan* urnforest_only_plan() { return &urnforest::wasm::g_plan; }

EMSCRIPTEN_KEEPALIVE const char* urnforest_only_error() {
  using namespace urnforest::wasm;
  if (g_error.ok()) return nullptr;
  const char* fault = g_fault == urnforest::RequestFault::kOutOfRange  ? "range"
                      : g_fault == urnforest::RequestFault::kMisplaced ? "misplaced"
                      : g_fault == urnforest::RequestFault::kModel     ? "model"
                                                                       : "";
  urnforest::JsonWriter w;
  w.BeginObject().Key("code").String(urnforest::CodeName(g_error.code));
  w.Key("message").String(g_error.message).Key("fault").String(fault).EndObject();
  g_text = w.str();
  g_error = Status::Ok();
  g_fault = urnforest::RequestFault::kNone;
  return g_text.c_str();
}

}  // extern "C"
