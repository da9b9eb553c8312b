#!/usr/bin/python3
"""A scikit-learn GradientBoostingClassifier in ONNX for the halting benchmarks (not a test).

    /usr/bin/python3 bench/sklearn_gb_onnx.py DATA.csv OUT.onnx [--trees 100] [--depth 3] [--seed 0]

DATA.csv: one of datasets/*.csv (features, then the label in the last column). The model trains on
every row; the file is written as skl2onnx encodes gradient boosting: one tree per class and stage
(one per stage for two classes), leaf weights = the tree's value times the learning rate, base
values = the initial estimator's raw scores, post_transform LOGISTIC (two classes) or SOFTMAX.
Missing cells read -1 (as bench/imported_halting.* read them). The halting benches compare the
halted answers with the imported model's own full prediction.
"""
import argparse
import csv
import os
import sys

import numpy as np
from onnx import TensorProto
from onnx import helper as oh
from sklearn.ensemble import GradientBoostingClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import onnx_fixtures as fx  # noqa: E402  (float32_leq_threshold)


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    body = rows[1:]
    X = np.array([[float(v) if v not in ("", "?", "NA") else -1.0 for v in r[:-1]] for r in body],
                 dtype=np.float32)
    labels = sorted(set(r[-1] for r in body))
    return X, np.array([labels.index(r[-1]) for r in body]), labels


def attributes(gb, n_classes):
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true", "class_treeids", "class_nodeids",
                         "class_ids", "class_weights")}
    t = 0
    for stage in gb.estimators_:
        for cls, est in enumerate(stage):
            tr = est.tree_
            for i in range(tr.node_count):
                branch = tr.children_left[i] >= 0
                a["nodes_treeids"].append(t)
                a["nodes_nodeids"].append(i)
                a["nodes_featureids"].append(int(tr.feature[i]) if branch else 0)
                a["nodes_modes"].append("BRANCH_LEQ" if branch else "LEAF")
                a["nodes_values"].append(float(fx.float32_leq_threshold(tr.threshold[i])) if branch else 0.0)
                a["nodes_truenodeids"].append(int(tr.children_left[i]) if branch else 0)
                a["nodes_falsenodeids"].append(int(tr.children_right[i]) if branch else 0)
                a["nodes_missing_value_tracks_true"].append(0)
                if not branch:
                    a["class_treeids"].append(t)
                    a["class_nodeids"].append(i)
                    a["class_ids"].append(cls)
                    a["class_weights"].append(float(tr.value[i].flatten()[0]) * gb.learning_rate)
            t += 1
    raw = gb._raw_predict_init(np.zeros((1, gb.n_features_in_), dtype=np.float32))[0]
    a["base_values"] = [float(v) for v in raw]
    a["post_transform"] = "LOGISTIC" if n_classes == 2 else "SOFTMAX"
    a["classlabels_int64s"] = list(range(n_classes))
    return a, t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--trees", type=int, default=100)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    X, y, labels = read(args.data)
    gb = GradientBoostingClassifier(n_estimators=args.trees, max_depth=args.depth,
                                    random_state=args.seed).fit(X, y)
    attrs, n_trees = attributes(gb, len(labels))
    n_out = len(labels)
    node = oh.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml", **attrs)
    graph = oh.make_graph([node], "gb", [oh.make_tensor_value_info("X", TensorProto.FLOAT, [None, X.shape[1]])],
                          [oh.make_tensor_value_info("label", TensorProto.INT64, [None]),
                           oh.make_tensor_value_info("probabilities", TensorProto.FLOAT, [None, n_out])])
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 15), oh.make_opsetid("ai.onnx.ml", 1)],
                          producer_name="bench/sklearn_gb_onnx.py", ir_version=8)
    with open(args.out, "wb") as f:
        f.write(model.SerializeToString())
    print(f"{args.out}: {n_trees} trees, {len(labels)} classes, {X.shape[0]} rows")


if __name__ == "__main__":
    main()
