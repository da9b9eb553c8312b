#pragma once
// The experiment report as one JSON document: the CLI's `experiment --json` and the JS API's
// runExperiment() both print exactly this (fields in docs/experiments.md and docs/pruning.md).
#include <string>

#include "urnforest/experiment.h"
#include "urnforest/json_writer.h"

namespace urnforest {

/// Stable protocol name: "kfold", "holdout" or "synthetic". Never null.
const char* ProtocolName(ProtocolKind kind);

/// Writes the report of `result` (run with `options`, taking `seconds` of wall time) as one JSON
/// object: dataset, rows, features, classes, partitions, protocol fields, ensemble, trees, mtry,
/// alpha(s), seed, seconds, "full" (the unpruned ensemble), "pruned" (with options.prune), "rules"
/// (first alpha) and "alpha_sweep" (more than one alpha). Means and standard deviations are
/// {"mean", "std"}; undefined metrics (NaN) are null or left out (rule fields defined on no
/// partition, e.g. proxy fields without a proxy).
void WriteExperimentJson(const ExperimentOptions& options, const ExperimentResult& result,
                         double seconds, JsonWriter& json);

/// The same document as a string.
std::string ExperimentJson(const ExperimentOptions& options, const ExperimentResult& result,
                           double seconds);

}  // namespace urnforest
