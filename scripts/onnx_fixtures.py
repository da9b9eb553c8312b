#!/usr/bin/python3
"""Regenerates the ONNX import fixtures in tests/fixtures/onnx/ (deterministic).

Every model is trained by its real library on a real data set from datasets/ and then encoded
with onnx.helper by this script, attribute for attribute the way the real converter encodes it
(skl2onnx and onnxmltools cannot be installed here; their converters were read, not copied):

  sk_rf_wdbc_binary_zipmap     sklearn RandomForestClassifier, wdbc (2 classes, int64 labels
                               0 = benign, 1 = malignant). skl2onnx encoding as in
                               skl2onnx/operator_converters/random_forest.py
                               (convert_sklearn_random_forest_classifier) with
                               skl2onnx/common/tree_ensemble.py (add_tree_to_attribute_pairs,
                               add_node, sklearn_threshold): ai.onnx.ml opset 1
                               TreeEnsembleClassifier, float attributes, nodes in sklearn's node
                               order, BRANCH_LEQ, thresholds moved down to the largest float32 not
                               above sklearn's double threshold, leaf = class fractions / n_trees,
                               binary leaves keep only class 1's weight (class_ids 0); then the
                               default skl2onnx tail from skl2onnx/_parse.py (_apply_zipmap) and
                               skl2onnx/operator_converters/zip_map.py: Cast(label -> int64) and
                               ZipMap(probabilities).
  sk_rf_iris_nozipmap          same converter, iris (3 classes, int64 labels 0, 1, 2), option
                               zipmap=False: outputs "label" and "probabilities" straight from
                               the TreeEnsembleClassifier.
  sk_et_vehicle_strings_opset3 sklearn ExtraTreesClassifier, vehicle (4 string labels),
                               TreeEnsembleClassifier of ai.onnx.ml opset 3 whose thresholds and
                               leaf weights are double tensors (nodes_values_as_tensor,
                               class_weights_as_tensor, nodes_hitrates_as_tensor) holding
                               sklearn's exact double thresholds; the input is a double tensor
                               (onnxruntime only accepts double *_as_tensor attributes with a
                               double input, see ENCODING.md).
  sk_rf_soybean_19class        sklearn RandomForestClassifier, soybean (19 string labels), 50
                               trees; sklearn 1.2 forests reject NaN, so a missing cell is
                               imputed as the constant -1 before training and in the test rows.
                               Each attribute is its category code as a number.
  xgb_wdbc_binary_missing      xgboost XGBClassifier binary:logistic, wdbc with NaN injected in
                               training and test rows, base_score = training prior. onnxmltools
                               encoding as in onnxmltools/convert/xgboost/operator_converters/
                               XGBoost.py (XGBClassifierConverter.convert, _fill_node_attributes,
                               _remap_nodeid): node ids renumbered in depth-first pre-order of the
                               JSON dump, BRANCH_LT, true = "yes", missing_value_tracks_true =
                               (missing == yes), leaf value as class_weights with class_ids 0,
                               post_transform LOGISTIC, base_values = [logit(base_score)].
  xgb_vehicle_softprob_missing xgboost multi:softprob, vehicle (4 classes 0..3 = bus, opel,
                               saab, van) with NaN injected; class_ids = tree index % 4,
                               post_transform SOFTMAX, base_values = [base_score] * 4.
  tiny_all_modes               hand-built TreeEnsembleClassifier (opset 1): every node mode,
                               missing tracks mixed, node ids out of order, nodes listed
                               shuffled (root first), leaves with several class entries, labels
                               10/20/30; test rows sit on the thresholds, next to them, or NaN.
  tiny_all_modes_opset5        the same trees in ai.onnx.ml opset 5 TreeEnsemble (one tree copy
                               per class since an opset-5 leaf has one target) plus a tree with a
                               BRANCH_MEMBER node, followed by ArgMax.
  bad_*                        files the importer must refuse: a TreeEnsembleRegressor, a Scaler
                               before the classifier, an unknown operator.

Each <name>.json holds feature names, classes, test rows (float32 values, NaN as null), the
source library's own outputs and onnxruntime-web's outputs (scripts/onnx_ort_run.mjs) on the
same rows; "outputs_doc" in each file says which output is which.
Run: /usr/bin/python3 scripts/onnx_fixtures.py   (needs node and node_modules/onnxruntime-web)
"""

import copy
import csv
import json
import math
import os
import subprocess

import numpy as np
import onnx
import onnx.helper as oh
import sklearn
import xgboost
from onnx import TensorProto
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "onnx")
ML = "ai.onnx.ml"
MAIN_OPSET = 15
IR_VERSION = 8


# ---------------------------------------------------------------- data


