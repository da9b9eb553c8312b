// PredictRequestHandle: the embind object that holds one prediction request, parsed from a JS spec
// and checked by the core against one forest (PlanPredict); the JS side keeps it per options and
// passes its address to the one C entry, urnforest_predict (predict_abi.h).
#pragma once

#include <emscripten/val.h>

#include "urnforest/predict_request.h"

namespace urnforest::wasm {

using emscripten::val;

class ForestHandle;

/// One checked request. Created empty by JS, then filled by Parse.
class PredictRequestHandle {
 public:
  /// Parses `spec` {rule?, alpha?, delta?, order? (a name), seedHi?, seedLo?, fixedOrder? (Int32Array),
  /// trees?, vote? ('soft' | 'hard'), compare?, probabilities?} (absent keys: unset; the JS side
  /// checked the types) into a PredictRequest and plans it for `forest` (PlanPredict). Returns
  /// {path, vote, rule, alpha, trees, compare, inPlace, table} (table: the halting table the path reads,
  /// {rule, alpha, trees}, or null), or an error object with `fault`: 'range', 'misplaced' or
  /// 'model' (RequestFault).
  val Parse(const ForestHandle& forest, const val& spec);

  /// Rule "auto": its certificate {strategy, parameter, certified, bound, alpha, delta, fitRows,
  /// certifyRows, reason, rowsNeeded (a number or null)} (CertifyForest, cached by the core: the
  /// strategy the last prediction used); null for other paths; an error object on failure.
  val Certificate() const;

  const PredictPlan& plan() const { return plan_; }
  /// The forest the plan was made for (Parse's), or null before Parse succeeded.
  const Forest* forest() const { return forest_; }

 private:
  PredictPlan plan_;
  const Forest* forest_ = nullptr;
};

}  // namespace urnforest::wasm
