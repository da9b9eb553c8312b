// Names of an imported model's kinds (urnforest/imported_model.h).
#include "urnforest/imported_model.h"

#include "base/enum_names.h"

namespace urnforest {

const std::vector<std::string>& ImportedKindNames() {
  static const std::vector<std::string> kNames = {"voting", "additive"};
  return kNames;
}
const char* ImportedKindName(ImportedKind kind) {
  return internal::EnumName(static_cast<size_t>(kind), ImportedKindNames());
}
Result<ImportedKind> ParseImportedKind(std::string_view name) {
  return internal::ParseEnumName<ImportedKind>(name, ImportedKindNames(), "model kind");
}

const std::vector<std::string>& VoteKindNames() {
  static const std::vector<std::string> kNames = {"hard", "soft"};
  return kNames;
}
const char* VoteKindName(VoteKind kind) {
  return internal::EnumName(static_cast<size_t>(kind), VoteKindNames());
}
Result<VoteKind> ParseVoteKind(std::string_view name) {
  return internal::ParseEnumName<VoteKind>(name, VoteKindNames(), "vote kind");
}

}  // namespace urnforest