def read_csv(name):
    with open(os.path.join(ROOT, "datasets", name + ".csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    X = np.array([[float(v) if v != "" else np.nan for v in r[:-1]] for r in body], dtype=np.float32)
    y = np.array([r[-1] for r in body])
    return header[:-1], X, y


def split(n, n_test, state):
    order = np.random.default_rng(state).permutation(n)
    return np.sort(order[n_test:]), np.sort(order[:n_test])


def inject_nan(X, fraction, state):
    X = X.copy()
    mask = np.random.default_rng(state).random(X.shape) < fraction
    X[mask] = np.nan
    return X


def rows_json(X):
    return [[None if math.isnan(v) else float(v) for v in r] for r in X.astype(np.float32)]


# ---------------------------------------------------------------- onnx helpers


def tensor_out(name, elem, shape):
    return oh.make_tensor_value_info(name, elem, shape)


def zipmap_out(name, key_elem):
    t = onnx.TypeProto()
    m = t.sequence_type.elem_type.map_type
    m.key_type = key_elem
    m.value_type.tensor_type.elem_type = TensorProto.FLOAT
    return oh.make_value_info(name, t)


def save_model(name, nodes, inputs, outputs, ml_opset, doc, ir_version=IR_VERSION):
    graph = oh.make_graph(nodes, name, inputs, outputs)
    model = oh.make_model(
        graph,
        opset_imports=[oh.make_opsetid("", MAIN_OPSET), oh.make_opsetid(ML, ml_opset)],
        producer_name="urnforest scripts/onnx_fixtures.py",
        ir_version=ir_version,
    )
    model.doc_string = doc
    path = os.path.join(OUT, name + ".onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return path


def run_ort(path, input_name, dtype, rows):
    req = json.dumps({"model": path, "input": input_name, "dtype": dtype, "rows": rows})
    res = subprocess.run(["node", os.path.join(ROOT, "scripts", "onnx_ort_run.mjs")],
                         input=req, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(res.stdout)


def as_matrix(out):
    d = out["dims"]
    return np.array([np.nan if v is None else v for v in out["data"]], dtype=np.float64).reshape(d)


def write_json(name, doc):
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


# ---------------------------------------------------------------- skl2onnx-style encoding


def float32_leq_threshold(t):
    """Largest float32 w with (float)x <= t  <=>  (float)x <= w (skl2onnx sklearn_threshold)."""
    f = np.float32(t)
    if np.float64(f) <= t:
        return f
    return np.nextafter(f, np.float32(-np.inf))


def skl2onnx_attributes(forest, labels, tensor_double):
    """TreeEnsembleClassifier attributes for a fitted sklearn forest, skl2onnx's layout."""
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true", "nodes_hitrates", "class_treeids",
                         "class_nodeids", "class_ids", "class_weights")}
    tree_weight = 1.0 / len(forest.estimators_)
    for t, est in enumerate(forest.estimators_):
        tr = est.tree_
        for i in range(tr.node_count):
            branch = tr.children_left[i] > i or tr.children_right[i] > i
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(i)
            a["nodes_featureids"].append(int(tr.feature[i]) if branch else 0)
            a["nodes_modes"].append("BRANCH_LEQ" if branch else "LEAF")
            thr = float(tr.threshold[i]) if branch else 0.0
            if branch and not tensor_double:
                thr = float(float32_leq_threshold(thr))
            a["nodes_values"].append(thr)
            a["nodes_truenodeids"].append(int(tr.children_left[i]) if branch else 0)
            a["nodes_falsenodeids"].append(int(tr.children_right[i]) if branch else 0)
            a["nodes_missing_value_tracks_true"].append(0)
            a["nodes_hitrates"].append(1.0)
            if not branch:
                w = tr.value[i].flatten()
                s = float(w.sum())
                w = [float(v) * (tree_weight / (s if s != 0.0 else 1.0)) for v in w]
                if len(w) == 2:
                    w = [w[1]]
                for k, v in enumerate(w):
                    a["class_treeids"].append(t)
                    a["class_nodeids"].append(i)
                    a["class_ids"].append(k)
                    a["class_weights"].append(v)
    a["post_transform"] = "NONE"
    if isinstance(labels[0], str):
        a["classlabels_strings"] = list(labels)
    else:
        a["classlabels_int64s"] = [int(v) for v in labels]
    if tensor_double:
        for k in ("nodes_values", "class_weights", "nodes_hitrates"):
            a[k + "_as_tensor"] = oh.make_tensor(k + "_as_tensor", TensorProto.DOUBLE,
                                                 [len(a[k])], a.pop(k))
    return a


def sklearn_fixture(name, forest, feature_names, labels, X_test, zipmap, opset3, note, extra):
    attrs = skl2onnx_attributes(forest, labels, tensor_double=opset3)
    string_labels = isinstance(labels[0], str)
    label_elem = TensorProto.STRING if string_labels else TensorProto.INT64
    n_cls = len(labels)
    in_elem = TensorProto.DOUBLE if opset3 else TensorProto.FLOAT
    inputs = [oh.make_tensor_value_info("X", in_elem, [None, X_test.shape[1]])]
    nodes = [oh.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"],
                          domain=ML, name="TreeEnsembleClassifier", **attrs)]
    if zipmap:
        zm = {"classlabels_strings": list(labels)} if string_labels else \
             {"classlabels_int64s": [int(v) for v in labels]}
        if string_labels:
            nodes.append(oh.make_node("Identity", ["label"], ["output_label"], name="Identity"))
        else:
            nodes.append(oh.make_node("Cast", ["label"], ["output_label"], name="Cast",
                                      to=TensorProto.INT64))
        nodes.append(oh.make_node("ZipMap", ["probabilities"], ["output_probability"],
                                  domain=ML, name="ZipMap", **zm))
        outputs = [tensor_out("output_label", label_elem, [None]),
                   zipmap_out("output_probability", label_elem)]
    else:
        outputs = [tensor_out("label", label_elem, [None]),
                   tensor_out("probabilities", TensorProto.FLOAT, [None, n_cls])]
    path = save_model(name, nodes, inputs, outputs, 3 if opset3 else 1, note)

    rows = rows_json(X_test)
    dtype = "float64" if opset3 else "float32"
    ort = run_ort(path, "X", dtype, rows)
    if zipmap:
        # ZipMap's seq(map) output cannot be read back by onnxruntime-web; the scores it maps are
        # the classifier's "probabilities", read from a twin graph whose output is that tensor.
        twin = os.path.join(OUT, name + ".twin.onnx")
        save_model(name + ".twin", nodes[:1], inputs,
                   [tensor_out("label", label_elem, [None]),
                    tensor_out("probabilities", TensorProto.FLOAT, [None, n_cls])], 1, note)
        ort["twin_without_zipmap"] = run_ort(twin, "X", dtype, rows)["outputs"]
        os.remove(twin)
    Xs = X_test.astype(np.float32)
    proba = forest.predict_proba(Xs)
    predict = forest.predict(Xs)
    votes = np.array([est.predict(Xs) for est in forest.estimators_]).T.astype(int)
    lab_key = "output_label" if zipmap else "label"
    ort_labels = ort["outputs"][lab_key]["data"]
    ort_proba = as_matrix((ort["twin_without_zipmap"] if zipmap else ort["outputs"])["probabilities"])
    flips = [{"row": i, "sklearn": to_py(predict[i]), "ort": ort_labels[i]}
             for i in range(len(rows)) if to_py(predict[i]) != ort_labels[i]]
    doc = {
        "fixture": name, "model_file": name + ".onnx", "encoding": note,
        "source_library": "scikit-learn " + sklearn.__version__,
        "input": {"name": "X", "dtype": dtype, "n_features": int(X_test.shape[1])},
        "feature_names": feature_names, "classes": [to_py(c) for c in labels],
        "n_trees": len(forest.estimators_),
        "rows": rows,
        "source": {"predict": [to_py(v) for v in predict], "predict_proba": proba.tolist(),
                   "tree_votes": votes.tolist()},
        "ort": ort,
        "label_flips": flips,
        "max_abs_proba_diff": float(np.max(np.abs(proba - ort_proba))),
        "outputs_doc": {
            "source.predict": "forest.predict(rows): class labels",
            "source.predict_proba": "forest.predict_proba(rows): rows x classes, columns in 'classes' order",
            "source.tree_votes": "rows x trees: forest.estimators_[t].predict(rows), a class INDEX into 'classes'",
            "ort.outputs": "onnxruntime-web 1.30 (wasm) on the .onnx file: each graph output as {type, dims, data}",
            "ort.twin_without_zipmap": "present for ZipMap models: the same TreeEnsembleClassifier with its own outputs 'label' and 'probabilities' as graph outputs (onnxruntime-web cannot return ZipMap's seq(map))",
            "label_flips": "rows where ORT's label differs from source.predict (float32 arithmetic); empty when they agree",
        },
    }
    doc.update(extra)
    write_json(name, doc)
    return doc


def to_py(v):
    return v.item() if hasattr(v, "item") else v


# ---------------------------------------------------------------- onnxmltools-style encoding


def xgb_attributes(model, n_classes):
    booster = model.get_booster()
    trees = [json.loads(s) for s in booster.get_dump(with_stats=True, dump_format="json")]
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true", "class_treeids", "class_nodeids",
                         "class_ids", "class_weights")}
    for t, root in enumerate(trees):
        remap = {}

        def number(node):
            remap.setdefault(node["nodeid"], len(remap))
            for ch in node.get("children", []):
                number(ch)

        def emit(node):
            nid = remap[node["nodeid"]]
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(nid)
            if "children" in node:
                a["nodes_featureids"].append(int(node["split"][1:]))
                a["nodes_modes"].append("BRANCH_LT")
                a["nodes_values"].append(float(node["split_condition"]))
                a["nodes_truenodeids"].append(remap[node["yes"]])
                a["nodes_falsenodeids"].append(remap[node["no"]])
                a["nodes_missing_value_tracks_true"].append(int(node.get("missing", -1) == node["yes"]))
                for ch in node["children"]:
                    emit(ch)
            else:
                a["nodes_featureids"].append(0)
                a["nodes_modes"].append("LEAF")
                a["nodes_values"].append(0.0)
                a["nodes_truenodeids"].append(0)
                a["nodes_falsenodeids"].append(0)
                a["nodes_missing_value_tracks_true"].append(0)
                a["class_treeids"].append(t)
                a["class_nodeids"].append(nid)
                a["class_ids"].append(0 if n_classes == 2 else t % n_classes)
                a["class_weights"].append(float(node["leaf"]))

        number(root)
        emit(root)
    config = json.loads(booster.save_config())
    base_score = float(config["learner"]["learner_model_param"]["base_score"])
    if n_classes == 2:
        a["post_transform"] = "LOGISTIC"
        if base_score != 0.5:
            a["base_values"] = [float(-np.log(1 / np.float32(base_score) - 1.0))]
    else:
        a["post_transform"] = "SOFTMAX"
        a["base_values"] = [base_score] * n_classes
    a["classlabels_int64s"] = list(range(n_classes))
    return a, base_score, len(trees)


