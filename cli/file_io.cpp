// The CLI's whole-file reads and writes, with the path and the OS error in every failure.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "command.h"

namespace urnforest::cli {

Result<std::string> ReadFile(const std::string& path) {
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::Error(StatusCode::kIoError,
                         "cannot open '" + path + "': " + std::strerror(errno));
  }
  std::string content;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) content.append(buffer, n);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return Status::Error(StatusCode::kIoError, "cannot read '" + path + "'");
  return content;
}

Status WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return Status::Error(StatusCode::kIoError,
                         "cannot create '" + path + "': " + std::strerror(errno));
  }
  const size_t written = bytes.empty() ? 0 : std::fwrite(bytes.data(), 1, bytes.size(), file);
  const bool closed = std::fclose(file) == 0;
  if (written != bytes.size() || !closed) {
    return Status::Error(StatusCode::kIoError, "cannot write '" + path + "'");
  }
  return Status::Ok();
}

}  // namespace urnforest::cli
