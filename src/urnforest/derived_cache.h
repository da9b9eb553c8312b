#pragma once
// Internal: a value derived from an object's immutable data on first use and shared by its copies
// (Forest keeps its compact walk layout in one). Not part of the public API.
#include <memory>

namespace urnforest {
namespace internal {

/// Holds a shared, immutable T built on demand. Reading and publishing are atomic, so threads that
/// share the owner may all call Get/Publish: the first value published stays (a racing builder's
/// equal value is dropped), so a pointer from Get stays valid until Reset or the owner's
/// destruction (or for as long as its shared_ptr is held). Copies share the value; Reset drops it (the owner's data changed).
template <class T>
class DerivedCache {
 public:
  DerivedCache() = default;
  DerivedCache(const DerivedCache& other) : value_(std::atomic_load(&other.value_)) {}
  DerivedCache& operator=(const DerivedCache& other) {
    std::atomic_store(&value_, std::atomic_load(&other.value_));
    return *this;
  }

  /// The value, or null when none was published since construction or Reset.
  std::shared_ptr<const T> Get() const { return std::atomic_load(&value_); }
  /// Publishes `value` unless a value is already held, and returns the held one (const: the cache
  /// is not part of the owner's observable state).
  std::shared_ptr<const T> Publish(std::shared_ptr<const T> value) const {
    std::shared_ptr<const T> expected;
    if (std::atomic_compare_exchange_strong(&value_, &expected, value)) return value;
    return expected;
  }
  /// Drops the value (holders of a shared_ptr from Get or Publish keep theirs alive).
  void Reset() const { std::atomic_store(&value_, std::shared_ptr<const T>()); }

 private:
  mutable std::shared_ptr<const T> value_;
};

}  // namespace internal
}  // namespace urnforest
