#!/usr/bin/python3
"""Regenerates the XGBoost JSON import fixtures in tests/fixtures/xgboost/ (deterministic).

Every model is trained by real XGBoost (Debian's python3-xgboost 1.7) on a data set from
datasets/ and saved with its own writer, Booster.save_model("<name>.model.json"): the files are
XGBoost's bytes, untouched. Next to each model, <name>.json records the test rows (missing values
as null) and what xgboost answers for them:

  source.predict        class index per row: XGBClassifier-style (binary: p > 0.5; multi:softprob:
                        argmax; multi:softmax: Booster.predict, the class itself; binary:logitraw:
                        margin > 0)
  source.predict_proba  rows x classes: [1 - p, p] (binary:logistic), the softmax of the margins
                        (multi:*), the margins (-m, m) (binary:logitraw)
  source.margin         Booster.predict(output_margin=True): the raw margins, base score included

Models:
  wdbc_binary_missing    binary:logistic, wdbc (30 named columns, feature_names stored), 15 % of
                         cells missing, depth 6, 300 trees, base_score 0.37
  vehicle_softprob_missing  multi:softprob, vehicle (4 classes), 10 % missing, depth 4, 40 rounds
                         (160 trees), no feature names (f0, f1, ...)
  iris_softmax           multi:softmax, iris (3 classes), depth 3, 20 rounds, base_score 0.2
  wdbc_logitraw          binary:logitraw, wdbc, depth 3, 25 trees
Refused models (bad_*.model.json, no rows): reg:squarederror, dart, gblinear, and a categorical
split (enable_categorical on a DMatrix with a categorical column).
"""
import csv
import json
import os

import numpy as np
import xgboost as xgb

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "tests", "fixtures", "xgboost")


def read(name):
    with open(os.path.join(ROOT, "datasets", name + ".csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    x = np.array([[float(v) for v in r[:-1]] for r in body], dtype=np.float32)
    labels = sorted(set(r[-1] for r in body))
    y = np.array([labels.index(r[-1]) for r in body], dtype=np.int32)
    return header[:-1], x, y, labels


def with_missing(x, fraction, seed):
    x = x.copy()
    x[np.random.default_rng(seed).random(x.shape) < fraction] = np.nan
    return x


def softmax(m):
    e = np.exp(m - m.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def answers(booster, objective, x, names):
    d = xgb.DMatrix(x, missing=np.nan, feature_names=names)
    margin = booster.predict(d, output_margin=True).astype(np.float64)
    if objective == "binary:logistic":
        p = booster.predict(d).astype(np.float64)
        return (p > 0.5).astype(int), np.stack([1 - p, p], axis=1), margin
    if objective == "binary:logitraw":
        return (margin > 0).astype(int), np.stack([-margin, margin], axis=1), margin
    if objective == "multi:softmax":
        return booster.predict(d).astype(int), softmax(margin), margin
    p = booster.predict(d).astype(np.float64)
    return p.argmax(axis=1), p, margin


def cell(v):
    return None if np.isnan(v) else float(v)  # float32 values, exactly as doubles


def write(name, booster, objective, x, names, classes, notes):
    booster.save_model(os.path.join(OUT, name + ".model.json"))
    predict, proba, margin = answers(booster, objective, x, names)
    fixture = {
        "fixture": name,
        "model_file": name + ".model.json",
        "source_library": "xgboost " + xgb.__version__,
        "objective": objective,
        "notes": notes,
        "feature_names": names if names else ["f%d" % i for i in range(x.shape[1])],
        "classes": classes,
        "n_trees": len(booster.get_dump()),
        "rows": [[cell(v) for v in r] for r in x],
        "source": {"predict": [int(v) for v in predict],
                   "predict_proba": [[float(v) for v in r] for r in proba],
                   "margin": margin.tolist()},
    }
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")


def train(params, x, y, names, rounds):
    d = xgb.DMatrix(x, label=y, missing=np.nan, feature_names=names)
    return xgb.train(dict(params, seed=0, nthread=1), d, num_boost_round=rounds)


def main():
    os.makedirs(OUT, exist_ok=True)
    names, x, y, labels = read("wdbc")
    xm = with_missing(x, 0.15, 1)
    b = train({"objective": "binary:logistic", "max_depth": 6, "eta": 0.1, "base_score": 0.37,
               "subsample": 0.8}, xm[::2], y[::2], names, 300)
    write("wdbc_binary_missing", b, "binary:logistic", xm, names, labels,
          "trained on even rows, tested on all; feature_names stored in the model")
    b = train({"objective": "binary:logitraw", "max_depth": 3, "eta": 0.3}, x[::2], y[::2], None, 25)
    write("wdbc_logitraw", b, "binary:logitraw", x, None, labels, "margins; no feature names")

    _, x, y, labels = read("vehicle")
    xm = with_missing(x, 0.10, 2)
    b = train({"objective": "multi:softprob", "num_class": 4, "max_depth": 4, "eta": 0.3},
              xm[::2], y[::2], None, 40)
    write("vehicle_softprob_missing", b, "multi:softprob", xm, None, labels,
          "trained on even rows, tested on all; no feature names")

    _, x, y, labels = read("iris")
    b = train({"objective": "multi:softmax", "num_class": 3, "max_depth": 3, "eta": 0.3, "base_score": 0.2},
              x, y, None, 20)
    write("iris_softmax", b, "multi:softmax", x, None, labels, "Booster.predict answers the class")

    b = train({"objective": "reg:squarederror", "max_depth": 2}, x, y.astype(np.float32), None, 3)
    b.save_model(os.path.join(OUT, "bad_regression.model.json"))
    b = train({"objective": "binary:logistic", "booster": "dart", "max_depth": 2}, x, (y == 1), None, 3)
    b.save_model(os.path.join(OUT, "bad_dart.model.json"))
    b = train({"objective": "binary:logistic", "booster": "gblinear"}, x, (y == 1), None, 3)
    b.save_model(os.path.join(OUT, "bad_gblinear.model.json"))
    xc = x.copy()
    xc[:, 0] = y  # a categorical column holding the class index
    d = xgb.DMatrix(xc, label=(y == 1), feature_types=["c", "q", "q", "q"], enable_categorical=True)
    b = xgb.train({"objective": "binary:logistic", "tree_method": "hist", "max_depth": 2, "seed": 0,
                   "nthread": 1, "max_cat_to_onehot": 1}, d, num_boost_round=3)
    b.save_model(os.path.join(OUT, "bad_categorical.model.json"))


if __name__ == "__main__":
    main()
