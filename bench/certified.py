#!/usr/bin/python3
"""Certified halting against the full vote: realised disagreement, its worst split, the share of
splits within sampling error of 1 - alpha, and mean trees, per rule, data set, calibration size and
alpha; with the oracle-LP floor for two-class data.

Data: wdbc, ionosphere, sonar (two classes), vehicle, wine (several) from datasets/, and two
generated two-class sets of 7,400 rows each (1,850 calibration rows per split): twonorm
(bench/twonorm.py) and threenorm (Breiman 1996: class 0 an even mixture of N(a, I) and N(-a, I),
class 1 N(b, I), a = (2/sqrt(20))(1, ..., 1), b = (2/sqrt(20))(1, -1, 1, -1, ...); Bayes error
about 10 %, so many contested votes). Per split (20 by default): 50 % of the rows train, 25 % calibrate
(unlabeled), 25 % test. Two forests per split, 101 trees each:
  * sklearn: scikit-learn RandomForestClassifier(n_estimators=101), exported as skl2onnx encodes
    it (scripts/onnx_fixtures.py's encoder), imported with `urnforest import`, calibrated with
    `urnforest calibrate` on the first 100, the first 500 and all calibration rows (a size the data
    set does not have is left out); the reference is the model's own (soft) prediction;
  * here: `urnforest train --trees 101` on the same training rows; its prior comes from its
    out-of-bag votes (calibration size "oob"); the reference is its full vote.
Rules: hyper, auto (with --delta 0.05) and lp;
each halts the test rows in random query order (`predict --rule R --alpha A --order random --seed
S --compare`), whose `disagreement` is the core's comparison with the reference.
Floor (two classes): the minimean LP of [KM26] solved on the test rows' own final tallies
(build/bench_binary_lp), which no rule that counts votes in random order can beat; lp-bench is the
same LP fitted on the calibration rows' tallies and measured exactly on the test rows.

Columns: disagreement (mean over splits, %), worst split (%), within = share of splits whose
disagreement is at most (1 - alpha) + 1.96 sqrt(alpha (1 - alpha) / test rows), trees (mean of 101),
floor (mean trees of the oracle LP at target 1 - alpha, for the same data set, forest kind and
alpha), trees / floor.

Usage: /usr/bin/python3 bench/certified.py [--splits 20] [--quick] [--jobs 2] [--data a,b] [--rules hyper,...]
  --quick: 3 splits, wdbc, vehicle and twonorm only unless --data names others (a smoke run).
  --forests sklearn,here: which forests to run (both by default).
Needs build/urnforest and build/bench_binary_lp (scripts/build.sh native). Not part of npm test.
"""
import argparse
import csv
import json
import math
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from onnx import TensorProto
from onnx import helper as oh
from sklearn.ensemble import RandomForestClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import onnx_fixtures as fx  # noqa: E402  (the skl2onnx-style encoder)
from twonorm import twonorm  # noqa: E402

CLI = os.path.join(ROOT, "build", "urnforest")
LP = os.path.join(ROOT, "build", "bench_binary_lp")
TREES = 101
DATASETS = ["wdbc", "ionosphere", "sonar", "vehicle", "wine", "twonorm", "threenorm"]
GENERATED_ROWS = 7400
ALPHAS = [0.99, 0.999]
SIZES = [100, 500, "all"]
CERTIFIED_RULES = ["auto", "lp"]


def threenorm(rows, seed, d=20):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows)
    a = np.full(d, 2.0 / np.sqrt(d))
    b = a * np.where(np.arange(d) % 2 == 0, 1.0, -1.0)
    sign = np.where(rng.integers(0, 2, rows) == 1, 1.0, -1.0)[:, None]
    centre = np.where(y[:, None] == 0, sign * a, b)
    return rng.standard_normal((rows, d)) + centre, y


def read(name):
    if name in ("twonorm", "threenorm"):
        x, y = (twonorm if name == "twonorm" else threenorm)(GENERATED_ROWS, 20260)
        return [f"x{i}" for i in range(x.shape[1])], x.astype(np.float32), y, ["c0", "c1"]
    with open(os.path.join(ROOT, "datasets", name + ".csv"), newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    X = np.array([[float(v) if v not in ("", "?", "NA") else -1.0 for v in r[:-1]] for r in body], dtype=np.float32)
    labels = sorted(set(r[-1] for r in body))
    return header[:-1], X, np.array([labels.index(r[-1]) for r in body]), labels


def write_rows(path, names, X, y=None, labels=None):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names + (["class"] if y is not None else []))
        for i, r in enumerate(X):
            w.writerow([repr(float(v)) for v in r] + ([labels[y[i]]] if y is not None else []))


