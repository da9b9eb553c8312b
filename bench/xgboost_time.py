"""xgboost's own predict on a model and rows written by bench/boosted_kernel.py (not a test).

    /usr/bin/python3 bench/xgboost_time.py DIR [ROUNDS]

Loads DIR/xgb.model.json and DIR/test.csv (features only, header f0..), then per round times
Booster.inplace_predict on all rows with nthread 1, repeating the call until >= 200 ms, and prints one
JSON line: {"rows", "xgboost_ms": [per round], "xgboost": version, "positive": rows with p > 0.5}.
Start-up and loading are outside the timings, so bench/suite_boosted.mjs can call it once per round
beside the other peers.
"""
import json
import os
import sys
import time

import numpy as np
import xgboost


def main():
    folder = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rows = np.loadtxt(os.path.join(folder, "test.csv"), delimiter=",", skiprows=1, dtype=np.float32)
    booster = xgboost.Booster(model_file=os.path.join(folder, "xgb.model.json"))
    booster.set_param({"nthread": 1})
    ms = []
    for _ in range(rounds):
        calls, start = 0, time.perf_counter()
        while True:
            p = booster.inplace_predict(rows)
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= 0.2:
                break
        ms.append(1000.0 * elapsed / calls)
    print(json.dumps({"rows": int(rows.shape[0]), "xgboost_ms": ms, "xgboost": xgboost.__version__,
                      "positive": int((p > 0.5).sum())}))


if __name__ == "__main__":
    main()
