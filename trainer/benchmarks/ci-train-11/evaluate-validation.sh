#!/usr/bin/env bash
# Attempt 11's checkpoint (bash ci/train --out /work/train-c: the job's default stages on
# the 354 training problems of the fourth batch) on the 42-problem validation split, as
# attempt 10's was evaluated at the job's evaluation temperature
# (trainer/benchmarks/eval-temperature/val-t0.2.json): 8 samples a problem, seed 1,
# temperature 0.2.
set -euo pipefail
cd "$(dirname "$0")/../../.."
T=${TRAINER:-$HOME/.cache/arena/target/release/trainer}
CKPT=${1:?usage: evaluate-validation.sh CHECKPOINT OUT.json}
OUT=${2:?usage: evaluate-validation.sh CHECKPOINT OUT.json}
"$T" eval --model "$CKPT" --problems problems/easy --split validation --samples 8 \
  --config ci/rft-lora.yaml --seed 1 --temperature 0.2 --out "$OUT"
