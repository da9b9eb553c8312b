#!/usr/bin/python3
"""Models for bench/onnx_peer.mjs (urnforest vs onnxruntime-web on the same ONNX file).

Per data set (datasets/<name>.csv): 50 % of the rows (a fixed permutation) train the models, 25 %
are calibration rows (urnforest's calibrate(), labels unused) and 25 % are test rows. Writes to
OUT (default bench/.cache/onnx_peer/<name>/, gitignored):
  rf100.onnx, rf500.onnx  scikit-learn RandomForestClassifier(n_estimators=100 / 500, defaults
                          otherwise), skl2onnx's encoding (scripts/onnx_fixtures.py)
  xgb300.onnx             XGBClassifier(n_estimators=300, defaults otherwise, tree_method="exact"),
                          onnxmltools' encoding (multi-class: 300 trees per class)
  data.json               feature names, class labels, the test and calibration rows (float32
                          values) and each source library's own predicted class index on the
                          test rows
Nothing is written when the files exist for the same parameters (data.json's "params").

Usage: /usr/bin/python3 bench/onnx_peer_models.py [--data vehicle] [--out DIR]
Prints one JSON line: {"dir": ..., "models": {name: {"file", "trees", "bytes"}}, "cached": bool}.
"""
import argparse
import json
import os
import sys

import numpy as np
import sklearn
import xgboost
from sklearn.ensemble import RandomForestClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import onnx_fixtures as fx  # noqa: E402  (the skl2onnx / onnxmltools-style encoders)
from import_halting import read, write_model  # noqa: E402

PARAMS = {"split_seed": 2024, "rf": [100, 500], "xgb": 300, "sklearn": sklearn.__version__,
          "xgboost": xgboost.__version__, "version": 1}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="vehicle")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = args.out or os.path.join(ROOT, "bench", ".cache", "onnx_peer", args.data)
    meta_path = os.path.join(out, "data.json")
    params = dict(PARAMS, data=args.data)
    names = ["rf%d" % t for t in PARAMS["rf"]] + ["xgb%d" % PARAMS["xgb"]]
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get("params") == params and all(os.path.exists(os.path.join(out, n + ".onnx")) for n in names):
            print(json.dumps({"dir": out, "models": meta["models"], "cached": True}))
            return
    os.makedirs(out, exist_ok=True)

    features, X, y, labels = read(args.data)
    n = len(y)
    order = np.random.default_rng(PARAMS["split_seed"]).permutation(n)
    train, calib, test = order[: n // 2], order[n // 2: 3 * n // 4], order[3 * n // 4:]
    classes = list(range(len(labels)))
    models = {}
    source_predict = {}
    for t in PARAMS["rf"]:
        rf = RandomForestClassifier(n_estimators=t, random_state=1).fit(X[train], y[train])
        write_model(os.path.join(out, "rf%d.onnx" % t), fx.skl2onnx_attributes(rf, classes, tensor_double=False),
                    X.shape[1], len(labels))
        models["rf%d" % t] = {"trees": t, "source": "scikit-learn %s RandomForestClassifier" % sklearn.__version__}
        source_predict["rf%d" % t] = [int(v) for v in rf.predict(X[test])]
    xgb = xgboost.XGBClassifier(n_estimators=PARAMS["xgb"], random_state=1, tree_method="exact",
                                objective="binary:logistic" if len(labels) == 2 else "multi:softprob")
    xgb.fit(X[train], y[train])
    attrs, _, n_trees = fx.xgb_attributes(xgb, len(labels))
    write_model(os.path.join(out, "xgb%d.onnx" % PARAMS["xgb"]), attrs, X.shape[1], len(labels))
    models["xgb%d" % PARAMS["xgb"]] = {"trees": n_trees, "source": "XGBoost %s XGBClassifier" % xgboost.__version__}
    source_predict["xgb%d" % PARAMS["xgb"]] = [int(v) for v in xgb.predict(X[test])]
    for name in models:
        models[name]["file"] = name + ".onnx"
        models[name]["bytes"] = os.path.getsize(os.path.join(out, name + ".onnx"))

    def rows(idx):
        return [None if np.isnan(v) else float(v) for v in X[idx].astype(np.float32).ravel()]

    meta = {"params": params, "data": args.data, "feature_names": features, "labels": labels,
            "train_rows": len(train), "test": rows(test), "test_rows": len(test), "calib": rows(calib),
            "calib_rows": len(calib), "source_predict": source_predict, "models": models}
    with open(meta_path, "w") as f:
        json.dump(meta, f)
    print(json.dumps({"dir": out, "models": models, "cached": False}))


if __name__ == "__main__":
    main()
