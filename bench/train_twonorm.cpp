// Native training-time benchmark: twonorm rows x 20, T trees, one thread.
// usage: train_twonorm [rows=5000] [trees=101] [repeats=3]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "base/crc32.h"
#include "urnforest/serialize.h"

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 5000;
  const int trees = argc > 2 ? std::atoi(argv[2]) : 101;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  urnforest::Result<urnforest::Dataset> data = urnforest::Twonorm(rows, 1);
  if (!data.ok()) return 1;
  urnforest::TrainOptions options;
  options.num_trees = trees;
  double best = 1e30;
  uint32_t model_crc = 0;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    urnforest::Result<urnforest::Forest> forest = urnforest::Train(data.value(), options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!forest.ok()) return 1;
    if (ms < best) best = ms;
    const std::vector<uint8_t> bytes = urnforest::SerializeForest(forest.value());
    model_crc = urnforest::internal::Crc32(bytes.data(), bytes.size());
    std::printf("run %d: %.1f ms, %zu nodes, oob_error %.4f\n", i, ms, forest.value().num_nodes(),
                forest.value().oob_error());
  }
  std::printf("{\"rows\":%zu,\"trees\":%d,\"best_ms\":%.1f,\"model_crc32\":\"%08x\"}\n", rows,
              trees, best, model_crc);
  return 0;
}
