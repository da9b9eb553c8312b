// urnforest command-line tool: `urnforest <command> [options] [--json]`.
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0) {
    std::printf("usage: urnforest <train|predict|info> [options] [--json]\n");
    return argc < 2 ? 2 : 0;
  }
  std::fprintf(stderr, "urnforest: unknown command '%s'\n", argv[1]);
  return 2;
}
