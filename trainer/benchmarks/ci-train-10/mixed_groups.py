"""Groups mixed at each rung of the agent's ladder in attempt 10's evaluations.

A problem's 8 samples stand for a GRPO group; a group is mixed at a rung when some but
not all of its episodes reach it. Usage: python3 mixed_groups.py (from this folder).
"""

import collections
import json


def rungs(path):
    """Mixed groups at compiled, samples and accepted, from the per-problem counts."""
    problems = json.load(open(path))["problems"]
    out = {}
    for rung in ("compiled", "samples_passed", "passed"):
        out[rung] = sum(1 for p in problems if 0 < p[rung] < p["samples"])
    # Per-problem means only: a mean strictly between 0 and 1 allows a mixed group
    # (an upper bound when the episodes are not kept).
    out["tests_passed (at most)"] = sum(1 for p in problems if 0 < p["tests_passed"] < 1)
    return out, len(problems)


def hidden_mixed(path):
    """Groups whose episodes' fractions of hidden tests passed differ, from the episodes."""
    groups = collections.defaultdict(set)
    for line in open(path):
        e = json.loads(line)
        h = e.get("hidden") or {"passed": 0, "total": 1}
        groups[e["problem"]].add(h["passed"] / max(1, h["total"]))
    return sum(1 for v in groups.values() if len(v) > 1), len(groups)


for name in ("eval-before", "eval-after", "eval-validation"):
    print(name, *rungs(f"{name}.json"))
for name in ("eval-after", "eval-validation"):
    print(name, "tests_passed (exact)", *hidden_mixed(f"{name}.episodes.jsonl"))
