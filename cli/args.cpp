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

bool ParsePlainInteger(const std::string& text, int64_t* value) {
  size_t i = text.size() > 0 && text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  if (text[i] == '0' && text.size() > i + 1) return false;  // no leading zero
  for (size_t k = i; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9') return false;
  errno = 0;
  char* end = nullptr;
  const long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0') return false;
  *value = parsed;
  return true;
}

bool ParsePlainReal(const std::string& text, double* value) {
  size_t i = text.size() > 0 && text[0] == '-' ? 1 : 0;
  size_t digits = 0;
  auto run = [&]() {
    size_t n = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++n;
    return n;
  };
  digits += run();
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += run();
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (run() == 0) return false;
  }
  if (i != text.size()) return false;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(parsed)) return false;
  *value = parsed;
  return true;
}

Result<int64_t> Args::Int(const std::string& name, int64_t fallback, int64_t min,
                          int64_t max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  int64_t value = 0;
  if (!ParsePlainInteger(text, &value)) {
    return Bad("option --" + name + " must be an integer, got '" + text + "'");
  }
  if (value < min || value > max) {
    return Bad("option --" + name + " must be in [" + std::to_string(min) + ", " +
               std::to_string(max) + "], got " + text);
  }
  return value;
}

Result<double> Args::Real(const std::string& name, double fallback, double min,
                          double max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  const std::string& text = it->second;
  double value = 0.0;
  if (!ParsePlainReal(text, &value)) {
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
  // A line ending copied with a list (--features "$(head -1 data.csv)" of a CRLF file) is not part of
  // the last item.
  std::string value = it->second;
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.pop_back();
  std::string current;
  for (char c : value + ",") {
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
