#!/usr/bin/python3
"""scikit-learn peer for bench/run.mjs (one thread); prints one JSON line.

  sklearn_bench.py train TRAIN.csv TREES MTRY SEED [JOBS]
      {"fit_ms": x}  RandomForestClassifier(n_estimators=TREES, max_features=MTRY, n_jobs=JOBS (1; -1 = every
      core)), fit only.
  sklearn_bench.py predict TRAIN.csv TEST.csv TREES MTRY ROUNDS
      {"predict_ms": [...]}  one fit, then predict(TEST) ROUNDS times (each repeated to >= 20 ms).
"""
import json
import sys
import time

import numpy as np
import sklearn
from sklearn.ensemble import RandomForestClassifier


def read(path):
    data = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=str)
    return np.ascontiguousarray(data[:, :-1].astype(np.float32)), data[:, -1]


def ms_per_call(f):
    calls, start = 0, time.perf_counter()
    while True:
        f()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= 0.02:
            return 1000 * elapsed / calls


def main():
    cmd = sys.argv[1]
    if cmd == "train":
        path, trees, mtry, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        jobs = int(sys.argv[6]) if len(sys.argv) > 6 else 1
        x, y = read(path)
        rf = RandomForestClassifier(n_estimators=trees, max_features=mtry, n_jobs=jobs, random_state=seed)
        start = time.perf_counter()
        rf.fit(x, y)
        out = {"fit_ms": 1000 * (time.perf_counter() - start)}
    else:
        train, test, trees, mtry, rounds = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
        x, y = read(train)
        xt, _ = read(test)
        rf = RandomForestClassifier(n_estimators=trees, max_features=mtry, n_jobs=1, random_state=1).fit(x, y)
        out = {"predict_ms": [ms_per_call(lambda: rf.predict(xt)) for _ in range(rounds)], "rows": len(xt)}
    out["version"] = sklearn.__version__
    print(json.dumps(out))


if __name__ == "__main__":
    main()
