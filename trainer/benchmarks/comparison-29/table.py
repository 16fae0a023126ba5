#!/usr/bin/env python3
"""Issue 29's comparison table and plot from the rows' files (stdlib only).

Usage: python3 table.py DIR

DIR/rows.json lists the rows in order, each an object:
  name            the row's label
  eval            `trainer eval` of the row's model on the held-out split (JSON)
  vs_base         `trainer report`'s report.json of the row against the base model (absent
                  for the base row)
  vs_warm_start   the same against the warm start (absent for the base and warm-start rows)
  nll             `trainer nll` of the row's model on the held-out split (JSON; its mean over
                  problems is shown)
  stage           what the row trained after the shared warm start: {"kind": "grpo",
                  "metrics": the run's metrics.jsonl, "rollouts": its rollouts/*.jsonl}
                  or {"kind": "rft", "metrics": ..., "rounds": the rounds' file};
                  absent for the base and warm-start rows
  validation      `trainer eval` of the row's model on the validation split (optional)
Paths are relative to DIR. Writes DIR/comparison.md (the table) and DIR/comparison.svg
(held-out pass@1 with its interval per row, overall, in-family and out-of-family).
"""

import json
import os
import sys

GROUPS = [("in_family", "in-family"), ("out_of_family", "out-of-family"), ("overall", "overall")]


def load(base, rel):
    return json.load(open(os.path.join(base, rel))) if rel else None


def interval(m):
    return f"{m['estimate']:.3f} [{m['low']:.3f}, {m['high']:.3f}]"


def signed(m):
    return f"{m['estimate']:+.3f} [{m['low']:+.3f}, {m['high']:+.3f}]"


def stage_figures(base, stage):
    """(training minutes, updates, judge calls) of the stage after the warm start."""
    if not stage:
        return None
    lines = [json.loads(l) for l in open(os.path.join(base, stage["metrics"])) if l.strip()]
    if stage["kind"] == "grpo":
        steps = [l for l in lines if "episodes" in l]
        minutes = sum(l["wall_s"] for l in steps) / 60
        updates = sum(l["updates"] for l in steps)
        calls = 0
        for path in stage.get("rollouts", []):
            for line in open(os.path.join(base, path)):
                episode = json.loads(line)
                # Each judged turn is one samples check; the episode's one submission.
                calls += sum(1 for j in episode["judged"] if j) + 1
        return minutes, updates, calls
    if stage["kind"] == "rft":
        rounds = [json.loads(l) for l in open(os.path.join(base, stage["rounds"])) if l.strip()]
        steps = [l for l in lines if "loss" in l and l.get("step", 0) > 0]
        minutes = (sum(r["seconds"] for r in rounds) + steps[-1]["elapsed_s"]) / 60
        # Each sampled program: a samples check and a submission.
        calls = sum(2 * r["episodes"] for r in rounds)
        return minutes, len(steps), calls
    raise SystemExit(f"unknown stage kind {stage['kind']}")


def main():
    base = sys.argv[1]
    rows = json.load(open(os.path.join(base, "rows.json")))
    head = (
        "| row | pass@1 in-family | out-of-family | overall | vs base (overall) "
        "| vs warm start (overall) | hidden tests passed | reference NLL | validation pass@1 "
        "| training min | updates | judge calls |\n"
        "|---|---|---|---|---|---|---|---:|---|---:|---:|---:|\n"
    )
    out, plot = [], []
    for row in rows:
        ev = load(base, row["eval"])
        measures = ev["measures"]
        cells = [row["name"]]
        for key, _ in GROUPS:
            cells.append(interval(measures[key]["pass_at_1"]))
        for rel in ("vs_base", "vs_warm_start"):
            rep = load(base, row.get(rel))
            cells.append(signed(rep["measures"]["overall"]["pass_at_1"]["difference"]) if rep else "")
        cells.append(interval(measures["overall"]["tests_passed"]))
        nll = load(base, row.get("nll"))
        cells.append(f"{nll['mean_over_problems']:.3f}" if nll else "")
        val = load(base, row.get("validation"))
        cells.append(interval(val["measures"]["overall"]["pass_at_1"]) if val else "")
        figures = stage_figures(base, row.get("stage"))
        cells += [f"{figures[0]:.1f}", str(figures[1]), str(figures[2])] if figures else ["", "", ""]
        out.append("| " + " | ".join(cells) + " |\n")
        plot.append((row["name"], [measures[k]["pass_at_1"] for k, _ in GROUPS]))
    open(os.path.join(base, "comparison.md"), "w").write(head + "".join(out))
    open(os.path.join(base, "comparison.svg"), "w").write(svg(plot))


def svg(plot):
    """Held-out pass@1 per row and group, a dot and its 95% interval."""
    w, h, left, top = 720, 60 + 90 * len(plot), 230, 40
    scale = lambda v: left + v * (w - left - 30) / max(0.2, max(m["high"] for _, ms in plot for m in ms))
    colours = ["#1b6ca8", "#d1495b", "#2e933c"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<text x="{left}" y="20">held-out pass@1, 95% interval (bootstrap over problems)</text>']
    for i, (name, ms) in enumerate(plot):
        y0 = top + 90 * i
        parts.append(f'<text x="10" y="{y0 + 30}">{name}</text>')
        for j, m in enumerate(ms):
            y = y0 + 12 + 22 * j
            parts.append(f'<line x1="{scale(m["low"]):.1f}" x2="{scale(m["high"]):.1f}" y1="{y}" y2="{y}" stroke="{colours[j]}" stroke-width="2"/>')
            parts.append(f'<circle cx="{scale(m["estimate"]):.1f}" cy="{y}" r="4" fill="{colours[j]}"/>')
    for j, (_, label) in enumerate(GROUPS):
        parts.append(f'<text x="{left + 150 * j}" y="{h - 10}" fill="{colours[j]}">{label}</text>')
    for v in (0.0, 0.05, 0.1, 0.15, 0.2):
        parts.append(f'<text x="{scale(v):.1f}" y="{h - 28}" text-anchor="middle">{v:.2f}</text>')
    parts.append("</svg>\n")
    return "\n".join(parts)


if __name__ == "__main__":
    main()
