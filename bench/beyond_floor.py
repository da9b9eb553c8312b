#!/usr/bin/python3
"""Fewer trees than the floor: the stratified stopping strategy (urnforest/stratified_stopping.h)
against [KM26]'s oracle floor on two-class forests of 101 trees.

The floor is the minimean LP fed the test rows' own final tallies: no rule that only counts votes in
random order can use fewer expected trees at the same disagreement. The stratified strategy also
reads the row's features: a ridge surrogate s(x) of the forest's final class-1 vote share, fitted
on the calibration rows (unlabeled: the target is the forest's own vote share), cuts rows into B
buckets by quantiles of s; each bucket gets its own stopping strategy, all sharing one Lagrange
multiplier so that the overall expected disagreement meets the target.

Per data set and split: 50 % of the rows train, 25 % calibrate (features and the 101 trees' votes;
no labels), 25 % test. Two forests per split: scikit-learn RandomForestClassifier(n_estimators=101,
random_state=split) (the hard votes of its trees, which are the votes of the same forest imported
through ONNX), and urnforest's own random forest trained here (101 trees, seed = split). Every
figure is exact given the rows' final counts: per test row, the disagreement with the full vote and
the expected trees under a random query order, given its bucket (build/bench_stratified_lp).

pool = the share of the pooled calibration distribution mixed into each bucket's (StratifiedOptions::pooled_share).
Columns (means over splits; target = expected disagreement on the calibration distribution):
trees = mean trees of 101 on the test rows; +s = the surrogate's cost in tree-equivalents (its ns per
row over one tree's walk per row, both measured in the same process on the forest trained here);
dis. = realised disagreement (%), worst = its worst split; floor = oracle floor's trees at the
same target; ratio = (trees + s) / floor, and over the floor at the loosest target (0.1 %: the
must-show compares with the floor at 0.1 % a strategy whose realised disagreement is <= 0.1 %, which
may need a tighter target); lp = rule lp (the LP on the calibration rows' tallies).

Usage: /usr/bin/python3 bench/beyond_floor.py [--splits 10] [--data twonorm,threenorm,ringnorm]
       [--targets 0.001,0.0005] [--buckets 1,4,8,16] [--pool 0,0.1] [--jobs 2] [--json out.json]
       /usr/bin/python3 bench/beyond_floor.py --render out.json
Needs build/bench_stratified_lp (scripts/build.sh native). Not part of npm test.
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
from lp_reproduction import ringnorm, threenorm  # noqa: E402
from twonorm import twonorm  # noqa: E402

ROOT = os.path.dirname(HERE)
TOOL = os.path.join(ROOT, "build", "bench_stratified_lp")
TREES = 101
SETS = ["twonorm", "threenorm", "ringnorm"]


def load(name):
    if name == "twonorm":
        return twonorm(7400, 20261)
    if name == "threenorm":
        return threenorm(8000, 20262)
    return ringnorm(8000, 20263)


def write(path, lead, X):
    np.savetxt(path, np.column_stack([lead, X]), fmt="%.9g")


def run_split(job):
    name, split, targets, buckets, pools = job
    X, y = load(name)
    rng = np.random.default_rng(1000 + split)
    order = rng.permutation(len(y))
    a, b = len(y) // 2, (3 * len(y)) // 4
    train, cal, test = order[:a], order[a:b], order[b:]
    rf = RandomForestClassifier(n_estimators=TREES, random_state=split, n_jobs=1).fit(X[train], y[train])

    def ones(rows):
        return np.stack([t.predict(X[rows]).astype(int) for t in rf.estimators_]).sum(axis=0)

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {k: os.path.join(tmp, k + ".txt") for k in ("cal", "test", "train")}
        write(paths["cal"], ones(cal), X[cal])
        write(paths["test"], ones(test), X[test])
        write(paths["train"], y[train], X[train])
        base = [TOOL, str(TREES), paths["cal"], paths["test"], "--targets", ",".join(map(str, targets)),
                "--buckets", ",".join(map(str, buckets)), "--pool", ",".join(map(str, pools))]
        for forest, extra in (("sklearn", []), ("here", ["--train", paths["train"], str(split + 1)])):
            run = subprocess.run(base + extra, capture_output=True, text=True)
            out[forest] = {"error": run.stderr.strip()} if run.returncode else json.loads(run.stdout)
    return name, split, out


def summary(results):
    rows = []
    for name in results:
        for forest in ("sklearn", "here"):
            runs = [r[forest] for r in results[name] if "error" not in r[forest]]
            if not runs:
                continue
            # One tree's walk per row, measured on the forest trained here (the same rows and machine).
            ns_per_tree = float(np.mean([r["here"]["tree_ns"] for r in results[name] if "error" not in r["here"]]))
            configs = {}
            for r in runs:
                for c in r["results"]:
                    configs.setdefault((c["target"], c.get("pool", 0.0), c["buckets_asked"], c["squares"]), []).append(c)
            for (target, pool, b, sq), cs in sorted(configs.items()):
                trees = float(np.mean([c["trees"] for c in cs]))
                floor = float(np.mean([c["floor_trees"] for c in cs]))
                surrogate_trees = float(np.mean([c["surrogate_ns"] for c in cs])) / ns_per_tree
                rows.append({
                    "data": name, "forest": forest, "target": target, "pool": pool, "buckets": b, "squares": sq,
                    "buckets_used": float(np.mean([c["buckets"] for c in cs])), "splits": len(cs),
                    "calibration_rows": runs[0]["calibration_rows"], "test_rows": runs[0]["test_rows"],
                    "trees": trees, "surrogate_trees": surrogate_trees,
                    "disagreement": float(np.mean([c["disagreement"] for c in cs])),
                    "worst": float(np.max([c["disagreement"] for c in cs])),
                    "floor_trees": floor, "ratio": (trees + surrogate_trees) / floor,
                    "lp_trees": float(np.mean([c["lp_trees"] for c in cs])),
                    "lp_disagreement": float(np.mean([c["lp_disagreement"] for c in cs])),
                    "solve_ms": float(np.mean([c["solve_ms"] for c in cs])),
                })
    return rows


def table(rows, reference):
    lines = ["| data | forest | target | pool | B (used) | squares | trees + s | dis. / worst | floor | "
             f"(trees + s) / floor | / floor at {reference * 100:g} % | lp trees / dis. |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    floors = {(r["data"], r["forest"]): r["floor_trees"] for r in rows if r["target"] == reference}
    for r in rows:
        at_reference = floors.get((r["data"], r["forest"]))
        r["ratio_to_reference_floor"] = (r["trees"] + r["surrogate_trees"]) / at_reference if at_reference else None
        lines.append(
            f"| {r['data']} | {r['forest']} | {r['target'] * 100:g} % | {r.get('pool', 0):g} | {r['buckets']} ({r['buckets_used']:.1f}) | "
            f"{'yes' if r['squares'] else 'no'} | {r['trees']:.2f} + {r['surrogate_trees']:.2f} | "
            f"{r['disagreement'] * 100:.3f} % / {r['worst'] * 100:.3f} % | {r['floor_trees']:.2f} | "
            f"{r['ratio']:.2f} | {r['ratio_to_reference_floor'] or float('nan'):.2f} | {r['lp_trees']:.2f} / {r['lp_disagreement'] * 100:.3f} % |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=10)
    ap.add_argument("--data", default=",".join(SETS))
    ap.add_argument("--targets", default="0.001")
    ap.add_argument("--buckets", default="1,4,8,16")
    ap.add_argument("--pool", default="0", help="pooled shares (StratifiedOptions::pooled_share)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--render", help="print the table of an earlier --json file and exit")
    args = ap.parse_args()
    if args.render:
        with open(args.render) as f:
            rows = json.load(f)
        print(table(rows, max(r["target"] for r in rows)))
        return
    names = args.data.split(",")
    targets = [float(t) for t in args.targets.split(",")]
    buckets = [int(b) for b in args.buckets.split(",")]
    pools = [float(p) for p in args.pool.split(",")]
    jobs = [(n, s, targets, buckets, pools) for n in names for s in range(args.splits)]
    results = {n: [] for n in names}
    with multiprocessing.Pool(args.jobs) as pool:
        for name, split, r in pool.imap_unordered(run_split, jobs):
            results[name].append(r)
            print(f"{name} split {split} done", file=sys.stderr, flush=True)
    rows = summary(results)
    text = table(rows, max(targets))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(text)


if __name__ == "__main__":
    main()
