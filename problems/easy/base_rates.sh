#!/bin/bash
# Since the worked example (2026-11-24) the base rates are measured in process with the
# trainer's continuous batcher, K samples per problem at the training settings:
#   trainer eval --model SMOLLM2 --problems problems/easy --split held-out|training \
#     --samples 8 --config ci/train.yaml --seed 1 --out FILE.json
#   python3 problems/easy/base_rates.py --command ... --settings ... --date ... \
#     --machine ... FILE.json... > problems/easy/base_rates.json
# This script is the first method (kept to reproduce the first measurement):
# 8 seeds in parallel, one `agent solve` each (concurrency 1), over the training problems
# in one fixed order (families interleaved), against one `trainer serve` at $MODEL_URL.
# The problems finish in order with all 8 samples each; stop it when time runs out and
# summarise what finished:
#   python3 problems/easy/base_rates.py --command ... --settings ... --date ... \
#     --machine ... RUNS/seed? > problems/easy/base_rates.json
# Usage: problems/easy/base_rates.sh RUNS [MODEL_URL]   (from the repository root, after
# `cargo build -p agent`; trainer serve --model ~/.cache/arena/models/SmolLM2-135M-Instruct)
set -eu
RUNS=${1:?usage: base_rates.sh RUNS [MODEL_URL]}
MODEL_URL=${2:-http://127.0.0.1:8000}
AGENT=${AGENT:-$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/agent}
E=problems/easy
ORDER="aplusb listsum sumton maxofthree reverse aminusb listmax evenodd uppercase atimesb listmin sumsquares sign countvowels sumthree sortlist factorialmod leapyear palindrome rectangle counteven fizzbuzzcount grade swapcase divmod reverselist fizzbuzz triangle acronym secondlargest stars listrange"
TRAIN=$(for p in $ORDER; do echo -n "$E/$p "; done)
mkdir -p "$RUNS"
for seed in 1 2 3 4 5 6 7 8; do
  "$AGENT" solve --problems $TRAIN --out "$RUNS/seed$seed" \
    --concurrency 1 --pipeline $E/pipeline.yaml --language python3 --backend bwrap \
    --max-tokens 384 --temperature 0.8 --seed $seed \
    --model-url "$MODEL_URL" --model-name SmolLM2-135M-Instruct > "$RUNS/seed$seed.log" 2>&1 &
  sleep 1
done
wait
