#!/usr/bin/env python3
"""Summarises `agent solve` run folders into problems/easy/base_rates.json.

Usage: python3 problems/easy/base_rates.py --command "..." --settings JSON RUN... > OUT

Each RUN is either an `agent solve` run folder or a `trainer eval` JSON file:
- a run folder is one seed (`agent solve --seed N`); every finished episode (an `outcome`
  line in `trajectories/<problem>.jsonl`) is one sample of its problem;
- a `trainer eval` file holds every problem's counts over its samples (`compiled`,
  `samples_passed`, `passed`), no per-episode records.
The rungs of an episode, each implied by the next:

- compiled: some program of the episode compiled (`signals.compiled`);
- samples_passed: some program passed every sample (`signals.samples`);
- hidden_passed: the submission passed every hidden test (`outcome.solved`).

A problem's group is mixed at a rung when some samples reach it and some do not: the
groups GRPO can learn from. Stdlib only; the split comes from problems/easy/split.yaml.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNGS = ["compiled", "samples_passed", "hidden_passed"]


def split():
    """name -> (set, family) from split.yaml (flow mappings, one per line)."""
    out, current = {}, None
    for line in open(os.path.join(HERE, "split.yaml")):
        if line.startswith("training:"):
            current = "training"
        elif line.startswith("held_out:"):
            current = "held_out"
        m = re.match(r"\s*- \{name: (\w+), family: (\w+)\}", line)
        if m:
            out[m.group(1)] = (current, m.group(2))
    return out


def episodes(run_dir):
    """(problem, episode) for every finished episode of a run folder."""
    manifest = json.load(open(os.path.join(run_dir, "manifest.json")))
    seed = manifest.get("seed")
    folder = os.path.join(run_dir, "trajectories")
    for name in sorted(os.listdir(folder)):
        problem = name[: -len(".jsonl")]
        reached = {r: False for r in RUNGS}
        for line in open(os.path.join(folder, name)):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a cut last line
            if record.get("type") == "step":
                signals = record.get("signals") or {}
                if signals.get("compiled"):
                    reached["compiled"] = True
                samples = signals.get("samples")
                if samples and samples["total"] > 0 and samples["passed"] == samples["total"]:
                    reached["samples_passed"] = True
            elif record.get("type") == "outcome":
                reached["hidden_passed"] = bool(record.get("solved"))
                yield problem, {
                    "seed": seed,
                    "attempt": record.get("attempt"),
                    **reached,
                    "verdict": record.get("verdict"),
                    "hidden": record.get("hidden"),
                    "model_calls": record.get("model_calls"),
                    "completion_tokens": (record.get("usage") or {}).get("completion_tokens"),
                    "wall_s": round(record.get("wall_ms", 0) / 1000, 1),
                }
                reached = {r: False for r in RUNGS}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--command", required=True)
    parser.add_argument("--settings", required=True, help="a JSON object")
    parser.add_argument("--date", required=True)
    parser.add_argument("--machine", required=True)
    parser.add_argument("--want", type=int, default=8, help="samples per problem")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()
    sets = split()
    problems = {}
    counted = {}  # problem -> (samples, {rung: count}) from trainer eval files
    for run in args.runs:
        if os.path.isfile(run):
            report = json.load(open(run))
            for p in report["problems"]:
                n, c = counted.get(p["name"], (0, {r: 0 for r in RUNGS}))
                c = {
                    "compiled": c["compiled"] + p["compiled"],
                    "samples_passed": c["samples_passed"] + p["samples_passed"],
                    "hidden_passed": c["hidden_passed"] + p["passed"],
                }
                counted[p["name"]] = (n + p["samples"], c)
            continue
        for problem, episode in episodes(run):
            problems.setdefault(problem, []).append(episode)
    table = {}
    for problem in sorted(set(problems) | set(counted), key=lambda p: (sets.get(p, ("?", "?")), p)):
        eps = sorted(problems.get(problem, []), key=lambda e: e["seed"])
        counts = {r: sum(e[r] for e in eps) for r in RUNGS}
        n = len(eps)
        if problem in counted:
            extra, c = counted[problem]
            n += extra
            counts = {r: counts[r] + c[r] for r in RUNGS}
        table[problem] = {
            "split": sets.get(problem, ("unknown", ""))[0],
            "family": sets.get(problem, ("", "unknown"))[1],
            "samples": n,
            **counts,
            "mixed_at": [r for r in RUNGS if 0 < counts[r] < n],
            "episodes": eps,
        }
    complete = [p for p, t in table.items() if t["samples"] >= args.want]
    training = [p for p in complete if table[p]["split"] == "training"]
    mixed = [p for p in training if table[p]["mixed_at"]]
    held = [p for p in complete if table[p]["split"] == "held_out"]
    total_training = sum(1 for s, _ in sets.values() if s == "training")
    summary = {
        "problems_with_all_samples": len(complete),
        "training_problems_with_all_samples": len(training),
        "training_problems_in_split": total_training,
        "training_problems_mixed_at_some_rung": len(mixed),
        "share_mixed": round(len(mixed) / len(training), 3) if training else None,
        "training_problems_mixed_at": {
            r: sum(1 for p in training if r in table[p]["mixed_at"]) for r in RUNGS
        },
        "held_out_problems_with_all_samples": len(held),
        "held_out_rung_rates": {
            r: round(sum(table[p][r] for p in held) / max(1, sum(table[p]["samples"] for p in held)), 3)
            for r in RUNGS
        },
        "rung_rates": {
            r: round(sum(table[p][r] for p in complete) / max(1, sum(table[p]["samples"] for p in complete)), 3)
            for r in RUNGS
        },
        "not_measured": sorted(
            p for p, (s, _) in sets.items() if s == "training" and p not in complete
        ),
    }
    json.dump(
        {
            "model": "SmolLM2-135M-Instruct",
            "rungs": RUNGS,
            "settings": json.loads(args.settings),
            "samples_wanted": args.want,
            "date": args.date,
            "machine": args.machine,
            "command": args.command,
            "summary": summary,
            "problems": table,
        },
        sys.stdout,
        indent=1,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
