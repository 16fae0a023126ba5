#!/usr/bin/env python3
"""The debug-round row evaluated with its own pipeline, against the same row's one-program
evaluation on the same episodes (stdlib only).

Usage: python3 debug_pipeline.py DIR

Reads DIR/agentic-debug/eval-held-out-debug-pipeline.episodes.jsonl (`trainer eval` with
`ci/agentic-debug.yaml`, 4 samples a problem) and DIR/agentic-debug/eval-held-out.episodes.jsonl
(the one-program pipeline, 8 samples), keeps samples 0 to 3 of both (the same sampling
seeds), and prints pass@1, the fraction of hidden tests passed and the programs past the
samples for each, with the paired difference and its 95% percentile bootstrap interval
over problems (10,000 resamples, seed 29), overall, in-family and out-of-family (the
families of problems/easy/split.yaml that training has).
"""

import json
import os
import random
import re
import sys

def training_families(root):
    """The families of the easy set's training list (its `- {name: X, family: Y, ...}` entries
    under `training:`): a held-out problem is in-family when its family is one of them."""
    pattern = re.compile(r"name: *([\w-]+), *family: *([\w-]+)")
    section, fam, trained = None, {}, set()
    for line in open(os.path.join(root, "problems/easy/split.yaml")):
        if re.match(r"^\w+:", line):
            section = line.split(":", 1)[0]
        m = pattern.search(line)
        if m:
            fam[m.group(1)] = m.group(2)
            if section == "training":
                trained.add(m.group(2))
    return fam, trained


def per_problem(path, samples):
    by = {}
    for line in open(path):
        e = json.loads(line)
        if e["sample"] >= samples or e["judge_error"]:
            continue
        h = e.get("hidden") or {"passed": 0, "total": 1}
        row = by.setdefault(e["problem"], [0, 0.0, 0, 0])
        row[0] += e["solved"]
        row[1] += h["passed"] / max(1, h["total"])
        row[2] += bool(e["samples_passed"])
        row[3] += 1
    return {p: (s / n, t / n, k / n) for p, (s, t, k, n) in by.items()}


def interval(values, rng, rounds=10000):
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def main():
    base = sys.argv[1]
    root = os.path.join(base, "../../..")
    debug = per_problem(os.path.join(base, "agentic-debug/eval-held-out-debug-pipeline.episodes.jsonl"), 4)
    one = per_problem(os.path.join(base, "agentic-debug/eval-held-out.episodes.jsonl"), 4)
    fam, trained = training_families(root)
    problems = sorted(set(debug) & set(one))
    missing = sorted(set(one) ^ set(debug))
    if missing:
        print(f"problems in one evaluation only (left out): {missing}")
    rng = random.Random(29)
    print("| group | measure | one program | debug round | difference [95%] |")
    print("|---|---|---|---|---|")
    groups = [("overall", problems),
              ("in-family", [p for p in problems if fam[p] in trained]),
              ("out-of-family", [p for p in problems if fam[p] not in trained])]
    for label, ps in groups:
        for i, measure in enumerate(["pass@1", "hidden tests passed", "past the samples"]):
            a = [one[p][i] for p in ps]
            b = [debug[p][i] for p in ps]
            d = [y - x for x, y in zip(a, b)]
            lo, hi = interval(d, rng)
            print(f"| {label} ({len(ps)}) | {measure} | {sum(a) / len(ps):.3f} | {sum(b) / len(ps):.3f} "
                  f"| {sum(d) / len(ps):+.3f} [{lo:+.3f}, {hi:+.3f}] |")


if __name__ == "__main__":
    main()
