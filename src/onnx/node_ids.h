#pragma once
// Internal to the ONNX importer: one source tree's node ids -> attribute indices, built once and
// then only read. A sorted vector instead of a std::map (one allocation per tree, not per node,
// and a lookup by subtraction when a tree's ids are 0..n-1, as every known writer numbers them).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace urnforest {
namespace internal {

class NodeIds {
 public:
  using Entry = std::pair<int64_t, size_t>;  ///< (node id, attribute index)
  using const_iterator = std::vector<Entry>::const_iterator;

  /// Adds node `id` at attribute index `index` (call Seal() after the last).
  void Add(int64_t id, size_t index) { entries_.emplace_back(id, index); }

  /// Sorts by id (then index). Returns the attribute index of the second node that reuses an
  /// earlier node's id (the smallest such index), or SIZE_MAX when every id is distinct.
  size_t Seal() {
    // Writers list a tree's nodes in id order: check that in one pass before sorting.
    if (!std::is_sorted(entries_.begin(), entries_.end())) std::sort(entries_.begin(), entries_.end());
    size_t repeat = SIZE_MAX;
    dense_ = true;
    for (size_t j = 0; j < entries_.size(); ++j) {
      if (j > 0 && entries_[j].first == entries_[j - 1].first) repeat = std::min(repeat, entries_[j].second);
      dense_ = dense_ && entries_[j].first == static_cast<int64_t>(j);
    }
    return repeat;
  }

  /// The entry of node `id`, or end() (after Seal()).
  const_iterator find(int64_t id) const {
    if (dense_) {
      return id >= 0 && static_cast<uint64_t>(id) < entries_.size() ? entries_.begin() + id : entries_.end();
    }
    auto it = std::lower_bound(entries_.begin(), entries_.end(), Entry{id, 0});
    return it != entries_.end() && it->first == id ? it : entries_.end();
  }
  /// The attribute index of node `id`, which must exist.
  size_t at(int64_t id) const { return find(id)->second; }

  const_iterator begin() const { return entries_.begin(); }  ///< In increasing id.
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;
  bool dense_ = false;  // entries_[j].first == j for every j
};

}  // namespace internal
}  // namespace urnforest
