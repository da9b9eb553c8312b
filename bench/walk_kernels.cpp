// The full vote's walk kernels side by side on one model (not a test; no CMake target): the node
// table walk of 4 rows at a time (WalkView without the compact layout, as before it), CompactWalk
// with 4, 8 and 16 rows side by side, and bench-only variants of its group loop (a finished slot
// refilled at once; the "still moving" test every 1, 2 or 4 steps, from the shallowest leaf's
// depth, or not at all for the tree's depth in steps); the perfect-tree walk of a shallow forest
// (bench/perfect_walk.h) with 4-32 rows side by side, also over the block transposed once
// (feature-major), and deep trees' first 4 or 6 levels as perfect trees before the compact walk;
// every kernel tallies the same votes
// (checked) over blocks of 256 rows, all trees per block. One JSON line: ns per tree per row, per
// round, kernels interleaved round by round. In wasm run node with --no-liftoff: V8's baseline
// tier otherwise runs some kernels unoptimised for the whole measurement.
//
//   g++ -O3 -DNDEBUG -std=c++17 -Isrc bench/walk_kernels.cpp build/liburnforest_core.a -lpthread -o /tmp/walk_kernels
//   em++ -O3 -DNDEBUG -std=c++17 -Isrc -flto bench/walk_kernels.cpp build-wasm/liburnforest_core.a -fwasm-exceptions \
//        -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=1 -o /tmp/walk_kernels.js        [-msimd128: the same with SIMD]
//   /tmp/walk_kernels MODEL.urnf TEST.csv ROUNDS [NAME_PARTS]   (node --no-liftoff /tmp/walk_kernels.js ... in wasm)
// Times are CPU time (natively the thread's, in wasm Node's process.cpuUsage(): wall time on a loaded
// machine counts the time descheduled); NAME_PARTS (comma-separated) runs only the kernels whose name contains one of them.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <type_traits>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#endif

#include "ensemble/forest_walk.h"
#include "tree/compact_walk.h"
#include "perfect_walk.h"
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

// This thread's CPU time in ms (not wall time: on a loaded machine the time spent descheduled
// would swamp the kernels' differences).
#if defined(__EMSCRIPTEN__)
// Node's process CPU time (user + system) in ms: wasm has no thread CPU clock.
EM_JS(double, NodeCpuMs, (), {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
});
double CpuMs() { return NodeCpuMs(); }
#else
double CpuMs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}
#endif

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

// A bench-only kernel: kGroup slots walk side by side as in CompactWalk, but a slot whose walk
// reached its leaf takes the next row at once (a branch per finished walk) instead of waiting for
// the deepest walk of its group; the last walks finish one at a time.
template <size_t kGroup, class RowPtr>
void RefillWalk(const internal::CompactTrees& trees, uint32_t root, size_t count, RowPtr row_ptr, int32_t* out) {
  const internal::CompactNode* nodes = trees.nodes.data();
  const uint32_t shift = trees.feature_bits;
  const uint32_t mask = trees.feature_mask;
  if (count < kGroup) {
    internal::CompactWalk<internal::kEndClass, kGroup>(trees, count, [root](size_t) { return root; }, row_ptr, out);
    return;
  }
  const float* rows[kGroup];
  uint32_t index[kGroup];
  size_t who[kGroup];
  for (size_t g = 0; g < kGroup; ++g) {
    rows[g] = row_ptr(g);
    index[g] = root;
    who[g] = g;
  }
  size_t next_row = kGroup;
  bool drained = false;
  while (!drained) {
    for (size_t g = 0; g < kGroup; ++g) {
      const internal::CompactNode node = nodes[index[g]];
      uint32_t next = index[g] + (node.link >> shift) + static_cast<uint32_t>(rows[g][node.link & mask] > node.threshold);
      if (next == index[g]) {
        if (who[g] == SIZE_MAX) continue;
        out[who[g]] = trees.ClassOfLeaf(node);
        if (next_row < count) {
          who[g] = next_row;
          rows[g] = row_ptr(next_row++);
          next = root;
        } else {
          who[g] = SIZE_MAX;
          drained = true;
        }
      }
      index[g] = next;
    }
  }
  for (size_t g = 0; g < kGroup; ++g) {
    if (who[g] == SIZE_MAX) continue;
    uint32_t i = index[g];
    for (;;) {
      const internal::CompactNode node = nodes[i];
      const uint32_t next = i + (node.link >> shift) + static_cast<uint32_t>(rows[g][node.link & mask] > node.threshold);
      if (next == i) break;
      i = next;
    }
    out[who[g]] = trees.ClassOfLeaf(nodes[i]);
  }
}

