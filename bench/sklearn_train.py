#!/usr/bin/python3
"""Times scikit-learn's RandomForestClassifier (one thread) on a numeric CSV; prints JSON.

Usage: bench/sklearn_train.py FILE.csv TREES MTRY REPEATS
Prints {"fit_ms": [...], "predict_ns_per_tree_row": x, "train_error": e}.
"""
import json
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier


def main():
    path, trees, mtry, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    data = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=str)
    x, y = data[:, :-1].astype(np.float32), data[:, -1]
    fits = []
    for r in range(repeats):
        rf = RandomForestClassifier(n_estimators=trees, max_features=mtry, n_jobs=1, random_state=r + 1)
        start = time.perf_counter()
        rf.fit(x, y)
        fits.append(1000 * (time.perf_counter() - start))
    start = time.perf_counter()
    predicted = rf.predict(x)
    predict_s = time.perf_counter() - start
    print(json.dumps({
        "fit_ms": fits,
        "predict_ns_per_tree_row": 1e9 * predict_s / (trees * len(y)),
        "train_error": float(np.mean(predicted != y)),
        "sklearn": __import__("sklearn").__version__,
    }))


if __name__ == "__main__":
    main()
