// The range of the target confidence alpha (urnforest/alpha.h).
#include "urnforest/alpha.h"

#include <string>

namespace urnforest {

Status CheckAlpha(double alpha, const char* what) {
  if (alpha > 0.0 && alpha <= 1.0) return Status::Ok();
  return Status::Error(StatusCode::kInvalidArgument, std::string(what) + " must be in (0, 1]");
}

}  // namespace urnforest
