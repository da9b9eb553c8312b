// Conversions between embind values and the core's types (see convert.h).
#include "convert.h"

#include <limits>

namespace urnforest::wasm {

val ErrorObject(const Status& status) {
  val error = val::object();
  error.set("code", std::string(CodeName(status.code)));
  error.set("message", status.message);
  error.set("line", static_cast<double>(status.line));
  error.set("column", static_cast<double>(status.column));
  return error;
}

val InvalidArgument(const std::string& message) {
  return ErrorObject(Status::Error(StatusCode::kInvalidArgument, message));
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

std::vector<int32_t> IntVector(const val& array) {
  return emscripten::convertJSArrayToNumberVector<int32_t>(array);
}

SequentialVoteOptions VoteOptions(int32_t order, double seed_hi, double seed_lo) {
  SequentialVoteOptions options;
  options.order = order == 1 ? QueryOrder::kRandomPerRow : QueryOrder::kGeneration;
  options.seed = Seed64(seed_hi, seed_lo);
  return options;
}

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

std::function<bool(int32_t, int32_t)> ProgressFromJs(const val& progress) {
  if (progress.typeOf().as<std::string>() != "function") return {};
  return [progress](int32_t done, int32_t total) { return progress(done, total).as<bool>(); };
}

}  // namespace urnforest::wasm
