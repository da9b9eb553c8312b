// Replays the checked-in fuzz corpus (seeds and every minimised crash reproducer) through the fuzz
// targets' own checks, so plain g++ builds and ctest guard against fuzz regressions without clang.
// A failing oracle aborts the process, which fails this test.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int UrnforestFuzzCsv(const uint8_t* data, size_t size);
extern "C" int UrnforestFuzzModel(const uint8_t* data, size_t size);
extern "C" int UrnforestFuzzTrain(const uint8_t* data, size_t size);

namespace {

size_t ReplayCorpus(const std::string& target, int (*entry)(const uint8_t*, size_t)) {
  const std::filesystem::path dir = std::filesystem::path(URNFOREST_FUZZ_CORPUS_DIR) / target;
  REQUIRE(std::filesystem::is_directory(dir));
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    INFO(path.string());
    REQUIRE(entry(bytes.data(), bytes.size()) == 0);
  }
  return files.size();
}

}  // namespace

TEST_CASE("The fuzz_csv corpus replays without an oracle failure", "[reliability][fuzz]") {
  REQUIRE(ReplayCorpus("fuzz_csv", UrnforestFuzzCsv) > 40);
}

TEST_CASE("The fuzz_model corpus replays without an oracle failure", "[reliability][fuzz]") {
  REQUIRE(ReplayCorpus("fuzz_model", UrnforestFuzzModel) > 10);
}

TEST_CASE("The fuzz_train corpus replays without an oracle failure", "[reliability][fuzz]") {
  REQUIRE(ReplayCorpus("fuzz_train", UrnforestFuzzTrain) > 20);
}
