"""Shallow boosted trees for the cost-per-tree bench (bench/boosted_kernel.mjs): XGBoost depth 6.

    /usr/bin/python3 bench/boosted_kernel.py OUT_DIR [TREES] [ROUNDS]

Trains XGBClassifier(max_depth=6, n_estimators=TREES (300), tree_method="exact", learning_rate 0.1)
on twonorm 5,000 x 20 (bench/twonorm.py, seed 7), writes OUT_DIR/xgb.model.json (xgboost's own
JSON, for Forest.fromXGBoost / urnforest import --xgboost), OUT_DIR/xgb.onnx (the onnxmltools
encoding of scripts/onnx_fixtures.py, for onnxruntime-web) and OUT_DIR/test.csv (twonorm 5,000
rows, seed 9, the features only, named f0..f19 as xgboost names them), then times xgboost's own predict_proba on the test rows
(nthread=1, inplace_predict, each round repeated until >= 200 ms) and prints one JSON line:
{"trees", "rows", "xgboost_ms": [per round], "xgboost": version}. Not a test.
"""
import json
import os
import subprocess
import sys
import time

import numpy as np
import xgboost

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import onnx_fixtures as fx  # noqa: E402
from import_halting import write_model  # noqa: E402


def twonorm(path, rows, seed):
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "twonorm.py"), str(rows), str(seed), path, "20"],
                   check=True)
    data = np.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8")
    names = list(data.dtype.names)
    X = np.column_stack([data[n].astype(np.float32) for n in names[:-1]])
    labels = sorted(set(data[names[-1]]))
    y = np.array([labels.index(v) for v in data[names[-1]]])
    return X, y


def main():
    out = sys.argv[1]
    trees = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    os.makedirs(out, exist_ok=True)
    X, y = twonorm(os.path.join(out, "train.csv"), 5000, 7)
    Xt, _ = twonorm(os.path.join(out, "test.csv"), 5000, 9)
    # The features only, named as xgboost names them (f0, f1, ...), so that the model's schema finds them.
    with open(os.path.join(out, "test.csv"), "w") as f:
        f.write(",".join("f%d" % i for i in range(Xt.shape[1])) + "\n")
        for row in Xt:
            f.write(",".join(repr(float(v)) for v in row) + "\n")
    model = xgboost.XGBClassifier(n_estimators=trees, max_depth=6, learning_rate=0.1, random_state=1,
                                  tree_method="exact", n_jobs=1)
    model.fit(X, y)
    model.get_booster().save_model(os.path.join(out, "xgb.model.json"))
    attrs, _, n_trees = fx.xgb_attributes(model, 2)
    write_model(os.path.join(out, "xgb.onnx"), attrs, X.shape[1], 2)
    booster = model.get_booster()
    booster.set_param({"nthread": 1})
    ms = []
    for _ in range(rounds):
        calls, start = 0, time.perf_counter()
        while True:
            booster.inplace_predict(Xt)
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= 0.2:
                break
        ms.append(1000.0 * elapsed / calls)
    print(json.dumps({"trees": n_trees, "rows": int(Xt.shape[0]), "xgboost_ms": ms, "xgboost": xgboost.__version__}))


if __name__ == "__main__":
    main()
