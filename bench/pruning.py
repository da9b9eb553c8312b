#!/usr/bin/python3
"""Double pruning on real data, in the layout of the thesis's Tables 3.1-3.5 (seed 001, chapter 3).

For each data set and each of `repeats` x `folds` stratified cross-validation splits (thesis: 10 x 10):
  bagging  T = 101: BAG101, BAG21 (first 21), IB-BAG101 (siba), IB-OB101 (siba on the whole
           boosting-ordered ensemble), OB21 (first 21 by boosting-based ordering), IB-OB21 (siba on
           OB21) and IB-OB21 with hyper; trees queried and disagreement with the pruned ensemble.
  adaboost T = 101 (--boosting): FULL (weighted vote), alpha1 trees, IB-SEQ, IB-PERM, GREEDY51
           (first 51 by greedy SDP) FULL and IB-SEQ.
Everything runs through the native CLI (train, prune, predict). Halting counts votes unweighted;
disagreement is against the unweighted full vote of the same (pruned) model.
Usage: /usr/bin/python3 bench/pruning.py [--datasets sonar,ionosphere] [--repeats 10] [--folds 10]
         [--boosting] [--json]
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import parity  # noqa: E402
from parity import DATASETS, read_raw, run_cli  # noqa: E402

# URNFOREST_CLI=/path/to/urnforest runs a copy (so a rebuild during a long run cannot break it).
parity.CLI = os.environ.get("URNFOREST_CLI", parity.CLI)


def predict(model, data, *rule):
    doc = run_cli("predict", "--model", model, "--data", data, *rule)
    out = {"error": 100.0 * (1.0 - doc["accuracy"])}
    if rule:
        out["trees"] = doc["mean_trees"]
        out["disagreement"] = 100.0 * doc["disagreement"]
    return out


def bagging_fold(train_csv, test_csv, tmp, seed):
    p = lambda name: os.path.join(tmp, name + ".urnf")  # noqa: E731
    run_cli("train", "--data", train_csv, "--ensemble", "bagging", "--trees", "101", "--seed",
            str(seed), "--out", p("bag"))
    for name, ordering, keep in (("bag21", "early", 21), ("ob101", "boosting", 101),
                                 ("ob21", "boosting", 21)):
        run_cli("prune", "--model", p("bag"), "--data", train_csv, "--ordering", ordering,
                "--keep", str(keep), "--out", p(name))
    r = {"BAG101": predict(p("bag"), test_csv), "BAG21": predict(p("bag21"), test_csv),
         "IB-BAG101": predict(p("bag"), test_csv, "--rule", "siba"),
         "IB-OB101": predict(p("ob101"), test_csv, "--rule", "siba"),
         "OB21": predict(p("ob21"), test_csv),
         "IB-OB21": predict(p("ob21"), test_csv, "--rule", "siba"),
         "IB-OB21-hyper": predict(p("ob21"), test_csv, "--rule", "hyper"),
         "alpha1-BAG101": predict(p("bag"), test_csv, "--rule", "alpha1")}
    return r


def boosting_fold(train_csv, test_csv, tmp, seed):
    p = lambda name: os.path.join(tmp, name + ".urnf")  # noqa: E731
    run_cli("train", "--data", train_csv, "--ensemble", "adaboost", "--trees", "101", "--seed",
            str(seed), "--out", p("boost"))
    run_cli("prune", "--model", p("boost"), "--data", train_csv, "--ordering", "greedy-sdp",
            "--keep", "51", "--out", p("greedy51"))
    return {"BOOST101 FULL": predict(p("boost"), test_csv),
            "BOOST101 alpha1": predict(p("boost"), test_csv, "--rule", "alpha1"),
            "BOOST101 IB-SEQ": predict(p("boost"), test_csv, "--rule", "siba"),
            "BOOST101 IB-PERM": predict(p("boost"), test_csv, "--rule", "siba", "--order", "random",
                                        "--seed", str(seed)),
            "GREEDY51 FULL": predict(p("greedy51"), test_csv),
            "GREEDY51 alpha1": predict(p("greedy51"), test_csv, "--rule", "alpha1"),
            "GREEDY51 IB-SEQ": predict(p("greedy51"), test_csv, "--rule", "siba")}


def evaluate(name, repeats, folds, boosting, tmp):
    header, body, rows = read_raw(os.path.join(DATASETS, name + ".csv"))
    labels = np.array([r[-1] for r in rows])
    cv = RepeatedStratifiedKFold(n_splits=folds, n_repeats=repeats, random_state=1)
    acc = {}
    for k, (train, test) in enumerate(cv.split(np.zeros(len(rows)), labels)):
        train_csv, test_csv = (os.path.join(tmp, f"{name}_{s}.csv") for s in ("train", "test"))
        with open(train_csv, "w") as f:
            f.write("\n".join([header] + [body[i] for i in train]) + "\n")
        with open(test_csv, "w") as f:
            f.write("\n".join([header] + [body[i] for i in test]) + "\n")
        results = bagging_fold(train_csv, test_csv, tmp, 1 + k)
        if boosting:
            results.update(boosting_fold(train_csv, test_csv, tmp, 1 + k))
        for arm, values in results.items():
            for key, v in values.items():
                acc.setdefault(arm, {}).setdefault(key, []).append(v)
    return {arm: {key: [float(np.mean(v)), float(np.std(v))] for key, v in d.items()}
            for arm, d in acc.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default="sonar,ionosphere")
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--folds", type=int, default=10)
    ap.add_argument("--boosting", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.datasets.split(","):
            out[name] = evaluate(name, a.repeats, a.folds, a.boosting, tmp)
    if a.json:
        print(json.dumps(out, indent=1))
        return
    for name, arms in out.items():
        print(f"== {name} ({a.repeats} x {a.folds}-fold CV; mean ± std over folds; % error) ==")
        for arm, d in arms.items():
            cells = [f"{key} {m:.1f}±{s:.1f}" for key, (m, s) in d.items()]
            print(f"  {arm:18s} " + "  ".join(cells))


if __name__ == "__main__":
    main()
