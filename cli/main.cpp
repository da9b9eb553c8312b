// urnforest command-line tool: `urnforest <command> [options] [--json]`.
// With --json, exactly one JSON document is printed on stdout, also on failure:
// {"error":{"code":"CsvRaggedRow","message":"...","line":4,"column":7}} with a non-zero exit.
// Output that cannot be written (a full disk, a closed stdout) is a failure: IoError on stderr, exit 1.
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "command.h"
#include "urnforest/halting_rule.h"

namespace {

struct CommandEntry {
  const char* name;
  urnforest::cli::CommandFn run;
  const char* summary;
};

const CommandEntry kCommands[] = {
    {"train", urnforest::cli::RunTrain,
     "--data FILE.csv [--target NAME] [--ensemble rf|bagging|adaboost|voteboost] [--boosting resample|reweight] "
     "[--trees N] [--mtry N] [--max-depth D] [--min-leaf N] [--seed S] [--store-tables R:A[,R:A...]] --out MODEL"},
    {"train", nullptr, "  [--threads N]  (0 = every core, the default; the model bytes do not depend on it)"},
    {"train", nullptr, "  CSV: [--delimiter ,|;|tab|auto] [--decimal .|,] [--target-categorical] (predict, calibrate, prune, experiment: the same)"},
    {"train", nullptr, "  voteboost: [--emphasis A|cv] [--emphasis-b B] [--base random|unpruned|stump] [--cv-trees N (with --emphasis cv)]"},
    {"predict", urnforest::cli::RunPredict, "--model MODEL --data FILE.csv"},
    {"predict", nullptr, "  [--rule <rules|> --alpha A --order generation|random --seed S]"},
    {"predict", nullptr, "  [--rule auto --alpha A [--delta D]]  (certified: disagreement <= 1 - A with probability >= 1 - D; the JSON has the certificate; --alpha or --delta without --rule is --rule auto)"},
    {"predict", nullptr, "  [--rule lp --alpha A]  ([KM26]'s minimean strategy at expected disagreement 1 - A; K > 2 over full tallies, up to 5M states)"},
    {"predict", nullptr, "  [--rule stratified --alpha A --calibration ROWS.csv]  (two classes: minimean per bucket of a surrogate of the final vote, fitted on the rows)"},
    {"predict", nullptr, "  [--calibration ROWS.csv]  (calibrate on these unlabeled rows first, in this run)"},
    {"predict", nullptr, "  [--rule lp --objective minimean|minimax]  (minimax: disagreement <= 1 - A for every final tally, two classes)"},
    {"predict", nullptr, "  [--compare]  (with --rule: also the full vote, its votes and the disagreement)"},
    {"predict", nullptr, "  [--threads N]  (0 = every core, the default, for batches of 32,768 rows or more; same results)"},
    {"predict", nullptr, "  [--vote soft|hard] [--proba]  (imported forests: --rule margin too; with a table rule, --proba"},
    {"predict", nullptr, "  gives the halted probabilities: the posterior mean of the final vote shares)"},
    {"info", urnforest::cli::RunInfo, "--model MODEL"},
    {"import", urnforest::cli::RunImport, "(--onnx FILE.onnx | --xgboost FILE.json) --out MODEL [--features a,b,c] [--classes x,y,z] [--target NAME]"},
    {"calibrate", urnforest::cli::RunCalibrate, "--model MODEL --data ROWS.csv --out MODEL2 [--alpha A]"},
    {"calibrate", nullptr, "  (reports the papers' rules on the rows: those `urnforest rules` lists with from_papers)"},
    {"export", urnforest::cli::RunExport, "--model MODEL --onnx OUT.onnx"},
    {"importance", urnforest::cli::RunImportance,
     "--model MODEL --data TRAIN.csv [--method impurity|permutation] [--seed S] (labelled rows; the training data: in-bag / out-of-bag rows)"},
    {"prune", urnforest::cli::RunPrune,
     "--model MODEL --data TRAIN.csv --ordering early|reduce-error|complementarity|margin-distance|"
     "orientation|boosting|kappa|greedy-sdp [--on data|oob] [--keep K] [--curve-data TEST.csv] [--backfit N]\n"
     "            [--mdm-p P] --out MODEL2"},
    {"table", urnforest::cli::RunTable,
     "--rule R --alpha A (--trees T --classes L | --model MODEL [--store --out MODEL2])"},
    {"pstar", urnforest::cli::RunPStar,
     "--rule siba|infinite|... --votes a,b[,c...] [--alpha A] (--trees T --classes L | --model MODEL)"},
    {"expected", urnforest::cli::RunExpected,
     "--rule R --alpha A (--trees T --classes L --final F1,F2 | --model MODEL) [--samples N]"},
    {"rules", urnforest::cli::RunRules, "(the halting rules: name, description, source, whether a prior is needed, limits)"},
    {"experiment", urnforest::cli::RunExperiment,
     "--data FILE.csv|twonorm|threenorm|ringnorm|waveform|led|circle [--target NAME]"},
    {"experiment", nullptr,
     "  [--folds 10 --repeats 10 | --holdout 0.333 --repeats R [--unstratified] | --train N --test M --repeats R]"},
    {"experiment", nullptr,
     "  [--ensemble rf|bagging] [--trees 101] [--mtry N] [--mtry-rule sqrt|log2|log2plus1]"},
    {"experiment", nullptr,
     "  [--alpha 0.99[,A2...]] [--rules <rules,>] [--seed S]"},
    {"experiment", nullptr, "  [--proxy-trees N] [--samples N] [--threads N] [--max-work ROW_TREES (1e9)] [--quiet]"},
    {"experiment", nullptr,
     "  [--ensemble adaboost|voteboost --emphasis A|cv --base random|unpruned|stump --cv-trees N "
     "--max-depth D] [--noise 0.2]"},
};

// `summary` with <rules|> and <rules,> replaced by the core's rule names joined by '|' or ','.
std::string WithRuleNames(std::string summary) {
  for (const char* sep : {"|", ","}) {
    const std::string token = std::string("<rules") + sep + ">";
    for (size_t at = summary.find(token); at != std::string::npos; at = summary.find(token)) {
      std::string names;
      for (const std::string& name : urnforest::RuleNames()) names += (names.empty() ? "" : sep) + name;
      summary.replace(at, token.size(), names);
    }
  }
  return summary;
}

std::string Usage() {
  std::string usage = "usage: urnforest <command> [options] [--json]\n\ncommands:\n";
  for (const CommandEntry& c : kCommands) {
    std::string name = c.run ? c.name : "";
    if (name.size() < 10) name.resize(10, ' ');
    usage += "  " + name + " " + WithRuleNames(c.summary) + "\n";
  }
  return usage;
}

// Writes `text` as the command's whole stdout; a failure is reported on stderr and turns the exit
// status `code` into 1.
int Finish(const char* command, const std::string& text, int code) {
  const urnforest::Status written = urnforest::cli::WriteStdout(text);
  if (written.ok()) return code;
  std::fprintf(stderr, "urnforest %s: %s\n", command, written.ToString().c_str());
  return code == 0 ? 1 : code;
}

bool WantsJson(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0) {
    if (argc < 2) {
      std::fputs(Usage().c_str(), stderr);
      return 2;
    }
    return Finish("help", Usage(), 0);
  }
  const bool json = WantsJson(argc, argv);
  for (const CommandEntry& c : kCommands) {
    if (c.run == nullptr || std::strcmp(argv[1], c.name) != 0) continue;
    urnforest::cli::Output out;
    urnforest::Status status;
    try {
      status = c.run(argc, argv, out);
    } catch (const std::bad_alloc&) {
      // Out of memory anywhere in a command is reported like any other failure, not an abort.
      out = urnforest::cli::Output();
      status = urnforest::Status::Error(urnforest::StatusCode::kOutOfMemory,
                                        "out of memory (the input or the options ask for more than "
                                        "this machine has)");
    }
    if (!status.ok()) {
      std::fprintf(stderr, "urnforest %s: %s\n", c.name, status.ToString().c_str());
      if (json) {
        urnforest::JsonWriter error;
        error.BeginObject().Key("error").BeginObject();
        error.Key("code").String(urnforest::CodeName(status.code));
        error.Key("message").String(status.message);
        if (status.line > 0) error.Key("line").Int(status.line);
        if (status.column > 0) error.Key("column").Int(status.column);
        error.EndObject().EndObject();
        return Finish(c.name, error.str() + "\n", 1);
      }
      return 1;
    }
    return Finish(c.name, json ? out.json.str() + "\n" : out.text, 0);
  }
  std::fprintf(stderr, "urnforest: unknown command '%s'\n", argv[1]);
  std::fputs(Usage().c_str(), stderr);
  if (json) return Finish(argv[1], "{\"error\":{\"code\":\"InvalidArgument\",\"message\":\"unknown command\"}}\n", 2);
  return 2;
}