// A bench-only kernel: CompactWalk's group walk, checking whether a walk still moves only every
// kSteps steps (a leaf stays put, so extra steps are harmless) and not before `min_steps` (the
// tree's shallowest leaf depth: every walk takes at least that many steps).
template <size_t kGroup, size_t kSteps, class RowPtr>
void UnrolledWalk(const internal::CompactTrees& trees, uint32_t root, uint32_t min_steps, size_t count,
                  RowPtr row_ptr, int32_t* out) {
  const internal::CompactNode* nodes = trees.nodes.data();
  const uint32_t shift = trees.feature_bits;
  const uint32_t mask = trees.feature_mask;
  size_t i = 0;
  for (; i + kGroup <= count; i += kGroup) {
    const float* rows[kGroup];
    uint32_t index[kGroup];
    for (size_t g = 0; g < kGroup; ++g) {
      rows[g] = row_ptr(i + g);
      index[g] = root;
    }
    auto step = [&]() {
      uint32_t moved = 0;
      for (size_t g = 0; g < kGroup; ++g) {
        const internal::CompactNode node = nodes[index[g]];
        const uint32_t next =
            index[g] + (node.link >> shift) + static_cast<uint32_t>(rows[g][node.link & mask] > node.threshold);
        moved |= next ^ index[g];
        index[g] = next;
      }
      return moved;
    };
    for (uint32_t s = 0; s < min_steps; ++s) step();
    for (;;) {
      if (kSteps == 0) break;  // min_steps is the tree's depth: every walk is at its leaf
      for (size_t s = 1; s < (kSteps == 0 ? 1 : kSteps); ++s) step();
      if (step() == 0) break;
    }
    for (size_t g = 0; g < kGroup; ++g) out[i + g] = trees.ClassOfLeaf(nodes[index[g]]);
  }
  internal::CompactWalk<internal::kEndClass, kGroup>(trees, count - i, [root](size_t) { return root; },
                                                     [&](size_t x) { return row_ptr(i + x); }, out + i);
}

// The depth of the deepest leaf of the tree rooted at `root`.
uint32_t MaxLeafDepth(const NodeTable& table, uint32_t root) {
  const TreeNode& n = table.nodes[root];
  if (n.feature < 0) return 0;
  return 1 + std::max(MaxLeafDepth(table, n.child_or_class), MaxLeafDepth(table, n.child_or_class + 1));
}

// The depth of the shallowest leaf of the tree rooted at `root` (node table, pre-order).
uint32_t MinLeafDepth(const NodeTable& table, uint32_t root) {
  const TreeNode& n = table.nodes[root];
  if (n.feature < 0) return 0;
  return 1 + std::min(MinLeafDepth(table, n.child_or_class), MinLeafDepth(table, n.child_or_class + 1));
}

