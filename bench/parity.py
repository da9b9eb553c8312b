#!/usr/bin/python3
"""Accuracy parity: urnforest (native CLI) versus scikit-learn on the same stratified folds.

For each data set, the rows are split into the same 10 stratified folds (scikit-learn's
StratifiedKFold, shuffled with a fixed seed); each fold's train and test rows are written as CSV
files with the original header and raw lines (so urnforest types columns exactly as it would for
the original file), and both libraries train T = 101 trees with mtry = floor(sqrt(M)).
It prints both mean 10-fold CV errors side by side, urnforest's OOB error on the full data, and
writes a JSON report to stdout (with --json) or a Markdown table.

Encoding for scikit-learn (it cannot read categorical strings or missing values):
- ionosphere's V1/V2 are 0/1 factors: used as the numbers 0/1 (identical splits).
- soybean (35 categorical columns with missing cells): one-hot encoding, a missing cell being its own
  category; scikit-learn's mtry is then floor(sqrt(#one-hot columns)), as its users would run it.
  urnforest reads the file as it is: its cells are quoted integer codes, and a quoted number is a
  number, so urnforest splits on the codes as ordered numbers (with a learned missing direction).

Usage: /usr/bin/python3 bench/parity.py [--datasets wdbc,sonar,...] [--trees 101] [--folds 10]
       [--repeats 3] [--json]
(Repeats re-shuffle the folds; both libraries see the same folds; means are over all folds.)
Needs: python3-sklearn (bench/setup.sh installs it), the native CLI (npm run build:native).
"""
import argparse
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = os.path.join(ROOT, "datasets")
CLI = os.path.join(ROOT, "build", "urnforest")


def read_raw(path):
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    header, body = lines[0], [l for l in lines[1:] if l.strip()]
    rows = list(csv.reader(io.StringIO("\n".join(body))))
    return header, body, rows


def sklearn_matrix(rows):
    """Numeric columns as floats; other columns one-hot (missing = own category)."""
    ncol = len(rows[0]) - 1
    blocks, numeric_columns = [], 0
    for c in range(ncol):
        values = [r[c] for r in rows]
        try:
            blocks.append(np.array([[float(v)] for v in values]))
            numeric_columns += 1
        except ValueError:
            cats = sorted(set(values))
            index = {v: i for i, v in enumerate(cats)}
            block = np.zeros((len(rows), len(cats)))
            for i, v in enumerate(values):
                block[i, index[v]] = 1.0
            blocks.append(block)
    return np.hstack(blocks), ncol


def run_cli(*args):
    out = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    if out.returncode != 0:
        raise RuntimeError(f"urnforest {' '.join(args)}: {doc}")
    return doc


def evaluate(name, trees, folds, seed, tmp, repeats=1):
    header, body, rows = read_raw(os.path.join(DATASETS, name + ".csv"))
    labels = np.array([r[-1] for r in rows])
    X, num_features = sklearn_matrix(rows)
    mtry = max(1, int(math.floor(math.sqrt(num_features))))
    ours, theirs = [], []
    splits = []
    for rep in range(repeats):
        skf = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed + 1000 * rep)
        splits += list(skf.split(X, labels))
    for k, (train, test) in enumerate(splits):
        train_csv = os.path.join(tmp, f"{name}_{k}_train.csv")
        test_csv = os.path.join(tmp, f"{name}_{k}_test.csv")
        model = os.path.join(tmp, f"{name}_{k}.urnf")
        with open(train_csv, "w") as f:
            f.write("\n".join([header] + [body[i] for i in train]) + "\n")
        with open(test_csv, "w") as f:
            f.write("\n".join([header] + [body[i] for i in test]) + "\n")
        run_cli("train", "--data", train_csv, "--trees", str(trees), "--mtry", str(mtry),
                "--seed", str(seed + k), "--out", model)
        predicted = run_cli("predict", "--model", model, "--data", test_csv)
        ours.append(1.0 - predicted["accuracy"])
        rf = RandomForestClassifier(n_estimators=trees, max_features="sqrt", n_jobs=1,
                                    random_state=seed + k)
        rf.fit(X[train], labels[train])
        theirs.append(float(np.mean(rf.predict(X[test]) != labels[test])))
    # OOB error of forests trained on all rows, averaged over `repeats` seeds (one forest's OOB
    # estimate has a seed-to-seed spread of about a point on the small sets).
    ours_oob, theirs_oob = [], []
    for rep in range(repeats):
        full_model = os.path.join(tmp, f"{name}_full.urnf")
        full = run_cli("train", "--data", os.path.join(DATASETS, name + ".csv"), "--trees",
                       str(trees), "--mtry", str(mtry), "--seed", str(seed + rep), "--out", full_model)
        ours_oob.append(full["oob_error"])
        rf = RandomForestClassifier(n_estimators=trees, max_features="sqrt", n_jobs=1,
                                    oob_score=True, random_state=seed + rep)
        theirs_oob.append(1.0 - rf.fit(X, labels).oob_score_)
    return {
        "dataset": name, "rows": len(rows), "features": num_features, "mtry": mtry,
        "sklearn_features": int(X.shape[1]),
        "urnforest_cv_error": float(np.mean(ours)), "urnforest_cv_std": float(np.std(ours)),
        "sklearn_cv_error": float(np.mean(theirs)), "sklearn_cv_std": float(np.std(theirs)),
        "urnforest_oob_error": float(np.mean(ours_oob)),
        "sklearn_oob_error": float(np.mean(theirs_oob)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="wdbc,sonar,ionosphere,wine,vehicle,soybean")
    parser.add_argument("--trees", type=int, default=101)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(CLI):
        sys.exit(f"{CLI} not found: run `npm run build:native` first")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.datasets.split(","):
            print(f"[parity] {name} ...", file=sys.stderr)
            results.append(evaluate(name, args.trees, args.folds, args.seed, tmp, args.repeats))
    if args.json:
        print(json.dumps({"trees": args.trees, "folds": args.folds, "repeats": args.repeats,
                          "results": results}, indent=1))
        return
    print("| data set | rows | mtry | urnforest CV error | scikit-learn CV error | difference | "
          "urnforest OOB error | OOB − CV | scikit-learn OOB − CV |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        diff = 100 * (r["urnforest_cv_error"] - r["sklearn_cv_error"])
        oob = 100 * (r["urnforest_oob_error"] - r["urnforest_cv_error"])
        sk_oob = 100 * (r["sklearn_oob_error"] - r["sklearn_cv_error"])
        print(f"| {r['dataset']} | {r['rows']} | {r['mtry']} | "
              f"{100*r['urnforest_cv_error']:.2f} ± {100*r['urnforest_cv_std']:.2f} % | "
              f"{100*r['sklearn_cv_error']:.2f} ± {100*r['sklearn_cv_std']:.2f} % | {diff:+.2f} pt | "
              f"{100*r['urnforest_oob_error']:.2f} % | {oob:+.2f} pt | {sk_oob:+.2f} pt |")


if __name__ == "__main__":
    main()
