#!/usr/bin/python3
"""[KM26]'s headline, reproduced: ">= 4x fewer trees at 0.1 % disagreement" with the minimean stopping
strategy (rule lp) on scikit-learn forests of 101 trees; and the same LP over full tallies on
multi-class sets.

Per data set and split (10 by default): 50 % of the rows train a scikit-learn
RandomForestClassifier(n_estimators=101, random_state=split), 25 % calibrate (unlabeled: only the
101 trees' votes are read) and 25 % test. Each tree votes its predicted class (hard votes; the
reference is the plurality of the 101 votes, lowest class index at a tie). build/bench_tally_lp
solves minimean at each target from the calibration rows' final tallies and measures it exactly on
the test rows (each row's disagreement and expected trees over random query orders, averaged), and
solves the floor: the same LP on the test rows' own tallies, which no strategy that counts votes in
random order can beat. Two classes use the two-class solver, three or four the full-tally one
(more classes at 101 trees exceed its 5M-state lattice: soybean's 19 classes are refused, so its
three most common classes stand in).

Data: twonorm (bench/twonorm.py, 7,400 rows), threenorm and ringnorm (Breiman's generators, 20
features, 8,000 rows), waveform (Breiman's three-class generator, 21 features, 8,000 rows);
wdbc, ionosphere, sonar, vehicle, wine, soybean from datasets/.

Columns (means over splits): cal = calibration rows; trees = mean trees of 101 on the test rows;
speed-up = 101 / trees; dis. = realised disagreement (%), worst = its worst split (%); floor = the
oracle floor's mean trees. Second table (two classes): minimean's worst test row (the largest exact
disagreement of any row, over all splits) against the minimax strategy (objective 'minimax', bound
1 - alpha for every final count) fitted on the same calibration rows.

Usage: /usr/bin/python3 bench/lp_reproduction.py [--splits 10] [--data a,b] [--jobs 2] [--json out.json]
Needs build/bench_tally_lp (scripts/build.sh native). Not part of npm test.
"""
import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.ensemble import RandomForestClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from certified import read as read_dataset  # noqa: E402  (the data sets of bench/certified.py)
from twonorm import twonorm  # noqa: E402

ROOT = os.path.dirname(HERE)
LP = os.path.join(ROOT, "build", "bench_tally_lp")
TREES = 101
TARGETS = [0.001, 0.01]
BINARY = ["twonorm", "threenorm", "ringnorm", "wdbc", "ionosphere", "sonar"]
MULTI = ["waveform", "vehicle", "wine", "soybean3"]


def threenorm(rows, seed, d=20):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    a = 2.0 / np.sqrt(d)
    ones = np.full(d, a)
    alternating = np.where(np.arange(d) % 2 == 0, a, -a)
    side = np.where(rng.integers(0, 2, rows) == 1, 1.0, -1.0)
    centre = np.where(y[:, None] == 0, side[:, None] * ones, alternating)
    return rng.standard_normal((rows, d)) + centre, y


def ringnorm(rows, seed, d=20):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    a = 1.0 / np.sqrt(d)
    z = rng.standard_normal((rows, d))
    return np.where(y[:, None] == 0, 2.0 * z, z + a), y


def waveform(rows, seed):
    rng = np.random.default_rng(seed)
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h2 = np.maximum(6 - np.abs(i - 7), 0)
    h3 = np.maximum(6 - np.abs(i - 15), 0)
    pairs = [(h1, h2), (h1, h3), (h2, h3)]
    y = rng.integers(0, 3, rows)
    u = rng.random(rows)[:, None]
    a = np.stack([pairs[c][0] for c in y])
    b = np.stack([pairs[c][1] for c in y])
    return u * a + (1 - u) * b + rng.standard_normal((rows, 21)), y


def load(name):
    if name == "twonorm":
        return twonorm(7400, 20261)
    if name == "threenorm":
        return threenorm(8000, 20262)
    if name == "ringnorm":
        return ringnorm(8000, 20263)
    if name == "waveform":
        return waveform(8000, 20264)
    if name == "soybean3":
        _, X, y, _ = read_dataset("soybean")
        top = np.argsort(-np.bincount(y))[:3]
        keep = np.isin(y, top)
        return X[keep], np.searchsorted(np.sort(top), y[keep])
    _, X, y, _ = read_dataset(name)
    return X, y


def tallies(rf, X, k):
    votes = np.stack([t.predict(X).astype(int) for t in rf.estimators_])  # trees x rows
    return np.stack([(votes == c).sum(axis=0) for c in range(k)], axis=1)


def write(path, t):
    np.savetxt(path, t, fmt="%d")


