// Orderings driven by the current subensemble's plurality vote H_S: reduce-error (with optional
// back-fitting), complementarity and kappa (Eq. 2.9 form).
#include <algorithm>
#include <vector>

#include "pruning/ordering_internal.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace internal {
namespace {

// Per-row vote counts of a subensemble with its plurality leader (ties: lowest class index).
class SubensembleVote {
 public:
  explicit SubensembleVote(const VoteMatrix& m)
      : m_(m),
        l_(static_cast<size_t>(m.num_classes)),
        counts_(m.num_rows * l_, 0),
        leader_(m.num_rows, 0),
        lead_(m.num_rows, 0) {}

  int32_t leader(size_t r) const { return leader_[r]; }

  void Add(int32_t t) {
    const int32_t* v = Votes(t);
    for (size_t r = 0; r < m_.num_rows; ++r) {
      const int32_t c = v[r];
      const int32_t n = ++counts_[r * l_ + c];
      if (c == leader_[r]) {
        lead_[r] = n;
      } else if (n > lead_[r] || (n == lead_[r] && c < leader_[r])) {
        leader_[r] = c;
        lead_[r] = n;
      }
    }
  }

  void Remove(int32_t t) {
    const int32_t* v = Votes(t);
    for (size_t r = 0; r < m_.num_rows; ++r) {
      int32_t* cnt = counts_.data() + r * l_;
      --cnt[v[r]];
      const int32_t best = Plurality(cnt, l_);
      leader_[r] = best;
      lead_[r] = cnt[best];
    }
  }

  // Leader of row r if one more vote for class c were added (only c grows).
  int32_t LeaderIfAdded(size_t r, int32_t c) const {
    const int32_t b = leader_[r];
    if (c == b) return b;
    const int32_t n = counts_[r * l_ + c] + 1;
    return (n > lead_[r] || (n == lead_[r] && c < b)) ? c : b;
  }

  // Rows the subensemble plus tree t classifies correctly.
  int64_t CorrectIfAdded(int32_t t) const {
    const int32_t* v = Votes(t);
    int64_t right = 0;
    for (size_t r = 0; r < m_.num_rows; ++r) right += LeaderIfAdded(r, v[r]) == m_.labels[r];
    return right;
  }

 private:
  const int32_t* Votes(int32_t t) const { return m_.votes.data() + static_cast<size_t>(t) * m_.num_rows; }
  const VoteMatrix& m_;
  size_t l_;
  std::vector<int32_t> counts_;
  std::vector<int32_t> leader_;
  std::vector<int32_t> lead_;
};

// One back-fitting pass over the selected prefix order[0..u): each selected tree is replaced by
// the pool tree giving the best strictly higher voted accuracy (lowest index on ties). Returns
// true when something changed.
bool BackfitPass(SubensembleVote* vote, std::vector<int32_t>* order, std::vector<char>* used,
                 size_t u) {
  const int32_t T = static_cast<int32_t>(used->size());
  bool changed = false;
  for (size_t i = 0; i < u; ++i) {
    const int32_t current = (*order)[i];
    vote->Remove(current);
    int64_t best_right = vote->CorrectIfAdded(current);
    int32_t best = current;
    for (int32_t k = 0; k < T; ++k) {
      if ((*used)[k]) continue;
      const int64_t right = vote->CorrectIfAdded(k);
      if (right > best_right) {
        best_right = right;
        best = k;
      }
    }
    if (best != current) {
      (*used)[current] = 0;
      (*used)[best] = 1;
      (*order)[i] = best;
      changed = true;
    }
    vote->Add(best);
  }
  return changed;
}

}  // namespace

// Reduce-error (Eq. 2.13): s_u = argmax_k voted accuracy of S + h_k. s_1 is the most accurate
// tree. With back-fitting the selected prefix is revised after each addition (the order of all T
// trees stays a permutation: a replaced tree returns to the pool).
std::vector<int32_t> OrderReduceError(const VoteMatrix& m, int32_t backfit_passes) {
  const int32_t T = m.num_trees;
  SubensembleVote vote(m);
  return GreedyOrder(
      T, -1, [] {}, [&](int32_t k) { return vote.CorrectIfAdded(k); },
      [](int64_t a, int64_t b) { return a > b; },
      [&](int32_t best, int64_t, std::vector<int32_t>* order, std::vector<char>* used) {
        vote.Add(best);
        if (order->size() < static_cast<size_t>(T)) {
          for (int32_t pass = 0; pass < backfit_passes; ++pass) {
            if (!BackfitPass(&vote, order, used, order->size())) break;
          }
        }
      });
}

