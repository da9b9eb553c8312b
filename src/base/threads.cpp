// Threads of the native build (see threads.h).
#include "base/threads.h"

#include <algorithm>
#include <vector>
#if URNFOREST_HAVE_THREADS
#include <thread>
#endif

namespace urnforest {
namespace internal {

int32_t ResolveThreads(int32_t requested, int32_t tasks) {
#if URNFOREST_HAVE_THREADS
  int32_t threads = requested;
  if (threads <= 0) threads = static_cast<int32_t>(std::thread::hardware_concurrency());
  return std::max(1, std::min(threads, tasks));
#else
  (void)requested;
  (void)tasks;
  return 1;
#endif
}

Status RunRowParts(size_t num_rows, int32_t parts, const std::function<Status(size_t, size_t)>& part) {
  const size_t p = static_cast<size_t>(std::max(parts, 1));
  auto bound = [&](size_t i) { return i * num_rows / p; };  // no overflow: i <= parts, rows fit in memory
  std::vector<Status> status(p, Status::Ok());
#if URNFOREST_HAVE_THREADS
  std::vector<std::thread> others;
  others.reserve(p - 1);
  for (size_t i = 1; i < p; ++i) {
    others.emplace_back([&, i] { status[i] = part(bound(i), bound(i + 1)); });
  }
  status[0] = part(bound(0), bound(1));
  for (std::thread& t : others) t.join();
#else
  for (size_t i = 0; i < p; ++i) status[i] = part(bound(i), bound(i + 1));
#endif
  for (const Status& s : status) {
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
