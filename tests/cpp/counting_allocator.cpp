// Global operator new/delete replaced for the test binary: every block carries its size in a
// header so that the bytes held, their peak and the bytes asked for can be counted
// (counting_allocator.h). malloc underneath; alignment as malloc's (max_align_t).
#include "counting_allocator.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {

constexpr size_t kHeader = alignof(std::max_align_t);
std::atomic<size_t> g_held{0};
std::atomic<size_t> g_base{0};
std::atomic<size_t> g_peak{0};
std::atomic<size_t> g_allocated{0};

void* Allocate(size_t size) {
  void* raw = std::malloc(size + kHeader);
  if (raw == nullptr) return nullptr;
  *static_cast<size_t*>(raw) = size;
  const size_t held = g_held.fetch_add(size) + size;
  g_allocated.fetch_add(size);
  size_t peak = g_peak.load();
  while (held > peak && !g_peak.compare_exchange_weak(peak, held)) {
  }
  return static_cast<char*>(raw) + kHeader;
}

void Release(void* p) {
  if (p == nullptr) return;
  void* raw = static_cast<char*>(p) - kHeader;
  g_held.fetch_sub(*static_cast<size_t*>(raw));
  std::free(raw);
}

}  // namespace

namespace urnforest_test {

void ResetHeapCount() {
  const size_t held = g_held.load();
  g_base.store(held);
  g_peak.store(held);
  g_allocated.store(0);
}

HeapCount ReadHeapCount() {
  HeapCount c;
  const size_t base = g_base.load();
  const size_t peak = g_peak.load();
  c.peak_extra = peak > base ? peak - base : 0;
  c.allocated = g_allocated.load();
  return c;
}

}  // namespace urnforest_test

void* operator new(size_t size) {
  void* p = Allocate(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept { return Allocate(size); }
void* operator new[](size_t size, const std::nothrow_t&) noexcept { return Allocate(size); }
void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, size_t) noexcept { Release(p); }
void operator delete[](void* p, size_t) noexcept { Release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }
