// Ordered aggregation: names, dispatch, the orderings that need no subensemble vote (early,
// margin distance, orientation, boosting-based, greedy SDP) and error curves.
#include "urnforest/ordering.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "pruning/ordering_internal.h"

namespace urnforest {
namespace {

constexpr const char* kNames[kNumOrderings] = {
    "early", "reduce-error", "complementarity", "margin-distance",
    "orientation", "boosting", "kappa", "greedy-sdp"};

// Wrong-row bit set of tree t, word w (bits past num_rows are 0).
inline uint64_t WrongWord(const VoteMatrix& m, int32_t t, size_t w) {
  uint64_t word = ~m.correct[static_cast<size_t>(t) * m.words_per_tree + w];
  const size_t tail = m.num_rows % 64;
  if (w + 1 == m.words_per_tree && tail != 0) word &= (uint64_t{1} << tail) - 1;
  return word;
}

std::vector<int32_t> Identity(int32_t n) {
  std::vector<int32_t> order(n);
  for (int32_t i = 0; i < n; ++i) order[i] = i;
  return order;
}

// c^t_n = +1 if tree t is right on row n, else -1.
inline int32_t Margin(const VoteMatrix& m, int32_t t, size_t r) { return m.Correct(t, r) ? 1 : -1; }

// MDM (Eq. 2.16): minimise d(o, (c_k + S)/T) with S the sum of the selected margin vectors.
// d^2 = sum_n (p - (S_n + c_kn)/T)^2 = const - (2/T) sum_n (p - S_n/T) c_kn + N/T^2, so the
// argmin is the argmax of sum_n (pT - S_n) c_kn = pT C_k - D_k with integers C_k = sum_n c_kn and
// D_k = sum_n S_n c_kn.
std::vector<int32_t> OrderMarginDistance(const VoteMatrix& m, double p) {
  const int32_t T = m.num_trees;
  const size_t N = m.num_rows;
  std::vector<int64_t> sum(N, 0);
  std::vector<int64_t> c_total(T, 0);
  for (int32_t t = 0; t < T; ++t) {
    for (size_t r = 0; r < N; ++r) c_total[t] += Margin(m, t, r);
  }
  const double pt = p * T;
  return internal::GreedyOrder(
      T, -1, [] {},
      [&](int32_t k) {
        int64_t d = 0;
        for (size_t r = 0; r < N; ++r) d += sum[r] * Margin(m, k, r);
        return pt * static_cast<double>(c_total[k]) - static_cast<double>(d);
      },
      [](double a, double b) { return a > b; },
      [&](int32_t best, double, std::vector<int32_t>*, std::vector<char>*) {
        for (size_t r = 0; r < N; ++r) sum[r] += Margin(m, best, r);
      });
}

// Orientation (Eqs. 2.17-2.19) with o = e: c_ref = e + lambda c_ens, lambda = -(e.c_ens)/|c_ens|^2.
// With S_n = sum_t c_tn (so c_ens = S/T), c_ref is proportional to Q e - P S with Q = sum S_n^2 and
// P = sum S_n (Q > 0; if Q = 0 then c_ens = 0 and c_ref = e). All |c_k| = sqrt(N), so increasing
// angle = decreasing c_ref . c_k = Q C_k - P D_k, computed exactly in 128-bit integers.
std::vector<int32_t> OrderOrientation(const VoteMatrix& m) {
  const int32_t T = m.num_trees;
  const size_t N = m.num_rows;
  std::vector<int64_t> s(N, 0);
  for (int32_t t = 0; t < T; ++t) {
    for (size_t r = 0; r < N; ++r) s[r] += Margin(m, t, r);
  }
  __int128 q = 0, p = 0;
  for (size_t r = 0; r < N; ++r) {
    q += static_cast<__int128>(s[r]) * s[r];
    p += s[r];
  }
  if (q == 0) {
    q = 1;
    p = 0;
  }
  std::vector<__int128> score(T);
  for (int32_t k = 0; k < T; ++k) {
    __int128 c = 0, d = 0;
    for (size_t r = 0; r < N; ++r) {
      const int32_t ck = Margin(m, k, r);
      c += ck;
      d += static_cast<__int128>(s[r]) * ck;
    }
    score[k] = q * c - p * d;
  }
  std::vector<int32_t> order = Identity(T);
  std::stable_sort(order.begin(), order.end(),
                   [&](int32_t a, int32_t b) { return score[a] > score[b]; });
  return order;
}

// Boosting-based ordering (Eqs. 2.10-2.12) with weights normalised to sum 1 (no 1/N factor): pick
// the lowest weighted error, then w /= 2 eps on its wrong rows and w /= 2 (1 - eps) on its right
// rows. If the selected eps is 0 or >= 0.5 the update is undefined or would not move the weights
// towards the hard rows: the weights are reset to uniform instead (our choice;
// [Sot11] §2.2.1 leaves these cases open).
std::vector<int32_t> OrderBoosting(const VoteMatrix& m) {
  const int32_t T = m.num_trees;
  const size_t N = m.num_rows;
  const size_t W = m.words_per_tree;
  std::vector<double> w(N, 1.0 / static_cast<double>(N));
  return internal::GreedyOrder(
      T, -1, [] {},
      [&](int32_t k) {
        double eps = 0.0;
        for (size_t word = 0; word < W; ++word) {
          uint64_t bits = WrongWord(m, k, word);
          while (bits) {
            eps += w[word * 64 + static_cast<size_t>(__builtin_ctzll(bits))];
            bits &= bits - 1;
          }
        }
        return eps;
      },
      [](double a, double b) { return a < b; },
      [&](int32_t best, double best_eps, std::vector<int32_t>*, std::vector<char>*) {
        if (best_eps <= 0.0 || best_eps >= 0.5) {
          std::fill(w.begin(), w.end(), 1.0 / static_cast<double>(N));
          return;
        }
        const double wrong_scale = 1.0 / (2.0 * best_eps);
        const double right_scale = 1.0 / (2.0 * (1.0 - best_eps));
        for (size_t r = 0; r < N; ++r) w[r] *= m.Correct(best, r) ? right_scale : wrong_scale;
      });
}

// Greedy SDP: G_ii = rows h_i gets wrong, G_ij = rows both get wrong (raw counts, as the thesis);
// s_u = argmin_k x^T G x over S + {k}, i.e. argmin G_kk + 2 sum_{i in S} G_ik.
std::vector<int32_t> OrderGreedySdp(const VoteMatrix& m) {
  const int32_t T = m.num_trees;
  const size_t W = m.words_per_tree;
  std::vector<uint64_t> wrong(static_cast<size_t>(T) * W);
  for (int32_t t = 0; t < T; ++t) {
    for (size_t w = 0; w < W; ++w) wrong[static_cast<size_t>(t) * W + w] = WrongWord(m, t, w);
  }
  std::vector<int64_t> g(static_cast<size_t>(T) * T, 0);
  for (int32_t i = 0; i < T; ++i) {
    const uint64_t* a = wrong.data() + static_cast<size_t>(i) * W;
    for (int32_t j = i; j < T; ++j) {
      const uint64_t* b = wrong.data() + static_cast<size_t>(j) * W;
      int64_t count = 0;
      for (size_t w = 0; w < W; ++w) count += __builtin_popcountll(a[w] & b[w]);
      g[static_cast<size_t>(i) * T + j] = count;
      g[static_cast<size_t>(j) * T + i] = count;
    }
  }
  std::vector<int64_t> acc(T, 0);  // sum_{i in S} G_ik
  return internal::GreedyOrder(
      T, -1, [] {}, [&](int32_t k) { return g[static_cast<size_t>(k) * T + k] + 2 * acc[k]; },
      [](int64_t a, int64_t b) { return a < b; },
      [&](int32_t best, int64_t, std::vector<int32_t>*, std::vector<char>*) {
        for (int32_t k = 0; k < T; ++k) acc[k] += g[static_cast<size_t>(best) * T + k];
      });
}

}  // namespace

namespace internal {

int32_t LowestErrorTree(const VoteMatrix& m) {
  int32_t best = 0;
  int64_t best_right = -1;
  for (int32_t t = 0; t < m.num_trees; ++t) {
    int64_t right = 0;
    const uint64_t* bits = m.correct.data() + static_cast<size_t>(t) * m.words_per_tree;
    for (size_t w = 0; w < m.words_per_tree; ++w) right += __builtin_popcountll(bits[w]);
    if (right > best_right) {
      best = t;
      best_right = right;
    }
  }
  return best;
}

}  // namespace internal

const char* OrderingName(Ordering ordering) {
  const int32_t i = static_cast<int32_t>(ordering);
  return i >= 0 && i < kNumOrderings ? kNames[i] : "unknown";
}

Result<Ordering> ParseOrdering(const std::string& name) {
  for (int32_t i = 0; i < kNumOrderings; ++i) {
    if (name == kNames[i]) return static_cast<Ordering>(i);
  }
  return Status::Error(StatusCode::kInvalidArgument,
                       "unknown ordering '" + name +
                           "' (expected early, reduce-error, complementarity, margin-distance, "
                           "orientation, boosting, kappa or greedy-sdp)");
}

const std::vector<std::string>& OrderingNames() {
  static const std::vector<std::string> kOrderingNames(kNames, kNames + kNumOrderings);
  return kOrderingNames;
}

int32_t DefaultKeep(int32_t num_trees) {
  // ceil(0.2 T): round(0.2 * 101) would be 20, the thesis keeps 21 of 101 (OB21).
  const int32_t k = static_cast<int32_t>((static_cast<int64_t>(num_trees) * 2 + 9) / 10);
  return k < 1 ? 1 : k;
}

Status ValidateOrder(const std::vector<int32_t>& order, int32_t num_trees) {
  if (static_cast<int64_t>(order.size()) != num_trees) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the order has " + std::to_string(order.size()) +
                             " trees, the ensemble " + std::to_string(num_trees));
  }
  std::vector<char> seen(num_trees, 0);
  for (int32_t t : order) {
    if (t < 0 || t >= num_trees) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "the order names tree " + std::to_string(t) + ", the ensemble has " +
                               std::to_string(num_trees));
    }
    if (seen[t]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "the order repeats tree " + std::to_string(t));
    }
    seen[t] = 1;
  }
  return Status::Ok();
}

