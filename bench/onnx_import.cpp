// ImportOnnx time, natively (not a test). One JSON line out.
//
//   bench_onnx_import MODEL.onnx ROUNDS
//
// Per round, the process CPU time of one ImportOnnx of the file's bytes (already in memory);
// reports the median and quartiles over rounds in milliseconds, and the same per 100,000 nodes of
// the imported forest (the node table's size).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "urnforest/onnx_import.h"

using namespace urnforest;

namespace {

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// "[q1, median, q3]" of xs.
std::string Quartiles(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  auto at = [&xs](double q) { return xs[static_cast<size_t>(q * (xs.size() - 1) + 0.5)]; };
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.2f, %.2f, %.2f]", at(0.25), at(0.5), at(0.75));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_onnx_import MODEL.onnx ROUNDS\n");
    return 1;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  const int rounds = std::max(1, std::atoi(argv[2]));
  std::vector<double> ms, per_100k;
  size_t nodes = 0;
  for (int r = 0; r < rounds; ++r) {
    const double start = CpuMs();
    Result<Forest> forest = ImportOnnx(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const double took = CpuMs() - start;
    if (!forest.ok()) {
      std::fprintf(stderr, "bench_onnx_import: %s\n", forest.status().message.c_str());
      return 1;
    }
    nodes = forest.value().node_table().nodes.size();
    ms.push_back(took);
    per_100k.push_back(took * 1e5 / static_cast<double>(nodes));
  }
  std::printf("{\"bytes\": %zu, \"nodes\": %zu, \"ms\": %s, \"ms_per_100k_nodes\": %s}\n", bytes.size(), nodes,
              Quartiles(ms).c_str(), Quartiles(per_100k).c_str());
  return 0;
}
