#!/usr/bin/env bash
# Three episodes (seeds 1, 2, 3) of the held-out in-family problem `removevowels` with the base model and with
# attempt 10's trained model: each served by `trainer serve`, solved by `agent solve` with
# the evaluation's pipeline and sampling (seed 1), shown by `agent report --problem`.
# Usage: trajectories.sh TRAINED_CHECKPOINT OUT_DIR (AGENT, TRAINER: the binaries;
# TEMPERATURE: the sampling temperature, default 0.7, the evaluation's at attempt 10;
# attempt 11's trajectories used the same steps at 0.2, the job's evaluation temperature
# since then).
set -euo pipefail
cd "$(dirname "$0")/../../.."
T=${TRAINER:-$HOME/.cache/arena/target/release/trainer}
A=${AGENT:-$HOME/.cache/arena/target/release/agent}
CKPT=${1:?usage: trajectories.sh CHECKPOINT OUT_DIR}
OUT=${2:?usage: trajectories.sh CHECKPOINT OUT_DIR}
BASE=${ARENA_MODEL_DIR:-$HOME/.cache/arena/models/SmolLM2-135M-Instruct}
mkdir -p "$OUT"
one() { local name=$1 model=$2 port=$3
  "$T" serve --model "$model" --listen "127.0.0.1:$port" > "$OUT/serve-$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 120); do curl -sf "http://127.0.0.1:$port/v1/models" > /dev/null && break; sleep 1; done
  local served
  served=$(curl -sf "http://127.0.0.1:$port/v1/models" | python3 -c 'import json,sys;print(json.load(sys.stdin)["data"][0]["id"])')
  for seed in 1 2 3; do
    "$A" solve --problem problems/easy/removevowels --out "$OUT/$name-$seed" --pipeline problems/easy/pipeline.yaml \
      --backend bwrap --seed "$seed" --temperature "${TEMPERATURE:-0.7}" --max-tokens 384 \
      --model-url "http://127.0.0.1:$port" --model-name "$served" > "$OUT/solve-$name-$seed.log" 2>&1 || true
    "$A" report "$OUT/$name-$seed" --problem removevowels > "$OUT/trajectory-$name-$seed.txt"
  done
  kill "$pid"; wait "$pid" 2> /dev/null || true
}
one before "$BASE" 18431
one after "$CKPT" 18432
