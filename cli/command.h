#pragma once
// The contract between cli/main.cpp and each command.
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/json_writer.h"
#include "urnforest/status.h"

namespace urnforest {
class Forest;
}  // namespace urnforest

namespace urnforest::cli {

/// What a command produces: one JSON document (printed with --json) and a human-readable text
/// (printed otherwise). Progress and diagnostics go to stderr directly.
struct Output {
  JsonWriter json;
  std::string text;
};

/// A command parses argv[2..argc), does its work, and fills `out`, or returns the failure.
using CommandFn = Status (*)(int argc, char** argv, Output& out);

/// The largest file the command line reads (models and CSV files): 1 GiB.
inline constexpr uint64_t kMaxInputBytes = uint64_t{1} << 30;

/// Reads a whole file; kIoError naming the path on failure, kLimitExceeded beyond kMaxInputBytes
/// (a regular file is refused before it is read; a device or pipe once that much has come),
/// kOutOfMemory when the content cannot be held.
Result<std::string> ReadFile(const std::string& path);
/// Writes bytes to a file, replacing it atomically: they go to a new file in the same directory
/// (".NAME.tmp-PID-N"), which is flushed to the disk, closed and renamed over `path`, so that `path`
/// holds either its old content or all of `bytes`, never a part. An existing file keeps its
/// permission bits; a symbolic link is kept and its target replaced. A destination that exists and
/// is not a regular file (a device such as /dev/stdout, a pipe) is written in place. kIoError naming
/// the path and the OS reason when any step fails (the temporary file is then removed).
Status WriteFile(const std::string& path, const std::vector<uint8_t>& bytes);
/// Writes `text` to stdout, then flushes and closes it, checking each step: kIoError with the OS
/// reason when any of it fails (a full disk, a closed descriptor). Call once, as the last output.
Status WriteStdout(const std::string& text);

/// Writes the forest's stored halting tables: "stored_tables": [{rule, alpha, trees, bytes}] into
/// the open JSON object of `out`, and one text line per table.
void WriteStoredTables(const Forest& forest, Output& out);

Status RunTrain(int argc, char** argv, Output& out);
Status RunPredict(int argc, char** argv, Output& out);
Status RunInfo(int argc, char** argv, Output& out);
Status RunTable(int argc, char** argv, Output& out);
Status RunPStar(int argc, char** argv, Output& out);
Status RunExpected(int argc, char** argv, Output& out);
Status RunPrune(int argc, char** argv, Output& out);
Status RunExperiment(int argc, char** argv, Output& out);
Status RunImport(int argc, char** argv, Output& out);
Status RunCalibrate(int argc, char** argv, Output& out);
Status RunExport(int argc, char** argv, Output& out);
Status RunImportance(int argc, char** argv, Output& out);
/// `rules`: every halting rule with its traits (the core's rule table).
Status RunRules(int argc, char** argv, Output& out);

}  // namespace urnforest::cli
