#!/usr/bin/python3
"""Halting rules at scale: many classes and many trees, native CLI, one process per measurement.

For each data set and each T, a forest is trained (`urnforest train`) on a stratified 2/3 split, then
`urnforest predict --rule R --alpha A --json` runs once per rule (and once without a rule: the full
vote, row "full"). Each predict is its own process, so its wall time includes loading the model and
the test CSV and building the rule's halting table; its peak RSS is the child's own (`/usr/bin/time
-f %M`, or os.wait4's rusage without it). Recorded per rule: mean trees, disagreement with the full
vote of all T trees, accuracy, wall time, peak RSS, and the CLI's own `predict_ms` / `halted_ms`. A
rule that fails (non-zero exit, a JSON error, a signal, a timeout) is recorded with its error code
and message; the script goes on.

Data sets (--datasets, comma-separated):
- soybean: datasets/soybean.csv (19 classes, categorical, missing cells);
- led: LED-7 display digits ([BFOS84]; as the library's generator, docs/experiments.md): 7 binary
  segments, each inverted with probability 0.1, class = the digit (10 classes), 3000 rows, class of
  row i is i mod 10, numpy seed fixed (the CLI writes no generated data as CSV, so it is made here);
- gen12, gen26 (any genN, N >= 2): scikit-learn make_classification, N classes, 3000 rows,
  20 features of which 12 informative, 2 redundant, one cluster per class, random_state fixed;
- any other name: datasets/NAME.csv.
Every file has a header and the label in the last column `class` (the CLI's default target).

Usage: /usr/bin/python3 bench/halting_at_scale.py [--datasets soybean,led,gen12,gen26]
         [--trees 101,501,2001 | --quick] [--rules alpha1,siba,hyper,1dir,ndir,infinite,optimal]
         [--alpha 0.99] [--seed 1] [--timeout 900] [--json] [--markdown]
(--quick = T 101 and 501. Without --json or --markdown: the Markdown table. Progress on stderr.)
Needs: python3-numpy, python3-sklearn, the native CLI (JOBS=2 scripts/build.sh native).
"""
import argparse
import csv
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
from sklearn.datasets import make_classification
from sklearn.model_selection import train_test_split

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import CLI, DATASETS, read_raw  # noqa: E402

RULES = "alpha1,siba,hyper,1dir,ndir,infinite,optimal"
TIME = "/usr/bin/time"
ROWS = 3000
# Segments (top, upper left, upper right, middle, lower left, lower right, bottom) of digits 0..9.
LED_DIGITS = ["1110111", "0010010", "1011101", "1011011", "0111010",
              "1101011", "1101111", "1010010", "1111111", "1111011"]


def led_rows(n, seed, noise=0.1):
    rng = np.random.default_rng(seed)
    header = ",".join(f"s{k + 1}" for k in range(7)) + ",class"
    body = []
    for i in range(n):
        digit = i % 10
        bits = np.array([int(c) for c in LED_DIGITS[digit]])
        bits ^= (rng.random(7) < noise).astype(int)
        body.append(",".join(str(b) for b in bits) + f",{digit}")
    return header, body


def generated_rows(classes, n, seed):
    x, y = make_classification(n_samples=n, n_features=20, n_informative=12, n_redundant=2,
                               n_classes=classes, n_clusters_per_class=1, random_state=seed)
    header = ",".join(f"x{k + 1}" for k in range(x.shape[1])) + ",class"
    body = [",".join(f"{v:.6g}" for v in row) + f",c{label:02d}" for row, label in zip(x, y)]
    return header, body


def load(name, seed):
    """(header, body lines, labels) of data set `name`."""
    if name == "led":
        header, body = led_rows(ROWS, seed)
    elif name.startswith("gen") and name[3:].isdigit():
        header, body = generated_rows(int(name[3:]), ROWS, seed)
    else:
        header, body, _ = read_raw(os.path.join(DATASETS, name + ".csv"))
    rows = csv.reader(io.StringIO("\n".join(body)))
    return header, body, [r[-1] for r in rows]


