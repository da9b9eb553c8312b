// The CLI's whole-file reads and writes, with the path and the OS error in every failure.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "command.h"

namespace urnforest::cli {

Result<std::string> ReadFile(const std::string& path) {
  auto too_large = [&path]() {
    return Status::Error(StatusCode::kLimitExceeded,
                         "'" + path + "' is larger than " + std::to_string(kMaxInputBytes >> 20) +
                             " MiB, the command line's input limit");
  };
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::Error(StatusCode::kIoError,
                         "cannot open '" + path + "': " + std::strerror(errno));
  }
  // A regular file says its size before anything is read; a device or a pipe (/dev/zero) is read
  // up to the limit and no further.
  struct stat info;
  if (fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode) &&
      static_cast<uint64_t>(info.st_size) > kMaxInputBytes) {
    std::fclose(file);
    return too_large();
  }
  std::string content;
  char buffer[1 << 16];
  size_t n;
  bool over = false;
  try {
    while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
      if (content.size() + n > kMaxInputBytes) {
        over = true;
        break;
      }
      content.append(buffer, n);
    }
  } catch (const std::bad_alloc&) {
    std::fclose(file);
    return Status::Error(StatusCode::kOutOfMemory, "out of memory reading '" + path + "'");
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (over) return too_large();
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
