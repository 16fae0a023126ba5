#!/usr/bin/env bash
# The grown validation split (42 problems) for each candidate, then the base model on the grown held-out split.
set -euo pipefail
cd /work/main
T=/root/.cache/arena/target/release/trainer
ev() { local name=$1 model=$2 split=$3; shift 3
  echo "== $name $(date -u +%T)"
  $T eval --model "$model" --problems problems/easy --split "$split" --samples 8 --config ci/warmstart.yaml --seed 1 --out /work/val2/$name.json "$@" > /work/val2/$name.log 2>&1
  python3 -c "import json;d=json.load(open('/work/val2/$name.json'));print('$name', d['pass_at_1'], d['wall_s'], [r['key'] for r in d.get('reused',[])])"
}
ev full /work/train-ws2/run/checkpoints/step-000036 validation
ev lora /work/lora1/run/checkpoints/step-000043 validation
ev lora-rft /work/lora1/rft/round-1/checkpoints/step-000012 validation
echo "== done $(date -u +%T)"
