#!/usr/bin/python3
"""Halting on forests trained elsewhere: scikit-learn and XGBoost models, exported to ONNX the way
skl2onnx and onnxmltools encode them (scripts/onnx_fixtures.py's encoders), imported with the
native CLI (`urnforest import`), calibrated on unlabeled rows (`urnforest calibrate`) and halted
on held-out rows (`urnforest predict --rule ...`).

Per data set: 50 % of the rows train the source model, 25 % (their labels dropped) calibrate, 25 %
are the test rows. Reported on the test rows, against the imported model's own soft prediction
(scikit-learn's predict / XGBoost's predict, which the import reproduces):
  * scikit-learn RandomForestClassifier (n_estimators=101, otherwise defaults): mean trees and
    disagreement of hyper, 1dir and ndir at alpha = 0.99, and of the exact soft early exit;
  * XGBoost (n_estimators=100, max_depth=4): mean trees of the exact early exit and wall-clock
    time of the full and the halted prediction (the CLI's predict_ms and halted_ms).

Usage: /usr/bin/python3 bench/import_halting.py [--splits N]   (build the CLI first: npm run build:native)
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto
from onnx import helper as oh
from sklearn.ensemble import RandomForestClassifier
import xgboost

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import onnx_fixtures as fx  # noqa: E402  (the skl2onnx / onnxmltools-style encoders)

CLI = os.path.join(ROOT, "build", "urnforest")
DATASETS = ["wdbc", "vehicle", "ionosphere", "sonar", "wine"]


def read(name):
    with open(os.path.join(ROOT, "datasets", name + ".csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    X = np.array([[float(v) if v not in ("", "?", "NA") else np.nan for v in r[:-1]] for r in body], dtype=np.float32)
    labels = sorted(set(r[-1] for r in body))
    y = np.array([labels.index(r[-1]) for r in body])
    return header[:-1], X, y, labels


def write_model(path, attrs, n_features, n_classes, ml_opset=1):
    nodes = [oh.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"],
                          domain="ai.onnx.ml", name="TreeEnsembleClassifier", **attrs)]
    graph = oh.make_graph(nodes, "model", [oh.make_tensor_value_info("X", TensorProto.FLOAT, [None, n_features])],
                          [oh.make_tensor_value_info("label", TensorProto.INT64, [None]),
                           oh.make_tensor_value_info("probabilities", TensorProto.FLOAT, [None, n_classes])])
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 15), oh.make_opsetid("ai.onnx.ml", ml_opset)],
                          producer_name="bench/import_halting.py", ir_version=8)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def write_rows(path, names, X):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for r in X:
            w.writerow(["" if np.isnan(v) else repr(float(v)) for v in r])


def cli(*args):
    out = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stdout + out.stderr)
    return json.loads(out.stdout)


def run(name, split, tmp):
    names, X, y, labels = read(name)
    n = len(y)
    order = np.random.default_rng(1000 + split).permutation(n)
    train, calib, test = order[: n // 2], order[n // 2: 3 * n // 4], order[3 * n // 4:]
    write_rows(os.path.join(tmp, "calib.csv"), names, X[calib])
    write_rows(os.path.join(tmp, "test.csv"), names, X[test])
    feats = ",".join(names)
    row = {"data": name, "split": split}

    rf = RandomForestClassifier(n_estimators=101, random_state=split).fit(X[train], y[train])
    attrs = fx.skl2onnx_attributes(rf, list(range(len(labels))), tensor_double=False)
    write_model(os.path.join(tmp, "rf.onnx"), attrs, X.shape[1], len(labels))
    cli("import", "--onnx", os.path.join(tmp, "rf.onnx"), "--out", os.path.join(tmp, "rf.urnf"), "--features", feats)
    cli("calibrate", "--model", os.path.join(tmp, "rf.urnf"), "--data", os.path.join(tmp, "calib.csv"),
        "--out", os.path.join(tmp, "rf_cal.urnf"))
    full = cli("predict", "--model", os.path.join(tmp, "rf_cal.urnf"), "--data", os.path.join(tmp, "test.csv"))
    sk_labels = [str(v) for v in rf.predict(X[test])]
    row["rf_import_equals_sklearn"] = full["labels"] == sk_labels
    hard = cli("predict", "--model", os.path.join(tmp, "rf_cal.urnf"), "--data", os.path.join(tmp, "test.csv"),
               "--vote", "hard")
    row["rf_hard_vs_soft"] = float(np.mean([a != b for a, b in zip(hard["labels"], full["labels"])]))
    for rule in ["hyper", "1dir", "ndir", "margin", "alpha1"]:
        h = cli("predict", "--model", os.path.join(tmp, "rf_cal.urnf"), "--data", os.path.join(tmp, "test.csv"),
                "--rule", rule, "--alpha", "0.99")
        dis = float(np.mean([a != b for a, b in zip(h["labels"], full["labels"])]))
        row[f"rf_{rule}_trees"] = h["mean_trees"] / 101
        row[f"rf_{rule}_disagreement"] = dis
        if rule == "hyper":
            row["rf_hyper_vs_hard"] = float(np.mean([a != b for a, b in zip(h["labels"], hard["labels"])]))

    xgb = xgboost.XGBClassifier(n_estimators=100, max_depth=4, learning_rate=0.3, random_state=split,
                                objective="binary:logistic" if len(labels) == 2 else "multi:softprob",
                                tree_method="exact").fit(X[train], y[train])
    attrs, _, n_trees = fx.xgb_attributes(xgb, len(labels))
    write_model(os.path.join(tmp, "xgb.onnx"), attrs, X.shape[1], len(labels))
    cli("import", "--onnx", os.path.join(tmp, "xgb.onnx"), "--out", os.path.join(tmp, "xgb.urnf"), "--features", feats)
    h = cli("predict", "--model", os.path.join(tmp, "xgb.urnf"), "--data", os.path.join(tmp, "test.csv"),
            "--rule", "alpha1")
    xgb_labels = [str(v) for v in xgb.predict(X[test])]
    # Timing on the test rows repeated 100 times (the CLI's predict_ms: full soft prediction;
    # halted_ms: the exact early exit), so that both take milliseconds rather than microseconds.
    write_rows(os.path.join(tmp, "test100.csv"), names, np.repeat(X[test], 100, axis=0))
    timed = cli("predict", "--model", os.path.join(tmp, "xgb.urnf"), "--data", os.path.join(tmp, "test100.csv"),
                "--rule", "alpha1")
    row["xgb_trees_total"] = n_trees
    row["xgb_import_equals_xgboost"] = h["disagreement"] == 0 and h["labels"] == xgb_labels
    row["xgb_exact_trees"] = h["mean_trees"] / n_trees
    row["xgb_full_ms"] = timed["predict_ms"]
    row["xgb_halted_ms"] = timed["halted_ms"]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument("--data", default=",".join(DATASETS))
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.data.split(","):
            for split in range(args.splits):
                rows.append(run(name, split, tmp))
    keys = [k for k in rows[0] if k not in ("data", "split")]
    print("| data | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for name in args.data.split(","):
        mine = [r for r in rows if r["data"] == name]
        cells = []
        for k in keys:
            vals = [r[k] for r in mine]
            if isinstance(vals[0], bool):
                cells.append("yes" if all(vals) else f"{sum(vals)}/{len(vals)}")
            elif k.endswith("_ms"):
                cells.append(f"{np.mean(vals):.2f}")
            elif isinstance(vals[0], int):
                cells.append(str(vals[0]))
            else:
                cells.append(f"{100 * np.mean(vals):.2f} %")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
