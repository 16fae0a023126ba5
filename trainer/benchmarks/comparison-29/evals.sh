#!/usr/bin/env bash
# The record of the comparison's evaluations as they ran on 2026-11-27 (README.md): two lanes
# of `trainer eval` and `trainer nll`, with this machine's paths (quoted for shellcheck since).
set -u
cd /work/main || exit 1
while [ ! -f /work/rows/debug.end ]; do sleep 5; done
T=/work/bin/trainer
WS=/work/train-b/run-1/checkpoints/step-000046
AG=/work/rows/agentic/$(head -1 /work/rows/agentic/latest)
DB=/work/rows/debug/$(head -1 /work/rows/debug/latest)
RFT=/work/train-b/run/round-1/checkpoints/step-000011
BASE=$HOME/.cache/arena/models/SmolLM2-135M-Instruct
mkdir -p /work/rows/ws /work/rows/ag /work/rows/db /work/rows/nll
ev() { # MODEL SPLIT CONFIG OUT
  "$T" eval --model "$1" --problems problems/easy --split "$2" --samples 8 --config "$3" --seed 1 --out "$4" > "$4.log" 2>&1
}
lane1() {
  ev "$WS" held-out ci/rft-lora.yaml /work/rows/ws/eval-held-out.json
  ev "$DB" held-out ci/rft-lora.yaml /work/rows/db/eval-held-out.json
  ev "$AG" validation ci/warmstart.yaml /work/rows/ag/eval-validation.json
  for m in base:$BASE ws:$WS rft:$RFT ag:$AG db:$DB; do
    "$T" nll --model "${m#*:}" --problems problems/easy --split held-out --config ci/rft-lora.yaml --out "/work/rows/nll/${m%%:*}.json" > "/work/rows/nll/${m%%:*}.log" 2>&1
  done
  date > /work/rows/lane1.end
}
lane2() {
  ev "$AG" held-out ci/rft-lora.yaml /work/rows/ag/eval-held-out.json
  ev "$WS" validation ci/warmstart.yaml /work/rows/ws/eval-validation.json
  ev "$DB" validation ci/warmstart.yaml /work/rows/db/eval-validation.json
  ev "$DB" held-out ci/agentic-debug.yaml /work/rows/db/eval-held-out-debug-pipeline.json
  date > /work/rows/lane2.end
}
lane1 & lane2 & wait