// Complementarity (Eq. 2.14): s_u = argmax_k #{rows: h_k right and H_S wrong}; s_1 = lowest error.
std::vector<int32_t> OrderComplementarity(const VoteMatrix& m) {
  const int32_t T = m.num_trees;
  const size_t W = m.words_per_tree;
  SubensembleVote vote(m);
  std::vector<uint64_t> wrong(W);
  return GreedyOrder(
      T, LowestErrorTree(m),
      [&] {
        std::fill(wrong.begin(), wrong.end(), 0);
        for (size_t r = 0; r < m.num_rows; ++r) {
          if (vote.leader(r) != m.labels[r]) wrong[r / 64] |= uint64_t{1} << (r % 64);
        }
      },
      [&](int32_t k) {
        const uint64_t* right = m.correct.data() + static_cast<size_t>(k) * W;
        int64_t count = 0;
        for (size_t w = 0; w < W; ++w) count += __builtin_popcountll(right[w] & wrong[w]);
        return count;
      },
      [](int64_t a, int64_t b) { return a > b; },
      [&](int32_t next, int64_t, std::vector<int32_t>*, std::vector<char>*) { vote.Add(next); });
}

// Kappa (Eq. 2.9): s_u = argmin_k kappa(h_k, H_S), kappa = (Theta1 - Theta2) / (1 - Theta2) from
// the agreement counts of the two predictions over the m rows (Eqs. 2.7-2.8). In integers:
// kappa = (m A - sum_i a_i b_i) / (m^2 - sum_i a_i b_i), A = agreements, a, b = class histograms;
// compared exactly as fractions. A zero denominator (both predict one and the same class on every
// row) counts as kappa = 1 (identical). s_1 = lowest error (kappa needs a non-empty subensemble).
std::vector<int32_t> OrderKappa(const VoteMatrix& m) {
  const int32_t T = m.num_trees;
  const size_t N = m.num_rows;
  const size_t l = static_cast<size_t>(m.num_classes);
  std::vector<int64_t> hist(static_cast<size_t>(T) * l, 0);
  for (int32_t t = 0; t < T; ++t) {
    const int32_t* v = m.votes.data() + static_cast<size_t>(t) * N;
    for (size_t r = 0; r < N; ++r) ++hist[static_cast<size_t>(t) * l + v[r]];
  }
  SubensembleVote vote(m);
  std::vector<int64_t> sub_hist(l);
  const __int128 n = static_cast<__int128>(N);
  struct Kappa {
    __int128 num = 0, den = 1;
  };
  return GreedyOrder(
      T, LowestErrorTree(m),
      [&] {
        std::fill(sub_hist.begin(), sub_hist.end(), 0);
        for (size_t r = 0; r < N; ++r) ++sub_hist[vote.leader(r)];
      },
      [&](int32_t k) {
        const int32_t* v = m.votes.data() + static_cast<size_t>(k) * N;
        int64_t agree = 0;
        for (size_t r = 0; r < N; ++r) agree += v[r] == vote.leader(r);
        __int128 chance = 0;
        for (size_t c = 0; c < l; ++c) {
          chance += static_cast<__int128>(hist[static_cast<size_t>(k) * l + c]) * sub_hist[c];
        }
        Kappa kappa{n * agree - chance, n * n - chance};
        if (kappa.den == 0) kappa = Kappa{1, 1};
        return kappa;
      },
      [](const Kappa& a, const Kappa& b) { return a.num * b.den < b.num * a.den; },
      [&](int32_t next, const Kappa&, std::vector<int32_t>*, std::vector<char>*) {
        vote.Add(next);
      });
}

}  // namespace internal
}  // namespace urnforest