def xgb_fixture(name, model, feature_names, class_names, X_test, note):
    n_cls = len(class_names)
    attrs, base_score, n_trees = xgb_attributes(model, n_cls)
    inputs = [oh.make_tensor_value_info("input", TensorProto.FLOAT, [None, X_test.shape[1]])]
    nodes = [oh.make_node("TreeEnsembleClassifier", ["input"], ["label", "probabilities"],
                          domain=ML, name="TreeEnsembleClassifier", **attrs)]
    outputs = [tensor_out("label", TensorProto.INT64, [None]),
               tensor_out("probabilities", TensorProto.FLOAT, [None, n_cls])]
    path = save_model(name, nodes, inputs, outputs, 1, note)
    rows = rows_json(X_test)
    ort = run_ort(path, "input", "float32", rows)
    Xs = X_test.astype(np.float32)
    margin = model.predict(Xs, output_margin=True)
    proba = model.predict_proba(Xs)
    predict = model.predict(Xs)
    ort_labels = ort["outputs"]["label"]["data"]
    flips = [{"row": i, "xgboost": int(predict[i]), "ort": ort_labels[i]}
             for i in range(len(rows)) if int(predict[i]) != ort_labels[i]]
    doc = {
        "fixture": name, "model_file": name + ".onnx", "encoding": note,
        "source_library": "xgboost " + xgboost.__version__,
        "input": {"name": "input", "dtype": "float32", "n_features": int(X_test.shape[1])},
        "feature_names": feature_names, "classes": list(range(n_cls)), "class_names": class_names,
        "objective": model.get_params()["objective"], "base_score": base_score,
        "n_trees": n_trees, "rows_with_nan": int(np.isnan(Xs).any(axis=1).sum()),
        "rows": rows,
        "source": {"predict": [int(v) for v in predict],
                   "margin": np.asarray(margin, dtype=np.float64).tolist(),
                   "predict_proba": proba.tolist()},
        "ort": ort,
        "label_flips": flips,
        "max_abs_proba_diff": float(np.max(np.abs(proba - as_matrix(ort["outputs"]["probabilities"])))),
        "outputs_doc": {
            "source.predict": "model.predict(rows): class index 0..n-1 (class_names gives the original label)",
            "source.margin": "model.predict(rows, output_margin=True): raw score incl. base_score (binary: one logit per row; multi: rows x classes)",
            "source.predict_proba": "model.predict_proba(rows): rows x classes",
            "ort.outputs": "onnxruntime-web 1.30 (wasm): 'label' int64 per row, 'probabilities' rows x classes",
            "label_flips": "rows where ORT's label differs from source.predict; empty when they agree",
        },
    }
    write_json(name, doc)
    return doc


