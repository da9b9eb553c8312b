// PredictRequestHandle: a JS spec into the core's PredictRequest, checked and planned by the core.
#include "predict_request_handle.h"

#include <string>

#include <emscripten/bind.h>

#include "convert.h"
#include "forest_handle.h"
#include "memory.h"
#include "registry.h"
#include "urnforest/imported_model.h"

namespace urnforest::wasm {
namespace {

// The JS names of RequestFault (the JS side throws RangeError, TypeError or UrnforestError).
const char* FaultName(RequestFault fault) {
  switch (fault) {
    case RequestFault::kOutOfRange: return "range";
    case RequestFault::kMisplaced: return "misplaced";
    case RequestFault::kModel:
    case RequestFault::kNone: break;
  }
  return "model";
}

val Refused(const Status& status, RequestFault fault) {
  val error = ErrorObject(status);
  error.set("fault", std::string(FaultName(fault)));
  return error;
}

}  // namespace

val PredictRequestHandle::Parse(const ForestHandle& forest, const val& spec) {
  PredictRequest request;
  if (spec.hasOwnProperty("rule")) request.rule = spec["rule"].as<std::string>();
  if (spec.hasOwnProperty("alpha")) request.alpha = spec["alpha"].as<double>();
  if (spec.hasOwnProperty("delta")) request.delta = spec["delta"].as<double>();
  if (spec.hasOwnProperty("objective")) {
    Result<LpObjective> objective = ParseLpObjective(spec["objective"].as<std::string>());
    if (!objective.ok()) return Refused(objective.status(), RequestFault::kOutOfRange);
    request.objective = objective.value();
  }
  if (spec.hasOwnProperty("order")) {
    Result<QueryOrder> order = ParseQueryOrder(spec["order"].as<std::string>());
    if (!order.ok()) return Refused(order.status(), RequestFault::kOutOfRange);
    request.order = order.value();
  }
  if (spec.hasOwnProperty("seedHi")) request.seed = Seed64(spec["seedHi"].as<double>(), spec["seedLo"].as<double>());
  if (spec.hasOwnProperty("fixedOrder")) request.fixed_order = IntVector(spec["fixedOrder"]);
  if (spec.hasOwnProperty("trees")) request.trees = spec["trees"].as<int32_t>();
  if (spec.hasOwnProperty("vote")) {
    Result<VoteKind> vote = ParseVoteKind(spec["vote"].as<std::string>());
    if (!vote.ok()) return Refused(vote.status(), RequestFault::kMisplaced);
    request.vote = vote.value();
  }
  if (spec.hasOwnProperty("compare")) request.compare = spec["compare"].as<bool>();
  if (spec.hasOwnProperty("probabilities")) request.probabilities = spec["probabilities"].as<bool>();
  // A non-negative safe integer (predict_request.js): exact as a double.
  if (spec.hasOwnProperty("firstRow")) request.first_row = static_cast<uint64_t>(spec["firstRow"].as<double>());
  RequestFault fault = RequestFault::kNone;
  Result<PredictPlan> plan = PlanPredict(forest.forest(), request, &fault);
  if (!plan.ok()) return Refused(plan.status(), fault);
  plan_ = std::move(plan).value();
  forest_ = &forest.forest();
  val info = val::object();
  info.set("path", std::string(PredictPathName(plan_.path)));
  info.set("vote", std::string(VoteKindName(plan_.vote)));
  info.set("rule", std::string(PlannedRuleName(plan_)));
  info.set("alpha", plan_.alpha);
  info.set("trees", plan_.trees);
  info.set("compare", plan_.compare);
  info.set("inPlace", plan_.InPlace());
  if (plan_.path == PredictPath::kTableRule) {
    val table = val::object();
    table.set("rule", std::string(RuleName(plan_.rule)));
    table.set("alpha", plan_.alpha);
    table.set("trees", plan_.trees);
    info.set("table", table);
  } else {
    info.set("table", val::null());
  }
  return info;
}

val PredictRequestHandle::Certificate() const {
  if (forest_ == nullptr || plan_.path != PredictPath::kCertified) return val::null();
  Result<std::shared_ptr<const CertifiedStrategy>> made =
      CertifyForest(*forest_, plan_.alpha, plan_.delta, plan_.vote, plan_.order.order);
  if (!made.ok()) return ErrorObject(made.status());
  const urnforest::Certificate& c = made.value()->certificate;
  val out = val::object();
  out.set("strategy", c.strategy);
  out.set("parameter", c.parameter);
  out.set("certified", c.certified);
  out.set("bound", c.bound);
  out.set("alpha", c.alpha);
  out.set("delta", c.delta);
  out.set("fitRows", static_cast<double>(c.fit_rows));
  out.set("certifyRows", static_cast<double>(c.certify_rows));
  out.set("reason", c.reason);
  out.set("method", c.method);
  out.set("rowsNeeded", c.rows_needed.has_value() ? val(static_cast<double>(*c.rows_needed)) : val::null());
  return out;
}

void RegisterPredictRequest() {
  emscripten::class_<PredictRequestHandle>("_PredictRequestHandle")
      .constructor<>()
      .function("_parse", &PredictRequestHandle::Parse)
      .function("_certificate", &PredictRequestHandle::Certificate)
      .function("_address", &AddressOf<PredictRequestHandle>);
}

}  // namespace urnforest::wasm
