// Strict command-line option parsing for the CLI (see args.h).
#include "args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace urnforest::cli {
namespace {

Status Bad(const std::string& message) { return Status::Error(StatusCode::kInvalidArgument, message); }

}  // namespace

Result<Args> Args::Parse(int argc, char** argv, int first,
                         const std::set<std::string>& value_options,
                         const std::set<std::string>& flags) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string token = argv[i];
    if (token.rfind("--", 0) != 0 || token.size() == 2) {
      return Bad("unexpected argument '" + token + "' (options look like --name value)");
    }
    std::string name = token.substr(2);
    std::string inline_value;
    bool has_inline = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_inline = true;
    }
    if (flags.count(name)) {
      if (has_inline) return Bad("option --" + name + " takes no value");
      args.flags_.insert(name);
      continue;
    }
    if (!value_options.count(name)) {
      std::string known;
      for (const auto& o : value_options) known += " --" + o;
      for (const auto& f : flags) known += " --" + f;
      return Bad("unknown option --" + name + " (known:" + known + ")");
    }
    if (args.values_.count(name)) return Bad("option --" + name + " given twice");
    if (has_inline) {
      args.values_[name] = inline_value;
    } else {
      if (i + 1 >= argc) return Bad("option --" + name + " needs a value");
      args.values_[name] = argv[++i];
    }
  }
  return args;
}

Result<std::string> Args::Required(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return Bad("missing required option --" + name);
  return it->second;
}

std::string Args::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

Result<int64_t> Args::Int(const std::string& name, int64_t fallback, int64_t min,
                          int64_t max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE) {
    return Bad("option --" + name + " must be an integer, got '" + text + "'");
  }
  if (value < min || value > max) {
    return Bad("option --" + name + " must be in [" + std::to_string(min) + ", " +
               std::to_string(max) + "], got " + text);
  }
  return static_cast<int64_t>(value);
}

Result<double> Args::Real(const std::string& name, double fallback, double min,
                          double max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) {
    return Bad("option --" + name + " must be a finite number, got '" + text + "'");
  }
  if (value < min || value > max) {
    return Bad("option --" + name + " must be in [" + std::to_string(min) + ", " +
               std::to_string(max) + "], got " + text);
  }
  return value;
}

Result<std::vector<std::string>> Args::List(const std::string& name) const {
  std::vector<std::string> items;
  auto it = values_.find(name);
  if (it == values_.end()) return items;
  std::string current;
  for (char c : it->second + ",") {
    if (c == ',') {
      if (current.empty()) return Bad("option --" + name + " has an empty item");
      items.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  return items;
}

Status OptionError(const std::string& name, const Status& status) {
  Status named = status;
  named.message = "option --" + name + ": " + status.message;
  return named;
}

}  // namespace urnforest::cli
