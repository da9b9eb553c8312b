#pragma once
// Loading the CLI's inputs: CSV files and model files, with the path in every error message.
#include <string>

#include "args.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest::cli {

/// The value options every command that reads CSV accepts: --delimiter and --decimal.
#define URNFOREST_CSV_FORMAT_OPTIONS "delimiter", "decimal"

/// Sets `csv`'s delimiter and decimal mark from --delimiter (',' default, ';', tab as "tab" or
/// "\t", or "auto") and --decimal ('.' default or ','); fails with kInvalidArgument naming the
/// option on any other value.
Status CsvFormat(const Args& args, CsvOptions* csv);

/// Reads and parses a CSV file; errors keep their code and position, the message names the path.
Result<Dataset> LoadCsv(const std::string& path, const CsvOptions& options);

/// Reads and validates a model file written by `train --out`.
Result<Forest> LoadModel(const std::string& path);

}  // namespace urnforest::cli