# ---------------------------------------------------------------- hand-built tiny model

TINY_LABELS = [10, 20, 30]
# (tree, node id, feature, mode, threshold, true id, false id, missing tracks true, leaf weights)
# Listed per tree root first, the other nodes shuffled; node ids are below the total node count
# (onnxruntime requires it) but follow no positional order.
TINY_TREES = [
    [(0, 4, 0, "BRANCH_LEQ", 1.5, 12, 9, 1, None),
     (0, 1, 0, "LEAF", 0, 0, 0, 0, {0: 0.25, 1: 0.75}),
     (0, 9, 2, "BRANCH_GTE", -2.0, 3, 1, 1, None),
     (0, 7, 0, "LEAF", 0, 0, 0, 0, {1: 0.5, 2: 0.25}),
     (0, 12, 1, "BRANCH_LT", 0.25, 0, 7, 0, None),
     (0, 3, 0, "LEAF", 0, 0, 0, 0, {2: 1.0}),
     (0, 0, 0, "LEAF", 0, 0, 0, 0, {0: 1.0})],
    [(1, 11, 1, "BRANCH_GT", 0.25, 2, 6, 0, None),
     (1, 6, 2, "BRANCH_NEQ", 0.5, 10, 5, 0, None),
     (1, 0, 0, "LEAF", 0, 0, 0, 0, {1: 1.0}),
     (1, 10, 0, "LEAF", 0, 0, 0, 0, {2: 0.5}),
     (1, 2, 0, "BRANCH_EQ", 3.0, 8, 0, 1, None),
     (1, 5, 0, "LEAF", 0, 0, 0, 0, {0: 0.5, 2: 0.5}),
     (1, 8, 0, "LEAF", 0, 0, 0, 0, {0: 1.25})],
    [(2, 3, 0, "BRANCH_GT", 1.5, 1, 13, 1, None),
     (2, 13, 1, "BRANCH_NEQ", -1.0, 5, 6, 1, None),
     (2, 2, 0, "LEAF", 0, 0, 0, 0, {0: 0.75}),
     (2, 5, 2, "BRANCH_LT", -2.0, 7, 8, 1, None),
     (2, 1, 2, "BRANCH_LEQ", 0.5, 2, 9, 0, None),
     (2, 8, 1, "BRANCH_GTE", 0.25, 4, 10, 0, None),
     (2, 6, 0, "LEAF", 0, 0, 0, 0, {1: 0.75}),
     (2, 9, 0, "BRANCH_EQ", 3.0, 11, 12, 0, None),
     (2, 7, 0, "LEAF", 0, 0, 0, 0, {2: 0.75}),
     (2, 4, 0, "LEAF", 0, 0, 0, 0, {0: 0.5, 1: 0.25}),
     (2, 10, 0, "LEAF", 0, 0, 0, 0, {1: 0.5}),
     (2, 11, 0, "LEAF", 0, 0, 0, 0, {1: 1.0, 2: 0.25}),
     (2, 12, 0, "LEAF", 0, 0, 0, 0, {2: 0.5})],
]
# The opset-5 twin adds this tree (BRANCH_MEMBER {1, 3, 4.5} on f0, NaN goes true).
TINY_MEMBER_SET = [1.0, 3.0, 4.5]
TINY_MEMBER_LEAVES = (0.25, 0.125)  # class 30 weight when in the set, class 10 weight when not