def write_onnx(path, rf, n_features, n_classes):
    attrs = fx.skl2onnx_attributes(rf, list(range(n_classes)), tensor_double=False)
    node = oh.make_node("TreeEnsembleClassifier", ["X"], ["label", "probabilities"], domain="ai.onnx.ml",
                        name="TreeEnsembleClassifier", **attrs)
    graph = oh.make_graph([node], "model", [oh.make_tensor_value_info("X", TensorProto.FLOAT, [None, n_features])],
                          [oh.make_tensor_value_info("label", TensorProto.INT64, [None]),
                           oh.make_tensor_value_info("probabilities", TensorProto.FLOAT, [None, n_classes])])
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 15), oh.make_opsetid("ai.onnx.ml", 1)],
                          producer_name="bench/certified.py", ir_version=8)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def cli(*args):
    out = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + out.stdout + out.stderr)
    return json.loads(out.stdout)


def available_rules(wanted):
    # auto and lp are request rules of predict, not table rules: `rules --json` lists only the latter.
    listed = {r["name"] for r in cli("rules")["rules"]}
    return [r for r in wanted if r in listed or r in CERTIFIED_RULES]


def class1_counts(votes, n_classes):
    return [votes[i * n_classes + 1] for i in range(len(votes) // n_classes)]


def floor_and_lp(tmp, cal_counts, test_counts, alpha):
    """bench_binary_lp at target 1 - alpha: (floor trees, lp-bench trees, lp-bench disagreement)."""
    cal, test = os.path.join(tmp, "cal.counts"), os.path.join(tmp, "test.counts")
    for path, counts in ((cal, cal_counts), (test, test_counts)):
        with open(path, "w") as f:
            f.write("\n".join(str(c) for c in counts) + "\n")
    out = subprocess.run([LP, str(TREES), cal, test, repr(1 - alpha)], capture_output=True, text=True, check=True)
    t = json.loads(out.stdout)["targets"][0]
    return t["floor_trees"], t["trees"], t["disagreement"]


def rules_for(rules, k):
    """The rules that apply to k classes: lp is for two."""
    return [r for r in rules if r != "lp" or k == 2]


def halt(model, test_csv, rule, alpha, seed):
    args = ["predict", "--model", model, "--data", test_csv, "--rule", rule, "--alpha", repr(alpha),
            "--order", "random", "--seed", str(seed), "--compare"]
    if rule == "auto":
        args += ["--delta", "0.05"]
    p = cli(*args)
    cert = p.get("certificate")
    return {"disagreement": p["disagreement"], "trees": p["mean_trees"],
            "certified": None if cert is None else bool(cert.get("certified"))}


def run_split(job):
    """One data set and split in its own temporary directory: (name, test rows, {key: [run]})."""
    name, split, rules, forests = job
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        rows = split_runs(name, split, rules, forests, tmp, out)
    return name, rows, out


def split_runs(name, split, rules, forests, tmp, out):
    names, X, y, labels = read(name)
    k = len(labels)
    n = len(y)
    order = np.random.default_rng(1000 + split).permutation(n)
    train, calib, test = order[: n // 2], order[n // 2: 3 * n // 4], order[3 * n // 4:]
    test_csv = os.path.join(tmp, "test.csv")
    write_rows(test_csv, names, X[test])

    if "sklearn" in forests:
        sklearn_runs(name, split, rules, tmp, out, names, X, y, k, train, calib, test_csv)
    if "here" in forests:
        here_runs(name, split, rules, tmp, out, names, X, y, labels, k, train, calib, test_csv)
    return len(test)


def sklearn_runs(name, split, rules, tmp, out, names, X, y, k, train, calib, test_csv):
    """A scikit-learn forest, imported and calibrated on each size."""
    feats = ",".join(names)
    rf = RandomForestClassifier(n_estimators=TREES, random_state=split).fit(X[train], y[train])
    write_onnx(os.path.join(tmp, "rf.onnx"), rf, X.shape[1], k)
    model = os.path.join(tmp, "rf.urnf")
    cli("import", "--onnx", os.path.join(tmp, "rf.onnx"), "--out", model, "--features", feats)
    test_counts = class1_counts(cli("predict", "--model", model, "--data", test_csv, "--vote", "hard")["votes"], k) \
        if k == 2 else None
    for size in SIZES:
        rows = calib if size == "all" else calib[:size]
        if size != "all" and len(calib) < size:
            continue
        cal_csv = os.path.join(tmp, "cal.csv")
        write_rows(cal_csv, names, X[rows])
        cal_model = os.path.join(tmp, "rf_cal.urnf")
        report = cli("calibrate", "--model", model, "--data", cal_csv, "--out", cal_model)
        cal_counts = class1_counts(cli("predict", "--model", model, "--data", cal_csv, "--vote", "hard")["votes"], k) \
            if k == 2 else None
        for alpha in ALPHAS:
            key = (name, "sklearn", str(size), len(rows), alpha)
            for rule in rules_for(rules, k):
                out.setdefault(key + (rule,), []).append(halt(cal_model, test_csv, rule, alpha, split))
            if k == 2:
                floor, lp_trees, lp_dis = floor_and_lp(tmp, cal_counts, test_counts, alpha)
                out.setdefault(key + ("floor",), []).append({"trees": floor})
                out.setdefault(key + ("lp-bench",), []).append({"trees": lp_trees, "disagreement": lp_dis})
        del report


def here_runs(name, split, rules, tmp, out, names, X, y, labels, k, train, calib, test_csv):
    """A forest trained here on the same rows: its prior is its out-of-bag votes."""
    train_csv = os.path.join(tmp, "train.csv")
    write_rows(train_csv, names, X[train], y[train], labels)
    here = os.path.join(tmp, "here.urnf")
    cli("train", "--data", train_csv, "--target", "class", "--trees", str(TREES), "--seed", str(split + 1),
        "--out", here)
    here_counts = class1_counts(cli("predict", "--model", here, "--data", test_csv, "--vote", "hard")["votes"], k) \
        if k == 2 else None
    for alpha in ALPHAS:
        key = (name, "here", "oob", len(train), alpha)
        for rule in rules_for(rules, k):
            out.setdefault(key + (rule,), []).append(halt(here, test_csv, rule, alpha, split))
        if k == 2:
            floor, _, _ = floor_and_lp(tmp, here_counts, here_counts, alpha)
            out.setdefault(key + ("floor",), []).append({"trees": floor})
    # The same forest calibrated on held-out rows (where calibrate accepts a forest trained here):
    # what rule auto certifies from.
    for size in SIZES:
        rows = calib if size == "all" else calib[:size]
        if size != "all" and len(calib) < size:
            continue
        cal_csv = os.path.join(tmp, "cal.csv")
        write_rows(cal_csv, names, X[rows])
        here_cal = os.path.join(tmp, "here_cal.urnf")
        done = subprocess.run([CLI, "calibrate", "--model", here, "--data", cal_csv, "--out", here_cal, "--json"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            break
        for alpha in ALPHAS:
            key = (name, "here", str(size), len(rows), alpha)
            for rule in [r for r in rules_for(rules, k) if r in CERTIFIED_RULES]:
                out.setdefault(key + (rule,), []).append(halt(here_cal, test_csv, rule, alpha, split))


def table(out, test_rows):
    floors = {}  # (data, forest, alpha) -> mean floor trees (the floor depends on the test rows only)
    for key, runs in out.items():
        if key[5] == "floor":
            floors[(key[0], key[1], key[4])] = np.mean([r["trees"] for r in runs])
    lines = ["| data | forest | calibration rows | alpha | rule | disagreement | worst split | within | trees | floor "
             "| trees / floor | certified |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, runs in out.items():
        name, forest, size, rows, alpha, rule = key
        if rule == "floor":
            continue
        rows_text = f"{rows}" if size in ("all", "oob") else size
        rows_text += " (oob)" if size == "oob" else ""
        trees = np.mean([r["trees"] for r in runs])
        floor = floors.get((name, forest, alpha))
        floor_text = "" if floor is None else f"{floor:.1f}"
        ratio_text = "" if floor is None or floor == 0 else f"{trees / floor:.2f}"
        d = np.array([r["disagreement"] for r in runs])
        eps = 1 - alpha
        slack = eps + 1.96 * math.sqrt(alpha * eps / test_rows[name])
        within = np.mean(d <= slack + 1e-12)
        cert = [r.get("certified") for r in runs if r.get("certified") is not None]
        cert_text = f"{sum(cert)}/{len(cert)}" if cert else ""
        lines.append(f"| {name} | {forest} | {rows_text} | {alpha} | {rule} | {100 * d.mean():.2f} % | "
                     f"{100 * d.max():.2f} % | {100 * within:.0f} % | {trees:.1f} | {floor_text} | {ratio_text} | "
                     f"{cert_text} |")
    return "\n".join(lines)


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=20)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--jobs", type=int, default=2, help="splits run at once (processes)")
    ap.add_argument("--data", default=None)
    ap.add_argument("--rules", default="hyper," + ",".join(CERTIFIED_RULES))
    ap.add_argument("--forests", default="sklearn,here")
    ap.add_argument("--cli", default=CLI, help="the urnforest binary to run")
    args = ap.parse_args()
    forests = args.forests.split(",")
    CLI = args.cli
    splits = 3 if args.quick and args.splits == 20 else args.splits
    data = args.data.split(",") if args.data else (["wdbc", "vehicle", "twonorm"] if args.quick else DATASETS)
    rules = available_rules(args.rules.split(","))
    start = time.time()
    out, test_rows = {}, {}
    jobs = [(name, split, rules, forests) for name in data for split in range(splits)]
    with multiprocessing.Pool(args.jobs) as pool:
        for name, rows, runs in pool.imap(run_split, jobs):  # in job order: the table is deterministic
            test_rows[name] = rows
            for key, value in runs.items():
                out.setdefault(key, []).extend(value)
            print(f"[certified] {name}: {time.time() - start:.0f} s", file=sys.stderr)
    print(f"rules: {', '.join(rules)}; forests: {', '.join(forests)}; {splits} splits; {args.jobs} jobs; "
          f"{time.time() - start:.0f} s; load average {os.getloadavg()[0]:.1f}\n")
    print(table(out, test_rows))


if __name__ == "__main__":
    main()
