// The CLI's whole-file reads and writes and its standard output, with the path and the OS error in
// every failure. POSIX: files are replaced by an atomic rename.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
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

namespace {

Status WriteError(const std::string& what, int error) {
  return Status::Error(StatusCode::kIoError, what + ": " + std::strerror(error));
}

// Writes all of `size` bytes to `fd`, resuming after short writes and signals; false with errno set.
bool WriteAll(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// A destination that is not a regular file (a device such as /dev/stdout or /dev/full, a pipe):
// written where it is, since it cannot be replaced by a rename; every write and the close checked.
Status WriteInPlace(const std::string& path, const std::vector<uint8_t>& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return WriteError("cannot open '" + path + "'", errno);
  if (!WriteAll(fd, bytes.data(), bytes.size())) {
    const int error = errno;
    ::close(fd);
    return WriteError("cannot write '" + path + "'", error);
  }
  if (::close(fd) != 0) return WriteError("cannot write '" + path + "'", errno);
  return Status::Ok();
}

// The regular file a path names: the path itself, or the file an existing symbolic link points
// to (so that replacing the file keeps the link). `exists` says whether it exists; its mode in `mode`.
std::string ResolveTarget(const std::string& path, bool* exists, mode_t* mode) {
  struct stat info;
  *exists = ::stat(path.c_str(), &info) == 0;
  if (!*exists) return path;
  *mode = info.st_mode;
  struct stat link;
  if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return path;
  std::string resolved(real);
  std::free(real);
  return resolved;
}

// A new, empty file next to `target` (same directory, so that rename() is atomic), opened for
// writing; its name in `temp`. -1 with errno set on failure.
int CreateTemporary(const std::string& target, std::string* temp) {
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  static unsigned counter = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    *temp = dir + "." + base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const int fd = ::open(temp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

}  // namespace

Status WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  bool exists = false;
  mode_t mode = 0;
  const std::string target = ResolveTarget(path, &exists, &mode);
  if (exists && !S_ISREG(mode)) return WriteInPlace(path, bytes);
  std::string temp;
  const int fd = CreateTemporary(target, &temp);
  if (fd < 0) return WriteError("cannot create '" + path + "'", errno);
  // Written, flushed to the disk and closed under the temporary name, then renamed over the
  // destination: a failure at any step leaves the destination as it was and removes the temporary.
  bool ok = (!exists || ::fchmod(fd, mode & 07777) == 0) && WriteAll(fd, bytes.data(), bytes.size()) &&
            ::fsync(fd) == 0;
  int error = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && ::rename(temp.c_str(), target.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    return WriteError("cannot write '" + path + "'", error);
  }
  return Status::Ok();
}

Status WriteStdout(const std::string& text) {
  int error = 0;  // the first failure's errno (EIO when a step fails without one)
  auto step = [&error](bool ok) {
    if (!ok && error == 0) error = errno != 0 ? errno : EIO;
  };
  errno = 0;
  step(text.empty() || std::fwrite(text.data(), 1, text.size(), stdout) == text.size());
  step(std::fflush(stdout) == 0);
  step(std::ferror(stdout) == 0);
  step(std::fclose(stdout) == 0);
  if (error != 0) {
    return Status::Error(StatusCode::kIoError,
                         std::string("cannot write the output to stdout: ") + std::strerror(error));
  }
  return Status::Ok();
}

}  // namespace urnforest::cli
