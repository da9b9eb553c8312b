#!/usr/bin/python3
"""How unanimous a forest's tallies are on the rows it was trained on against held-out rows: the
measurement behind calibrate's TrainingLikeRows warning (urnforest/calibration_check.h,
docs/import.md "Calibration rows").

Per data set (datasets/, soybean's missing cells as -1, and twonorm of 2,000 rows) and split (3):
half the rows train a scikit-learn forest of 101 trees, the other half are held out. Each tree's
vote (its predict, as an imported forest's hard vote counts it) is tallied per row; reported per
forest kind and row set: the share of unanimous tallies, the mean minority share (1 - leader share)
and the share of contested tallies (leader share < 0.8 and < 0.6).
Forests: rf = RandomForestClassifier(101) (fully grown, bootstrap), rf_leaf5 = the same with
min_samples_leaf=5, max_depth=6, et = ExtraTreesClassifier(101) (fully grown, no bootstrap).

Usage: /usr/bin/python3 bench/calibration_tallies.py
"""
import csv
import os
import sys

import numpy as np
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from twonorm import twonorm  # noqa: E402

SETS = ["wdbc", "vehicle", "ionosphere", "sonar", "wine", "iris", "soybean", "twonorm"]
FORESTS = {
    "rf": lambda s: RandomForestClassifier(101, random_state=s),
    "rf_leaf5": lambda s: RandomForestClassifier(101, min_samples_leaf=5, max_depth=6, random_state=s),
    "et": lambda s: ExtraTreesClassifier(101, random_state=s),
}


def read(name, split):
    if name == "twonorm":
        return twonorm(2000, split)
    with open(os.path.join(ROOT, "datasets", name + ".csv"), newline="") as f:
        body = list(csv.reader(f))[1:]
    X = np.array([[float(v) if v not in ("", "?", "NA") else -1 for v in r[:-1]] for r in body], dtype=np.float32)
    labels = sorted(set(r[-1] for r in body))
    return X, np.array([labels.index(r[-1]) for r in body])


def tally_stats(model, X):
    votes = np.stack([t.predict(X) for t in model.estimators_], 1).astype(int)
    counts = np.stack([(votes == k).sum(1) for k in range(votes.max() + 1)], 1)
    lead = counts.max(1) / votes.shape[1]
    return [(lead == 1).mean(), (1 - lead).mean(), (lead < 0.8).mean(), (lead < 0.6).mean()]


def main():
    print("| data | forest | rows | unanimous | minority share | leader < 0.8 | leader < 0.6 |")
    print("|---|---|---|---|---|---|---|")
    for name in SETS:
        for kind, make in FORESTS.items():
            train_stats, held_stats = [], []
            for split in range(3):
                X, y = read(name, split)
                order = np.random.default_rng(split).permutation(len(y))
                tr, ho = order[: len(y) // 2], order[len(y) // 2:]
                model = make(split).fit(X[tr], y[tr])
                train_stats.append(tally_stats(model, X[tr]))
                held_stats.append(tally_stats(model, X[ho]))
            for rows, stats in (("training", train_stats), ("held-out", held_stats)):
                m = np.mean(stats, 0)
                print(f"| {name} | {kind} | {rows} | {100 * m[0]:.1f} % | {100 * m[1]:.1f} % | {100 * m[2]:.1f} % | "
                      f"{100 * m[3]:.1f} % |")


if __name__ == "__main__":
    main()
