#pragma once
// Name tables of option enums: parse a name to its enum value, name a value, list the names.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/status.h"

namespace urnforest::internal {

/// "a, b or c" for the names in order ("a" for one name, "" for none).
inline std::string Alternatives(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

/// The value of `Enum` whose name is `name`, where `names[i]` names code i. Fails with
/// kInvalidArgument "unknown <what> '<name>' (expected a, b or c)".
template <typename Enum>
Result<Enum> ParseEnumName(std::string_view name, const std::vector<std::string>& names,
                           const char* what) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (name == names[i]) return static_cast<Enum>(i);
  }
  return Status::Error(StatusCode::kInvalidArgument, std::string("unknown ") + what + " '" +
                                                         std::string(name) + "' (expected " +
                                                         Alternatives(names) + ")");
}

/// `names[code]`, or "unknown" for a code outside the table. Never null.
inline const char* EnumName(size_t code, const std::vector<std::string>& names) {
  return code < names.size() ? names[code].c_str() : "unknown";
}

}  // namespace urnforest::internal
