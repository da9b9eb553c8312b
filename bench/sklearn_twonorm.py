"""scikit-learn reference timing for bench/train_twonorm.cpp: twonorm rows x 20, T trees, one thread.
usage: /usr/bin/python3 bench/sklearn_twonorm.py [rows=5000] [trees=101] [repeats=3]"""
import json
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier


def twonorm(rows, seed):
    rng = np.random.default_rng(seed)
    a = 2.0 / np.sqrt(20.0)
    y = np.arange(rows) % 2
    x = rng.standard_normal((rows, 20)) + np.where(y[:, None] == 0, a, -a)
    return x.astype(np.float32), y


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    trees = int(sys.argv[2]) if len(sys.argv) > 2 else 101
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    x, y = twonorm(rows, 1)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        RandomForestClassifier(n_estimators=trees, max_features="sqrt", n_jobs=1,
                               oob_score=True, random_state=1).fit(x, y)
        best = min(best, (time.perf_counter() - start) * 1000)
    print(json.dumps({"rows": rows, "trees": trees, "sklearn_best_ms": round(best, 1)}))


if __name__ == "__main__":
    main()
