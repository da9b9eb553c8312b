// Names of the prior kinds (urnforest/prior.h).
#include "urnforest/prior.h"

#include "base/enum_names.h"

namespace urnforest {

const std::vector<std::string>& PriorKindNames() {
  static const std::vector<std::string> kNames = {"uniform", "dirichlet", "mixture", "histogram",
                                                  "tallyMixture"};
  return kNames;
}

const char* PriorKindName(PriorKind kind) {
  return internal::EnumName(static_cast<size_t>(kind), PriorKindNames());
}

}  // namespace urnforest
