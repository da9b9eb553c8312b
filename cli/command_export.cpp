// CLI command `export`: a model file written as an ONNX file (urnforest/onnx_export.h).
#include <cstdio>
#include <string>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "urnforest/forest.h"
#include "urnforest/onnx_export.h"

namespace urnforest::cli {

Status RunExport(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2, {"model", "onnx"}, {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) return model_path.status();
  Result<std::string> onnx_path = args.Required("onnx");
  if (!onnx_path.ok()) return onnx_path.status();

  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  const Forest& f = forest.value();
  Result<std::vector<uint8_t>> bytes = ExportOnnx(f);
  if (!bytes.ok()) return bytes.status();
  Status written = WriteFile(onnx_path.value(), bytes.value());
  if (!written.ok()) return written;

  out.json.BeginObject();
  out.json.Key("onnx").String(onnx_path.value());
  out.json.Key("bytes").Int(static_cast<int64_t>(bytes.value().size()));
  out.json.Key("trees").Int(f.num_trees());
  out.json.Key("classes").StringArray(f.schema().class_names);
  // The input "X" takes the model's features in this order; categorical ones as the index of
  // their category in `categories`.
  out.json.Key("features").BeginArray();
  for (const FeatureInfo& feature : f.schema().features) {
    out.json.BeginObject();
    out.json.Key("name").String(feature.name);
    const bool categorical = feature.type == FeatureType::kCategorical;
    out.json.Key("type").String(categorical ? "categorical" : "numeric");
    if (categorical) out.json.Key("categories").StringArray(feature.categories);
    out.json.EndObject();
  }
  out.json.EndArray();
  out.json.Key("vote").String(f.imported() != nullptr      ? "imported scores"
                              : f.tree_weights().empty()   ? "majority"
                                                           : "weighted");
  out.json.EndObject();

  char line[256];
  std::snprintf(line, sizeof(line), "exported %d trees (%d classes) as ONNX: %zu bytes -> %s\n",
                f.num_trees(), f.num_classes(), bytes.value().size(), onnx_path.value().c_str());
  out.text = line;
  return Status::Ok();
}

}  // namespace urnforest::cli
