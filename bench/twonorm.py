#!/usr/bin/python3
"""Writes Breiman's twonorm problem as CSV (for benchmarks that feed several libraries the same file).

twonorm (Breiman 1996): 20 attributes; class 1 ~ N(a, I), class 2 ~ N(-a, I), a = (2/sqrt(20))(1,...,1),
classes equally likely. Usage: bench/twonorm.py ROWS SEED OUT.csv
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
    x, y = twonorm(rows, seed)
    with open(out, "w") as f:
        f.write(",".join(f"x{i}" for i in range(x.shape[1])) + ",class\n")
        for row, label in zip(x, y):
            f.write(",".join(f"{v:.6f}" for v in row) + f",c{label}\n")


if __name__ == "__main__":
    main()