def tiny_rows():
    nxt = lambda v, d: float(np.nextafter(np.float32(v), np.float32(d)))
    f0 = [1.5, nxt(1.5, 0), nxt(1.5, 9), 3.0, nxt(3.0, 9), 1.0, 4.5, 0.0, None, 7.0]
    f1 = [0.25, nxt(0.25, -9), nxt(0.25, 9), -1.0, nxt(-1.0, 9), None, 2.0, -5.0]
    f2 = [-2.0, nxt(-2.0, -9), nxt(-2.0, 9), 0.5, nxt(0.5, 9), nxt(0.5, -9), None, 9.0]
    grid = [[a, b, c] for a in f0 for b in f1 for c in f2]
    pick = np.sort(np.random.default_rng(7).choice(len(grid), 200, replace=False))
    return [grid[i] for i in pick]


def tiny_eval(rows, with_member):
    """Reference evaluation: onnxruntime's documented rules, SUM of leaf weights."""
    def test(mode, x, t, tracks):
        if math.isnan(x) and tracks:
            return True
        return {"BRANCH_LEQ": x <= t, "BRANCH_LT": x < t, "BRANCH_GTE": x >= t,
                "BRANCH_GT": x > t, "BRANCH_EQ": x == t, "BRANCH_NEQ": x != t}[mode]
    scores = []
    for r in rows:
        x = [np.nan if v is None else np.float32(v) for v in r]
        s = [0.0, 0.0, 0.0]
        for tree in TINY_TREES:
            by_id = {n[1]: n for n in tree}
            n = tree[0]
            while n[3] != "LEAF":
                n = by_id[n[5] if test(n[3], x[n[2]], np.float32(n[4]), n[7]) else n[6]]
            for c, w in n[8].items():
                s[c] += w
        if with_member:
            v = x[0]
            inside = math.isnan(v) or any(v == np.float32(m) for m in TINY_MEMBER_SET)
            if inside:
                s[2] += TINY_MEMBER_LEAVES[0]
            else:
                s[0] += TINY_MEMBER_LEAVES[1]
        scores.append(s)
    return scores