def measured(args, timeout):
    """Runs the CLI under /usr/bin/time; returns (exit code or None on timeout, stdout, stderr,
    wall seconds, peak RSS in KiB or None)."""
    start = time.perf_counter()
    with tempfile.NamedTemporaryFile(suffix=".rss") as rss:
        # Own process group: on a timeout both time(1) and the CLI under it are killed.
        proc = subprocess.Popen([TIME, "-f", "%M", "-o", rss.name, CLI, *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return None, "", "", time.perf_counter() - start, None
        wall = time.perf_counter() - start
        text = open(rss.name).read().split()
    # A killed child makes time(1) write "Command terminated by signal N" before the number.
    peak = int(text[-1]) if text and text[-1].isdigit() else None
    code = proc.returncode
    if "signal" in text:
        code = -int(text[text.index("signal") + 1])
    return code, stdout, stderr, wall, peak


def measured_wait4(args, timeout):
    """As measured() without /usr/bin/time: Popen + os.wait4 (the child's ru_maxrss). Linux keeps
    the high-water mark across exec, so this peak includes this Python process's RSS at the fork
    (about 110 MB with scikit-learn loaded): an upper bound, unlike /usr/bin/time's."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([CLI, *args], stdout=out, stderr=err, text=True)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                return None, "", "", time.perf_counter() - start, None
            time.sleep(0.005)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read(), err.read(), wall, usage.ru_maxrss


def run(args, timeout):
    """One CLI call with --json: a dict with 'doc' (its JSON) or 'error' {code, message}, and the
    wall seconds and peak MB of the child."""
    runner = measured if os.path.exists(TIME) else measured_wait4
    code, stdout, stderr, wall, peak_kib = runner([*args, "--json"], timeout)
    record = {"wall_s": wall, "peak_mb": None if peak_kib is None else peak_kib / 1024}
    if code is None:
        record["error"] = {"code": "Timeout", "message": f"killed after {timeout} s"}
        return record
    doc = None
    try:
        doc = json.loads(stdout.strip().splitlines()[-1]) if stdout.strip() else None
    except json.JSONDecodeError:
        pass
    if code == 0 and isinstance(doc, dict) and "error" not in doc:
        record["doc"] = doc
    elif isinstance(doc, dict) and "error" in doc:
        record["error"] = {"code": doc["error"].get("code"), "message": doc["error"].get("message")}
    elif code is not None and code < 0:
        record["error"] = {"code": f"Signal{-code}", "message": stderr.strip()[-300:]}
    else:
        record["error"] = {"code": f"Exit{code}", "message": stderr.strip()[-300:]}
    return record


def evaluate(name, trees_list, rules, alpha, seed, timeout, tmp):
    header, body, labels = load(name, seed)
    train, test = train_test_split(np.arange(len(body)), test_size=1 / 3, stratify=labels,
                                   random_state=seed)
    train_csv, test_csv = (os.path.join(tmp, f"{name}_{s}.csv") for s in ("train", "test"))
    with open(train_csv, "w") as f:
        f.write("\n".join([header] + [body[i] for i in sorted(train)]) + "\n")
    with open(test_csv, "w") as f:
        f.write("\n".join([header] + [body[i] for i in sorted(test)]) + "\n")
    classes = len(set(labels))
    results = []
    for trees in trees_list:
        model = os.path.join(tmp, f"{name}_{trees}.urnf")
        print(f"[halting_at_scale] {name} ({classes} classes) T = {trees}: train ...",
              file=sys.stderr, flush=True)
        trained = run(["train", "--data", train_csv, "--trees", str(trees), "--seed", str(seed),
                       "--out", model], timeout)
        entry = {"dataset": name, "classes": classes, "train_rows": len(train),
                 "test_rows": len(test), "trees": trees, "train_wall_s": trained["wall_s"],
                 "train_peak_mb": trained["peak_mb"], "rules": []}
        results.append(entry)
        if "error" in trained:
            entry["train_error"] = trained["error"]
            continue
        entry["model_bytes"] = trained["doc"]["model_bytes"]
        for rule in ["full", *rules]:
            extra = [] if rule == "full" else ["--rule", rule, "--alpha", str(alpha)]
            out = run(["predict", "--model", model, "--data", test_csv, *extra], timeout)
            row = {"rule": rule, "wall_s": out["wall_s"], "peak_mb": out["peak_mb"]}
            if "error" in out:
                row["error"] = out["error"]
            else:
                doc = out["doc"]
                row.update({
                    "mean_trees": doc.get("mean_trees", float(trees)),
                    "disagreement": doc.get("disagreement", 0.0),
                    "accuracy": doc.get("accuracy"),
                    "predict_ms": doc.get("predict_ms"),
                    "halted_ms": doc.get("halted_ms"),
                    "table_source": doc.get("table_source"),
                })
            status = row["error"]["code"] if "error" in row else f"{row['mean_trees']:.1f} trees"
            print(f"[halting_at_scale]   {rule}: {status}, {row['wall_s']:.2f} s", file=sys.stderr,
                  flush=True)
            entry["rules"].append(row)
    return results


def fmt(value, pattern, scale=1.0):
    return "" if value is None else pattern.format(value * scale)


def markdown(report):
    lines = [f"alpha = {report['alpha']}, seed = {report['seed']}, stratified 2/3 train, 1/3 test; "
             "times and peak RSS are of one `urnforest predict` process (model and CSV loading, "
             "table building, prediction).", "",
             "| data set | classes | T | rule | mean trees | disagreement % | accuracy | "
             "predict time s | peak MB | error |", "|---|---|---|---|---|---|---|---|---|---|"]
    for e in report["results"]:
        if "train_error" in e:
            err = e["train_error"]
            lines.append(f"| {e['dataset']} | {e['classes']} | {e['trees']} | (train) | | | | "
                         f"{e['train_wall_s']:.2f} | {fmt(e['train_peak_mb'], '{:.1f}')} | "
                         f"{err['code']}: {err['message']} |")
            continue
        for r in e["rules"]:
            err = r.get("error")
            message = "" if err is None else f"{err['code']}: {(err['message'] or '')[:120]}"
            lines.append(
                f"| {e['dataset']} | {e['classes']} | {e['trees']} | {r['rule']} | "
                f"{fmt(r.get('mean_trees'), '{:.2f}')} | "
                f"{fmt(r.get('disagreement'), '{:.2f}', 100)} | {fmt(r.get('accuracy'), '{:.4f}')} | "
                f"{r['wall_s']:.3f} | {fmt(r['peak_mb'], '{:.1f}')} | {message.replace('|', '/')} |")
    lines.append("")
    lines.append("Training (one `urnforest train` process): " + "; ".join(
        f"{e['dataset']} T = {e['trees']}: {e['train_wall_s']:.1f} s, "
        f"{fmt(e['train_peak_mb'], '{:.0f}')} MB" for e in report["results"]) + ".")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="soybean,led,gen12,gen26")
    parser.add_argument("--trees", default="101,501,2001", help="comma-separated T values")
    parser.add_argument("--quick", action="store_true", help="T = 101 and 501 only")
    parser.add_argument("--rules", default=RULES)
    parser.add_argument("--alpha", type=float, default=0.99)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=900, help="seconds per CLI call")
    parser.add_argument("--json", action="store_true", help="print the JSON report")
    parser.add_argument("--markdown", action="store_true", help="print the Markdown table")
    args = parser.parse_args()
    if not os.path.exists(CLI):
        sys.exit(f"{CLI} not found: run `JOBS=2 scripts/build.sh native` first")
    trees = [101, 501] if args.quick else [int(t) for t in args.trees.split(",")]
    rules = [r for r in args.rules.split(",") if r]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for name in args.datasets.split(","):
            results += evaluate(name, trees, rules, args.alpha, args.seed, args.timeout, tmp)
    report = {"alpha": args.alpha, "seed": args.seed, "trees": trees, "rules": rules,
              "peak_rss_from": "/usr/bin/time" if os.path.exists(TIME) else
              "os.wait4 (includes the parent's RSS at fork)",
              "load_average": list(os.getloadavg()),
              "total_wall_s": time.perf_counter() - started, "results": results}
    if args.json:
        print(json.dumps(report, indent=1))
    if args.markdown or not args.json:
        print(markdown(report))


if __name__ == "__main__":
    main()
