// The `importance` command: feature importance of a model on labelled CSV rows (impurity or
// out-of-bag permutation; urnforest/importance.h).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/importance.h"

namespace urnforest::cli {

Status RunImportance(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"model", "data", "method", "seed", "target", URNFOREST_CSV_FORMAT_OPTIONS},
                                    {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<std::string> data_path = args.Required("data");
  if (!data_path.ok()) return data_path.status();
  ImportanceOptions options;
  Result<ImportanceMethod> method = ParseOption(args, "method", options.method, ParseImportanceMethod);
  if (!method.ok()) return method.status();
  options.method = method.value();
  Result<int64_t> seed = args.Int("seed", 1, 0, INT64_MAX);
  if (!seed.ok()) return seed.status();
  options.seed = static_cast<uint64_t>(seed.value());

  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  const Forest& f = forest.value();
  CsvOptions csv;
  csv.schema = &f.schema();
  csv.target = args.Get("target", "");
  if (Status format = CsvFormat(args, &csv); !format.ok()) return format;
  Result<Dataset> data = LoadCsv(data_path.value(), csv);
  if (!data.ok()) return data.status();
  Result<std::vector<double>> importance = FeatureImportance(f, data.value(), options);
  if (!importance.ok()) return importance.status();

  const std::vector<FeatureInfo>& features = f.schema().features;
  out.json.BeginObject();
  out.json.Key("method").String(ImportanceMethodName(options.method));
  out.json.Key("features").BeginArray();
  for (size_t i = 0; i < features.size(); ++i) {
    out.json.BeginObject();
    out.json.Key("name").String(features[i].name);
    out.json.Key("importance").Double(importance.value()[i]);
    out.json.EndObject();
    char line[96];
    std::snprintf(line, sizeof(line), "%.6f\t", importance.value()[i]);
    out.text += line + features[i].name + "\n";
  }
  out.json.EndArray();
  out.json.EndObject();
  return Status::Ok();
}

}  // namespace urnforest::cli