def tiny_fixture():
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                         "nodes_missing_value_tracks_true", "class_treeids", "class_nodeids",
                         "class_ids", "class_weights")}
    for tree in TINY_TREES:
        for (t, nid, f, mode, thr, tr, fa, miss, leaf) in tree:
            for k, v in zip(("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                             "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                             "nodes_missing_value_tracks_true"),
                            (t, nid, f, mode, float(thr), tr, fa, miss)):
                a[k].append(v)
    for tree in TINY_TREES:  # class entries listed after all nodes, by tree, in reverse node order
        for (t, nid, *_rest, leaf) in reversed(tree):
            for c, w in sorted((leaf or {}).items()):
                a["class_treeids"].append(t)
                a["class_nodeids"].append(nid)
                a["class_ids"].append(c)
                a["class_weights"].append(w)
    a["post_transform"] = "NONE"
    a["classlabels_int64s"] = TINY_LABELS
    inputs = [oh.make_tensor_value_info("X", TensorProto.FLOAT, [None, 3])]
    nodes = [oh.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], domain=ML,
                          name="TreeEnsembleClassifier", **a)]
    outputs = [tensor_out("label", TensorProto.INT64, [None]),
               tensor_out("probabilities", TensorProto.FLOAT, [None, 3])]
    note = ("hand-built TreeEnsembleClassifier: 3 trees, all six branch modes, missing tracks "
            "mixed, node ids out of order, nodes shuffled within each tree (root first), "
            "class entries listed apart from the nodes")
    path = save_model("tiny_all_modes", nodes, inputs, outputs, 1, note)
    rows = tiny_rows()
    ort = run_ort(path, "X", "float32", rows)
    ref = tiny_eval(rows, False)
    doc = {
        "fixture": "tiny_all_modes", "model_file": "tiny_all_modes.onnx", "encoding": note,
        "source_library": "reference evaluation in scripts/onnx_fixtures.py (tiny_eval)",
        "input": {"name": "X", "dtype": "float32", "n_features": 3},
        "feature_names": ["f0", "f1", "f2"], "classes": TINY_LABELS,
        "thresholds": {"f0": [1.5, 3.0], "f1": [0.25, -1.0], "f2": [-2.0, 0.5]},
        "rows": rows,
        "source": {"scores": ref, "predict": [TINY_LABELS[int(np.argmax(s))] for s in ref]},
        "ort": ort,
        "outputs_doc": {
            "source.scores": "rows x classes: sum over trees of the reached leaf's class weights (no post transform)",
            "source.predict": "label of the first maximal score (numpy argmax)",
            "ort.outputs": "onnxruntime-web 1.30: 'label' int64 (10/20/30), 'probabilities' rows x 3 = the raw sums",
        },
    }
    write_json("tiny_all_modes", doc)

    # opset 5: one tree per (original tree, class); the member tree; ArgMax over the scores.
    modes5 = {"BRANCH_LEQ": 0, "BRANCH_LT": 1, "BRANCH_GTE": 2, "BRANCH_GT": 3, "BRANCH_EQ": 4,
              "BRANCH_NEQ": 5, "BRANCH_MEMBER": 6}
    b = {k: [] for k in ("tree_roots", "nodes_featureids", "nodes_splits", "nodes_modes",
                         "nodes_truenodeids", "nodes_falsenodeids", "nodes_trueleafs",
                         "nodes_falseleafs", "nodes_missing_value_tracks_true", "leaf_targetids",
                         "leaf_weights")}
    members = []
    for tree in TINY_TREES:
        by_id = {n[1]: n for n in tree}
        for c in range(3):
            def build(nid):
                """Appends the subtree at nid; returns (is_leaf, index)."""
                n = by_id[nid]
                if n[3] == "LEAF":
                    b["leaf_targetids"].append(c)
                    b["leaf_weights"].append(n[8].get(c, 0.0))
                    return 1, len(b["leaf_weights"]) - 1
                pos = len(b["nodes_modes"])
                for k in ("nodes_featureids", "nodes_splits", "nodes_modes", "nodes_truenodeids",
                          "nodes_falsenodeids", "nodes_trueleafs", "nodes_falseleafs",
                          "nodes_missing_value_tracks_true"):
                    b[k].append(0)
                b["nodes_featureids"][pos] = n[2]
                b["nodes_splits"][pos] = n[4]
                b["nodes_modes"][pos] = modes5[n[3]]
                b["nodes_missing_value_tracks_true"][pos] = n[7]
                tl, ti = build(n[5])
                fl, fi = build(n[6])
                b["nodes_trueleafs"][pos], b["nodes_truenodeids"][pos] = tl, ti
                b["nodes_falseleafs"][pos], b["nodes_falsenodeids"][pos] = fl, fi
                return 0, pos
            b["tree_roots"].append(build(tree[0][1])[1])
    pos = len(b["nodes_modes"])
    b["tree_roots"].append(pos)
    b["nodes_featureids"].append(0)
    b["nodes_splits"].append(0.0)
    b["nodes_modes"].append(modes5["BRANCH_MEMBER"])
    b["nodes_missing_value_tracks_true"].append(1)
    b["leaf_targetids"] += [2, 0]
    b["leaf_weights"] += list(TINY_MEMBER_LEAVES)
    b["nodes_trueleafs"].append(1)
    b["nodes_truenodeids"].append(len(b["leaf_weights"]) - 2)
    b["nodes_falseleafs"].append(1)
    b["nodes_falsenodeids"].append(len(b["leaf_weights"]) - 1)
    members = TINY_MEMBER_SET
    attrs5 = dict(
        n_targets=3, aggregate_function=1, post_transform=0,
        tree_roots=b["tree_roots"], nodes_featureids=b["nodes_featureids"],
        nodes_splits=oh.make_tensor("nodes_splits", TensorProto.FLOAT, [len(b["nodes_splits"])],
                                    b["nodes_splits"]),
        nodes_modes=oh.make_tensor("nodes_modes", TensorProto.UINT8, [len(b["nodes_modes"])],
                                   b["nodes_modes"]),
        nodes_truenodeids=b["nodes_truenodeids"], nodes_falsenodeids=b["nodes_falsenodeids"],
        nodes_trueleafs=b["nodes_trueleafs"], nodes_falseleafs=b["nodes_falseleafs"],
        nodes_missing_value_tracks_true=b["nodes_missing_value_tracks_true"],
        membership_values=oh.make_tensor("membership_values", TensorProto.FLOAT, [len(members)],
                                         members),
        leaf_targetids=b["leaf_targetids"],
        leaf_weights=oh.make_tensor("leaf_weights", TensorProto.FLOAT, [len(b["leaf_weights"])],
                                    b["leaf_weights"]),
    )
    nodes = [oh.make_node("TreeEnsemble", ["X"], ["scores"], domain=ML, name="TreeEnsemble", **attrs5),
             oh.make_node("ArgMax", ["scores"], ["class_index"], name="ArgMax", axis=1, keepdims=0)]
    outputs = [tensor_out("scores", TensorProto.FLOAT, [None, 3]),
               tensor_out("class_index", TensorProto.INT64, [None])]
    note5 = ("tiny_all_modes in ai.onnx.ml opset 5 TreeEnsemble: each original tree copied once per "
             "class (an opset-5 leaf has one target; a missing class entry becomes weight 0), plus "
             "one tree 'f0 BRANCH_MEMBER {1, 3, 4.5}, missing tracks true -> class 30 += 0.25 "
             "else class 10 += 0.125'; ArgMax(axis 1) gives the class index")
    path = save_model("tiny_all_modes_opset5", nodes, inputs, outputs, 5, note5, ir_version=10)
    ort5 = run_ort(path, "X", "float32", rows)
    ref5 = tiny_eval(rows, True)
    doc5 = copy.deepcopy(doc)
    doc5.update({
        "fixture": "tiny_all_modes_opset5", "model_file": "tiny_all_modes_opset5.onnx",
        "encoding": note5, "member_set_f0": members,
        "source": {"scores": ref5, "class_index": [int(np.argmax(s)) for s in ref5]},
        "ort": ort5,
        "outputs_doc": {
            "source.scores": "rows x classes: tiny_all_modes' sums plus the member tree's leaf",
            "source.class_index": "index of the first maximal score (numpy argmax)",
            "ort.outputs": "onnxruntime-web 1.30: 'scores' rows x 3 (TreeEnsemble, SUM, no transform), 'class_index' int64 (ArgMax)",
        },
    })
    write_json("tiny_all_modes_opset5", doc5)


