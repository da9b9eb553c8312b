// `urnforest rules`: the halting rules and their traits, from the core's rule table
// (urnforest/halting_rules.h), the same table the usage text, JS `rules`/`ruleInfo` and the demo read.
#include <string>

#include "args.h"
#include "command.h"
#include "urnforest/halting_rules.h"

namespace urnforest::cli {

Status RunRules(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2, {}, {"json"});
  if (!parsed.ok()) return parsed.status();
  out.json.BeginObject().Key("rules").BeginArray();
  for (const HaltingRuleTraits& t : AllRuleTraits()) {
    out.json.BeginObject();
    out.json.Key("name").String(t.name);
    out.json.Key("summary").String(t.summary);
    out.json.Key("description").String(t.description);
    out.json.Key("source").String(t.source);
    out.json.Key("from_papers").Bool(t.from_papers);
    out.json.Key("needs_prior").Bool(t.needs_prior);
    out.json.Key("on_demand").Bool(t.on_demand);
    out.json.Key("infinite_ensemble").Bool(t.infinite_ensemble);
    out.json.Key("full_table_max_classes").Int(t.full_table_max_classes);
    out.json.Key("full_table_max_states").Int(t.full_table_max_states);
    out.json.Key("max_classes").Int(t.max_classes);
    out.json.Key("max_trees").Int(t.max_trees);
    out.json.EndObject();
    std::string name = t.name;
    name.resize(10, ' ');
    out.text += name + t.description + (t.needs_prior ? " Needs a prior fitted to training votes." : "") + "\n";
  }
  out.json.EndArray().EndObject();
  return Status::Ok();
}

}  // namespace urnforest::cli
