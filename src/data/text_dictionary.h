#pragma once
// Private to src/data: distinct strings in first-seen order (category and class dictionaries).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace urnforest {
namespace internal {

/// Distinct strings in first-seen order, copied into an arena of growing blocks. Lookups of
/// existing strings do not allocate, and an empty dictionary allocates nothing (there is one per
/// column). Movable: views into the blocks stay valid, since blocks never move.
class TextDictionary {
 public:
  static constexpr int64_t kFull = -1;

  /// The index of `s`, inserting it if new; kFull if inserting would exceed `limit` entries.
  int64_t Intern(std::string_view s, size_t limit) {
    const auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    if (names_.size() >= limit) return kFull;
    names_.push_back(Store(s));
    const uint32_t id = static_cast<uint32_t>(names_.size() - 1);
    index_.emplace(names_.back(), id);
    return id;
  }
  size_t size() const { return names_.size(); }
  std::string_view name(size_t i) const { return names_[i]; }
  std::vector<std::string> Names() const { return {names_.begin(), names_.end()}; }

 private:
  // Copies `s` into the arena, whose blocks never move: views into them stay valid.
  std::string_view Store(std::string_view s) {
    if (s.size() > block_left_) {
      const size_t size = std::max(s.size(), next_block_);
      blocks_.push_back(std::make_unique<char[]>(size));
      block_next_ = blocks_.back().get();
      block_left_ = size;
      next_block_ = std::min<size_t>(next_block_ * 2, size_t{1} << 16);
    }
    if (!s.empty()) std::memcpy(block_next_, s.data(), s.size());
    const std::string_view stored(block_next_, s.size());
    block_next_ += s.size();
    block_left_ -= s.size();
    return stored;
  }

  std::vector<std::string_view> names_;  // Index -> text (in blocks_).
  std::unordered_map<std::string_view, uint32_t> index_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_next_ = nullptr;
  size_t block_left_ = 0;
  size_t next_block_ = 256;
};

}  // namespace internal
}  // namespace urnforest
