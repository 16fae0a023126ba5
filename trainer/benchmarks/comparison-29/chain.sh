#!/usr/bin/env bash
# The comparison's next two rows, one after the other on the quiet machine, from the shared warm start.
cd /work/main || exit 1
WS=/work/train-b/run-1/checkpoints/step-000046
for row in hindsight outcome; do
  date -u > /work/rows2/$row.start
  /work/bin/trainer train --problems problems/easy --model $WS --out /work/rows2/$row --config ci/$row.yaml > /work/rows2/$row.log 2>&1
  echo "rc $?" >> /work/rows2/$row.start
  date -u > /work/rows2/$row.end
done