# ---------------------------------------------------------------- files the importer refuses


def bad_fixtures(iris_forest, X_test):
    rows = rows_json(X_test[:5])
    results = {}
    tree = iris_forest.estimators_[0].tree_
    reg = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                           "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
                           "target_treeids", "target_nodeids", "target_ids", "target_weights")}
    for i in range(tree.node_count):
        branch = tree.children_left[i] > i
        for k, v in zip(("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
                         "nodes_values", "nodes_truenodeids", "nodes_falsenodeids"),
                        (0, i, int(tree.feature[i]) if branch else 0,
                         "BRANCH_LEQ" if branch else "LEAF",
                         float(float32_leq_threshold(tree.threshold[i])) if branch else 0.0,
                         int(tree.children_left[i]) if branch else 0,
                         int(tree.children_right[i]) if branch else 0)):
            reg[k].append(v)
        if not branch:
            w = tree.value[i].flatten()
            reg["target_treeids"].append(0)
            reg["target_nodeids"].append(i)
            reg["target_ids"].append(0)
            reg["target_weights"].append(float(np.argmax(w)))
    reg.update(n_targets=1, post_transform="NONE", aggregate_function="SUM")
    X4 = [oh.make_tensor_value_info("X", TensorProto.FLOAT, [None, 4])]
    cases = {
        "bad_regressor": (
            [oh.make_node("TreeEnsembleRegressor", ["X"], ["variable"], domain=ML, **reg)],
            [tensor_out("variable", TensorProto.FLOAT, [None, 1])],
            "TreeEnsembleRegressor (one iris tree, leaf = class index as a number): valid ONNX that "
            "onnxruntime runs; the importer must refuse it (not a classifier)"),
        "bad_scaler_pipeline": (
            [oh.make_node("Scaler", ["X"], ["scaled"], domain=ML, offset=[5.8, 3.0, 3.7, 1.2],
                          scale=[1.2, 2.3, 0.57, 1.3]),
             oh.make_node("TreeEnsembleClassifier", ["scaled"], ["label", "probabilities"], domain=ML,
                          **skl2onnx_attributes(iris_forest, [0, 1, 2], False))],
            [tensor_out("label", TensorProto.INT64, [None]),
             tensor_out("probabilities", TensorProto.FLOAT, [None, 3])],
            "Scaler before the TreeEnsembleClassifier (a preprocessing graph): valid ONNX that "
            "onnxruntime runs; the importer must refuse it (the classifier's input is not the "
            "graph input)"),
        "bad_unknown_op": (
            [oh.make_node("MysteryTransform", ["X"], ["mystery"], domain="com.example.fixtures"),
             oh.make_node("TreeEnsembleClassifier", ["mystery"], ["label", "probabilities"], domain=ML,
                          **skl2onnx_attributes(iris_forest, [0, 1, 2], False))],
            [tensor_out("label", TensorProto.INT64, [None]),
             tensor_out("probabilities", TensorProto.FLOAT, [None, 3])],
            "an operator no runtime knows (com.example.fixtures MysteryTransform) before the "
            "classifier: onnxruntime refuses to load it; the importer must refuse it"),
    }
    for name, (nodes, outputs, note) in cases.items():
        graph = oh.make_graph(nodes, name, X4, outputs)
        opsets = [oh.make_opsetid("", MAIN_OPSET), oh.make_opsetid(ML, 1)]
        if name == "bad_unknown_op":
            opsets.append(oh.make_opsetid("com.example.fixtures", 1))
        model = oh.make_model(graph, opset_imports=opsets, ir_version=IR_VERSION,
                              producer_name="urnforest scripts/onnx_fixtures.py")
        model.doc_string = note
        path = os.path.join(OUT, name + ".onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
        ort = run_ort(path, "X", "float32", rows)
        results[name] = {"model_file": name + ".onnx", "note": note,
                         "ort_loads": "load_error" not in ort, "ort": ort}
    write_json("bad_files", {"input": {"name": "X", "dtype": "float32", "n_features": 4},
                             "rows": rows, "files": results})


# ---------------------------------------------------------------- main


def main():
    os.makedirs(OUT, exist_ok=True)
    summary = {}

    names, X, y = read_csv("wdbc")
    yi = (y == "malignant").astype(int)
    tr, te = split(len(y), 150, 11)
    rf = RandomForestClassifier(n_estimators=15, max_depth=6, random_state=3).fit(X[tr], yi[tr])
    summary["sk_rf_wdbc_binary_zipmap"] = sklearn_fixture(
        "sk_rf_wdbc_binary_zipmap", rf, names, [0, 1], X[te], zipmap=True, opset3=False,
        note="skl2onnx RandomForestClassifier binary, ai.onnx.ml opset 1, ZipMap after the node",
        extra={"class_names": ["benign", "malignant"]})

    # xgboost binary on wdbc with NaN in training and test rows.
    Xn = inject_nan(X, 0.08, 5)
    prior = float(yi[tr].mean())
    xb = xgboost.XGBClassifier(n_estimators=20, max_depth=4, learning_rate=0.3, base_score=prior,
                               objective="binary:logistic", tree_method="exact", n_jobs=1,
                               random_state=0).fit(Xn[tr], yi[tr])
    summary["xgb_wdbc_binary_missing"] = xgb_fixture(
        "xgb_wdbc_binary_missing", xb, names, ["benign", "malignant"], Xn[te],
        note="onnxmltools XGBClassifier binary:logistic: BRANCH_LT, LOGISTIC, class_ids 0, "
             "base_values [logit(base_score)], missing tracks from xgboost's 'missing' child")

    names, X, y = read_csv("iris")
    classes = sorted(set(y))
    yi = np.array([classes.index(v) for v in y])
    tr, te = split(len(y), 50, 12)
    rf_iris = RandomForestClassifier(n_estimators=10, max_depth=6, random_state=4).fit(X[tr], yi[tr])
    summary["sk_rf_iris_nozipmap"] = sklearn_fixture(
        "sk_rf_iris_nozipmap", rf_iris, names, [0, 1, 2], X[te], zipmap=False, opset3=False,
        note="skl2onnx RandomForestClassifier 3 classes, option zipmap=False",
        extra={"class_names": classes})
    bad_fixtures(rf_iris, X[te])

    names, X, y = read_csv("vehicle")
    tr, te = split(len(y), 200, 13)
    et = ExtraTreesClassifier(n_estimators=20, max_depth=8, random_state=5).fit(X[tr], y[tr])
    summary["sk_et_vehicle_strings_opset3"] = sklearn_fixture(
        "sk_et_vehicle_strings_opset3", et, names, [str(c) for c in et.classes_], X[te],
        zipmap=False, opset3=True,
        note="skl2onnx-style ExtraTreesClassifier, string labels, ai.onnx.ml opset 3 with double "
             "*_as_tensor attributes (exact sklearn thresholds), double input",
        extra={})
    classes = sorted(set(y))
    yi = np.array([classes.index(v) for v in y])
    Xn = inject_nan(X, 0.05, 6)
    xm = xgboost.XGBClassifier(n_estimators=15, max_depth=4, learning_rate=0.3,
                               objective="multi:softprob", tree_method="exact", n_jobs=1,
                               random_state=0).fit(Xn[tr], yi[tr])
    summary["xgb_vehicle_softprob_missing"] = xgb_fixture(
        "xgb_vehicle_softprob_missing", xm, names, classes, Xn[te],
        note="onnxmltools XGBClassifier multi:softprob: BRANCH_LT, SOFTMAX, class_ids = tree "
             "index % 4, base_values [base_score] * 4, missing tracks from xgboost")

    names, X, y = read_csv("soybean")
    tr, te = split(len(y), 200, 14)
    Xi = np.where(np.isnan(X), np.float32(-1), X)
    rf_soy = RandomForestClassifier(n_estimators=50, max_depth=8, random_state=6).fit(Xi[tr], y[tr])
    summary["sk_rf_soybean_19class"] = sklearn_fixture(
        "sk_rf_soybean_19class", rf_soy, names, [str(c) for c in rf_soy.classes_], Xi[te],
        zipmap=False, opset3=False,
        note="skl2onnx RandomForestClassifier 19 string classes, zipmap=False; missing cells "
             "imputed as -1 (category codes otherwise)",
        extra={"imputation": "missing cell -> -1 (training and test rows)"})

    tiny_fixture()

    for name, doc in summary.items():
        size = os.path.getsize(os.path.join(OUT, name + ".onnx"))
        print(f"{name}: {size} bytes, {len(doc['rows'])} rows, label flips {len(doc['label_flips'])}, "
              f"max |proba diff| {doc['max_abs_proba_diff']:.2e}")


if __name__ == "__main__":
    main()
