#pragma once
// Strict command-line option parsing: `--name value` pairs and boolean `--flag`s.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "urnforest/status.h"

namespace urnforest::cli {

/// Parsed options of one command. Every getter validates and fails with kInvalidArgument naming
/// the option; nothing is silently coerced ("--trees 10x" is an error, not 10).
class Args {
 public:
  /// Parses argv[first..argc). `value_options` take one value; `flags` take none. Unknown options,
  /// repeated options, positional arguments and missing values are errors.
  static Result<Args> Parse(int argc, char** argv, int first,
                            const std::set<std::string>& value_options,
                            const std::set<std::string>& flags);

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  bool Flag(const std::string& name) const { return flags_.count(name) > 0; }
  /// The raw value; fails if the option is absent.
  Result<std::string> Required(const std::string& name) const;
  std::string Get(const std::string& name, const std::string& fallback) const;
  /// Integer in [min, max]; `fallback` when absent.
  Result<int64_t> Int(const std::string& name, int64_t fallback, int64_t min, int64_t max) const;
  /// Finite real in [min, max]; `fallback` when absent.
  Result<double> Real(const std::string& name, double fallback, double min, double max) const;
  /// Comma-separated list of non-empty items; line-ending characters at the end of the value are dropped.
  Result<std::vector<std::string>> List(const std::string& name) const;

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

/// Parses `text` as a plain decimal integer: an optional '-', then 0 or digits without a leading 0;
/// no sign '+', no spaces, no other base ("011", "+11", " 11" are refused). False when it is not
/// one or does not fit in int64.
bool ParsePlainInteger(const std::string& text, int64_t* value);
/// Parses `text` as a plain finite decimal real: an optional '-', digits with an optional fraction,
/// an optional exponent (e or E, optional sign, digits); no '+', no spaces, no hexadecimal, no
/// inf/nan. False when it is not one.
bool ParsePlainReal(const std::string& text, double* value);

/// `status` with its message prefixed by "option --name: " (a core parser's error, e.g.
/// ParseEnsembleKind's, then names the option it came from).
Status OptionError(const std::string& name, const Status& status);

/// The value of option `name` parsed by a core parser (`Result<T> parse(std::string_view)`, e.g.
/// ParseEnsembleKind), or `fallback` when the option is absent. Parse errors name the option.
template <typename T, typename ParseFn>
Result<T> ParseOption(const Args& args, const std::string& name, T fallback, ParseFn parse) {
  if (!args.Has(name)) return fallback;
  Result<T> parsed = parse(args.Get(name, ""));
  if (!parsed.ok()) return OptionError(name, parsed.status());
  return parsed;
}

}  // namespace urnforest::cli
