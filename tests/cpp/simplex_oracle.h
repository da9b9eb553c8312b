#pragma once
// The tests' independent LP solver (small dense problems only).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace urnforest {

// A dense two-phase simplex with Bland's rule: min c.x subject to A x = b, x >= 0, b >= 0. Returns
// the optimum (NaN when infeasible). Small problems only (a test's independent LP solver).
inline double SimplexMinimum(std::vector<std::vector<double>> a, std::vector<double> b, const std::vector<double>& c) {
  const size_t m = a.size(), n = c.size();
  const double eps = 1e-11;
  // Tableau columns: n originals, m artificials, then the right-hand side.
  std::vector<std::vector<double>> t(m, std::vector<double>(n + m + 1, 0.0));
  std::vector<size_t> basis(m);
  for (size_t r = 0; r < m; ++r) {
    for (size_t k = 0; k < n; ++k) t[r][k] = a[r][k];
    t[r][n + r] = 1.0;
    t[r][n + m] = b[r];
    basis[r] = n + r;
  }
  auto pivot = [&](size_t row, size_t col) {
    const double p = t[row][col];
    for (double& v : t[row]) v /= p;
    for (size_t r = 0; r < m; ++r) {
      if (r == row || t[r][col] == 0.0) continue;
      const double f = t[r][col];
      for (size_t k = 0; k <= n + m; ++k) t[r][k] -= f * t[row][k];
    }
    basis[row] = col;
  };
  auto run = [&](const std::vector<double>& cost, size_t columns) {
    while (true) {
      size_t enter = columns;
      for (size_t k = 0; k < columns && enter == columns; ++k) {
        double reduced = cost[k];
        for (size_t r = 0; r < m; ++r) reduced -= cost[basis[r]] * t[r][k];
        if (reduced < -eps) enter = k;
      }
      if (enter == columns) return;
      size_t leave = m;
      double best = std::numeric_limits<double>::infinity();
      for (size_t r = 0; r < m; ++r) {
        if (t[r][enter] <= eps) continue;
        const double ratio = t[r][n + m] / t[r][enter];
        if (ratio < best - eps || (ratio <= best + eps && leave < m && basis[r] < basis[leave])) {
          best = ratio;
          leave = r;
        }
      }
      REQUIRE(leave < m);  // bounded: every objective here is non-negative
      pivot(leave, enter);
    }
  };
  std::vector<double> phase1(n + m, 0.0);
  for (size_t r = 0; r < m; ++r) phase1[n + r] = 1.0;
  run(phase1, n + m);
  for (size_t r = 0; r < m; ++r) {
    if (basis[r] >= n && t[r][n + m] > 1e-9) return std::nan("");
  }
  for (size_t r = 0; r < m; ++r) {  // drive artificials at zero out of the basis
    if (basis[r] < n) continue;
    for (size_t k = 0; k < n; ++k) {
      if (std::fabs(t[r][k]) > 1e-9) {
        pivot(r, k);
        break;
      }
    }
  }
  std::vector<double> phase2(n + m, 0.0);
  for (size_t k = 0; k < n; ++k) phase2[k] = c[k];
  run(phase2, n);
  double value = 0.0;
  for (size_t r = 0; r < m; ++r) value += phase2[basis[r]] * t[r][n + m];
  return value;
}

}  // namespace urnforest
