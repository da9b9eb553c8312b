// Bounded imports: what an ONNX file asks for is estimated before the forest is built, and a file
// whose forest would be far larger than itself is refused before the memory is allocated. The
// crafted files are TreeEnsembleClassifiers of one-leaf trees over many classes (each leaf names
// one class; the forest stores every class of every leaf and tree).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "counting_allocator.h"
#include "onnx_crafted.h"
#include "urnforest/forest.h"
#include "urnforest/onnx_import.h"
#include "urnforest/status.h"

namespace {

using urnforest::ImportOnnx;
using urnforest::OnnxImportOptions;
using urnforest::StatusCode;
using urnforest_test::Crafted;
using urnforest_test::Encode;
using urnforest_test::ReadHeapCount;
using urnforest_test::ResetHeapCount;

constexpr size_t kMiB = size_t{1} << 20;

// `trees` one-leaf trees over `classes` classes; tree t's leaf gives weight 1 to class t % classes.
std::vector<uint8_t> OneLeafTrees(int64_t trees, int64_t classes) {
  Crafted c;
  c.classes = classes;
  for (int64_t t = 0; t < trees; ++t) {
    c.tree_ids.push_back(t);
    c.node_ids.push_back(0);
    c.feature_ids.push_back(0);
    c.true_ids.push_back(0);
    c.false_ids.push_back(0);
    c.modes.push_back("LEAF");
    c.values.push_back(0.0f);
    c.class_tree_ids.push_back(t);
    c.class_node_ids.push_back(0);
    c.class_ids.push_back(t % classes);
    c.class_weights.push_back(1.0f);
  }
  return Encode(c);
}

// `trees` stumps (x <= t, two leaves), over three classes with one weight per leaf, the root
// listed last so that finding it takes the whole tree.
std::vector<uint8_t> Stumps(int64_t trees) {
  Crafted c;
  c.classes = 3;
  for (int64_t t = 0; t < trees; ++t) {
    for (int64_t n : {1, 2, 0}) {
      c.tree_ids.push_back(t);
      c.node_ids.push_back(n);
      c.feature_ids.push_back(0);
      c.true_ids.push_back(n == 0 ? 1 : 0);
      c.false_ids.push_back(n == 0 ? 2 : 0);
      c.modes.push_back(n == 0 ? "BRANCH_LEQ" : "LEAF");
      c.values.push_back(n == 0 ? static_cast<float>(t % 7) : 0.0f);
      if (n != 0) {
        c.class_tree_ids.push_back(t);
        c.class_node_ids.push_back(n);
        c.class_ids.push_back((t + n) % 3);
        c.class_weights.push_back(0.5f);
      }
    }
  }
  return Encode(c);
}

struct Outcome {
  StatusCode code = StatusCode::kOk;
  std::string message;
  urnforest_test::HeapCount heap;
};

Outcome Import(const std::vector<uint8_t>& bytes, const OnnxImportOptions& options = {}) {
  Outcome out;
  ResetHeapCount();
  {
    urnforest::Result<urnforest::Forest> forest = ImportOnnx(bytes.data(), bytes.size(), options);
    out.heap = ReadHeapCount();
    if (!forest.ok()) {
      out.code = forest.status().code;
      out.message = forest.status().message;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("Crafted files whose forest would be far larger than the file are refused before the memory is allocated",
          "[onnx_budget]") {
  // 8,192, 22,000 and 90,000 one-leaf trees over 4,096 classes: 216 KB, 0.6 MB and 2.4 MB files
  // whose dense forests would take 0.8, 2.2 and 8.8 GB.
  for (int64_t trees : {8192, 22000, 90000}) {
    const std::vector<uint8_t> bytes = OneLeafTrees(trees, 4096);
    INFO(trees << " trees, " << bytes.size() << " bytes");
    const Outcome out = Import(bytes);
    CHECK(out.code == StatusCode::kLimitExceeded);
    CHECK(out.message.find("would take about") != std::string::npos);
    // The default limit: 64 MiB, or 64 bytes per byte of a file larger than 1 MiB.
    const size_t limit = std::max<size_t>(64 * kMiB, 64 * bytes.size());
    CHECK(out.message.find("over the limit of " + std::to_string((limit + kMiB - 1) / kMiB) + " MiB") !=
          std::string::npos);
    CHECK(out.heap.peak_extra < 64 * kMiB);
  }
  CHECK(OneLeafTrees(8192, 4096).size() < 220 * 1024);
  CHECK(OneLeafTrees(90000, 4096).size() > 2300 * 1024);
}

TEST_CASE("The estimate names the trees, leaves, values per leaf and the limit", "[onnx_budget]") {
  const Outcome out = Import(OneLeafTrees(8192, 4096));
  REQUIRE(out.code == StatusCode::kLimitExceeded);
  CHECK(out.message.find("8192 trees, 8192 leaves of 4096 values, 8192 nodes") != std::string::npos);
}

TEST_CASE("A model within the budget imports, and a larger budget admits a larger model", "[onnx_budget]") {
  // 8,192 one-leaf trees over 64 classes: about 17 MiB, within the default 64 MiB.
  const Outcome small = Import(OneLeafTrees(8192, 64));
  CHECK(small.code == StatusCode::kOk);
  CHECK(small.heap.peak_extra < 64 * kMiB);
  // 8,192 trees over 1,024 classes: about 256 MiB, refused by default and admitted by a budget of 512 MiB.
  const std::vector<uint8_t> big = OneLeafTrees(8192, 1024);
  CHECK(Import(big).code == StatusCode::kLimitExceeded);
  OnnxImportOptions options;
  options.max_memory_bytes = 512 * kMiB;
  const Outcome admitted = Import(big, options);
  CHECK(admitted.code == StatusCode::kOk);
  CHECK(admitted.heap.peak_extra < 512 * kMiB);
  // And a budget below the estimate refuses a model the default admits.
  options.max_memory_bytes = 1 * kMiB;
  CHECK(Import(OneLeafTrees(8192, 64), options).code == StatusCode::kLimitExceeded);
}

TEST_CASE("Finding the roots and checking the trees costs work linear in the nodes", "[onnx_budget]") {
  // Doubling the trees about doubles what the import allocates (a vector of all nodes per tree
  // would quadruple it).
  const Outcome half = Import(Stumps(10000));
  const Outcome full = Import(Stumps(20000));
  REQUIRE(half.code == StatusCode::kOk);
  REQUIRE(full.code == StatusCode::kOk);
  INFO(half.heap.allocated << " then " << full.heap.allocated << " bytes allocated");
  CHECK(full.heap.allocated < half.heap.allocated * 5 / 2);
}
