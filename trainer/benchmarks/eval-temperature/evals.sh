#!/usr/bin/env bash
# What ran for the evaluation temperature (README in this folder): attempt 10's trained
# checkpoint (ci/train's default stages, trainer/benchmarks/ci-train-10) on the
# validation split at temperatures 0.2 and 0.4 (0.7 is attempt 10's own validation
# evaluation), then, at the temperature the validation split chose, the base model and the
# same checkpoint on the held-out split, and the report pairing them.
# Usage: evals.sh CHECKPOINT OUT_DIR (TRAINER: the release binary; the two validation
# evaluations ran side by side, then the two held-out ones).
set -euo pipefail
cd "$(dirname "$0")/../../.."
T=${TRAINER:-$HOME/.cache/arena/target/release/trainer}
CKPT=${1:?usage: evals.sh CHECKPOINT OUT_DIR}
OUT=${2:?usage: evals.sh CHECKPOINT OUT_DIR}
BASE=${ARENA_MODEL_DIR:-$HOME/.cache/arena/models/SmolLM2-135M-Instruct}
# The run folder the checkpoint belongs to (RUN/round-1/checkpoints/step-N), for the reports.
RUN=$(dirname "$(dirname "$(dirname "$CKPT")")")
mkdir -p "$OUT"
for t in 0.2 0.4; do
  "$T" eval --model "$CKPT" --problems problems/easy --split validation --samples 8 \
    --config ci/rft-lora.yaml --seed 1 --temperature "$t" --out "$OUT/val-t$t.json" &
done
wait
"$T" eval --model "$BASE" --problems problems/easy --split held-out --samples 8 \
  --config ci/rft-lora.yaml --seed 1 --temperature 0.2 --out "$OUT/heldout-base-t0.2.json" &
"$T" eval --model "$CKPT" --problems problems/easy --split held-out --samples 8 \
  --config ci/rft-lora.yaml --seed 1 --temperature 0.2 --out "$OUT/heldout-after-t0.2.json" &
wait
"$T" report --run "$RUN" --before "$OUT/heldout-base-t0.2.json" \
  --after "$OUT/heldout-after-t0.2.json" --out "$OUT/report"
# The same checkpoint at the two temperatures, paired (attempt 10's own held-out evaluation
# at 0.7 against this one at 0.2).
"$T" report --run "$RUN" \
  --before trainer/benchmarks/ci-train-10/eval-after.json --after "$OUT/heldout-after-t0.2.json" \
  --out "$OUT/report-t0.7-vs-t0.2"