// True when `name` contains one of the comma-separated parts of `filter`.
bool NameMatches(const char* name, const std::string& filter) {
  size_t at = 0;
  for (;;) {
    const size_t comma = filter.find(',', at);
    const std::string part = filter.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!part.empty() && std::strstr(name, part.c_str()) != nullptr) return true;
    if (comma == std::string::npos) return false;
    at = comma + 1;
  }
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
  auto refill_walk = [&](auto group) {
    return [&, group](int32_t t, const float* block, size_t count, int32_t* out) {
      RefillWalk<decltype(group)::value>(*compact, roots[t], count, [block, m](size_t i) { return block + i * m; }, out);
    };
  };
  std::vector<uint32_t> min_depth(static_cast<size_t>(forest.num_trees()));
  std::vector<uint32_t> max_depth(min_depth.size());
  for (size_t t = 0; t < min_depth.size(); ++t) {
    min_depth[t] = MinLeafDepth(forest.node_table(), roots[t]);
    max_depth[t] = MaxLeafDepth(forest.node_table(), roots[t]);
  }
  auto unrolled_walk = [&](auto group, auto steps, bool use_min) {
    return [&, group, steps, use_min](int32_t t, const float* block, size_t count, int32_t* out) {
      constexpr size_t kSteps = decltype(steps)::value;
      UnrolledWalk<decltype(group)::value, kSteps>(
          *compact, roots[t], kSteps == 0 ? max_depth[t] : use_min ? min_depth[t] : 0, count, [block, m](size_t i) { return block + i * m; }, out);
    };
  };
  // The perfect walk of a shallow forest (bench/perfect_walk.h), empty for a deep one.
  const bench_perfect::PerfectTrees perfect = bench_perfect::BuildPerfectTrees(forest.node_table(), m, compact->heights);
  const internal::CompactTrees& no_perfect = *compact;
  auto compact_only = [&](int32_t t, const float* block, size_t count, int32_t* out) {
    const uint32_t root = roots[t];
    internal::CompactWalk<internal::kEndClass>(no_perfect, count, [root](size_t) { return root; },
                                               [block, m](size_t i) { return block + i * m; }, out);
  };
  // A copy of CompactWalk's group loop (the same steps): its distance to `compact_walk` is what
  // inlining and code placement alone move a kernel (the floor for reading the other columns).
  auto compact_walk_copy = [&](int32_t t, const float* block, size_t count, int32_t* out) {
    const uint32_t root = roots[t];
    auto root_of = [root](size_t) { return root; };
    auto row_ptr = [block, m](size_t i) { return block + i * m; };
    size_t i = 0;
    while (i + 8 <= count) {
      if (i + 16 <= count && internal::CompactGroup<internal::kEndClass, 16, true>(no_perfect, i, root_of, row_ptr, out)) {
        i += 16;
        continue;
      }
      internal::CompactGroup<internal::kEndClass, 8, false>(no_perfect, i, root_of, row_ptr, out);
      i += 8;
    }
    auto rest_rows = [&](size_t x) { return row_ptr(i + x); };
    internal::CompactWalk<internal::kEndClass, 4>(no_perfect, count - i, root_of, rest_rows, out + i);
  };
  auto perfect_walk = [&](auto group) {
    return [&, group](int32_t t, const float* block, size_t count, int32_t* out) {
      const uint32_t root = roots[t];
      auto root_of = [root](size_t) { return root; };
      auto row_ptr = [block, m](size_t i) { return block + i * m; };
      size_t i = 0;
      for (; i + decltype(group)::value <= count; i += decltype(group)::value) {
        bench_perfect::PerfectGroup<internal::kEndClass, decltype(group)::value>(perfect, i, root_of, row_ptr, out);
      }
      for (; i < count; ++i) bench_perfect::PerfectGroup<internal::kEndClass, 1>(perfect, i, root_of, row_ptr, out);
    };
  };
  // The perfect walk over the block transposed once (feature-major, as the first tree of a block
  // is walked; the copy is timed): a walk's value is at cols[f * kBlock + row], so a group's walks
  // differ by a constant displacement and only their node indices take registers.
  std::vector<float> cols(kBlock * m);
  auto perfect_cols = [&](auto group) {
    return [&, group](int32_t t, const float* block, size_t count, int32_t* out) {
      constexpr size_t kG = decltype(group)::value;
      if (t == 0) {
        for (size_t r = 0; r < count; ++r) {
          for (size_t f = 0; f < m; ++f) cols[f * kBlock + r] = block[r * m + f];
        }
      }
      const bench_perfect::PerfectTrees& p = perfect;
      const uint32_t slot = p.slot_of_node[roots[t]];
      const uint16_t* fe = p.features.data() + size_t{slot} * p.inner;
      const float* th = p.thresholds.data() + size_t{slot} * p.inner;
      const int32_t* ends = p.leaf_class.data() + size_t{slot} * p.leaves;
      size_t i = 0;
      for (; i + kG <= count; i += kG) {
        const float* c = cols.data() + i;
        uint32_t j[kG];
        for (size_t g = 0; g < kG; ++g) j[g] = 0;
        for (uint32_t s = 0; s < p.depth; ++s) {
          for (size_t g = 0; g < kG; ++g) j[g] = 2 * j[g] + 1 + static_cast<uint32_t>(c[size_t{fe[j[g]]} * kBlock + g] > th[j[g]]);
        }
        for (size_t g = 0; g < kG; ++g) out[i + g] = ends[j[g] - p.inner];
      }
      for (; i < count; ++i) {
        uint32_t j = 0;
        for (uint32_t s = 0; s < p.depth; ++s) j = 2 * j + 1 + static_cast<uint32_t>(cols[size_t{fe[j]} * kBlock + i] > th[j]);
        out[i] = ends[j - p.inner];
      }
    };
  };
  // Deep trees: the first kTop levels as perfect trees, then the compact walk from the node reached.
  std::vector<bench_perfect::PerfectTrees> tops;
  for (uint32_t top : {4u, 6u}) tops.push_back(bench_perfect::BuildPerfectTrees(forest.node_table(), m, compact->heights, top));
  auto top_perfect = [&](auto top_index) {
    return [&, top_index](int32_t t, const float* block, size_t count, int32_t* out) {
      constexpr size_t kG = 8;
      const bench_perfect::PerfectTrees& p = tops[decltype(top_index)::value];
      auto root_of = [&](size_t) { return roots[t]; };
      auto row_ptr = [block, m](size_t i) { return block + i * m; };
      size_t i = 0;
      int32_t reached[kG];
      for (; i + kG <= count; i += kG) {
        auto rows_at = [&](size_t g) { return row_ptr(i + g); };
        if (!bench_perfect::PerfectGroup<internal::kEndLeafIndex, kG>(p, 0, root_of, rows_at, reached)) Die("no top layout");
        auto from = [&](size_t g) { return static_cast<uint32_t>(reached[g]); };
        internal::CompactGroup<internal::kEndClass, kG, false>(no_perfect, 0, from, rows_at, out + i);
      }
      internal::CompactWalk<internal::kEndClass>(no_perfect, count - i, root_of,
                                                 [&](size_t x) { return row_ptr(i + x); }, out + i);
    };
  };
  const bool has_perfect = !perfect.empty();
  using G8 = std::integral_constant<size_t, 8>;
  constexpr int kKernels = 23;
  const char* names[kKernels] = {"node_table_4", "compact_4", "compact_8", "compact_16", "refill_8", "refill_12",
                                 "compact_8_check2", "compact_8_mindepth", "compact_8_check2_mindepth",
                                 "compact_8_check4", "compact_8_fixed_depth", "compact_8_check1",
                                 "compact_walk", "perfect_4", "perfect_8",
                                 "perfect_16", "perfect_32", "perfect_cols_4", "perfect_cols_8", "perfect_cols_16", "top4_perfect_then_compact_8",
                                 "top6_perfect_then_compact_8", "compact_walk_copy"};
  std::vector<std::vector<double>> ns(kKernels);
  const std::vector<uint32_t> want = Tally(forest, rows.value(), node_table);
  const double cells = static_cast<double>(forest.num_trees()) * static_cast<double>(rows.value().size() / m);
  for (int r = 0; r < std::atoi(argv[3]); ++r) {
    for (int k = 0; k < kKernels; ++k) {
      if (k >= 13 && k <= 19 && !has_perfect) continue;  // a deep forest has no perfect layout
      if (argc > 4 && !NameMatches(names[k], argv[4])) continue;
      const double start = CpuMs();
      std::vector<uint32_t> got;
      int calls = 0;
      double elapsed = 0.0;
      do {
        switch (k) {
          case 0: got = Tally(forest, rows.value(), node_table); break;
          case 1: got = Tally(forest, rows.value(), compact_walk(std::integral_constant<size_t, 4>())); break;
          case 2: got = Tally(forest, rows.value(), compact_walk(std::integral_constant<size_t, 8>())); break;
          case 3: got = Tally(forest, rows.value(), compact_walk(std::integral_constant<size_t, 16>())); break;
          case 4: got = Tally(forest, rows.value(), refill_walk(std::integral_constant<size_t, 8>())); break;
          case 5: got = Tally(forest, rows.value(), refill_walk(std::integral_constant<size_t, 12>())); break;
          case 6: got = Tally(forest, rows.value(), unrolled_walk(G8(), std::integral_constant<size_t, 2>(), false)); break;
          case 7: got = Tally(forest, rows.value(), unrolled_walk(G8(), std::integral_constant<size_t, 1>(), true)); break;
          case 8: got = Tally(forest, rows.value(), unrolled_walk(G8(), std::integral_constant<size_t, 2>(), true)); break;
          case 9: got = Tally(forest, rows.value(), unrolled_walk(G8(), std::integral_constant<size_t, 4>(), false)); break;
          case 10: got = Tally(forest, rows.value(), unrolled_walk(G8(), std::integral_constant<size_t, 0>(), false)); break;
          case 11: got = Tally(forest, rows.value(), unrolled_walk(G8(), std::integral_constant<size_t, 1>(), false)); break;
          case 12: got = Tally(forest, rows.value(), compact_only); break;
          case 13: got = Tally(forest, rows.value(), perfect_walk(std::integral_constant<size_t, 4>())); break;
          case 14: got = Tally(forest, rows.value(), perfect_walk(std::integral_constant<size_t, 8>())); break;
          case 15: got = Tally(forest, rows.value(), perfect_walk(std::integral_constant<size_t, 16>())); break;
          case 16: got = Tally(forest, rows.value(), perfect_walk(std::integral_constant<size_t, 32>())); break;
          case 17: got = Tally(forest, rows.value(), perfect_cols(std::integral_constant<size_t, 4>())); break;
          case 18: got = Tally(forest, rows.value(), perfect_cols(std::integral_constant<size_t, 8>())); break;
          case 19: got = Tally(forest, rows.value(), perfect_cols(std::integral_constant<size_t, 16>())); break;
          case 20: got = Tally(forest, rows.value(), top_perfect(std::integral_constant<size_t, 0>())); break;
          case 21: got = Tally(forest, rows.value(), top_perfect(std::integral_constant<size_t, 1>())); break;
          default: got = Tally(forest, rows.value(), compact_walk_copy); break;
        }
        ++calls;
        elapsed = CpuMs() - start;
      } while (elapsed < 100.0);
      if (got != want) Die(std::string(names[k]) + " voted differently");
      ns[k].push_back(1e6 * elapsed / calls / cells);
    }
  }
  std::printf("{\"trees\":%d,\"rows\":%zu,\"nodes\":%zu,\"compact_bytes\":%zu,\"compact_build_ms\":%.3f", forest.num_trees(),
              rows.value().size() / m, forest.num_nodes(), compact->nodes.size() * sizeof(internal::CompactNode), build_ms);
  for (int k = 0; k < kKernels; ++k) {
    std::printf(",\"%s\":[", names[k]);
    for (size_t r = 0; r < ns[k].size(); ++r) std::printf("%s%.2f", r ? "," : "", ns[k][r]);
    std::printf("]");
  }
  std::printf("}\n");
  return 0;
}
