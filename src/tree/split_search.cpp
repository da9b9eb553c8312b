// Gini split search at one node: sorted numeric thresholds and categorical subsets, missing values.
#include "tree/split_search.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace urnforest {
namespace internal {

uint32_t SortableKey(float value) {
  value += 0.0f;  // -0 -> +0, so equal values get equal keys.
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

float KeyToFloat(uint32_t key) {
  const uint32_t bits = (key & 0x80000000u) ? (key & 0x7FFFFFFFu) : ~key;
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

float MidpointThreshold(float lower, float upper) {
  const double mid = (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
  float t = static_cast<float>(mid);
  // Rounding to float may land on `upper` (adjacent floats), which would send it left.
  if (!(t < upper)) t = lower;
  if (t < lower) t = lower;
  return t + 0.0f;
}

namespace {

constexpr size_t kRadixMinSize = 256;

/// Stable LSD radix sort of `a[0..m)` by the high 32 bits only (4 byte passes; passes where every
/// element shares the byte are skipped). `tmp` has room for m elements.
void RadixSortByHigh32(uint64_t* a, uint64_t* tmp, size_t m) {
  uint32_t hist[4][256] = {};
  for (size_t i = 0; i < m; ++i) {
    const uint32_t k = static_cast<uint32_t>(a[i] >> 32);
    ++hist[0][k & 255u];
    ++hist[1][(k >> 8) & 255u];
    ++hist[2][(k >> 16) & 255u];
    ++hist[3][k >> 24];
  }
  uint64_t* src = a;
  uint64_t* dst = tmp;
  for (int pass = 0; pass < 4; ++pass) {
    uint32_t* h = hist[pass];
    const int shift = 32 + 8 * pass;
    if (h[(src[0] >> shift) & 255u] == m) continue;
    uint32_t sum = 0;
    for (int b = 0; b < 256; ++b) {
      const uint32_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    for (size_t i = 0; i < m; ++i) dst[h[(src[i] >> shift) & 255u]++] = src[i];
    std::swap(src, dst);
  }
  if (src != a) std::memcpy(a, src, m * sizeof(uint64_t));
}

}  // namespace

SplitSearch::SplitSearch(int32_t num_classes, int64_t min_leaf)
    : k_(num_classes),
      min_leaf_(min_leaf),
      left_(num_classes),
      right_(num_classes),
      miss_(num_classes),
      totals_(num_classes) {}

void SplitSearch::ResetCounts() {
  std::fill(left_.begin(), left_.end(), 0);
  std::fill(right_.begin(), right_.end(), 0);
  std::fill(miss_.begin(), miss_.end(), 0);
  std::fill(totals_.begin(), totals_.end(), 0);
  n_left_ = n_right_ = n_miss_ = 0;
  sq_left_ = sq_right_ = sq_miss_ = cross_left_ = cross_right_ = 0;
}

void SplitSearch::RecomputeFromLeft() {
  n_left_ = n_right_ = 0;
  sq_left_ = sq_right_ = cross_left_ = cross_right_ = 0;
  for (int32_t c = 0; c < k_; ++c) {
    const int64_t l = left_[c];
    const int64_t r = totals_[c] - l;
    right_[c] = r;
    n_left_ += l;
    n_right_ += r;
    sq_left_ += l * l;
    sq_right_ += r * r;
    cross_left_ += l * miss_[c];
    cross_right_ += r * miss_[c];
  }
}

inline void SplitSearch::MoveToLeft(uint32_t cls, int64_t w) {
  const int64_t l = left_[cls];
  const int64_t r = right_[cls];
  sq_left_ += (2 * l + w) * w;
  sq_right_ += (w - 2 * r) * w;
  left_[cls] = l + w;
  right_[cls] = r - w;
  n_left_ += w;
  n_right_ -= w;
  const int64_t wm = w * miss_[cls];
  cross_left_ += wm;
  cross_right_ -= wm;
}

inline bool SplitSearch::Evaluate(double* score, bool* missing_left) const {
  if (n_left_ == 0 || n_right_ == 0) return false;
  if (n_miss_ == 0) {
    if (n_left_ < min_leaf_ || n_right_ < min_leaf_) return false;
    *score = static_cast<double>(sq_left_) / static_cast<double>(n_left_) +
             static_cast<double>(sq_right_) / static_cast<double>(n_right_);
    *missing_left = n_left_ >= n_right_;
    return true;
  }
  bool ok = false;
  if (n_left_ + n_miss_ >= min_leaf_ && n_right_ >= min_leaf_) {
    *score = static_cast<double>(sq_left_ + 2 * cross_left_ + sq_miss_) /
                 static_cast<double>(n_left_ + n_miss_) +
             static_cast<double>(sq_right_) / static_cast<double>(n_right_);
    *missing_left = true;
    ok = true;
  }
  if (n_left_ >= min_leaf_ && n_right_ + n_miss_ >= min_leaf_) {
    const double s = static_cast<double>(sq_left_) / static_cast<double>(n_left_) +
                     static_cast<double>(sq_right_ + 2 * cross_right_ + sq_miss_) /
                         static_cast<double>(n_right_ + n_miss_);
    if (!ok || s > *score) {
      *score = s;
      *missing_left = false;
      ok = true;
    }
  }
  return ok;
}

bool SplitSearch::SearchNumeric(const NodeRows& node, const uint32_t* keys, int32_t feature,
                                SplitChoice* best) {
  ResetCounts();
  if (sort_buf_.size() < 2 * node.count) sort_buf_.resize(2 * node.count);
  uint64_t* buf = sort_buf_.data();
  size_t m = 0;
  for (size_t i = 0; i < node.count; ++i) {
    const uint32_t row = node.rows[i];
    const uint32_t key = keys[row];
    const int64_t w = node.weights[row];
    if (key == kMissingKey) {
      miss_[node.labels[row]] += w;
      n_miss_ += w;
    } else {
      right_[node.labels[row]] += w;
      buf[m++] = (static_cast<uint64_t>(key) << 32) | row;
    }
  }
  if (m < 2) return false;
  // Only the order of distinct values matters: class counts are read at value boundaries, where
  // they do not depend on how equal values are arranged. Both sorts are deterministic anyway.
  if (m >= kRadixMinSize) {
    RadixSortByHigh32(buf, buf + node.count, m);
  } else {
    std::sort(buf, buf + m);
  }
  if ((buf[0] >> 32) == (buf[m - 1] >> 32)) return false;
  for (int32_t c = 0; c < k_; ++c) {
    sq_miss_ += miss_[c] * miss_[c];
    sq_right_ += right_[c] * right_[c];
    cross_right_ += right_[c] * miss_[c];
    n_right_ += right_[c];
  }
  double score;
  bool missing_left;
  if (k_ == 2 && n_miss_ == 0) {
    // Fast path (two classes, no missing values): the same arithmetic as Evaluate, in registers.
    const int64_t n = n_right_;
    const int64_t n1 = right_[1];
    int64_t left_n = 0, left_1 = 0;
    uint32_t best_key = 0, best_next = 0;
    double best_score = best->found ? best->score : 0.0;
    bool improved = false;
    for (size_t i = 0; i + 1 < m; ++i) {
      const uint32_t row = static_cast<uint32_t>(buf[i]);
      const int64_t w = node.weights[row];
      left_n += w;
      left_1 += node.labels[row] ? w : 0;
      const uint32_t key = static_cast<uint32_t>(buf[i] >> 32);
      const uint32_t next = static_cast<uint32_t>(buf[i + 1] >> 32);
      if (key == next) continue;
      const int64_t right_n = n - left_n;
      if (left_n < min_leaf_ || right_n < min_leaf_) continue;
      const int64_t left_0 = left_n - left_1;
      const int64_t right_1 = n1 - left_1;
      const int64_t right_0 = right_n - right_1;
      const double s = static_cast<double>(left_0 * left_0 + left_1 * left_1) /
                           static_cast<double>(left_n) +
                       static_cast<double>(right_0 * right_0 + right_1 * right_1) /
                           static_cast<double>(right_n);
      if ((!best->found && !improved) || s > best_score) {
        best_score = s;
        best_key = key;
        best_next = next;
        improved = true;
      }
    }
    if (improved) {
      best->found = true;
      best->score = best_score;
      best->feature = feature;
      best->categorical = false;
      best->threshold = MidpointThreshold(KeyToFloat(best_key), KeyToFloat(best_next));
      // No missing rows here: missing values follow the child with more rows (ties: left).
      int64_t left_n_best = 0;
      for (size_t i = 0; i < m && static_cast<uint32_t>(buf[i] >> 32) <= best_key; ++i) {
        left_n_best += node.weights[static_cast<uint32_t>(buf[i])];
      }
      best->missing_left = left_n_best >= n - left_n_best;
    }
    return true;
  }
  for (size_t i = 0; i + 1 < m; ++i) {
    const uint32_t row = static_cast<uint32_t>(buf[i]);
    MoveToLeft(node.labels[row], node.weights[row]);
    const uint32_t key = static_cast<uint32_t>(buf[i] >> 32);
    const uint32_t next = static_cast<uint32_t>(buf[i + 1] >> 32);
    if (key == next) continue;
    if (!Evaluate(&score, &missing_left)) continue;
    if (!best->found || score > best->score) {
      best->found = true;
      best->score = score;
      best->feature = feature;
      best->categorical = false;
      best->threshold = MidpointThreshold(KeyToFloat(key), KeyToFloat(next));
      best->missing_left = missing_left;
    }
  }
  return true;
}

bool SplitSearch::OfferCategorical(int32_t feature, const uint32_t* slots, size_t left_count,
                                   size_t total_slots, SplitChoice* best) {
  double score;
  bool missing_left;
  RecomputeFromLeft();
  if (!Evaluate(&score, &missing_left)) return false;
  if (best->found && !(score > best->score)) return false;
  best->found = true;
  best->score = score;
  best->feature = feature;
  best->categorical = true;
  best->threshold = 0.0f;
  best->missing_left = missing_left;
  best->left_categories.clear();
  best->right_categories.clear();
  for (size_t i = 0; i < total_slots; ++i) {
    (i < left_count ? best->left_categories : best->right_categories).push_back(present_[slots[i]]);
  }
  return true;
}

bool SplitSearch::SearchCategorical(const NodeRows& node, const uint32_t* cats,
                                    uint32_t num_categories, int32_t feature, SplitChoice* best) {
  ResetCounts();
  if (slot_of_.size() < num_categories) slot_of_.resize(num_categories, kMissingKey);
  present_.clear();
  for (size_t i = 0; i < node.count; ++i) {
    const uint32_t row = node.rows[i];
    const uint32_t cat = cats[row];
    const int64_t w = node.weights[row];
    const uint32_t cls = node.labels[row];
    if (cat == kMissingKey) {
      miss_[cls] += w;
      n_miss_ += w;
      continue;
    }
    uint32_t slot = slot_of_[cat];
    if (slot == kMissingKey) {
      slot = static_cast<uint32_t>(present_.size());
      slot_of_[cat] = slot;
      present_.push_back(cat);
      const size_t need = (static_cast<size_t>(slot) + 1) * k_;
      if (cat_counts_.size() < need) cat_counts_.resize(need);
      if (cat_total_.size() < slot + 1u) cat_total_.resize(slot + 1u);
      std::fill(cat_counts_.begin() + static_cast<size_t>(slot) * k_,
                cat_counts_.begin() + need, 0);
      cat_total_[slot] = 0;
    }
    cat_counts_[static_cast<size_t>(slot) * k_ + cls] += w;
    cat_total_[slot] += w;
    totals_[cls] += w;
  }
  for (uint32_t cat : present_) slot_of_[cat] = kMissingKey;
  const size_t p = present_.size();
  if (p < 2) return false;
  for (int32_t c = 0; c < k_; ++c) sq_miss_ += miss_[c] * miss_[c];

  order_.resize(p);
  auto scan_ordered = [&](int32_t cls) {
    for (size_t i = 0; i < p; ++i) order_[i] = static_cast<uint32_t>(i);
    // p(cls | a) < p(cls | b) by exact cross-multiplication; ties by category index.
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      const int64_t lhs = cat_counts_[static_cast<size_t>(a) * k_ + cls] * cat_total_[b];
      const int64_t rhs = cat_counts_[static_cast<size_t>(b) * k_ + cls] * cat_total_[a];
      if (lhs != rhs) return lhs < rhs;
      return present_[a] < present_[b];
    });
    std::fill(left_.begin(), left_.end(), 0);
    for (size_t i = 0; i + 1 < p; ++i) {
      const int64_t* counts = &cat_counts_[static_cast<size_t>(order_[i]) * k_];
      for (int32_t c = 0; c < k_; ++c) left_[c] += counts[c];
      OfferCategorical(feature, order_.data(), i + 1, p, best);
    }
  };

  if (k_ == 2) {
    scan_ordered(1);
  } else if (p <= kExhaustiveMaxCategories) {
    // Slot p-1 always stays right, so each unordered partition is visited once (Gray code order).
    std::fill(left_.begin(), left_.end(), 0);
    const uint32_t limit = 1u << (p - 1);
    uint32_t gray = 0;
    std::vector<uint32_t>& members = order_;
    for (uint32_t i = 1; i < limit; ++i) {
      uint32_t bit = 0;
      while (!((i >> bit) & 1u)) ++bit;
      gray ^= 1u << bit;
      const int64_t* counts = &cat_counts_[static_cast<size_t>(bit) * k_];
      const int64_t sign = (gray >> bit) & 1u ? 1 : -1;
      for (int32_t c = 0; c < k_; ++c) left_[c] += sign * counts[c];
      size_t left_count = 0;
      for (uint32_t s = 0; s < p; ++s) {
        if ((gray >> s) & 1u) members[left_count++] = s;
      }
      size_t right_pos = left_count;
      for (uint32_t s = 0; s < p; ++s) {
        if (!((gray >> s) & 1u)) members[right_pos++] = s;
      }
      OfferCategorical(feature, members.data(), left_count, p, best);
    }
  } else {
    for (int32_t cls = 0; cls < k_; ++cls) scan_ordered(cls);
  }
  return true;
}

}  // namespace internal
}  // namespace urnforest
