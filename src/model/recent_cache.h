#pragma once
// A small process-wide cache of recently solved strategies, shared by every thread (internal to
// the model layer: the certified, minimean, full-tally and stratified strategies of a forest).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <utility>

namespace urnforest::internal {

/// The bits of a double, so that cache keys compare exactly (0.99 and 0.99 + 1e-16 differ).
inline uint64_t DoubleBits(double x) {
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

/// At most `capacity` entries in insertion order; the oldest is dropped beyond it. Every call
/// takes the cache's lock. Entries own their keys and values (typically shared_ptrs to immutable
/// strategies), so a value handed out stays valid after its entry is dropped.
template <typename Entry>
class RecentCache {
 public:
  explicit RecentCache(size_t capacity) : capacity_(capacity) {}

  /// `get(entry)` for the oldest entry `match(entry)` accepts, computed under the lock (so it
  /// should copy out a value, e.g. a shared_ptr, never a reference into the entry); a
  /// value-initialised result when no entry matches. Keys are compared in place: a hit copies
  /// nothing but what `get` returns.
  template <typename Match, typename Get>
  auto Find(const Match& match, const Get& get) const -> decltype(get(std::declval<const Entry&>())) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Entry& e : entries_) {
      if (match(e)) return get(e);
    }
    return {};
  }

  /// Appends `entry`, dropping the oldest entries beyond the capacity.
  void Insert(Entry entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.push_back(std::move(entry));
    while (entries_.size() > capacity_) entries_.pop_front();
  }

 private:
  mutable std::mutex mutex_;
  std::deque<Entry> entries_;
  size_t capacity_;
};

}  // namespace urnforest::internal
