#!/usr/bin/python3
"""Regenerates tests/fixtures/calibration/ (deterministic): a forest and the rows it was trained on,
for the calibration-hygiene tests (urnforest/calibration_check.h).

  rf_wdbc_full.onnx  scikit-learn RandomForestClassifier(n_estimators=51, random_state=7), fully
                     grown (defaults: bootstrap, no depth limit), trained on half of wdbc (284
                     rows), encoded as skl2onnx encodes it (scripts/onnx_fixtures.py's encoder,
                     ai.onnx.ml opset 1, label and probabilities outputs, no ZipMap).
  train.csv          the 284 training rows (features only): tallies of fully grown trees on the
                     rows they were trained on, which calibrate must warn about (TrainingLikeRows).
  heldout.csv        the other 285 rows (features only): held-out rows, which it must not.

Run: /usr/bin/python3 scripts/calibration_fixture.py
"""
import csv
import os
import sys

import numpy as np
from onnx import TensorProto
from onnx import helper as oh
from sklearn.ensemble import RandomForestClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import onnx_fixtures as fx  # noqa: E402  (the skl2onnx-style encoder)

OUT = os.path.join(ROOT, "tests", "fixtures", "calibration")


def write_rows(path, names, X):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names)
        for r in X:
            w.writerow([str(np.float32(v)) for v in r])  # shortest text of the float32


def main():
    names, X, y = fx.read_csv("wdbc")
    labels = sorted(set(y))
    yi = np.array([labels.index(v) for v in y])
    order = np.random.default_rng(7).permutation(len(y))
    train, held = np.sort(order[: len(y) // 2]), np.sort(order[len(y) // 2:])
    rf = RandomForestClassifier(n_estimators=51, random_state=7).fit(X[train], yi[train])
    attrs = fx.skl2onnx_attributes(rf, list(range(len(labels))), tensor_double=False)
    node = oh.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml",
                        name="TreeEnsembleClassifier", **attrs)
    graph = oh.make_graph([node], "model", [oh.make_tensor_value_info("X", TensorProto.FLOAT, [None, X.shape[1]])],
                          [oh.make_tensor_value_info("label", TensorProto.INT64, [None]),
                           oh.make_tensor_value_info("probabilities", TensorProto.FLOAT, [None, len(labels)])])
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 15), oh.make_opsetid("ai.onnx.ml", 1)],
                          producer_name="urnforest scripts/calibration_fixture.py", ir_version=8)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "rf_wdbc_full.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    write_rows(os.path.join(OUT, "train.csv"), names, X[train])
    write_rows(os.path.join(OUT, "heldout.csv"), names, X[held])


if __name__ == "__main__":
    main()