Result<std::vector<int32_t>> OrderTrees(const VoteMatrix& matrix, const OrderingOptions& options) {
  if (matrix.num_trees < 1 || matrix.num_rows == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "ordering needs at least one tree and row");
  }
  if (options.backfit_passes < 0 || options.backfit_passes > OrderingOptions::kMaxBackfitPasses) {
    return Status::Error(StatusCode::kInvalidArgument, "option backfit_passes must be in 0..100");
  }
  if (!(options.mdm_p > 0.0 && options.mdm_p < 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "option mdm_p must be in (0, 1)");
  }
  switch (options.ordering) {
    case Ordering::kEarly:
      return Identity(matrix.num_trees);
    case Ordering::kReduceError:
      return internal::OrderReduceError(matrix, options.backfit_passes);
    case Ordering::kComplementarity:
      return internal::OrderComplementarity(matrix);
    case Ordering::kMarginDistance:
      return OrderMarginDistance(matrix, options.mdm_p);
    case Ordering::kOrientation:
      return OrderOrientation(matrix);
    case Ordering::kBoosting:
      return OrderBoosting(matrix);
    case Ordering::kKappa:
      return internal::OrderKappa(matrix);
    case Ordering::kGreedySdp:
      return OrderGreedySdp(matrix);
  }
  return Status::Error(StatusCode::kInvalidArgument, "unknown ordering");
}

