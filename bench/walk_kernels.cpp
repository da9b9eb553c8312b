// The full vote's walk kernels side by side on one model (not a test; no CMake target): the node
// table walk of 4 rows at a time (WalkView without the compact layout, as before it) and the
// compact branch-free walk with 4, 8 and 16 rows side by side; every kernel tallies the same votes
// (checked) over blocks of 256 rows, all trees per block. One JSON line: ns per tree per row, per
// round, kernels interleaved round by round.
//
//   g++ -O3 -DNDEBUG -std=c++17 -Isrc bench/walk_kernels.cpp build/liburnforest_core.a -lpthread -o /tmp/walk_kernels
//   em++ -O3 -DNDEBUG -std=c++17 -Isrc -flto bench/walk_kernels.cpp build-wasm/liburnforest_core.a -fwasm-exceptions \
//        -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1 -o /tmp/walk_kernels.js        [-msimd128: the same with SIMD]
//   /tmp/walk_kernels MODEL.urnf TEST.csv ROUNDS      (node /tmp/walk_kernels.js ... in wasm)
#include <chrono>
#include <memory>
#include <type_traits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ensemble/forest_walk.h"
#include "tree/compact_walk.h"
#include "urnforest/csv_reader.h"
#include "urnforest/full_vote.h"
#include "urnforest/serialize.h"

using namespace urnforest;

namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "walk_kernels: %s\n", what.c_str());
  std::exit(1);
}

constexpr size_t kBlock = 256;

// Votes of every tree for every row (rows without NaN) with kernel `walk(tree, block, count, out)`.
template <class Walk>
std::vector<uint32_t> Tally(const Forest& forest, const std::vector<float>& rows, Walk walk) {
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  const size_t n = rows.size() / m;
  std::vector<uint32_t> votes(n * k, 0);
  int32_t out[kBlock];
  for (size_t begin = 0; begin < n; begin += kBlock) {
    const size_t count = n - begin < kBlock ? n - begin : kBlock;
    const float* block = rows.data() + begin * m;
    for (int32_t t = 0; t < forest.num_trees(); ++t) {
      walk(t, block, count, out);
      for (size_t i = 0; i < count; ++i) ++votes[(begin + i) * k + static_cast<size_t>(out[i])];
    }
  }
  return votes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) Die("usage: walk_kernels MODEL.urnf TEST.csv ROUNDS");
  const std::string bytes = ReadFile(argv[1]);
  Result<Forest> loaded = DeserializeForest(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!loaded.ok()) Die(loaded.status().ToString());
  const Forest& forest = loaded.value();
  CsvOptions csv;
  csv.schema = &forest.schema();
  Result<Dataset> data = ReadCsv(ReadFile(argv[2]), csv);
  if (!data.ok()) Die(data.status().ToString());
  Result<std::vector<float>> rows = ModelRows(forest, data.value());
  if (!rows.ok()) Die(rows.status().ToString());
  const size_t m = static_cast<size_t>(forest.num_features());
  const auto build_start = std::chrono::steady_clock::now();
  const std::shared_ptr<const internal::CompactTrees> compact =
      internal::BuildCompactTrees(forest.node_table(), m);
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start).count();
  if (compact->nodes.empty()) Die("the model has no compact layout (categorical splits?)");
  const internal::WalkView table_view(forest.node_table(), forest.category_counts().data(),
                                      forest.tree_roots().data(), true, nullptr);
  const uint32_t* roots = forest.tree_roots().data();
  auto yes = [](size_t) { return true; };
  auto node_table = [&](int32_t t, const float* block, size_t count, int32_t* out) {
    table_view.VoteMany<true>(t, count, [block, m](size_t i) { return block + i * m; }, yes, out);
  };
  auto compact_walk = [&](auto group) {
    return [&, group](int32_t t, const float* block, size_t count, int32_t* out) {
      const uint32_t root = roots[t];
      internal::CompactWalk<false, decltype(group)::value>(
          *compact, count, [root](size_t) { return root; }, [block, m](size_t i) { return block + i * m; }, out);
    };
  };
  const char* names[] = {"node_table_4", "compact_4", "compact_8", "compact_16"};
  std::vector<std::vector<double>> ns(4);
  const std::vector<uint32_t> want = Tally(forest, rows.value(), node_table);
  const double cells = static_cast<double>(forest.num_trees()) * static_cast<double>(rows.value().size() / m);
  for (int r = 0; r < std::atoi(argv[3]); ++r) {
    for (int k = 0; k < 4; ++k) {
      const auto start = std::chrono::steady_clock::now();
      std::vector<uint32_t> got;
      int calls = 0;
      double elapsed = 0.0;
      do {
        switch (k) {
          case 0: got = Tally(forest, rows.value(), node_table); break;
          case 1: got = Tally(forest, rows.value(), compact_walk(std::integral_constant<size_t, 4>())); break;
          case 2: got = Tally(forest, rows.value(), compact_walk(std::integral_constant<size_t, 8>())); break;
          default: got = Tally(forest, rows.value(), compact_walk(std::integral_constant<size_t, 16>())); break;
        }
        ++calls;
        elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      } while (elapsed < 100.0);
      if (got != want) Die(std::string(names[k]) + " voted differently");
      ns[k].push_back(1e6 * elapsed / calls / cells);
    }
  }
  std::printf("{\"trees\":%d,\"rows\":%zu,\"nodes\":%zu,\"compact_bytes\":%zu,\"compact_build_ms\":%.3f", forest.num_trees(),
              rows.value().size() / m, forest.num_nodes(), compact->nodes.size() * sizeof(internal::CompactNode), build_ms);
  for (int k = 0; k < 4; ++k) {
    std::printf(",\"%s\":[", names[k]);
    for (size_t r = 0; r < ns[k].size(); ++r) std::printf("%s%.2f", r ? "," : "", ns[k][r]);
    std::printf("]");
  }
  std::printf("}\n");
  return 0;
}
