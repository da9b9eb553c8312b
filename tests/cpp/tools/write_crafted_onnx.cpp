// Writes the crafted ONNX files of tests/cpp/onnx_crafted_cases.h into a directory, with
// manifest.json listing each file's name, rows and description, for tests/js/onnx_oracle.test.mjs.
//   build/write_crafted_onnx tests/fixtures/onnx/crafted     (scripts/onnx_crafted_fixtures.sh)
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "../onnx_crafted_cases.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_crafted_onnx DIRECTORY\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::ofstream manifest(dir + "/manifest.json");
  manifest << "[\n";
  const auto cases = urnforest_test::CraftedCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    std::ofstream file(dir + "/" + c.name + ".onnx", std::ios::binary);
    file.write(reinterpret_cast<const char*>(c.bytes.data()), static_cast<std::streamsize>(c.bytes.size()));
    if (!file) {
      std::fprintf(stderr, "write_crafted_onnx: cannot write %s/%s.onnx\n", dir.c_str(), c.name.c_str());
      return 1;
    }
    manifest << "  {\"name\": \"" << c.name << "\", \"rows\": [";
    for (size_t r = 0; r < c.rows.size(); ++r) manifest << (r ? ", " : "") << c.rows[r];
    manifest << "], \"what\": \"" << c.what << "\"}" << (i + 1 < cases.size() ? ",\n" : "\n");
  }
  manifest << "]\n";
  if (!manifest) {
    std::fprintf(stderr, "write_crafted_onnx: cannot write %s/manifest.json\n", dir.c_str());
    return 1;
  }
  return 0;
}
