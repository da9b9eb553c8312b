// [KM26]'s minimean strategy on real final tallies: solved from calibration rows, measured exactly
// on test rows, against the oracle floor (the same solve on the test rows' own tallies).
// Usage: bench_binary_lp N CALIBRATION TEST [TARGET...]
//   CALIBRATION, TEST: text files of final class-1 vote counts, one row per line (0..N).
//   TARGET: expected disagreement targets (default 0.001 0.01).
// Prints one JSON document: per target, mean trees and disagreement on the test rows for the
// calibrated strategy, and the floor's mean trees.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "urnforest/binary_stopping.h"

using namespace urnforest;

namespace {

std::vector<int> ReadCounts(const char* path) {
  std::ifstream in(path);
  std::vector<int> out;
  for (int n; in >> n;) out.push_back(n);
  return out;
}

std::vector<double> Histogram(const std::vector<int>& rows, int num_trees) {
  std::vector<double> h(static_cast<size_t>(num_trees) + 1, 0.0);
  for (int n : rows) h.at(static_cast<size_t>(n)) += 1.0;
  return h;
}

// Mean exact outcome over `rows` of the strategy's mixture.
BinaryOutcome MeanOn(const BinaryStoppingStrategy& s, const std::vector<int>& rows) {
  const auto first = ExactBinaryOutcomes(s.first).value();
  const auto second = ExactBinaryOutcomes(s.second).value();
  BinaryOutcome out;
  for (int n : rows) {
    out.trees += s.first_share * first[n].trees + (1 - s.first_share) * second[n].trees;
    out.disagreement +=
        s.first_share * first[n].disagreement + (1 - s.first_share) * second[n].disagreement;
  }
  out.trees /= rows.size();
  out.disagreement /= rows.size();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: bench_binary_lp N CALIBRATION TEST [TARGET...]\n");
    return 2;
  }
  const int num_trees = std::atoi(argv[1]);
  const std::vector<int> calibration = ReadCounts(argv[2]);
  const std::vector<int> test = ReadCounts(argv[3]);
  std::vector<double> targets;
  for (int i = 4; i < argc; ++i) targets.push_back(std::atof(argv[i]));
  if (targets.empty()) targets = {0.001, 0.01};
  std::printf("{\"trees\": %d, \"calibration_rows\": %zu, \"test_rows\": %zu, \"targets\": [", num_trees,
              calibration.size(), test.size());
  for (size_t k = 0; k < targets.size(); ++k) {
    MinimeanProblem p;
    p.num_trees = num_trees;
    p.max_disagreement = targets[k];
    p.final_count_weights = Histogram(calibration, num_trees);
    Result<BinaryStoppingStrategy> fitted = SolveMinimean(p);
    p.final_count_weights = Histogram(test, num_trees);
    Result<BinaryStoppingStrategy> floor = SolveMinimean(p);
    if (!fitted.ok() || !floor.ok()) {
      std::fprintf(stderr, "%s\n", (fitted.ok() ? floor : fitted).status().message.c_str());
      return 1;
    }
    const BinaryOutcome realised = MeanOn(fitted.value(), test);
    std::printf("%s{\"target\": %g, \"trees\": %.4f, \"disagreement\": %.6f, \"floor_trees\": %.4f}",
                k ? ", " : "", targets[k], realised.trees, realised.disagreement,
                floor.value().expected_trees);
  }
  std::printf("]}\n");
  return 0;
}
