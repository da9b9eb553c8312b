// [KM26]'s minimean strategy on real final tallies, any number of classes: solved from calibration
// rows, measured exactly on test rows (the mean over test rows of each row's exact disagreement and
// expected trees under random order), against the oracle floor (the same solve on the test rows' own
// tallies, which no rule that counts votes in random order can beat). Two classes use the two-class
// solver (urnforest/binary_stopping.h), more the full-tally one (urnforest/tally_stopping.h).
// Usage: bench_tally_lp K T CALIBRATION TEST [TARGET...]
//   CALIBRATION, TEST: text files of final tallies, K counts per line summing to T.
//   TARGET: expected disagreement targets (default 0.001 0.01).
// Prints one JSON document: per target, the calibrated strategy's trees and disagreement on the
// test rows, the floor's trees and disagreement, and the solve time of the calibrated strategy.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/tally_stopping.h"

using namespace urnforest;

namespace {

std::vector<uint32_t> ReadTallies(const char* path) {
  std::ifstream in(path);
  std::vector<uint32_t> out;
  for (uint32_t v; in >> v;) out.push_back(v);
  return out;
}

struct Measured {
  double trees = 0.0, disagreement = 0.0, solve_ms = 0.0;
  bool ok = false;
};

// Binary: the tallies' class-1 counts.
Measured Binary(int t, const std::vector<uint32_t>& fit, const std::vector<uint32_t>& test, double target) {
  MinimeanProblem p;
  p.num_trees = t;
  p.final_count_weights.assign(static_cast<size_t>(t) + 1, 0.0);
  for (size_t r = 0; r + 1 < fit.size(); r += 2) p.final_count_weights[fit[r + 1]] += 1.0;
  p.max_disagreement = target;
  const auto start = std::chrono::steady_clock::now();
  Result<BinaryStoppingStrategy> s = SolveMinimean(p);
  Measured m;
  m.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return m;
  const auto first = ExactBinaryOutcomes(s.value().first).value();
  const auto second = ExactBinaryOutcomes(s.value().second).value();
  const double share = s.value().first_share;
  const size_t rows = test.size() / 2;
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t n = test[2 * r + 1];
    m.trees += (share * first[n].trees + (1 - share) * second[n].trees) / rows;
    m.disagreement += (share * first[n].disagreement + (1 - share) * second[n].disagreement) / rows;
  }
  m.ok = true;
  return m;
}

Measured Tally(int k, int t, const std::vector<uint32_t>& fit, const std::vector<uint32_t>& test, double target) {
  TallyMinimeanProblem p;
  p.num_trees = t;
  p.num_classes = k;
  p.final_tallies = fit;
  p.max_disagreement = target;
  const auto start = std::chrono::steady_clock::now();
  Result<TallyStoppingStrategy> s = SolveTallyMinimean(p);
  Measured m;
  m.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.status().message.c_str());
    return m;
  }
  const auto per_row = ExactTallyOutcomes(s.value(), test).value();
  for (const TallyOutcome& o : per_row) {
    m.trees += o.trees / per_row.size();
    m.disagreement += o.disagreement / per_row.size();
  }
  m.ok = true;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: bench_tally_lp K T CALIBRATION TEST [TARGET...]\n");
    return 2;
  }
  const int k = std::atoi(argv[1]), t = std::atoi(argv[2]);
  const std::vector<uint32_t> calibration = ReadTallies(argv[3]);
  const std::vector<uint32_t> test = ReadTallies(argv[4]);
  std::vector<double> targets;
  for (int i = 5; i < argc; ++i) targets.push_back(std::atof(argv[i]));
  if (targets.empty()) targets = {0.001, 0.01};
  std::printf("{\"classes\": %d, \"trees\": %d, \"calibration_rows\": %zu, \"test_rows\": %zu, \"targets\": [", k, t,
              calibration.size() / k, test.size() / k);
  for (size_t i = 0; i < targets.size(); ++i) {
    const double a = targets[i];
    const Measured lp = k == 2 ? Binary(t, calibration, test, a) : Tally(k, t, calibration, test, a);
    const Measured floor = k == 2 ? Binary(t, test, test, a) : Tally(k, t, test, test, a);
    if (!lp.ok || !floor.ok) return 1;
    std::printf("%s{\"target\": %g, \"lp_trees\": %.6f, \"lp_disagreement\": %.8f, \"floor_trees\": %.6f, "
                "\"floor_disagreement\": %.8f, \"solve_ms\": %.1f}",
                i ? ", " : "", a, lp.trees, lp.disagreement, floor.trees, floor.disagreement, lp.solve_ms);
  }
  std::printf("]}\n");
  return 0;
}
