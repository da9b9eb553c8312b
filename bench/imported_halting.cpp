// Halted soft modes of an imported forest against its full soft prediction, natively (not a test).
// One JSON line out.
//
//   bench_imported_halting MODEL.onnx DATA.csv ROUNDS [ALPHA]
//
// DATA.csv: a header, then rows whose first num_features cells are the model's inputs in order
// (quotes stripped; an empty or non-numeric cell reads -1, as the fixtures' missing codes), tiled
// to 1,000 rows. The forest is calibrated (CalibrateForest) on the first half of the rows. Per
// round, in alternating order: the full soft prediction (PredictScoresRows, kSoft), the exact
// early exit (PredictSoftExact) and the margin rule at ALPHA (PredictSoftMargin, default 0.99),
// each timed in process CPU time (repeated until >= 20 ms, divided). Reports per mode the median
// and quartiles over rounds of (mode's time / full time within the round) and the mean trees used.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "urnforest/calibrate.h"
#include "urnforest/margin_rule.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict_scores.h"

using namespace urnforest;

namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench_imported_halting: %s\n", what.c_str());
  std::exit(1);
}

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// CPU milliseconds per call of f, repeating it until at least 20 ms of CPU time have passed.
template <class F>
double CpuMsPerCall(F&& f) {
  int calls = 0;
  const double start = CpuMs();
  double elapsed = 0.0;
  do {
    f();
    ++calls;
    elapsed = CpuMs() - start;
  } while (elapsed < 20.0);
  return elapsed / calls;
}

std::vector<float> CsvRows(const char* path, size_t width) {
  std::ifstream in(path);
  if (!in) Die(std::string("cannot read ") + path);
  std::string line;
  std::getline(in, line);  // header
  std::vector<float> rows;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::string cell;
    for (size_t f = 0; f < width; ++f) {
      if (!std::getline(cells, cell, ',')) Die("a row has fewer cells than the model's features");
      cell.erase(std::remove(cell.begin(), cell.end(), '"'), cell.end());
      char* end = nullptr;
      const float v = std::strtof(cell.c_str(), &end);
      rows.push_back(cell.empty() || *end != '\0' ? -1.0f : v);
    }
  }
  return rows;
}

// "[q1, median, q3]" of xs.
std::string Quartiles(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  auto at = [&xs](double q) { return xs[static_cast<size_t>(q * (xs.size() - 1) + 0.5)]; };
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.3f, %.3f, %.3f]", at(0.25), at(0.5), at(0.75));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) Die("usage: bench_imported_halting MODEL.onnx DATA.csv ROUNDS [ALPHA]");
  std::ifstream model_in(argv[1], std::ios::binary);
  std::stringstream bytes_in;
  bytes_in << model_in.rdbuf();
  const std::string bytes = bytes_in.str();
  Result<Forest> imported = ImportOnnx(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!imported.ok()) Die(imported.status().message);
  Forest forest = std::move(imported).value();
  const size_t width = static_cast<size_t>(forest.num_features());
  const std::vector<float> data = CsvRows(argv[2], width);
  const size_t data_rows = data.size() / width;
  if (data_rows == 0) Die("no rows");
  const size_t n = 1000;
  std::vector<float> rows(n * width);
  for (size_t r = 0; r < n; ++r) std::copy_n(data.data() + (r % data_rows) * width, width, rows.data() + r * width);
  const int rounds = std::atoi(argv[3]);
  const double alpha = argc > 4 ? std::atof(argv[4]) : 0.99;
  const bool voting = forest.imported()->kind == ImportedKind::kVoting;
  if (voting) {
    if (Status s = CalibrateForest(&forest, rows.data(), std::max<size_t>(1, std::min(n, data_rows) / 2)); !s.ok()) {
      Die(s.message);
    }
  }
  double exact_trees = 0, margin_trees = 0;
  std::vector<double> exact_ratio, margin_ratio, full_ms;
  for (int round = 0; round < rounds; ++round) {
    double full = 0, exact = 0, margin = 0;
    auto run_full = [&] { full = CpuMsPerCall([&] { (void)PredictScoresRows(forest, rows.data(), n, VoteKind::kSoft); }); };
    auto run_exact = [&] {
      exact = CpuMsPerCall([&] { exact_trees = PredictSoftExact(forest, rows.data(), n).value().mean_trees; });
    };
    auto run_margin = [&] {
      if (!voting) return;
      margin = CpuMsPerCall([&] { margin_trees = PredictSoftMargin(forest, rows.data(), n, alpha, nullptr).value().mean_trees; });
    };
    if (round % 2 == 0) {
      run_full(); run_exact(); run_margin();
    } else {
      run_margin(); run_exact(); run_full();
    }
    full_ms.push_back(full);
    exact_ratio.push_back(exact / full);
    if (voting) margin_ratio.push_back(margin / full);
  }
  const double trees = forest.num_trees();
  std::printf("{\"trees\": %d, \"classes\": %d, \"rows\": %zu, \"full_ms\": %s, \"exact_share\": %.3f, "
              "\"exact_time_ratio\": %s",
              forest.num_trees(), forest.num_classes(), n, Quartiles(full_ms).c_str(), exact_trees / trees,
              Quartiles(exact_ratio).c_str());
  if (voting) {
    std::printf(", \"margin_share\": %.3f, \"margin_time_ratio\": %s", margin_trees / trees,
                Quartiles(margin_ratio).c_str());
  }
  std::printf("}\n");
  return 0;
}
