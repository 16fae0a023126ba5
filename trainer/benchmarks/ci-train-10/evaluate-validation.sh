#!/usr/bin/env bash
# Attempt 10's checkpoint (bash ci/train --out /work/train-b: the LoRA warm start and a
# rejection-sampling round on the 274 training problems) on the 42-problem validation split,
# as trainer/benchmarks/validation-42/evaluate.sh evaluated the earlier candidates: 8
# samples a problem, seed 1, the sampling of every ci/*.yaml.
set -euo pipefail
cd "$(dirname "$0")/../../.."
T=${TRAINER:-$HOME/.cache/arena/target/release/trainer}
CKPT=${1:?usage: evaluate-validation.sh CHECKPOINT OUT.json}
OUT=${2:?usage: evaluate-validation.sh CHECKPOINT OUT.json}
"$T" eval --model "$CKPT" --problems problems/easy --split validation --samples 8 \
  --config ci/warmstart.yaml --seed 1 --out "$OUT"
