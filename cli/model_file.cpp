// Loading the CLI's inputs: CSV files and model files (see model_file.h).
#include "model_file.h"

#include "command.h"
#include "urnforest/serialize.h"

namespace urnforest::cli {

Status CsvFormat(const Args& args, CsvOptions* csv) {
  const std::string delimiter = args.Get("delimiter", ",");
  if (delimiter == "," || delimiter == ";") {
    csv->delimiter = delimiter[0];
  } else if (delimiter == "tab" || delimiter == "\\t" || delimiter == "\t") {
    csv->delimiter = '\t';
  } else if (delimiter == "auto") {
    csv->delimiter = 0;
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --delimiter must be ',', ';', tab or auto, got '" + delimiter + "'");
  }
  const std::string decimal = args.Get("decimal", ".");
  if (decimal != "." && decimal != ",") {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --decimal must be '.' or ',', got '" + decimal + "'");
  }
  csv->decimal = decimal[0];
  return Status::Ok();
}

Result<Dataset> LoadCsv(const std::string& path, const CsvOptions& options) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  Result<Dataset> data = ReadCsv(text.value(), options);
  if (!data.ok()) {
    Status status = data.status();
    status.message = path + ": " + status.message;
    return status;
  }
  return data;
}

Result<Forest> LoadModel(const std::string& path) {
  Result<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  const std::string& b = bytes.value();
  Result<Forest> forest =
      DeserializeForest(reinterpret_cast<const uint8_t*>(b.data()), b.size());
  if (!forest.ok()) {
    Status status = forest.status();
    status.message = path + ": " + status.message;
    return status;
  }
  return forest;
}

}  // namespace urnforest::cli