Result<std::vector<int32_t>> OrderForest(const Forest& forest, const Dataset& data,
                                         const OrderingOptions& options) {
  if (options.on == OrderingSource::kOutOfBag) return internal::OrderForestOutOfBag(forest, data, options);
  Result<VoteMatrix> matrix = ComputeVoteMatrix(forest, data);
  if (!matrix.ok()) return matrix.status();
  return OrderTrees(matrix.value(), options);
}

Result<std::vector<double>> ErrorCurve(const VoteMatrix& m, const std::vector<int32_t>& order) {
  if (m.num_rows == 0) return Status::Error(StatusCode::kInvalidArgument, "no rows");
  std::vector<char> seen(m.num_trees, 0);
  for (int32_t t : order) {
    if (t < 0 || t >= m.num_trees || seen[t]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "error curve: bad or repeated tree id " + std::to_string(t));
    }
    seen[t] = 1;
  }
  const size_t N = m.num_rows;
  const size_t l = static_cast<size_t>(m.num_classes);
  const bool weighted = !m.tree_weights.empty();
  std::vector<double> score(N * l, 0.0);
  std::vector<int32_t> leader(N, 0);
  int64_t wrong = 0;  // rows whose current leader is not the label (empty vote: leader 0)
  for (size_t r = 0; r < N; ++r) wrong += m.labels[r] != 0;
  std::vector<double> curve;
  curve.reserve(order.size());
  for (int32_t t : order) {
    const double w = weighted ? m.tree_weights[t] : 1.0;
    const int32_t* v = m.votes.data() + static_cast<size_t>(t) * N;
    for (size_t r = 0; r < N; ++r) {
      double* s = score.data() + r * l;
      const int32_t c = v[r];
      const int32_t b = leader[r];
      s[c] += w;
      // Only class c grew: it becomes the leader if it now beats b, or ties b with a lower index.
      if (c != b && (s[c] > s[b] || (s[c] == s[b] && c < b))) {
        wrong += static_cast<int64_t>(c != m.labels[r]) - static_cast<int64_t>(b != m.labels[r]);
        leader[r] = c;
      }
    }
    curve.push_back(static_cast<double>(wrong) / static_cast<double>(N));
  }
  return curve;
}

}  // namespace urnforest
