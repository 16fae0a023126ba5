#!/usr/bin/env bash
# Seconds per update of the supervised warm start, full fine-tuning (ci/warmstart.yaml)
# against LoRA (ci/warmstart-lora.yaml), side by side in one run: each trains UPDATES
# updates (default 5) from SmolLM2-135M-Instruct on the easy set with the release trainer,
# and the mean wall time of its updates after the first is printed with the ratio.
# Usage: bash trainer/benchmarks/lora/time-updates.sh [UPDATES]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$ROOT"
UPDATES=${1:-5}
cargo build -q --release -p trainer
TARGET=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
MODEL=${ARENA_MODEL_DIR:-${ARENA_CACHE:-$HOME/.cache/arena}/models/SmolLM2-135M-Instruct}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
for CONFIG in ci/warmstart.yaml ci/warmstart-lora.yaml; do
  OUT=$WORK/$(basename "$CONFIG" .yaml)
  "$TARGET/release/trainer" train --problems problems/easy --model "$MODEL" --out "$OUT" \
    --config "$CONFIG" --stop-after "$UPDATES" 2>"$OUT.log" || { cat "$OUT.log" >&2; exit 1; }
done
python3 - "$WORK" <<'PY'
import json, sys, pathlib
work = pathlib.Path(sys.argv[1])
mean = {}
for name in ["warmstart", "warmstart-lora"]:
    rows = [json.loads(l) for l in (work / name / "metrics.jsonl").read_text().splitlines()]
    walls = [r["wall_s"] for r in rows if r.get("step", 0) > 1 and "wall_s" in r]
    mean[name] = sum(walls) / len(walls)
    losses = " ".join("%.3f" % r["loss"] for r in rows if "loss" in r)
    print(f"{name}: {len(walls)} updates after the first, {mean[name]:.1f} s an update (losses {losses})")
print(f"full fine-tuning / LoRA: {mean['warmstart'] / mean['warmstart-lora']:.2f}x")
PY
