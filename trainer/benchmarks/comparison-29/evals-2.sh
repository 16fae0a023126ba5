#!/usr/bin/env bash
# After both rows have trained: their evaluations, two lanes, and a third for the debug-round row
# evaluated with its own pipeline (as comparison-29/evals.sh).
set -u
cd /work/main || exit 1
while [ ! -f /work/rows2/outcome.end ]; do sleep 5; done
T=/work/bin/trainer
HS=/work/rows2/hindsight/$(head -1 /work/rows2/hindsight/latest)
OC=/work/rows2/outcome/$(head -1 /work/rows2/outcome/latest)
mkdir -p /work/rows2/hs /work/rows2/oc /work/rows2/nll
ev() { # MODEL SPLIT CONFIG OUT
  "$T" eval --model "$1" --problems problems/easy --split "$2" --samples 8 --config "$3" --seed 1 --out "$4" > "$4.log" 2>&1
}
nll() { # ROW MODEL
  "$T" nll --model "$2" --problems problems/easy --split held-out --config ci/rft-lora.yaml --out "/work/rows2/nll/$1.json" > "/work/rows2/nll/$1.log" 2>&1
}
lane1() {
  ev "$HS" held-out ci/rft-lora.yaml /work/rows2/hs/eval-held-out.json
  ev "$OC" validation ci/warmstart.yaml /work/rows2/oc/eval-validation.json
  nll hs "$HS"
  date -u > /work/rows2/lane1.end
}
lane2() {
  ev "$OC" held-out ci/rft-lora.yaml /work/rows2/oc/eval-held-out.json
  ev "$HS" validation ci/warmstart.yaml /work/rows2/hs/eval-validation.json
  nll oc "$OC"
  date -u > /work/rows2/lane2.end
}
lane3() { # the debug-round row with its own pipeline, 4 samples (the first 4 of the one-call evaluation's seeds)
  DB=/work/rows/debug/$(head -1 /work/rows/debug/latest)
  mkdir -p /work/rows2/db
  "$T" eval --model "$DB" --problems problems/easy --split held-out --samples 4 --config ci/agentic-debug.yaml --seed 1 \
    --out /work/rows2/db/eval-held-out-debug-pipeline.json > /work/rows2/db/eval-held-out-debug-pipeline.log 2>&1
  date -u > /work/rows2/lane3.end
}
lane1 & lane2 & lane3 & wait
