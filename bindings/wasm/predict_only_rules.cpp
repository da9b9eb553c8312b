// The default inference-only build's strategies of rules 'auto', 'lp' and 'stratified' (urnforest/certified_halting.h):
// refused with UnsupportedModel. Both fit a strategy from the model's calibration or out-of-bag
// votes at their first use (the certificate's search over table families, [KM26]'s LP solver),
// about 8 KB of the compressed wasm that a page predicting with the table rules, margin or the
// full vote does not need. The import build (urnforest_predict_import.wasm, init({imports:
// true})) links the core's own definitions and serves both rules. This file replaces
// src/model/certified_forest.cpp, src/model/forest_tally_minimean.cpp (rule lp over three or more
// classes, and its minimax objective) and src/model/forest_stratified.cpp in the default build only: the linker then never pulls those
// archive members (a second definition would be a duplicate-symbol error at link time, never a
// silent choice).
#include <memory>

#include "urnforest/binary_stopping.h"
#include "urnforest/certified_halting.h"
#include "urnforest/forest_stratified.h"
#include "urnforest/forest_tally_minimean.h"
#include "urnforest/status.h"

namespace urnforest {
namespace {

Status NotInThisBuild(const char* rule) {
  return Status::Error(StatusCode::kUnsupportedModel,
                       std::string("rule '") + rule +
                           "' is not in urnforest/predict's default build: load the import build "
                           "(init({imports: true})) or use the full package");
}

}  // namespace

Result<std::shared_ptr<const CertifiedStrategy>> CertifyForest(const Forest&, double, double, VoteKind,
                                                                QueryOrder) {
  return NotInThisBuild("auto");
}

Result<std::shared_ptr<const BinaryStoppingStrategy>> ForestMinimean(const Forest&, double) {
  return NotInThisBuild("lp");
}

Result<std::shared_ptr<const TallyStoppingStrategy>> ForestTallyMinimean(const Forest&, double) {
  return NotInThisBuild("lp");
}

Result<std::shared_ptr<const BinaryStoppingStrategy>> ForestMinimax(const Forest&, double) {
  return NotInThisBuild("lp");
}

// Rule 'stratified' (src/model/forest_stratified.cpp): no surrogate is fitted at calibration in
// this build, and the rule is refused like 'lp'.
std::shared_ptr<const StratifiedCalibration> FitForestStratified(const Forest&, const float*, size_t,
                                                                 const std::vector<uint32_t>&) {
  return nullptr;
}

Result<std::shared_ptr<const StratifiedModel>> ForestStratified(const Forest&, double) {
  return NotInThisBuild("stratified");
}

}  // namespace urnforest