def run_split(job):
    name, split = job
    X, y = load(name)
    k = int(y.max()) + 1
    rng = np.random.default_rng(1000 + split)
    order = rng.permutation(len(y))
    a, b = len(y) // 2, (3 * len(y)) // 4
    train, cal, test = order[:a], order[a:b], order[b:]
    rf = RandomForestClassifier(n_estimators=TREES, random_state=split, n_jobs=1).fit(X[train], y[train])
    with tempfile.TemporaryDirectory() as tmp:
        cal_path, test_path = os.path.join(tmp, "cal.txt"), os.path.join(tmp, "test.txt")
        write(cal_path, tallies(rf, X[cal], k))
        write(test_path, tallies(rf, X[test], k))
        out = subprocess.run([LP, str(k), str(TREES), cal_path, test_path] + [str(t) for t in TARGETS],
                             capture_output=True, text=True)
    if out.returncode != 0:
        return name, split, {"error": out.stderr.strip()}
    return name, split, json.loads(out.stdout)


def summary(results):
    rows = []
    for name in sorted(results, key=lambda n: (BINARY + MULTI).index(n)):
        runs = [r for r in results[name] if "error" not in r]
        if not runs:
            rows.append({"data": name, "error": results[name][0]["error"]})
            continue
        row = {"data": name, "classes": runs[0]["classes"], "splits": len(runs),
               "calibration_rows": runs[0]["calibration_rows"], "test_rows": runs[0]["test_rows"]}
        for i, target in enumerate(TARGETS):
            per = [r["targets"][i] for r in runs]
            trees = float(np.mean([p["lp_trees"] for p in per]))
            row[str(target)] = {
                "trees": trees,
                "speedup": TREES / trees,
                "disagreement": float(np.mean([p["lp_disagreement"] for p in per])),
                "worst": float(np.max([p["lp_disagreement"] for p in per])),
                "floor_trees": float(np.mean([p["floor_trees"] for p in per])),
                "solve_ms": float(np.mean([p["solve_ms"] for p in per])),
                "worst_row": float(np.max([p["lp_worst_row"] for p in per])),
            }
            if "minimax_trees" in per[0]:
                row[str(target)]["minimax"] = {
                    "trees": float(np.mean([p["minimax_trees"] for p in per])),
                    "disagreement": float(np.mean([p["minimax_disagreement"] for p in per])),
                    "worst_row": float(np.max([p["minimax_worst_row"] for p in per])),
                    "solve_ms": float(np.mean([p["minimax_solve_ms"] for p in per])),
                }
        rows.append(row)
    return rows


def table(rows):
    head = "| data (classes) | cal | " + " | ".join(
        f"{t * 100:g} %: trees / speed-up / dis. / worst / floor" for t in TARGETS) + " |"
    lines = [head, "|---|---|" + "---|" * len(TARGETS)]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['data']} | refused: {r['error']} |" + " |" * len(TARGETS))
            continue
        cells = []
        for t in TARGETS:
            c = r[str(t)]
            cells.append(f"{c['trees']:.1f} / {c['speedup']:.1f}x / {c['disagreement'] * 100:.3f} % / "
                         f"{c['worst'] * 100:.3f} % / {c['floor_trees']:.1f}")
        lines.append(f"| {r['data']} ({r['classes']}) | {r['calibration_rows']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def minimax_table(rows):
    head = "| data | " + " | ".join(
        f"{t * 100:g} %: minimean trees / worst row | minimax trees / mean dis. / worst row" for t in TARGETS) + " |"
    lines = [head, "|---|" + "---|---|" * len(TARGETS)]
    for r in rows:
        if "error" in r or "minimax" not in r[str(TARGETS[0])]:
            continue
        cells = []
        for t in TARGETS:
            c = r[str(t)]
            m = c["minimax"]
            cells.append(f"{c['trees']:.1f} / {c['worst_row'] * 100:.1f} % | {m['trees']:.1f} / "
                         f"{m['disagreement'] * 100:.4f} % / {m['worst_row'] * 100:.3f} %")
        lines.append(f"| {r['data']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=10)
    ap.add_argument("--data", default=",".join(BINARY + MULTI))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    names = args.data.split(",")
    jobs = [(n, s) for n in names for s in range(args.splits)]
    results = {n: [] for n in names}
    with multiprocessing.Pool(args.jobs) as pool:
        for name, split, r in pool.imap_unordered(run_split, jobs):
            results[name].append(r)
            print(f"{name} split {split} done", file=sys.stderr, flush=True)
    rows = summary(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(table(rows))
    if any("error" not in r and "minimax" in r[str(TARGETS[0])] for r in rows):
        print()
        print(minimax_table(rows))


if __name__ == "__main__":
    main()
