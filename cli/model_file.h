#pragma once
// Loading the CLI's inputs: CSV files and model files, with the path in every error message.
#include <string>

#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest::cli {

/// Reads and parses a CSV file; errors keep their code and position, the message names the path.
Result<Dataset> LoadCsv(const std::string& path, const CsvOptions& options);

/// Reads and validates a model file written by `train --out`.
Result<Forest> LoadModel(const std::string& path);

}  // namespace urnforest::cli
