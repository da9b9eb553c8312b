#!/usr/bin/python3
"""Halting rules side by side on real data: mean trees queried, disagreement with the full vote,
test error, and the exact prediction of trees/disagreement from the training data alone.

For each data set: 10 stratified folds (the same folds as bench/parity.py), a forest of T = 101 trees
per fold (native CLI), then `predict --rule R` for every rule and `expected --model --rule R`.
Usage: /usr/bin/python3 bench/halting_rules.py [--datasets wdbc,sonar,ionosphere]
         [--rules alpha1,siba,hyper,1dir,ndir,infinite,optimal] [--alpha 0.99] [--json]
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np
from sklearn.model_selection import StratifiedKFold

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from parity import CLI, DATASETS, read_raw, run_cli  # noqa: E402


def evaluate(name, rules, alpha, trees, folds, seed, tmp):
    header, body, rows = read_raw(os.path.join(DATASETS, name + ".csv"))
    labels = np.array([r[-1] for r in rows])
    skf = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    per_rule = {r: {"trees": [], "disagreement": [], "error": [], "predicted_trees": [],
                    "predicted_disagreement": []} for r in rules}
    full_error = []
    for k, (train, test) in enumerate(skf.split(np.zeros(len(rows)), labels)):
        train_csv, test_csv = (os.path.join(tmp, f"{name}_{k}_{s}.csv") for s in ("train", "test"))
        model = os.path.join(tmp, f"{name}_{k}.urnf")
        with open(train_csv, "w") as f:
            f.write("\n".join([header] + [body[i] for i in train]) + "\n")
        with open(test_csv, "w") as f:
            f.write("\n".join([header] + [body[i] for i in test]) + "\n")
        run_cli("train", "--data", train_csv, "--trees", str(trees), "--seed", str(seed + k),
                "--out", model)
        full = run_cli("predict", "--model", model, "--data", test_csv)
        full_error.append(1 - full["accuracy"])
        for rule in rules:
            out = run_cli("predict", "--model", model, "--data", test_csv, "--rule", rule,
                          "--alpha", str(alpha))
            per_rule[rule]["trees"].append(out["mean_trees"])
            per_rule[rule]["disagreement"].append(out["disagreement"])
            per_rule[rule]["error"].append(1 - out["accuracy"])
            expected = run_cli("expected", "--model", model, "--rule", rule, "--alpha", str(alpha))
            per_rule[rule]["predicted_trees"].append(
                expected.get("expected_trees", expected.get("monte_carlo_trees")))
            per_rule[rule]["predicted_disagreement"].append(
                expected.get("disagreement", expected.get("monte_carlo_disagreement")))
    summary = {r: {m: float(np.mean(v)) for m, v in d.items()} for r, d in per_rule.items()}
    return {"dataset": name, "full_error": float(np.mean(full_error)), "rules": summary}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--datasets", default="wdbc,sonar,ionosphere")
    parser.add_argument("--rules", default="alpha1,siba,hyper,1dir,ndir,infinite,optimal")
    parser.add_argument("--alpha", type=float, default=0.99)
    parser.add_argument("--trees", type=int, default=101)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(CLI):
        sys.exit(f"{CLI} not found: run `npm run build:native` first")
    rules = args.rules.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for name in args.datasets.split(","):
            print(f"[halting_rules] {name} ...", file=sys.stderr)
            results.append(evaluate(name, rules, args.alpha, args.trees, args.folds, args.seed, tmp))
    if args.json:
        print(json.dumps({"alpha": args.alpha, "trees": args.trees, "results": results}, indent=1))
        return
    for r in results:
        print(f"\n**{r['dataset']}** (full forest error {100*r['full_error']:.2f} %, alpha = {args.alpha})\n")
        print("| rule | mean trees | predicted trees | disagreement % | predicted disagreement % | error % |")
        print("|---|---|---|---|---|---|")
        for rule, m in r["rules"].items():
            pt = m["predicted_trees"]
            pd = m["predicted_disagreement"]
            print(f"| {rule} | {m['trees']:.2f} | {pt:.2f} | {100*m['disagreement']:.2f} | "
                  f"{100*pd:.2f} | {100*m['error']:.2f} |")


if __name__ == "__main__":
    main()
