#!/usr/bin/python3
"""Writes Breiman's twonorm problem as CSV (for benchmarks that feed several libraries the same file).

twonorm (Breiman 1996): 20 attributes; class 1 ~ N(a, I), class 2 ~ N(-a, I), a = (2/sqrt(20))(1,...,1),
classes equally likely (a = (2/sqrt(d))(1,...,1) for other widths d).
Usage: bench/twonorm.py ROWS SEED OUT.csv [D=20]
"""
import sys

import numpy as np


def twonorm(rows, seed, d=20):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    a = 2.0 / np.sqrt(d)
    x = rng.standard_normal((rows, d)) + np.where(y[:, None] == 1, a, -a)
    return x, y


def main():
    rows, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    d = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    x, y = twonorm(rows, seed, d)
    with open(out, "w") as f:
        f.write(",".join(f"x{i}" for i in range(x.shape[1])) + ",class\n")
        for row, label in zip(x, y):
            f.write(",".join(f"{v:.6f}" for v in row) + f",c{label}\n")


if __name__ == "__main__":
    main()
