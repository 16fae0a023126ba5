#!/usr/bin/env python3
"""Compares `trainer train` runs of different algorithms on the same problems and budget.

Usage: python3 trainer/scripts/compare_runs.py --out DIR NAME=FOLDER...

Each FOLDER holds what one attempt of the CI training job leaves (ci/train's layout):
`run/metrics.jsonl` (one line per step), `eval-after.json` (`trainer eval` of the last
checkpoint) and `report/report.json` (`trainer report`: pass@1 before and after with
their paired-bootstrap intervals). Writes DIR/compare.md (a table: steps, updates,
training time, episodes, mean final reward and samples-rung rate over the run and its last
half, held-out pass@1 before and after with intervals) and DIR/compare.svg (the mean final
reward and the share of episodes past the samples against steps, against training wall
time and against judge calls, one line per run). Judge calls are counted as each
pipeline episode's two (the samples check and the submission), so that axis is the
episodes axis scaled by 2. Stdlib only.
"""

import argparse
import json
import os

COLOURS = ["#1b6ca8", "#d1495b", "#2e933c", "#8f5db7", "#e0a100"]


def load(folder):
    steps = [json.loads(line) for line in open(os.path.join(folder, "run", "metrics.jsonl"))]
    if not steps:
        raise SystemExit(f"{folder}: run/metrics.jsonl has no steps")
    report = json.load(open(os.path.join(folder, "report", "report.json")))
    return steps, report


def series(steps):
    """Per step: (step, cumulative wall s, cumulative judge calls, final reward, samples)."""
    wall, calls, out = 0.0, 0, []
    for s in steps:
        wall += s["wall_s"]
        calls += 2 * s["episodes"]
        out.append((s["step"], wall, calls, s["final_reward"], s["tier_samples"]))
    return out


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def table(runs):
    head = (
        "| run | algorithm | steps | updates | training min | episodes | judge calls "
        "| mean final reward (all steps) | (last half) | past the samples (all) | (last half) "
        "| held-out pass@1 before | after | difference |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n"
    )
    rows = []
    for name, (steps, report) in runs.items():
        s = series(steps)
        half = steps[len(steps) // 2 :]
        ci = lambda key: "[{:.3f}, {:.3f}]".format(*report[key + "_ci95"])
        rows.append(
            "| {} | {} | {} | {} | {:.1f} | {} | {} | {:.3f} | {:.3f} | {:.3f} | {:.3f} "
            "| {:.3f} {} | {:.3f} {} | {:+.3f} {} |".format(
                name,
                report["algorithm"],
                len(steps),
                sum(x["updates"] for x in steps),
                s[-1][1] / 60,
                sum(x["episodes"] for x in steps),
                s[-1][2],
                mean([x["final_reward"] for x in steps]),
                mean([x["final_reward"] for x in half]),
                mean([x["tier_samples"] for x in steps]),
                mean([x["tier_samples"] for x in half]),
                report["pass_at_1_before"],
                ci("pass_at_1_before"),
                report["pass_at_1_after"],
                ci("pass_at_1_after"),
                report["difference"],
                ci("difference"),
            )
        )
    return head + "\n".join(rows) + "\n"


def panel(x0, y0, w, h, runs, xi, yi, xlabel, ylabel):
    """One plot: every run's (x, y) points from `series`, columns xi and yi."""
    pts = {n: [(p[xi], p[yi]) for p in series(st)] for n, (st, _) in runs.items()}
    xmax = max(x for ps in pts.values() for x, _ in ps) or 1
    ymax = max(max(y for ps in pts.values() for _, y in ps), 0.05)
    sx = lambda x: x0 + 40 + (w - 50) * x / xmax
    sy = lambda y: y0 + h - 30 - (h - 45) * y / ymax
    out = [
        f'<rect x="{x0 + 40}" y="{y0 + 15}" width="{w - 50}" height="{h - 45}" fill="none" stroke="#999"/>',
        f'<text x="{x0 + w / 2}" y="{y0 + h - 8}" font-size="11" text-anchor="middle">{xlabel}</text>',
        f'<text x="{x0 + 40}" y="{y0 + 11}" font-size="11">{ylabel}</text>',
        f'<text x="{x0 + 36}" y="{sy(ymax) + 4}" font-size="9" text-anchor="end">{ymax:.2f}</text>',
        f'<text x="{x0 + 36}" y="{sy(0) + 4}" font-size="9" text-anchor="end">0</text>',
        f'<text x="{sx(xmax)}" y="{y0 + h - 20}" font-size="9" text-anchor="end">{xmax:.0f}</text>',
    ]
    for k, (name, ps) in enumerate(pts.items()):
        c = COLOURS[k % len(COLOURS)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in ps)
        out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="1.5"/>')
        out += [f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2" fill="{c}"/>' for x, y in ps]
    return out


def svg(runs):
    w, h = 300, 200
    body = []
    for row, (yi, ylabel) in enumerate([(3, "mean final reward"), (4, "share past the samples")]):
        for col, (xi, xlabel) in enumerate(
            [(0, "step"), (1, "training wall seconds"), (2, "judge calls")]
        ):
            body += panel(col * w, 30 + row * h, w, h, runs, xi, yi, xlabel, ylabel)
    legend = [
        f'<text x="{10 + 140 * k}" y="18" font-size="12" fill="{COLOURS[k % len(COLOURS)]}">{name}</text>'
        for k, name in enumerate(runs)
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * w}" height="{30 + 2 * h}" '
        f'font-family="sans-serif">\n' + "\n".join(legend + body) + "\n</svg>\n"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("runs", nargs="+", help="NAME=FOLDER")
    args = parser.parse_args()
    runs = {}
    for arg in args.runs:
        name, sep, folder = arg.partition("=")
        if not sep:
            raise SystemExit(f"{arg}: expected NAME=FOLDER")
        runs[name] = load(folder)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "compare.md"), "w") as f:
        f.write(table(runs))
    with open(os.path.join(args.out, "compare.svg"), "w") as f:
        f.write(svg(runs))


if __name__ == "__main__":
    main()
